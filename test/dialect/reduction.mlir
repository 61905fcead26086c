// RUN: mlc-opt %s --split-input-file | mlc-opt --split-input-file | FileCheck %s

/// Reductions round-trip through the printer and parser unchanged.

// CHECK-LABEL: func.func @reduce_sum
func.func @reduce_sum(%x: tensor<2x3x4xf32>) -> (tensor<2x4xf32>, tensor<2x1x4xf32>, tensor<f32>) {
  // CHECK: "mlc.reduce_sum"(%{{.*}}) {axes = array<i64: 1>, keepdim = false} : (tensor<2x3x4xf32>) -> tensor<2x4xf32>
  %0 = "mlc.reduce_sum"(%x) {axes = array<i64: 1>, keepdim = false} : (tensor<2x3x4xf32>) -> tensor<2x4xf32>
  // CHECK: "mlc.reduce_sum"(%{{.*}}) {axes = array<i64: 1>, keepdim = true} : (tensor<2x3x4xf32>) -> tensor<2x1x4xf32>
  %1 = "mlc.reduce_sum"(%x) {axes = array<i64: 1>, keepdim = true} : (tensor<2x3x4xf32>) -> tensor<2x1x4xf32>
  /// Reducing every axis gives a rank-0 tensor.
  // CHECK: "mlc.reduce_sum"(%{{.*}}) {axes = array<i64: 0, 1, 2>, keepdim = false} : (tensor<2x3x4xf32>) -> tensor<f32>
  %2 = "mlc.reduce_sum"(%x) {axes = array<i64: 0, 1, 2>, keepdim = false} : (tensor<2x3x4xf32>) -> tensor<f32>
  return %0, %1, %2 : tensor<2x4xf32>, tensor<2x1x4xf32>, tensor<f32>
}

// -----

/// Negative axes count from the end, and the order of `axes` does not matter.

// CHECK-LABEL: func.func @reduce_mean_negative_axes
func.func @reduce_mean_negative_axes(%x: tensor<2x3x4x5xf32>) -> (tensor<2x3xf32>, tensor<2x1x4x1xf32>) {
  // CHECK: "mlc.reduce_mean"(%{{.*}}) {axes = array<i64: -1, -2>, keepdim = false} : (tensor<2x3x4x5xf32>) -> tensor<2x3xf32>
  %0 = "mlc.reduce_mean"(%x) {axes = array<i64: -1, -2>, keepdim = false} : (tensor<2x3x4x5xf32>) -> tensor<2x3xf32>
  // CHECK: "mlc.reduce_mean"(%{{.*}}) {axes = array<i64: 3, -3>, keepdim = true} : (tensor<2x3x4x5xf32>) -> tensor<2x1x4x1xf32>
  %1 = "mlc.reduce_mean"(%x) {axes = array<i64: 3, -3>, keepdim = true} : (tensor<2x3x4x5xf32>) -> tensor<2x1x4x1xf32>
  return %0, %1 : tensor<2x3xf32>, tensor<2x1x4x1xf32>
}

// -----

/// max and min also reduce integers.

// CHECK-LABEL: func.func @reduce_max_min
func.func @reduce_max_min(%x: tensor<4x6xi32>, %y: tensor<4x6xf16>) -> (tensor<6xi32>, tensor<4x1xf16>) {
  // CHECK: "mlc.reduce_max"(%{{.*}}) {axes = array<i64: 0>, keepdim = false} : (tensor<4x6xi32>) -> tensor<6xi32>
  %0 = "mlc.reduce_max"(%x) {axes = array<i64: 0>, keepdim = false} : (tensor<4x6xi32>) -> tensor<6xi32>
  // CHECK: "mlc.reduce_min"(%{{.*}}) {axes = array<i64: -1>, keepdim = true} : (tensor<4x6xf16>) -> tensor<4x1xf16>
  %1 = "mlc.reduce_min"(%y) {axes = array<i64: -1>, keepdim = true} : (tensor<4x6xf16>) -> tensor<4x1xf16>
  return %0, %1 : tensor<6xi32>, tensor<4x1xf16>
}

// -----

// CHECK-LABEL: func.func @reduce_dynamic
func.func @reduce_dynamic(%x: tensor<?x?x8xf32>) -> (tensor<?x8xf32>, tensor<?x1x8xi1>) {
  // CHECK: "mlc.reduce_sum"(%{{.*}}) {axes = array<i64: 1>, keepdim = false} : (tensor<?x?x8xf32>) -> tensor<?x8xf32>
  %0 = "mlc.reduce_sum"(%x) {axes = array<i64: 1>, keepdim = false} : (tensor<?x?x8xf32>) -> tensor<?x8xf32>
  %c = "mlc.cast"(%x) : (tensor<?x?x8xf32>) -> tensor<?x?x8xi1>
  // CHECK: "mlc.reduce_max"(%{{.*}}) {axes = array<i64: 1>, keepdim = true} : (tensor<?x?x8xi1>) -> tensor<?x1x8xi1>
  %1 = "mlc.reduce_max"(%c) {axes = array<i64: 1>, keepdim = true} : (tensor<?x?x8xi1>) -> tensor<?x1x8xi1>
  return %0, %1 : tensor<?x8xf32>, tensor<?x1x8xi1>
}
