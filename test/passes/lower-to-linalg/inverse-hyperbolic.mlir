// RUN: mlc-opt %s --pass-pipeline='builtin.module(mlc-lower-to-linalg)' --split-input-file | FileCheck %s

/// acosh, asinh and atanh are log1p forms (not math.acosh & co., which IREE expands
/// as log(x + sqrt(x^2 +- 1)): inf past sqrt(max float), 0 for tiny asinh arguments).

// CHECK-LABEL: func.func @acosh
// CHECK: ^bb0(%[[X:.*]]: f32, %{{.*}}: f32):
// CHECK: %[[T:.*]] = arith.subf %[[X]], %{{.*}} : f32
// CHECK: math.log1p
// CHECK: %[[HUGE:.*]] = arith.cmpf ogt, %[[X]]
// CHECK: arith.select %[[HUGE]]
// CHECK-NOT: math.acosh
func.func @acosh(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = "mlc.acosh"(%x) : (tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

// CHECK-LABEL: func.func @asinh_atanh
// CHECK: math.absf
// CHECK: math.log1p
// CHECK: math.copysign
// CHECK: math.absf
// CHECK: math.log1p
// CHECK: math.copysign
// CHECK-NOT: math.asinh
// CHECK-NOT: math.atanh
func.func @asinh_atanh(%x: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>) {
  %0 = "mlc.asinh"(%x) : (tensor<4xf32>) -> tensor<4xf32>
  %1 = "mlc.atanh"(%x) : (tensor<4xf32>) -> tensor<4xf32>
  return %0, %1 : tensor<4xf32>, tensor<4xf32>
}
