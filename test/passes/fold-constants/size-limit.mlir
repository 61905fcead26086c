// RUN: mlc-opt %s --pass-pipeline='builtin.module(mlc-fold-constants{size-limit=16})' --split-input-file | FileCheck %s

/// Folding never grows the model: a result over `size-limit` bytes folds only
/// when its constant inputs are at least as large.

/// 32 bytes from a 4-byte scalar: over the limit and larger than the input.

// CHECK-LABEL: func.func @no_fold_broadcast_over_limit
// CHECK-NEXT: %[[S:.*]] = "mlc.constant"() {value = dense<1.000000e+00> : tensor<f32>}
// CHECK-NEXT: %[[B:.*]] = "mlc.broadcast"(%[[S]])
// CHECK-NEXT: return %[[B]]
func.func @no_fold_broadcast_over_limit() -> tensor<8xf32> {
  %s = "mlc.constant"() {value = dense<1.0> : tensor<f32>} : () -> tensor<f32>
  %b = "mlc.broadcast"(%s) : (tensor<f32>) -> tensor<8xf32>
  return %b : tensor<8xf32>
}

// -----

/// 16 bytes: at the limit, not over it.

// CHECK-LABEL: func.func @fold_broadcast_at_limit
// CHECK-NEXT: %[[C:.*]] = "mlc.constant"() {value = dense<1.000000e+00> : tensor<4xf32>}
// CHECK-NEXT: return %[[C]]
func.func @fold_broadcast_at_limit() -> tensor<4xf32> {
  %s = "mlc.constant"() {value = dense<1.0> : tensor<f32>} : () -> tensor<f32>
  %b = "mlc.broadcast"(%s) : (tensor<f32>) -> tensor<4xf32>
  return %b : tensor<4xf32>
}

// -----

/// 32 bytes over the limit, but no larger than the 32-byte weight it replaces.

// CHECK-LABEL: func.func @fold_transpose_over_limit
// CHECK-NEXT: %[[C:.*]] = "mlc.constant"() {value = dense<{{\[}}[1, 5], [2, 6], [3, 7], [4, 8]]> : tensor<4x2xi32>}
// CHECK-NEXT: return %[[C]]
func.func @fold_transpose_over_limit() -> tensor<4x2xi32> {
  %w = "mlc.constant"() {value = dense<[[1, 2, 3, 4], [5, 6, 7, 8]]> : tensor<2x4xi32>} : () -> tensor<2x4xi32>
  %t = "mlc.transpose"(%w) {permutation = array<i64: 1, 0>} : (tensor<2x4xi32>) -> tensor<4x2xi32>
  return %t : tensor<4x2xi32>
}

// -----

/// The reshape and slice fold; the 48-byte sum of their 12-byte result and a
/// 16-byte constant would grow the model: it stays, and so does the cast after
/// it, whose operand is no constant.

// CHECK-LABEL: func.func @no_fold_add_broadcasting_over_limit
// CHECK-NEXT: %[[L:.*]] = "mlc.constant"() {value = dense<{{\[}}[1.000000e+00], [2.000000e+00], [3.000000e+00], [4.000000e+00]]> : tensor<4x1xf32>}
// CHECK-NEXT: %[[R:.*]] = "mlc.constant"() {value = dense<{{\[}}[1.000000e+00, 2.000000e+00, 3.000000e+00]]> : tensor<1x3xf32>}
// CHECK-NEXT: %[[A:.*]] = "mlc.add"(%[[L]], %[[R]])
// CHECK-NEXT: %[[C:.*]] = "mlc.cast"(%[[A]])
// CHECK-NEXT: return %[[C]]
func.func @no_fold_add_broadcasting_over_limit() -> tensor<4x3xf64> {
  %a = "mlc.constant"() {value = dense<[[1.0], [2.0], [3.0], [4.0]]> : tensor<4x1xf32>} : () -> tensor<4x1xf32>
  %b = "mlc.constant"() {value = dense<[1.0, 2.0, 3.0, 4.0]> : tensor<4xf32>} : () -> tensor<4xf32>
  %r = "mlc.reshape"(%b) : (tensor<4xf32>) -> tensor<1x4xf32>
  %s = "mlc.slice"(%r) {start = array<i64: 0, 0>, limit = array<i64: 1, 3>, stride = array<i64: 1, 1>} : (tensor<1x4xf32>) -> tensor<1x3xf32>
  %c = "mlc.add"(%a, %s) : (tensor<4x1xf32>, tensor<1x3xf32>) -> tensor<4x3xf32>
  %d = "mlc.cast"(%c) : (tensor<4x3xf32>) -> tensor<4x3xf64>
  return %d : tensor<4x3xf64>
}
