// RUN: mlc-opt %s --split-input-file | mlc-opt --split-input-file | FileCheck %s

/// mlc.scatter round-trips: [N, K] positions into the first K dims of the input,
/// updates of shape [N] + input.shape[K:], one combine per op.

// CHECK-LABEL: func.func @scatter_rows
func.func @scatter_rows(%x: tensor<4x5xf32>, %i: tensor<3x1xi64>, %u: tensor<3x5xf32>) -> tensor<4x5xf32> {
  // CHECK: "mlc.scatter"(%{{.*}}, %{{.*}}, %{{.*}}) {combine = "add"} : (tensor<4x5xf32>, tensor<3x1xi64>, tensor<3x5xf32>) -> tensor<4x5xf32>
  %0 = "mlc.scatter"(%x, %i, %u) {combine = "add"} : (tensor<4x5xf32>, tensor<3x1xi64>, tensor<3x5xf32>) -> tensor<4x5xf32>
  return %0 : tensor<4x5xf32>
}

// -----

/// Positions of every dim: the updates are scalars; integers, i32 indices.

// CHECK-LABEL: func.func @scatter_elements
func.func @scatter_elements(%x: tensor<4x5xi64>, %i: tensor<6x2xi32>, %u: tensor<6xi64>) -> tensor<4x5xi64> {
  // CHECK: "mlc.scatter"(%{{.*}}, %{{.*}}, %{{.*}}) {combine = "replace"} : (tensor<4x5xi64>, tensor<6x2xi32>, tensor<6xi64>) -> tensor<4x5xi64>
  %0 = "mlc.scatter"(%x, %i, %u) {combine = "replace"} : (tensor<4x5xi64>, tensor<6x2xi32>, tensor<6xi64>) -> tensor<4x5xi64>
  return %0 : tensor<4x5xi64>
}
