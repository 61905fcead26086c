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

/// A prompt's q, k and v, each with its bias: several rows merge with their bias adds,
/// one add of the biases side by side (a bias of [1, N] as N values, and on either side
/// of its add), so the plugin's epilogue keeps it and the slices come after it.

// CHECK-LABEL: func.func @prompt_with_biases
// CHECK-SAME: (%[[X:.*]]: tensor<3x2xf32>)
// CHECK:      %[[W:.*]] = "mlc.constant"() {value = dense<{{\[}}[1.000000e+00, 2.000000e+00, 5.000000e+00], [3.000000e+00, 4.000000e+00, 6.000000e+00]]> : tensor<2x3xf32>}
// CHECK-NEXT: %[[Y:.*]] = "mlc.matmul"(%[[X]], %[[W]]) : (tensor<3x2xf32>, tensor<2x3xf32>) -> tensor<3x3xf32>
// CHECK-NEXT: %[[B:.*]] = "mlc.constant"() {value = dense<[5.000000e-01, 2.500000e-01, 7.000000e+00]> : tensor<3xf32>}
// CHECK-NEXT: %[[S:.*]] = "mlc.add"(%[[Y]], %[[B]]) : (tensor<3x3xf32>, tensor<3xf32>) -> tensor<3x3xf32>
// CHECK-NEXT: %[[Q:.*]] = "mlc.slice"(%[[S]]) {limit = array<i64: 3, 2>, start = array<i64: 0, 0>, stride = array<i64: 1, 1>} : (tensor<3x3xf32>) -> tensor<3x2xf32>
// CHECK-NEXT: %[[K:.*]] = "mlc.slice"(%[[S]]) {limit = array<i64: 3, 3>, start = array<i64: 0, 2>, stride = array<i64: 1, 1>} : (tensor<3x3xf32>) -> tensor<3x1xf32>
// CHECK-NOT:  mlc.constant
// CHECK-NOT:  mlc.matmul
// CHECK-NOT:  mlc.add
// CHECK:      return %[[Q]], %[[K]]
func.func @prompt_with_biases(%x: tensor<3x2xf32>) -> (tensor<3x2xf32>, tensor<3x1xf32>) {
  %wq = "mlc.constant"() {value = dense<[[1.0, 2.0], [3.0, 4.0]]> : tensor<2x2xf32>} : () -> tensor<2x2xf32>
  %bq = "mlc.constant"() {value = dense<[0.5, 0.25]> : tensor<2xf32>} : () -> tensor<2xf32>
  %q = "mlc.matmul"(%x, %wq) : (tensor<3x2xf32>, tensor<2x2xf32>) -> tensor<3x2xf32>
  %qb = "mlc.add"(%q, %bq) : (tensor<3x2xf32>, tensor<2xf32>) -> tensor<3x2xf32>
  %wk = "mlc.constant"() {value = dense<[[5.0], [6.0]]> : tensor<2x1xf32>} : () -> tensor<2x1xf32>
  %bk = "mlc.constant"() {value = dense<[[7.0]]> : tensor<1x1xf32>} : () -> tensor<1x1xf32>
  %k = "mlc.matmul"(%x, %wk) : (tensor<3x2xf32>, tensor<2x1xf32>) -> tensor<3x1xf32>
  %kb = "mlc.add"(%bk, %k) : (tensor<1x1xf32>, tensor<3x1xf32>) -> tensor<3x1xf32>
  return %qb, %kb : tensor<3x2xf32>, tensor<3x1xf32>
}

// -----

/// A prompt's rows by two weights, neither with a bias (Llama's gate and up): they merge.

// CHECK-LABEL: func.func @prompt_without_biases
// CHECK:      %[[Y:.*]] = "mlc.matmul"(%{{.*}}, %{{.*}}) : (tensor<2x2xf32>, tensor<2x6xf32>) -> tensor<2x6xf32>
// CHECK-NEXT: "mlc.slice"(%[[Y]]) {limit = array<i64: 2, 3>, start = array<i64: 0, 0>, stride = array<i64: 1, 1>}
// CHECK-NEXT: "mlc.slice"(%[[Y]]) {limit = array<i64: 2, 6>, start = array<i64: 0, 3>, stride = array<i64: 1, 1>}
// CHECK-NOT:  mlc.matmul
func.func @prompt_without_biases(%rows: tensor<2x2xf32>) -> (tensor<2x3xf32>, tensor<2x3xf32>) {
  %c = "mlc.constant"() {value = dense<[[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]> : tensor<2x3xf32>} : () -> tensor<2x3xf32>
  %d = "mlc.constant"() {value = dense<[[7.0, 8.0, 9.0], [1.0, 2.0, 3.0]]> : tensor<2x3xf32>} : () -> tensor<2x3xf32>
  %a = "mlc.matmul"(%rows, %c) : (tensor<2x2xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
  %b = "mlc.matmul"(%rows, %d) : (tensor<2x2xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
  return %a, %b : tensor<2x3xf32>, tensor<2x3xf32>
}

// -----

/// One row whose siblings add biases: the adds merge too, one add of the biases side by side.

// CHECK-LABEL: func.func @row_with_biases
// CHECK:      %[[Y:.*]] = "mlc.matmul"(%{{.*}}, %{{.*}}) : (tensor<1x2xf32>, tensor<2x4xf32>) -> tensor<1x4xf32>
// CHECK-NEXT: %[[B:.*]] = "mlc.constant"() {value = dense<[1.000000e+00, 2.000000e+00, 3.000000e+00, 4.000000e+00]> : tensor<4xf32>}
// CHECK-NEXT: %[[S:.*]] = "mlc.add"(%[[Y]], %[[B]])
// CHECK-NEXT: "mlc.slice"(%[[S]])
// CHECK-NEXT: "mlc.slice"(%[[S]])
// CHECK-NOT:  mlc.add
func.func @row_with_biases(%x: tensor<1x2xf32>) -> (tensor<1x2xf32>, tensor<1x2xf32>) {
  %c = "mlc.constant"() {value = dense<[[1.0, 2.0], [4.0, 5.0]]> : tensor<2x2xf32>} : () -> tensor<2x2xf32>
  %d = "mlc.constant"() {value = dense<[[7.0, 8.0], [1.0, 2.0]]> : tensor<2x2xf32>} : () -> tensor<2x2xf32>
  %bc = "mlc.constant"() {value = dense<[1.0, 2.0]> : tensor<2xf32>} : () -> tensor<2xf32>
  %bd = "mlc.constant"() {value = dense<[3.0, 4.0]> : tensor<2xf32>} : () -> tensor<2xf32>
  %a = "mlc.matmul"(%x, %c) : (tensor<1x2xf32>, tensor<2x2xf32>) -> tensor<1x2xf32>
  %ab = "mlc.add"(%a, %bc) : (tensor<1x2xf32>, tensor<2xf32>) -> tensor<1x2xf32>
  %b = "mlc.matmul"(%x, %d) : (tensor<1x2xf32>, tensor<2x2xf32>) -> tensor<1x2xf32>
  %bb = "mlc.add"(%b, %bd) : (tensor<1x2xf32>, tensor<2xf32>) -> tensor<1x2xf32>
  return %ab, %bb : tensor<1x2xf32>, tensor<1x2xf32>
}

// -----

/// Left alone: a prompt whose siblings do not all add a constant bias (one has none, or
/// its add is of a computed value, or the product has another use), a weight that is
/// computed, and a lone matmul.

// CHECK-LABEL: func.func @not_merged
// CHECK-COUNT-9: "mlc.matmul"
// CHECK-NOT:  mlc.slice
func.func @not_merged(%rows: tensor<2x2xf32>, %x: tensor<1x2xf32>, %w: tensor<2x3xf32>, %y: tensor<1x2xf32>, %t: tensor<3xf32>) -> (tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>, tensor<1x3xf32>, tensor<1x3xf32>, tensor<1x3xf32>) {
  %c = "mlc.constant"() {value = dense<[[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]> : tensor<2x3xf32>} : () -> tensor<2x3xf32>
  %d = "mlc.constant"() {value = dense<[[7.0, 8.0, 9.0], [1.0, 2.0, 3.0]]> : tensor<2x3xf32>} : () -> tensor<2x3xf32>
  %bias = "mlc.constant"() {value = dense<[1.0, 2.0, 3.0]> : tensor<3xf32>} : () -> tensor<3xf32>
  %a = "mlc.matmul"(%rows, %c) : (tensor<2x2xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
  %ab = "mlc.add"(%a, %bias) : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xf32>
  %b = "mlc.matmul"(%rows, %d) : (tensor<2x2xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
  %rows2 = "mlc.neg"(%rows) : (tensor<2x2xf32>) -> tensor<2x2xf32>
  %g = "mlc.matmul"(%rows2, %c) : (tensor<2x2xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
  %gb = "mlc.add"(%g, %t) : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xf32>
  %h = "mlc.matmul"(%rows2, %d) : (tensor<2x2xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
  %hb = "mlc.add"(%h, %bias) : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xf32>
  %rows3 = "mlc.abs"(%rows) : (tensor<2x2xf32>) -> tensor<2x2xf32>
  %i = "mlc.matmul"(%rows3, %c) : (tensor<2x2xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
  %ib = "mlc.add"(%i, %bias) : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xf32>
  %j = "mlc.matmul"(%rows3, %d) : (tensor<2x2xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
  %jb = "mlc.add"(%j, %bias) : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xf32>
  %e = "mlc.matmul"(%x, %c) : (tensor<1x2xf32>, tensor<2x3xf32>) -> tensor<1x3xf32>
  %f = "mlc.matmul"(%x, %w) : (tensor<1x2xf32>, tensor<2x3xf32>) -> tensor<1x3xf32>
  %k = "mlc.matmul"(%y, %d) : (tensor<1x2xf32>, tensor<2x3xf32>) -> tensor<1x3xf32>
  return %ab, %b, %gb, %hb, %ib, %jb, %i, %e, %f, %k : tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>, tensor<1x3xf32>, tensor<1x3xf32>, tensor<1x3xf32>
}

/// The statistics add up over the split inputs: three matmuls into one; two into one;
/// two with their adds; two without; one row's two with their adds; none.
// STATS:      (3) matmuls merged
// STATS-NEXT: (1) merged matmuls
// STATS:      (5) matmuls merged
// STATS-NEXT: (2) merged matmuls
// STATS:      (7) matmuls merged
// STATS-NEXT: (3) merged matmuls
// STATS-NEXT: (2) bias adds merged
// STATS:      (9) matmuls merged
// STATS-NEXT: (4) merged matmuls
// STATS-NEXT: (2) bias adds merged
// STATS:      (11) matmuls merged
// STATS-NEXT: (5) merged matmuls
// STATS-NEXT: (4) bias adds merged
// STATS:      (11) matmuls merged
// STATS-NEXT: (5) merged matmuls
// STATS-NEXT: (4) bias adds merged
