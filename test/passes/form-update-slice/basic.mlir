// RUN: mlc-opt %s --split-input-file --pass-pipeline='builtin.module(mlc-form-update-slice, cse)' | FileCheck %s
// RUN: mlc-opt %s --split-input-file --pass-pipeline='builtin.module(mlc-form-update-slice)' --mlir-pass-statistics -o /dev/null 2>&1 | FileCheck %s --check-prefix=STATS

// STATS: 'mlc-form-update-slice'
// STATS: (2) scatters made update_slice

/// A static cache's write of one token (torch's index_copy, as index_put positions after
/// constant folding): constant columns for the batch, head and feature dims, the run-time
/// position broadcast to every row for the token dim. The position's `+ 0` and torch's
/// wrapping of a negative index are passed through: the offset is the argument itself.

// CHECK-LABEL: func.func @cache_row
// CHECK-SAME:    (%[[CACHE:.*]]: tensor<1x4x8x6xf32>, %[[ROW:.*]]: tensor<1x4x1x6xf32>, %[[POS:.*]]: tensor<i64>)
// CHECK:         %[[BLOCK:.*]] = "mlc.reshape"(%{{.*}}) : (tensor<24xf32>) -> tensor<1x4x1x6xf32>
// CHECK:         %[[UPDATED:.*]] = "mlc.update_slice"(%[[CACHE]], %[[BLOCK]], %[[POS]]) {axis = 2 : i64, start = array<i64: 0, 0, 0, 0>}
// CHECK-NOT:     mlc.scatter
// CHECK:         return %[[UPDATED]]
func.func @cache_row(%cache: tensor<1x4x8x6xf32>, %row: tensor<1x4x1x6xf32>, %pos: tensor<i64>) -> tensor<1x4x8x6xf32> {
  %0 = "mlc.constant"() {value = dense<0> : tensor<1xi64>} : () -> tensor<1xi64>
  %1 = "mlc.add"(%0, %pos) : (tensor<1xi64>, tensor<i64>) -> tensor<1xi64>
  %2 = "mlc.reshape"(%1) : (tensor<1xi64>) -> tensor<1x1xi64>
  %3 = "mlc.constant"() {value = dense<0> : tensor<i64>} : () -> tensor<i64>
  %4 = "mlc.compare"(%2, %3) {predicate = "lt"} : (tensor<1x1xi64>, tensor<i64>) -> tensor<1x1xi1>
  %5 = "mlc.constant"() {value = dense<8> : tensor<i64>} : () -> tensor<i64>
  %6 = "mlc.add"(%2, %5) : (tensor<1x1xi64>, tensor<i64>) -> tensor<1x1xi64>
  %7 = "mlc.select"(%4, %6, %2) : (tensor<1x1xi1>, tensor<1x1xi64>, tensor<1x1xi64>) -> tensor<1x1xi64>
  %8 = "mlc.broadcast"(%7) : (tensor<1x1xi64>) -> tensor<1x4x1x6xi64>
  %9 = "mlc.reshape"(%8) : (tensor<1x4x1x6xi64>) -> tensor<24x1xi64>
  %10 = "mlc.constant"() {value = dense<[[0], [1], [2], [3], [4], [5], [0], [1], [2], [3], [4], [5], [0], [1], [2], [3], [4], [5], [0], [1], [2], [3], [4], [5]]> : tensor<24x1xi64>} : () -> tensor<24x1xi64>
  %11 = "mlc.reshape"(%row) : (tensor<1x4x1x6xf32>) -> tensor<24xf32>
  %12 = "mlc.constant"() {value = dense<[[0, 0], [0, 0], [0, 0], [0, 0], [0, 0], [0, 0], [0, 1], [0, 1], [0, 1], [0, 1], [0, 1], [0, 1], [0, 2], [0, 2], [0, 2], [0, 2], [0, 2], [0, 2], [0, 3], [0, 3], [0, 3], [0, 3], [0, 3], [0, 3]]> : tensor<24x2xi64>} : () -> tensor<24x2xi64>
  %13 = "mlc.concat"(%12, %9) {axis = 1 : i64} : (tensor<24x2xi64>, tensor<24x1xi64>) -> tensor<24x3xi64>
  %14 = "mlc.concat"(%13, %10) {axis = 1 : i64} : (tensor<24x3xi64>, tensor<24x1xi64>) -> tensor<24x4xi64>
  %15 = "mlc.scatter"(%cache, %14, %11) {combine = "replace"} : (tensor<1x4x8x6xf32>, tensor<24x4xi64>, tensor<24xf32>) -> tensor<1x4x8x6xf32>
  return %15 : tensor<1x4x8x6xf32>
}

// -----

/// Rows of a 2-D table from a run-time row, into columns 2..4 of rows: positions in the
/// first two dims only, the updates are slices [3] + [5]. The offset stays computed
/// (a product is not a step that keeps the value).

// CHECK-LABEL: func.func @block_of_slices
// CHECK:         %[[AT:.*]] = "mlc.mul"
// CHECK:         %[[OFFSET:.*]] = "mlc.reshape"(%[[AT]]) : (tensor<1xi64>) -> tensor<i64>
// CHECK:         "mlc.update_slice"(%{{.*}}, %{{.*}}, %[[OFFSET]]) {axis = 0 : i64, start = array<i64: 0, 2, 0>} : (tensor<4x6x5xf32>, tensor<1x3x5xf32>, tensor<i64>) -> tensor<4x6x5xf32>
func.func @block_of_slices(%x: tensor<4x6x5xf32>, %u: tensor<3x5xf32>, %r: tensor<1xi64>) -> tensor<4x6x5xf32> {
  %two = "mlc.constant"() {value = dense<2> : tensor<1xi64>} : () -> tensor<1xi64>
  %at = "mlc.mul"(%r, %two) : (tensor<1xi64>, tensor<1xi64>) -> tensor<1xi64>
  %b = "mlc.broadcast"(%at) : (tensor<1xi64>) -> tensor<3xi64>
  %rows = "mlc.reshape"(%b) : (tensor<3xi64>) -> tensor<3x1xi64>
  %cols = "mlc.constant"() {value = dense<[[2], [3], [4]]> : tensor<3x1xi64>} : () -> tensor<3x1xi64>
  %p = "mlc.concat"(%rows, %cols) {axis = 1 : i64} : (tensor<3x1xi64>, tensor<3x1xi64>) -> tensor<3x2xi64>
  %0 = "mlc.scatter"(%x, %p, %u) {combine = "replace"} : (tensor<4x6x5xf32>, tensor<3x2xi64>, tensor<3x5xf32>) -> tensor<4x6x5xf32>
  return %0 : tensor<4x6x5xf32>
}

// -----

/// Not a block: an "add" scatter combines; positions that skip a column; two run-time
/// columns; constant positions only. Each stays a scatter.

// CHECK-LABEL: func.func @adds
// CHECK: mlc.scatter
func.func @adds(%x: tensor<4x6xf32>, %u: tensor<3xf32>, %r: tensor<1xi64>) -> tensor<4x6xf32> {
  %b = "mlc.broadcast"(%r) : (tensor<1xi64>) -> tensor<3xi64>
  %rows = "mlc.reshape"(%b) : (tensor<3xi64>) -> tensor<3x1xi64>
  %cols = "mlc.constant"() {value = dense<[[2], [3], [4]]> : tensor<3x1xi64>} : () -> tensor<3x1xi64>
  %p = "mlc.concat"(%rows, %cols) {axis = 1 : i64} : (tensor<3x1xi64>, tensor<3x1xi64>) -> tensor<3x2xi64>
  %0 = "mlc.scatter"(%x, %p, %u) {combine = "add"} : (tensor<4x6xf32>, tensor<3x2xi64>, tensor<3xf32>) -> tensor<4x6xf32>
  return %0 : tensor<4x6xf32>
}

// CHECK-LABEL: func.func @gaps
// CHECK: mlc.scatter
func.func @gaps(%x: tensor<4x6xf32>, %u: tensor<3xf32>, %r: tensor<1xi64>) -> tensor<4x6xf32> {
  %b = "mlc.broadcast"(%r) : (tensor<1xi64>) -> tensor<3xi64>
  %rows = "mlc.reshape"(%b) : (tensor<3xi64>) -> tensor<3x1xi64>
  %cols = "mlc.constant"() {value = dense<[[1], [3], [5]]> : tensor<3x1xi64>} : () -> tensor<3x1xi64>
  %p = "mlc.concat"(%rows, %cols) {axis = 1 : i64} : (tensor<3x1xi64>, tensor<3x1xi64>) -> tensor<3x2xi64>
  %0 = "mlc.scatter"(%x, %p, %u) {combine = "replace"} : (tensor<4x6xf32>, tensor<3x2xi64>, tensor<3xf32>) -> tensor<4x6xf32>
  return %0 : tensor<4x6xf32>
}

// CHECK-LABEL: func.func @two_run_time_columns
// CHECK: mlc.scatter
func.func @two_run_time_columns(%x: tensor<4x6xf32>, %u: tensor<1xf32>, %r: tensor<1xi64>, %c: tensor<1xi64>) -> tensor<4x6xf32> {
  %rows = "mlc.reshape"(%r) : (tensor<1xi64>) -> tensor<1x1xi64>
  %cols = "mlc.reshape"(%c) : (tensor<1xi64>) -> tensor<1x1xi64>
  %p = "mlc.concat"(%rows, %cols) {axis = 1 : i64} : (tensor<1x1xi64>, tensor<1x1xi64>) -> tensor<1x2xi64>
  %0 = "mlc.scatter"(%x, %p, %u) {combine = "replace"} : (tensor<4x6xf32>, tensor<1x2xi64>, tensor<1xf32>) -> tensor<4x6xf32>
  return %0 : tensor<4x6xf32>
}

// CHECK-LABEL: func.func @run_time_positions
// CHECK: mlc.scatter
func.func @run_time_positions(%x: tensor<4x6xf32>, %u: tensor<3xf32>, %p: tensor<3x2xi64>) -> tensor<4x6xf32> {
  %0 = "mlc.scatter"(%x, %p, %u) {combine = "replace"} : (tensor<4x6xf32>, tensor<3x2xi64>, tensor<3xf32>) -> tensor<4x6xf32>
  return %0 : tensor<4x6xf32>
}
