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

/// Integer floor division is arith.floordivsi by a divisor that cannot trap (1 where
/// it is 0 or -1; for -1 the quotient is negated); round is roundeven (halves to even).

// CHECK-LABEL: func.func @floor_div_round
// CHECK: ^bb0(%[[A:.*]]: i64, %[[B:.*]]: i64, %{{.*}}: i64):
// CHECK-DAG: %[[MINUS_ONE:.*]] = arith.cmpi eq, %[[B]], %c-1_i64 : i64
// CHECK-DAG: %[[ZERO:.*]] = arith.cmpi eq, %[[B]], %c0_i64 : i64
// CHECK: %[[UNSAFE:.*]] = arith.ori %[[MINUS_ONE]], %[[ZERO]] : i1
// CHECK: %[[SAFE:.*]] = arith.select %[[UNSAFE]], %c1_i64, %[[B]] : i64
// CHECK: %[[Q:.*]] = arith.floordivsi %[[A]], %[[SAFE]] : i64
// CHECK: %[[NEG:.*]] = arith.subi %c0_i64{{.*}}, %[[A]] : i64
// CHECK: arith.select %[[MINUS_ONE]], %[[NEG]], %[[Q]] : i64
// CHECK: math.roundeven %{{.*}} : f32
func.func @floor_div_round(%a: tensor<4xi64>, %b: tensor<4xi64>, %x: tensor<4xf32>) -> (tensor<4xi64>, tensor<4xf32>) {
  %0 = "mlc.floor_div"(%a, %b) : (tensor<4xi64>, tensor<4xi64>) -> tensor<4xi64>
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
