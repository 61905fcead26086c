// RUN: mlc-opt %s --pass-pipeline='builtin.module(mlc-lower-to-linalg)' --split-input-file | FileCheck %s

/// Bitwise ops are elementwise generics; shifts guard amounts past the bit width.

// CHECK-LABEL: func.func @bitwise_and
// CHECK: linalg.generic
// CHECK: arith.andi %{{.*}}, %{{.*}} : i32
func.func @bitwise_and(%a: tensor<2x3xi32>, %b: tensor<3xi32>) -> tensor<2x3xi32> {
  %0 = "mlc.bitwise_and"(%a, %b) : (tensor<2x3xi32>, tensor<3xi32>) -> tensor<2x3xi32>
  return %0 : tensor<2x3xi32>
}

// -----

// CHECK-LABEL: func.func @shift_left
// CHECK: ^bb0(%[[X:.*]]: i64, %[[N:.*]]: i64, %{{.*}}: i64):
// CHECK: %[[WIDTH:.*]] = arith.constant 64 : i64
// CHECK: %[[FAR:.*]] = arith.cmpi uge, %[[N]], %[[WIDTH]] : i64
// CHECK: %[[SHIFTED:.*]] = arith.shli %[[X]], %[[N]] : i64
// CHECK: arith.select %[[FAR]], %{{.*}}, %[[SHIFTED]] : i64
func.func @shift_left(%a: tensor<4xi64>, %b: tensor<4xi64>) -> tensor<4xi64> {
  %0 = "mlc.shift_left"(%a, %b) : (tensor<4xi64>, tensor<4xi64>) -> tensor<4xi64>
  return %0 : tensor<4xi64>
}

// -----

// CHECK-LABEL: func.func @shift_right
// CHECK: %[[LAST:.*]] = arith.constant 31 : i32
// CHECK: %[[CLAMPED:.*]] = arith.minui %{{.*}}, %[[LAST]] : i32
// CHECK: arith.shrsi %{{.*}}, %[[CLAMPED]] : i32
func.func @shift_right(%a: tensor<4xi32>, %b: tensor<4xi32>) -> tensor<4xi32> {
  %0 = "mlc.shift_right"(%a, %b) : (tensor<4xi32>, tensor<4xi32>) -> tensor<4xi32>
  return %0 : tensor<4xi32>
}
