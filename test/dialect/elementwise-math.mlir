// RUN: mlc-opt %s | mlc-opt | FileCheck %s

/// The further unary math ops, the remainders, floor division, atan2, hypot and
/// reduce_prod round-trip unchanged.

// CHECK-LABEL: func.func @math
func.func @math(%x: tensor<4xf32>, %n: tensor<4xi64>) -> (tensor<4xf32>, tensor<4xi64>, tensor<4xf32>, tensor<4xi64>, tensor<f32>) {
  // CHECK: "mlc.log1p"
  %0 = "mlc.log1p"(%x) : (tensor<4xf32>) -> tensor<4xf32>
  // CHECK: "mlc.round"
  %1 = "mlc.round"(%0) : (tensor<4xf32>) -> tensor<4xf32>
  // CHECK: "mlc.sign"(%{{.*}}) : (tensor<4xi64>) -> tensor<4xi64>
  %2 = "mlc.sign"(%n) : (tensor<4xi64>) -> tensor<4xi64>
  // CHECK: "mlc.atan2"(%{{.*}}, %{{.*}}) : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  %3 = "mlc.atan2"(%1, %x) : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  // CHECK: "mlc.hypot"(%{{.*}}, %{{.*}}) : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  %h = "mlc.hypot"(%3, %x) : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  // CHECK: "mlc.remainder"(%{{.*}}, %{{.*}}) : (tensor<4xi64>, tensor<4xi64>) -> tensor<4xi64>
  %4 = "mlc.remainder"(%2, %n) : (tensor<4xi64>, tensor<4xi64>) -> tensor<4xi64>
  // CHECK: "mlc.reduce_prod"(%{{.*}}) {axes = array<i64: 0>, keepdim = false} : (tensor<4xf32>) -> tensor<f32>
  %5 = "mlc.reduce_prod"(%x) {axes = array<i64: 0>, keepdim = false} : (tensor<4xf32>) -> tensor<f32>
  return %1, %2, %3, %4, %5 : tensor<4xf32>, tensor<4xi64>, tensor<4xf32>, tensor<4xi64>, tensor<f32>
}
