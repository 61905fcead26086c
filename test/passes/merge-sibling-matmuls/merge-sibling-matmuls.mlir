// RUN: mlc-opt %s --split-input-file --pass-pipeline='builtin.module(mlc-merge-sibling-matmuls)' | FileCheck %s
// RUN: mlc-opt %s --split-input-file --pass-pipeline='builtin.module(mlc-merge-sibling-matmuls)' --mlir-pass-statistics -o /dev/null 2>&1 | FileCheck %s --check-prefix=STATS

/// A decode step's q, k and v: one row by three constant weights becomes one matmul by
/// the weights side by side, and a slice of its result for each.

// CHECK-LABEL: func.func @query_key_value
// CHECK-SAME: (%[[X:.*]]: tensor<1x4xf32>)
// CHECK:      %[[W:.*]] = "mlc.constant"() {value = dense<{{\[}}[1.000000e+00, 2.000000e+00, 5.000000e+00, 7.000000e+00], [3.000000e+00, 4.000000e+00, 6.000000e+00, 8.000000e+00], [0.000000e+00, 0.000000e+00, 0.000000e+00, 9.000000e+00], [0.000000e+00, 0.000000e+00, 0.000000e+00, 1.000000e+01]]> : tensor<4x4xf32>}
// CHECK-NEXT: %[[Y:.*]] = "mlc.matmul"(%[[X]], %[[W]]) : (tensor<1x4xf32>, tensor<4x4xf32>) -> tensor<1x4xf32>
// CHECK-NEXT: %[[Q:.*]] = "mlc.slice"(%[[Y]]) {limit = array<i64: 1, 2>, start = array<i64: 0, 0>, stride = array<i64: 1, 1>} : (tensor<1x4xf32>) -> tensor<1x2xf32>
// CHECK-NEXT: %[[K:.*]] = "mlc.slice"(%[[Y]]) {limit = array<i64: 1, 3>, start = array<i64: 0, 2>, stride = array<i64: 1, 1>} : (tensor<1x4xf32>) -> tensor<1x1xf32>
// CHECK-NEXT: %[[V:.*]] = "mlc.slice"(%[[Y]]) {limit = array<i64: 1, 4>, start = array<i64: 0, 3>, stride = array<i64: 1, 1>} : (tensor<1x4xf32>) -> tensor<1x1xf32>
// CHECK-NOT:  mlc.matmul
// CHECK:      return %[[Q]], %[[K]], %[[V]]
func.func @query_key_value(%x: tensor<1x4xf32>) -> (tensor<1x2xf32>, tensor<1x1xf32>, tensor<1x1xf32>) {
  %wq = "mlc.constant"() {value = dense<[[1.0, 2.0], [3.0, 4.0], [0.0, 0.0], [0.0, 0.0]]> : tensor<4x2xf32>} : () -> tensor<4x2xf32>
  %q = "mlc.matmul"(%x, %wq) : (tensor<1x4xf32>, tensor<4x2xf32>) -> tensor<1x2xf32>
  %wk = "mlc.constant"() {value = dense<[[5.0], [6.0], [0.0], [0.0]]> : tensor<4x1xf32>} : () -> tensor<4x1xf32>
  %k = "mlc.matmul"(%x, %wk) : (tensor<1x4xf32>, tensor<4x1xf32>) -> tensor<1x1xf32>
  %wv = "mlc.constant"() {value = dense<[[7.0], [8.0], [9.0], [10.0]]> : tensor<4x1xf32>} : () -> tensor<4x1xf32>
  %v = "mlc.matmul"(%x, %wv) : (tensor<1x4xf32>, tensor<4x1xf32>) -> tensor<1x1xf32>
  return %q, %k, %v : tensor<1x2xf32>, tensor<1x1xf32>, tensor<1x1xf32>
}

// -----

/// A row with unit leading dimensions ([1, 1, K]) merges; the slices keep its shape.

// CHECK-LABEL: func.func @gate_and_up
// CHECK:      %[[Y:.*]] = "mlc.matmul"(%{{.*}}, %{{.*}}) : (tensor<1x1x2xf32>, tensor<2x6xf32>) -> tensor<1x1x6xf32>
// CHECK-NEXT: "mlc.slice"(%[[Y]]) {limit = array<i64: 1, 1, 3>, start = array<i64: 0, 0, 0>, stride = array<i64: 1, 1, 1>} : (tensor<1x1x6xf32>) -> tensor<1x1x3xf32>
// CHECK-NEXT: "mlc.slice"(%[[Y]]) {limit = array<i64: 1, 1, 6>, start = array<i64: 0, 0, 3>, stride = array<i64: 1, 1, 1>} : (tensor<1x1x6xf32>) -> tensor<1x1x3xf32>
// CHECK-NOT:  mlc.matmul
func.func @gate_and_up(%x: tensor<1x1x2xf32>) -> tensor<1x1x3xf32> {
  %wg = "mlc.constant"() {value = dense<[[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]> : tensor<2x3xf32>} : () -> tensor<2x3xf32>
  %wu = "mlc.constant"() {value = dense<[[7.0, 8.0, 9.0], [1.0, 2.0, 3.0]]> : tensor<2x3xf32>} : () -> tensor<2x3xf32>
  %g = "mlc.matmul"(%x, %wg) : (tensor<1x1x2xf32>, tensor<2x3xf32>) -> tensor<1x1x3xf32>
  %u = "mlc.matmul"(%x, %wu) : (tensor<1x1x2xf32>, tensor<2x3xf32>) -> tensor<1x1x3xf32>
  %s = "mlc.silu"(%g) : (tensor<1x1x3xf32>) -> tensor<1x1x3xf32>
  %y = "mlc.mul"(%s, %u) : (tensor<1x1x3xf32>, tensor<1x1x3xf32>) -> tensor<1x1x3xf32>
  return %y : tensor<1x1x3xf32>
}

// -----

/// Left alone: several rows (a prompt's), a weight that is computed, and a lone matmul.

// CHECK-LABEL: func.func @not_merged
// CHECK-COUNT-5: "mlc.matmul"
// CHECK-NOT:  mlc.slice
func.func @not_merged(%rows: tensor<2x2xf32>, %x: tensor<1x2xf32>, %w: tensor<2x3xf32>, %y: tensor<1x2xf32>) -> (tensor<2x3xf32>, tensor<2x3xf32>, tensor<1x3xf32>, tensor<1x3xf32>, tensor<1x3xf32>) {
  %c = "mlc.constant"() {value = dense<[[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]> : tensor<2x3xf32>} : () -> tensor<2x3xf32>
  %d = "mlc.constant"() {value = dense<[[7.0, 8.0, 9.0], [1.0, 2.0, 3.0]]> : tensor<2x3xf32>} : () -> tensor<2x3xf32>
  %a = "mlc.matmul"(%rows, %c) : (tensor<2x2xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
  %b = "mlc.matmul"(%rows, %d) : (tensor<2x2xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
  %e = "mlc.matmul"(%x, %c) : (tensor<1x2xf32>, tensor<2x3xf32>) -> tensor<1x3xf32>
  %f = "mlc.matmul"(%x, %w) : (tensor<1x2xf32>, tensor<2x3xf32>) -> tensor<1x3xf32>
  %g = "mlc.matmul"(%y, %d) : (tensor<1x2xf32>, tensor<2x3xf32>) -> tensor<1x3xf32>
  return %a, %b, %e, %f, %g : tensor<2x3xf32>, tensor<2x3xf32>, tensor<1x3xf32>, tensor<1x3xf32>, tensor<1x3xf32>
}

/// The statistics add up over the split inputs: three matmuls into one, two into one, none.
// STATS:      (3) matmuls merged
// STATS-NEXT: (1) merged matmuls
// STATS:      (5) matmuls merged
// STATS-NEXT: (2) merged matmuls
// STATS:      (5) matmuls merged
// STATS-NEXT: (2) merged matmuls
