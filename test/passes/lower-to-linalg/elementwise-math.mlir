// RUN: mlc-opt %s --pass-pipeline='builtin.module(mlc-lower-to-linalg)' --split-input-file | FileCheck %s

/// remainder is C's remainder plus the divisor where their signs differ.

// CHECK-LABEL: func.func @remainder
// CHECK: ^bb0(%[[A:.*]]: f32, %[[B:.*]]: f32, %{{.*}}: f32):
// CHECK: %[[R:.*]] = arith.remf %[[A]], %[[B]] : f32
// CHECK: %[[NONZERO:.*]] = arith.cmpf une, %[[R]]
// CHECK: %[[DIFFER:.*]] = arith.xori
// CHECK: %[[FIX:.*]] = arith.andi %[[NONZERO]], %[[DIFFER]] : i1
// CHECK: %[[UP:.*]] = arith.addf %[[R]], %[[B]] : f32
// CHECK: arith.select %[[FIX]], %[[UP]], %[[R]] : f32
func.func @remainder(%a: tensor<4xf32>, %b: tensor<4xf32>) -> tensor<4xf32> {
  %0 = "mlc.remainder"(%a, %b) : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

/// Integer floor division is arith.floordivsi; round is roundeven (halves to even).

// CHECK-LABEL: func.func @floor_div_round
// CHECK: arith.floordivsi %{{.*}}, %{{.*}} : i64
// CHECK: math.roundeven %{{.*}} : f32
func.func @floor_div_round(%a: tensor<4xi64>, %x: tensor<4xf32>) -> (tensor<4xi64>, tensor<4xf32>) {
  %0 = "mlc.floor_div"(%a, %a) : (tensor<4xi64>, tensor<4xi64>) -> tensor<4xi64>
  %1 = "mlc.round"(%x) : (tensor<4xf32>) -> tensor<4xf32>
  return %0, %1 : tensor<4xi64>, tensor<4xf32>
}

// -----

/// sign: 1 above zero, -1 below, else 0 (zero and NaN, as torch.sign).

// CHECK-LABEL: func.func @sign
// CHECK: ^bb0(%[[X:.*]]: f32, %{{.*}}: f32):
// CHECK: %[[ZERO:.*]] = arith.constant 0.000000e+00 : f32
// CHECK: %[[BELOW:.*]] = arith.cmpf olt, %[[X]]
// CHECK: %[[NEG:.*]] = arith.select %[[BELOW]], %{{.*}}, %[[ZERO]] : f32
// CHECK: %[[ABOVE:.*]] = arith.cmpf ogt, %[[X]]
// CHECK: arith.select %[[ABOVE]], %{{.*}}, %[[NEG]] : f32
func.func @sign(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = "mlc.sign"(%x) : (tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}
