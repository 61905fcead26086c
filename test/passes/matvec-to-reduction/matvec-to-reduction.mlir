// RUN: mlc-opt %s --split-input-file --pass-pipeline='builtin.module(mlc-matvec-to-reduction)' | FileCheck %s
// RUN: mlc-opt %s --split-input-file --pass-pipeline='builtin.module(mlc-matvec-to-reduction)' --mlir-pass-statistics -o /dev/null 2>&1 | FileCheck %s --check-prefix=STATS

/// A decode step's scores: one query row per head by the transposed key cache. The
/// cache is read as it lies ([H, N, K]), multiplied by the row and summed over K.

// CHECK-LABEL: func.func @query_by_transposed_keys
// CHECK-SAME: (%[[Q:.*]]: tensor<12x1x64xf32>, %[[K:.*]]: tensor<12x96x64xf32>)
// CHECK:      %[[P:.*]] = "mlc.mul"(%[[Q]], %[[K]]) : (tensor<12x1x64xf32>, tensor<12x96x64xf32>) -> tensor<12x96x64xf32>
// CHECK-NEXT: %[[S:.*]] = "mlc.reduce_sum"(%[[P]]) {axes = array<i64: -1>, keepdim = false} : (tensor<12x96x64xf32>) -> tensor<12x96xf32>
// CHECK-NEXT: %[[R:.*]] = "mlc.reshape"(%[[S]]) : (tensor<12x96xf32>) -> tensor<12x1x96xf32>
// CHECK-NEXT: return %[[R]]
// CHECK-NOT:  mlc.transpose
// CHECK-NOT:  mlc.matmul
func.func @query_by_transposed_keys(%q: tensor<12x1x64xf32>, %k: tensor<12x96x64xf32>) -> tensor<12x1x96xf32> {
  %kt = "mlc.transpose"(%k) {permutation = array<i64: 0, 2, 1>} : (tensor<12x96x64xf32>) -> tensor<12x64x96xf32>
  %s = "mlc.matmul"(%q, %kt) : (tensor<12x1x64xf32>, tensor<12x64x96xf32>) -> tensor<12x1x96xf32>
  return %s : tensor<12x1x96xf32>
}

// -----

/// As transformers writes it: the cache [1, H, N, K] transposed, then viewed as
/// [H, K, N] for a batched matmul. The view goes onto the untransposed cache.

// CHECK-LABEL: func.func @transposed_then_viewed
// CHECK-SAME: (%[[Q:.*]]: tensor<4x1x16xf32>, %[[K:.*]]: tensor<1x4x32x16xf32>)
// CHECK:      %[[V:.*]] = "mlc.reshape"(%[[K]]) : (tensor<1x4x32x16xf32>) -> tensor<4x32x16xf32>
// CHECK-NEXT: %[[P:.*]] = "mlc.mul"(%[[Q]], %[[V]]) : (tensor<4x1x16xf32>, tensor<4x32x16xf32>) -> tensor<4x32x16xf32>
// CHECK-NEXT: "mlc.reduce_sum"(%[[P]]) {axes = array<i64: -1>, keepdim = false} : (tensor<4x32x16xf32>) -> tensor<4x32xf32>
// CHECK-NOT:  mlc.transpose
// CHECK-NOT:  mlc.matmul
func.func @transposed_then_viewed(%q: tensor<4x1x16xf32>, %k: tensor<1x4x32x16xf32>) -> tensor<4x1x32xf32> {
  %kt = "mlc.transpose"(%k) {permutation = array<i64: 0, 1, 3, 2>} : (tensor<1x4x32x16xf32>) -> tensor<1x4x16x32xf32>
  %v = "mlc.reshape"(%kt) : (tensor<1x4x16x32xf32>) -> tensor<4x16x32xf32>
  %s = "mlc.matmul"(%q, %v) : (tensor<4x1x16xf32>, tensor<4x16x32xf32>) -> tensor<4x1x32xf32>
  return %s : tensor<4x1x32xf32>
}

// -----

/// A row broadcast against batched keys: the multiply broadcasts it as the matmul did.

// CHECK-LABEL: func.func @row_broadcast_over_batch
// CHECK: "mlc.mul"(%{{.*}}, %{{.*}}) : (tensor<1x8xf32>, tensor<3x5x8xf32>) -> tensor<3x5x8xf32>
// CHECK: "mlc.reduce_sum"
// CHECK: "mlc.reshape"(%{{.*}}) : (tensor<3x5xf32>) -> tensor<3x1x5xf32>
func.func @row_broadcast_over_batch(%q: tensor<1x8xf32>, %k: tensor<3x5x8xf32>) -> tensor<3x1x5xf32> {
  %kt = "mlc.transpose"(%k) {permutation = array<i64: 0, 2, 1>} : (tensor<3x5x8xf32>) -> tensor<3x8x5xf32>
  %s = "mlc.matmul"(%q, %kt) : (tensor<1x8xf32>, tensor<3x8x5xf32>) -> tensor<3x1x5xf32>
  return %s : tensor<3x1x5xf32>
}

// -----

/// Kept as matmuls: a constant (weight) operand, more than one row, a matrix that is
/// not transposed (summing down its columns measured slower than IREE's matmul), a
/// transpose of other dimensions, a view that changes the matrix dimensions, integers,
/// and a dynamic size.

// CHECK-LABEL: func.func @negative_kept
// CHECK-COUNT-7: "mlc.matmul"
// CHECK-NOT: mlc.reduce_sum
/// The statistics add up over the split inputs: the three cases above rewrote one each,
/// this one none, the last three.
// STATS: (1) matvecs to multiply-sum
// STATS: (2) matvecs to multiply-sum
// STATS: (3) matvecs to multiply-sum
// STATS-NEXT: 'mlc-matvec-to-reduction'
// STATS-NEXT: (3) matvecs to multiply-sum
// STATS-NEXT: 'mlc-matvec-to-reduction'
// STATS-NEXT: (6) matvecs to multiply-sum
func.func @negative_kept(%q: tensor<1x64xf32>, %q2: tensor<2x64xf32>, %m: tensor<64x96xf32>, %k: tensor<96x64xf32>,
                         %h: tensor<2x64x96xf32>, %qi: tensor<1x64xi32>, %ki: tensor<96x64xi32>,
                         %kd: tensor<?x64xf32>, %k4: tensor<2x48x64xf32>, %q3: tensor<2x1x96xf32>)
    -> (tensor<1x96xf32>, tensor<2x96xf32>, tensor<1x96xf32>, tensor<2x1x64xf32>, tensor<1x96xi32>, tensor<1x?xf32>, tensor<1x96xf32>) {
  %w = "mlc.constant"() {value = dense<1.0> : tensor<64x96xf32>} : () -> tensor<64x96xf32>
  %0 = "mlc.matmul"(%q, %w) : (tensor<1x64xf32>, tensor<64x96xf32>) -> tensor<1x96xf32>
  %kt = "mlc.transpose"(%k) {permutation = array<i64: 1, 0>} : (tensor<96x64xf32>) -> tensor<64x96xf32>
  %1 = "mlc.matmul"(%q2, %kt) : (tensor<2x64xf32>, tensor<64x96xf32>) -> tensor<2x96xf32>
  %2 = "mlc.matmul"(%q, %m) : (tensor<1x64xf32>, tensor<64x96xf32>) -> tensor<1x96xf32>
  %ht = "mlc.transpose"(%h) {permutation = array<i64: 2, 0, 1>} : (tensor<2x64x96xf32>) -> tensor<96x2x64xf32>
  %hv = "mlc.reshape"(%ht) : (tensor<96x2x64xf32>) -> tensor<2x96x64xf32>
  %3 = "mlc.matmul"(%q3, %hv) : (tensor<2x1x96xf32>, tensor<2x96x64xf32>) -> tensor<2x1x64xf32>
  %kit = "mlc.transpose"(%ki) {permutation = array<i64: 1, 0>} : (tensor<96x64xi32>) -> tensor<64x96xi32>
  %4 = "mlc.matmul"(%qi, %kit) : (tensor<1x64xi32>, tensor<64x96xi32>) -> tensor<1x96xi32>
  %kdt = "mlc.transpose"(%kd) {permutation = array<i64: 1, 0>} : (tensor<?x64xf32>) -> tensor<64x?xf32>
  %5 = "mlc.matmul"(%q, %kdt) : (tensor<1x64xf32>, tensor<64x?xf32>) -> tensor<1x?xf32>
  %k4t = "mlc.transpose"(%k4) {permutation = array<i64: 0, 2, 1>} : (tensor<2x48x64xf32>) -> tensor<2x64x48xf32>
  %k4v = "mlc.reshape"(%k4t) : (tensor<2x64x48xf32>) -> tensor<64x96xf32>
  %6 = "mlc.matmul"(%q, %k4v) : (tensor<1x64xf32>, tensor<64x96xf32>) -> tensor<1x96xf32>
  return %0, %1, %2, %3, %4, %5, %6 : tensor<1x96xf32>, tensor<2x96xf32>, tensor<1x96xf32>, tensor<2x1x64xf32>, tensor<1x96xi32>, tensor<1x?xf32>, tensor<1x96xf32>
}

// -----

/// Three rewritten (the statistics above).

// CHECK-LABEL: func.func @three
// CHECK-COUNT-3: "mlc.reduce_sum"
func.func @three(%q: tensor<1x8xf32>, %k: tensor<5x8xf32>) -> (tensor<1x5xf32>, tensor<1x5xf32>, tensor<1x5xf32>) {
  %kt = "mlc.transpose"(%k) {permutation = array<i64: 1, 0>} : (tensor<5x8xf32>) -> tensor<8x5xf32>
  %0 = "mlc.matmul"(%q, %kt) : (tensor<1x8xf32>, tensor<8x5xf32>) -> tensor<1x5xf32>
  %1 = "mlc.matmul"(%q, %kt) : (tensor<1x8xf32>, tensor<8x5xf32>) -> tensor<1x5xf32>
  %2 = "mlc.matmul"(%q, %kt) : (tensor<1x8xf32>, tensor<8x5xf32>) -> tensor<1x5xf32>
  return %0, %1, %2 : tensor<1x5xf32>, tensor<1x5xf32>, tensor<1x5xf32>
}
