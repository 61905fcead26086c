// RUN: mlc-opt %s --split-input-file --pass-pipeline='builtin.module(mlc-move-row-transposes{into-attention=true})' | FileCheck %s

/// nn.MultiheadAttention(batch_first=True)'s input projection before an attention on the
/// plugin: the batch [2] moved behind the tokens [3] before the product, and back in
/// front after it. The product reads its input as it lies, the bias follows it, and the
/// reordering, moved below the product, meets the one after it: none is left, and the
/// attention reads the biased product itself.

// CHECK-LABEL: func.func @input_projection
// CHECK-SAME:    (%[[X:.*]]: tensor<2x3x4xf32>, %[[W:.*]]: tensor<4x4xf32>, %[[B:.*]]: tensor<4xf32>, %[[MASK:.*]]: tensor<f32>)
// CHECK-NOT:     mlc.transpose
// CHECK:         %[[ROWS:.*]] = "mlc.reshape"(%[[X]]) : (tensor<2x3x4xf32>) -> tensor<6x4xf32>
// CHECK:         %[[PRODUCT:.*]] = "mlc.matmul"(%[[ROWS]], %[[W]])
// CHECK:         %[[BIASED:.*]] = "mlc.add"(%[[PRODUCT]], %[[B]])
// CHECK:         %[[SPLIT:.*]] = "mlc.reshape"(%[[BIASED]]) : (tensor<6x4xf32>) -> tensor<2x3x4xf32>
// CHECK-NOT:     mlc.transpose
// CHECK:         "mlc.attention"(%[[SPLIT]], %[[SPLIT]], %[[SPLIT]], %[[MASK]])
func.func @input_projection(%x: tensor<2x3x4xf32>, %w: tensor<4x4xf32>, %b: tensor<4xf32>, %mask: tensor<f32>) -> tensor<2x3x4xf32> {
  %0 = "mlc.transpose"(%x) {permutation = array<i64: 1, 0, 2>} : (tensor<2x3x4xf32>) -> tensor<3x2x4xf32>
  %1 = "mlc.reshape"(%0) : (tensor<3x2x4xf32>) -> tensor<6x4xf32>
  %2 = "mlc.matmul"(%1, %w) : (tensor<6x4xf32>, tensor<4x4xf32>) -> tensor<6x4xf32>
  %3 = "mlc.add"(%2, %b) : (tensor<6x4xf32>, tensor<4xf32>) -> tensor<6x4xf32>
  %4 = "mlc.reshape"(%3) : (tensor<6x4xf32>) -> tensor<3x2x4xf32>
  %5 = "mlc.transpose"(%4) {permutation = array<i64: 1, 0, 2>} : (tensor<3x2x4xf32>) -> tensor<2x3x4xf32>
  %6 = "mlc.attention"(%5, %5, %5, %mask) {bf16_products = false, library = true, scale = 0.5 : f64, views = array<i64>, zero_masked_rows = false, zero_masked_tail = false} : (tensor<2x3x4xf32>, tensor<2x3x4xf32>, tensor<2x3x4xf32>, tensor<f32>) -> tensor<2x3x4xf32>
  return %6 : tensor<2x3x4xf32>
}

// -----

/// Kept: the product's result is also the function's (not only attention's views); the
/// attention is not the plugin's.

// CHECK-LABEL: func.func @also_returned
// CHECK: %[[FIRST:.*]] = "mlc.transpose"
// CHECK: "mlc.reshape"(%[[FIRST]])
func.func @also_returned(%x: tensor<2x3x4xf32>, %w: tensor<4x4xf32>, %mask: tensor<f32>) -> (tensor<2x3x4xf32>, tensor<6x4xf32>) {
  %0 = "mlc.transpose"(%x) {permutation = array<i64: 1, 0, 2>} : (tensor<2x3x4xf32>) -> tensor<3x2x4xf32>
  %1 = "mlc.reshape"(%0) : (tensor<3x2x4xf32>) -> tensor<6x4xf32>
  %2 = "mlc.matmul"(%1, %w) : (tensor<6x4xf32>, tensor<4x4xf32>) -> tensor<6x4xf32>
  %3 = "mlc.reshape"(%2) : (tensor<6x4xf32>) -> tensor<2x3x4xf32>
  %4 = "mlc.attention"(%3, %3, %3, %mask) {bf16_products = false, library = true, scale = 0.5 : f64, views = array<i64>, zero_masked_rows = false, zero_masked_tail = false} : (tensor<2x3x4xf32>, tensor<2x3x4xf32>, tensor<2x3x4xf32>, tensor<f32>) -> tensor<2x3x4xf32>
  return %4, %2 : tensor<2x3x4xf32>, tensor<6x4xf32>
}

// CHECK-LABEL: func.func @not_on_the_plugin
// CHECK: %[[FIRST:.*]] = "mlc.transpose"
// CHECK: "mlc.reshape"(%[[FIRST]])
func.func @not_on_the_plugin(%x: tensor<2x3x4xf32>, %w: tensor<4x4xf32>, %mask: tensor<f32>) -> tensor<2x3x4xf32> {
  %0 = "mlc.transpose"(%x) {permutation = array<i64: 1, 0, 2>} : (tensor<2x3x4xf32>) -> tensor<3x2x4xf32>
  %1 = "mlc.reshape"(%0) : (tensor<3x2x4xf32>) -> tensor<6x4xf32>
  %2 = "mlc.matmul"(%1, %w) : (tensor<6x4xf32>, tensor<4x4xf32>) -> tensor<6x4xf32>
  %3 = "mlc.reshape"(%2) : (tensor<6x4xf32>) -> tensor<2x3x4xf32>
  %4 = "mlc.attention"(%3, %3, %3, %mask) {bf16_products = false, library = false, scale = 0.5 : f64, views = array<i64>, zero_masked_rows = false, zero_masked_tail = false} : (tensor<2x3x4xf32>, tensor<2x3x4xf32>, tensor<2x3x4xf32>, tensor<f32>) -> tensor<2x3x4xf32>
  return %4 : tensor<2x3x4xf32>
}
