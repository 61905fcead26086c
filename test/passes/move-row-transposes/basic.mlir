// RUN: mlc-opt %s --split-input-file --pass-pipeline='builtin.module(mlc-move-row-transposes)' | FileCheck %s
// RUN: mlc-opt %s --split-input-file --pass-pipeline='builtin.module(mlc-move-row-transposes)' --mlir-pass-statistics -o /dev/null 2>&1 | FileCheck %s --check-prefix=STATS

// STATS: 'mlc-move-row-transposes'
// STATS-DAG: (1) row transposes moved into a product's input
// STATS-DAG: (1) transposes removed

/// nn.MultiheadAttention(batch_first=True)'s output projection: the heads [batch 2,
/// heads 2, tokens 3, dim 4] gathered into [tokens, batch, features] rows, the product
/// and its bias, then the batch moved back in front. The two transposes become one
/// ([batch, tokens, heads, dim]), and the bias-added product is split into [batch,
/// tokens, features] as it is.

// CHECK-LABEL: func.func @output_projection
// CHECK-SAME:    (%[[HEADS:.*]]: tensor<2x2x3x4xf32>, %[[W:.*]]: tensor<8x5xf32>, %[[B:.*]]: tensor<5xf32>)
// CHECK:         %[[MOVED:.*]] = "mlc.transpose"(%[[HEADS]]) {permutation = array<i64: 0, 2, 1, 3>} : (tensor<2x2x3x4xf32>) -> tensor<2x3x2x4xf32>
// CHECK:         %[[ROWS:.*]] = "mlc.reshape"(%[[MOVED]]) : (tensor<2x3x2x4xf32>) -> tensor<6x8xf32>
// CHECK:         %[[PRODUCT:.*]] = "mlc.matmul"(%[[ROWS]], %[[W]])
// CHECK:         %[[BIASED:.*]] = "mlc.add"(%[[PRODUCT]], %[[B]])
// CHECK:         %[[SPLIT:.*]] = "mlc.reshape"(%[[BIASED]]) : (tensor<6x5xf32>) -> tensor<2x3x5xf32>
// CHECK-NOT:     mlc.transpose
// CHECK:         return %[[SPLIT]]
func.func @output_projection(%heads: tensor<2x2x3x4xf32>, %w: tensor<8x5xf32>, %b: tensor<5xf32>) -> tensor<2x3x5xf32> {
  %0 = "mlc.transpose"(%heads) {permutation = array<i64: 2, 0, 1, 3>} : (tensor<2x2x3x4xf32>) -> tensor<3x2x2x4xf32>
  %1 = "mlc.reshape"(%0) : (tensor<3x2x2x4xf32>) -> tensor<6x8xf32>
  %2 = "mlc.matmul"(%1, %w) : (tensor<6x8xf32>, tensor<8x5xf32>) -> tensor<6x5xf32>
  %3 = "mlc.add"(%2, %b) : (tensor<6x5xf32>, tensor<5xf32>) -> tensor<6x5xf32>
  %4 = "mlc.reshape"(%3) : (tensor<6x5xf32>) -> tensor<3x2x5xf32>
  %5 = "mlc.transpose"(%4) {permutation = array<i64: 1, 0, 2>} : (tensor<3x2x5xf32>) -> tensor<2x3x5xf32>
  return %5 : tensor<2x3x5xf32>
}

// -----

/// Where the second transpose undoes the first, no transpose is left.

// CHECK-LABEL: func.func @undone
// CHECK-NOT:     mlc.transpose
// CHECK:         %[[ROWS:.*]] = "mlc.reshape"(%{{.*}}) : (tensor<2x3x4xf32>) -> tensor<6x4xf32>
// CHECK:         "mlc.matmul"(%[[ROWS]]
func.func @undone(%x: tensor<2x3x4xf32>, %w: tensor<4x5xf32>) -> tensor<2x3x5xf32> {
  %0 = "mlc.transpose"(%x) {permutation = array<i64: 1, 0, 2>} : (tensor<2x3x4xf32>) -> tensor<3x2x4xf32>
  %1 = "mlc.reshape"(%0) : (tensor<3x2x4xf32>) -> tensor<6x4xf32>
  %2 = "mlc.matmul"(%1, %w) : (tensor<6x4xf32>, tensor<4x5xf32>) -> tensor<6x5xf32>
  %3 = "mlc.reshape"(%2) : (tensor<6x5xf32>) -> tensor<3x2x5xf32>
  %4 = "mlc.transpose"(%3) {permutation = array<i64: 1, 0, 2>} : (tensor<3x2x5xf32>) -> tensor<2x3x5xf32>
  return %4 : tensor<2x3x5xf32>
}

// -----

/// Kept: a transpose that moves the columns; rows split otherwise than the input's;
/// a product read twice; an elementwise operand that varies along the rows.

// CHECK-LABEL: func.func @moves_columns
// CHECK-COUNT-2: mlc.transpose
func.func @moves_columns(%x: tensor<2x3x4xf32>, %w: tensor<4x6xf32>) -> tensor<6x2x3xf32> {
  %0 = "mlc.transpose"(%x) {permutation = array<i64: 1, 0, 2>} : (tensor<2x3x4xf32>) -> tensor<3x2x4xf32>
  %1 = "mlc.reshape"(%0) : (tensor<3x2x4xf32>) -> tensor<6x4xf32>
  %2 = "mlc.matmul"(%1, %w) : (tensor<6x4xf32>, tensor<4x6xf32>) -> tensor<6x6xf32>
  %3 = "mlc.reshape"(%2) : (tensor<6x6xf32>) -> tensor<3x2x6xf32>
  %4 = "mlc.transpose"(%3) {permutation = array<i64: 2, 1, 0>} : (tensor<3x2x6xf32>) -> tensor<6x2x3xf32>
  return %4 : tensor<6x2x3xf32>
}

// CHECK-LABEL: func.func @split_otherwise
// CHECK-COUNT-2: mlc.transpose
func.func @split_otherwise(%x: tensor<2x3x4xf32>, %w: tensor<4x5xf32>) -> tensor<2x3x5xf32> {
  %0 = "mlc.transpose"(%x) {permutation = array<i64: 1, 0, 2>} : (tensor<2x3x4xf32>) -> tensor<3x2x4xf32>
  %1 = "mlc.reshape"(%0) : (tensor<3x2x4xf32>) -> tensor<6x4xf32>
  %2 = "mlc.matmul"(%1, %w) : (tensor<6x4xf32>, tensor<4x5xf32>) -> tensor<6x5xf32>
  %3 = "mlc.reshape"(%2) : (tensor<6x5xf32>) -> tensor<2x3x5xf32>
  %4 = "mlc.transpose"(%3) {permutation = array<i64: 1, 0, 2>} : (tensor<2x3x5xf32>) -> tensor<3x2x5xf32>
  %5 = "mlc.reshape"(%4) : (tensor<3x2x5xf32>) -> tensor<2x3x5xf32>
  return %5 : tensor<2x3x5xf32>
}

// CHECK-LABEL: func.func @product_read_twice
// CHECK-COUNT-2: mlc.transpose
func.func @product_read_twice(%x: tensor<2x3x4xf32>, %w: tensor<4x5xf32>) -> (tensor<2x3x5xf32>, tensor<6x5xf32>) {
  %0 = "mlc.transpose"(%x) {permutation = array<i64: 1, 0, 2>} : (tensor<2x3x4xf32>) -> tensor<3x2x4xf32>
  %1 = "mlc.reshape"(%0) : (tensor<3x2x4xf32>) -> tensor<6x4xf32>
  %2 = "mlc.matmul"(%1, %w) : (tensor<6x4xf32>, tensor<4x5xf32>) -> tensor<6x5xf32>
  %3 = "mlc.reshape"(%2) : (tensor<6x5xf32>) -> tensor<3x2x5xf32>
  %4 = "mlc.transpose"(%3) {permutation = array<i64: 1, 0, 2>} : (tensor<3x2x5xf32>) -> tensor<2x3x5xf32>
  return %4, %2 : tensor<2x3x5xf32>, tensor<6x5xf32>
}

// CHECK-LABEL: func.func @per_row_operand
// CHECK-COUNT-2: mlc.transpose
func.func @per_row_operand(%x: tensor<2x3x4xf32>, %w: tensor<4x5xf32>, %r: tensor<6x1xf32>) -> tensor<2x3x5xf32> {
  %0 = "mlc.transpose"(%x) {permutation = array<i64: 1, 0, 2>} : (tensor<2x3x4xf32>) -> tensor<3x2x4xf32>
  %1 = "mlc.reshape"(%0) : (tensor<3x2x4xf32>) -> tensor<6x4xf32>
  %2 = "mlc.matmul"(%1, %w) : (tensor<6x4xf32>, tensor<4x5xf32>) -> tensor<6x5xf32>
  %3 = "mlc.add"(%2, %r) : (tensor<6x5xf32>, tensor<6x1xf32>) -> tensor<6x5xf32>
  %4 = "mlc.reshape"(%3) : (tensor<6x5xf32>) -> tensor<3x2x5xf32>
  %5 = "mlc.transpose"(%4) {permutation = array<i64: 1, 0, 2>} : (tensor<3x2x5xf32>) -> tensor<2x3x5xf32>
  return %5 : tensor<2x3x5xf32>
}
