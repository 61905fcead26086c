// RUN: mlc-opt %s --pass-pipeline='builtin.module(mlc-simplify)' --split-input-file | FileCheck %s

/// Two transposes compose into one; when they cancel, nothing is left.

// CHECK-LABEL: func.func @transpose_of_transpose
// CHECK-SAME: (%[[X:.*]]: tensor<2x3x4xf32>)
// CHECK-NEXT: %[[T:.*]] = "mlc.transpose"(%[[X]]) {permutation = array<i64: 2, 0, 1>} : (tensor<2x3x4xf32>) -> tensor<4x2x3xf32>
// CHECK-NEXT: return %[[T]]
func.func @transpose_of_transpose(%x: tensor<2x3x4xf32>) -> tensor<4x2x3xf32> {
  %0 = "mlc.transpose"(%x) {permutation = array<i64: 1, 2, 0>} : (tensor<2x3x4xf32>) -> tensor<3x4x2xf32>
  %1 = "mlc.transpose"(%0) {permutation = array<i64: 1, 2, 0>} : (tensor<3x4x2xf32>) -> tensor<4x2x3xf32>
  return %1 : tensor<4x2x3xf32>
}

// -----

// CHECK-LABEL: func.func @transposes_cancel
// CHECK-SAME: (%[[X:.*]]: tensor<2x3x4xf32>)
// CHECK-NEXT: return %[[X]]
func.func @transposes_cancel(%x: tensor<2x3x4xf32>) -> tensor<2x3x4xf32> {
  %0 = "mlc.transpose"(%x) {permutation = array<i64: 1, 2, 0>} : (tensor<2x3x4xf32>) -> tensor<3x4x2xf32>
  %1 = "mlc.transpose"(%0) {permutation = array<i64: 2, 0, 1>} : (tensor<3x4x2xf32>) -> tensor<2x3x4xf32>
  return %1 : tensor<2x3x4xf32>
}

// -----

// CHECK-LABEL: func.func @identity_transpose
// CHECK-SAME: (%[[X:.*]]: tensor<2x3xf32>)
// CHECK-NEXT: return %[[X]]
func.func @identity_transpose(%x: tensor<2x3xf32>) -> tensor<2x3xf32> {
  %0 = "mlc.transpose"(%x) {permutation = array<i64: 0, 1>} : (tensor<2x3xf32>) -> tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}

// -----

/// Reshapes chain into one reshape, or none when the last restores the shape.

// CHECK-LABEL: func.func @reshape_of_reshape
// CHECK-SAME: (%[[X:.*]]: tensor<2x3x4xf32>)
// CHECK-NEXT: %[[R:.*]] = "mlc.reshape"(%[[X]]) : (tensor<2x3x4xf32>) -> tensor<4x6xf32>
// CHECK-NEXT: return %[[R]], %[[X]]
func.func @reshape_of_reshape(%x: tensor<2x3x4xf32>) -> (tensor<4x6xf32>, tensor<2x3x4xf32>) {
  %0 = "mlc.reshape"(%x) : (tensor<2x3x4xf32>) -> tensor<24xf32>
  %1 = "mlc.reshape"(%0) : (tensor<24xf32>) -> tensor<4x6xf32>
  %2 = "mlc.reshape"(%0) : (tensor<24xf32>) -> tensor<2x3x4xf32>
  return %1, %2 : tensor<4x6xf32>, tensor<2x3x4xf32>
}

// -----

/// A reshape, broadcast, slice or pad that changes nothing is its input.

// CHECK-LABEL: func.func @shape_ops_that_change_nothing
// CHECK-SAME: (%[[X:.*]]: tensor<2x3xf32>)
// CHECK-NEXT: return %[[X]], %[[X]], %[[X]], %[[X]]
func.func @shape_ops_that_change_nothing(%x: tensor<2x3xf32>) -> (tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>) {
  %0 = "mlc.reshape"(%x) : (tensor<2x3xf32>) -> tensor<2x3xf32>
  %1 = "mlc.broadcast"(%x) : (tensor<2x3xf32>) -> tensor<2x3xf32>
  %2 = "mlc.slice"(%x) {start = array<i64: 0, 0>, limit = array<i64: 2, 3>, stride = array<i64: 1, 1>} : (tensor<2x3xf32>) -> tensor<2x3xf32>
  %3 = "mlc.pad"(%x) {low = array<i64: 0, 0>, high = array<i64: 0, 0>, value = 1.0 : f64} : (tensor<2x3xf32>) -> tensor<2x3xf32>
  return %0, %1, %2, %3 : tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>
}

// -----

/// A stride over a dim of size 1 takes its one element: the slice is its input (a
/// strided 1x1 convolution over a one-pixel input made one; IREE refused the
/// transpose and the slice in one dispatch, found by test/fuzz).

// CHECK-LABEL: func.func @stride_over_a_unit_dim
// CHECK-SAME: (%[[X:.*]]: tensor<5x1x1x5xf32>)
// CHECK-NEXT: return %[[X]]
func.func @stride_over_a_unit_dim(%x: tensor<5x1x1x5xf32>) -> tensor<5x1x1x5xf32> {
  %0 = "mlc.slice"(%x) {start = array<i64: 0, 0, 0, 0>, limit = array<i64: 5, 1, 1, 5>, stride = array<i64: 1, 1, 2, 1>} : (tensor<5x1x1x5xf32>) -> tensor<5x1x1x5xf32>
  return %0 : tensor<5x1x1x5xf32>
}

// -----

/// A strided slice drops elements: it stays.

// CHECK-LABEL: func.func @negative_partial_slice
// CHECK: "mlc.slice"
func.func @negative_partial_slice(%x: tensor<4xf32>) -> tensor<2xf32> {
  %0 = "mlc.slice"(%x) {start = array<i64: 0>, limit = array<i64: 4>, stride = array<i64: 2>} : (tensor<4xf32>) -> tensor<2xf32>
  return %0 : tensor<2xf32>
}

// -----

/// A broadcast of a `dense<>` splat is a splat of the result's shape: no memory.

// CHECK-LABEL: func.func @broadcast_of_splat
// CHECK-NEXT: %[[C:.*]] = "mlc.constant"() {value = dense<5.000000e-01> : tensor<64x64xf32>}
// CHECK-NEXT: return %[[C]]
func.func @broadcast_of_splat() -> tensor<64x64xf32> {
  %half = "mlc.constant"() {value = dense<0.5> : tensor<1x64xf32>} : () -> tensor<1x64xf32>
  %0 = "mlc.broadcast"(%half) : (tensor<1x64xf32>) -> tensor<64x64xf32>
  return %0 : tensor<64x64xf32>
}

// -----

// CHECK-LABEL: func.func @negative_broadcast_of_non_splat
// CHECK: "mlc.broadcast"
func.func @negative_broadcast_of_non_splat() -> tensor<2x2xf32> {
  %c = "mlc.constant"() {value = dense<[1.0, 2.0]> : tensor<2xf32>} : () -> tensor<2xf32>
  %0 = "mlc.broadcast"(%c) : (tensor<2xf32>) -> tensor<2x2xf32>
  return %0 : tensor<2x2xf32>
}

// -----

/// A transpose that moves only dimensions of size 1 moves no element: a reshape. One
/// that reorders two larger dimensions stays.

// CHECK-LABEL: func.func @transpose_of_unit_dimensions
// CHECK-SAME:    (%[[X:.*]]: tensor<1x197x768xf32>)
// CHECK-NEXT:  %[[R:.*]] = "mlc.reshape"(%[[X]]) : (tensor<1x197x768xf32>) -> tensor<197x1x768xf32>
// CHECK-NEXT:  %[[T:.*]] = "mlc.transpose"(%[[X]]) {permutation = array<i64: 0, 2, 1>}
// CHECK-NEXT:  return %[[R]], %[[T]]
func.func @transpose_of_unit_dimensions(%x: tensor<1x197x768xf32>) -> (tensor<197x1x768xf32>, tensor<1x768x197xf32>) {
  %0 = "mlc.transpose"(%x) {permutation = array<i64: 1, 0, 2>} : (tensor<1x197x768xf32>) -> tensor<197x1x768xf32>
  %1 = "mlc.transpose"(%x) {permutation = array<i64: 0, 2, 1>} : (tensor<1x197x768xf32>) -> tensor<1x768x197xf32>
  return %0, %1 : tensor<197x1x768xf32>, tensor<1x768x197xf32>
}
