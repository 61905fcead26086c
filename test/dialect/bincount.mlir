// RUN: mlc-opt %s --split-input-file | mlc-opt --split-input-file | FileCheck %s

/// mlc.bincount round-trips: a 1-D integer input, a minlength, and a 1-D result of
/// dynamic length (it depends on the input's values).

// CHECK-LABEL: func.func @bincount_counts
func.func @bincount_counts(%x: tensor<6xi64>) -> tensor<?xi64> {
  // CHECK: "mlc.bincount"(%{{.*}}) {minlength = 0 : i64} : (tensor<6xi64>) -> tensor<?xi64>
  %0 = "mlc.bincount"(%x) {minlength = 0 : i64} : (tensor<6xi64>) -> tensor<?xi64>
  return %0 : tensor<?xi64>
}

// -----

/// Weights of the input's shape and the result's element type; a dynamic input.

// CHECK-LABEL: func.func @bincount_weights
func.func @bincount_weights(%x: tensor<?xi32>, %w: tensor<?xf32>) -> tensor<?xf32> {
  // CHECK: "mlc.bincount"(%{{.*}}, %{{.*}}) {minlength = 5 : i64} : (tensor<?xi32>, tensor<?xf32>) -> tensor<?xf32>
  %0 = "mlc.bincount"(%x, %w) {minlength = 5 : i64} : (tensor<?xi32>, tensor<?xf32>) -> tensor<?xf32>
  return %0 : tensor<?xf32>
}
