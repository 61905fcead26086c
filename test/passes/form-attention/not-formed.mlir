// RUN: mlc-opt %s --split-input-file --pass-pipeline='builtin.module(mlc-form-attention{library=true})' | FileCheck %s
// RUN: mlc-opt %s --split-input-file --pass-pipeline='builtin.module(mlc-form-attention{library=true})' --mlir-pass-statistics -o /dev/null 2>&1 | FileCheck %s --check-prefix=STATS

/// Chains mlc-form-attention leaves as they are: a step whose value is used again
/// (forming would compute it twice), a softmax over another axis, operands that are
/// not f32, broadcast batch dimensions, a mask the plugin cannot read by two strides,
/// a scale that is not a constant, and selects that are not torch's zeroing of fully
/// masked rows. Each keeps its matmuls and softmax, and none is counted.

// STATS: 'mlc-form-attention'
// STATS-NOT: attentions formed

// CHECK-LABEL: func.func @weights_used_again
// CHECK-NOT:   mlc.attention
// CHECK:       %[[W:.*]] = "mlc.softmax"
// CHECK:       %[[O:.*]] = "mlc.matmul"(%[[W]], %{{.*}})
// CHECK:       return %[[O]], %[[W]]
func.func @weights_used_again(%q: tensor<4x8x16xf32>, %k: tensor<4x8x16xf32>, %v: tensor<4x8x16xf32>) -> (tensor<4x8x16xf32>, tensor<4x8x8xf32>) {
  %kt = "mlc.transpose"(%k) {permutation = array<i64: 0, 2, 1>} : (tensor<4x8x16xf32>) -> tensor<4x16x8xf32>
  %s = "mlc.matmul"(%q, %kt) : (tensor<4x8x16xf32>, tensor<4x16x8xf32>) -> tensor<4x8x8xf32>
  %w = "mlc.softmax"(%s) {axis = 2 : i64} : (tensor<4x8x8xf32>) -> tensor<4x8x8xf32>
  %o = "mlc.matmul"(%w, %v) : (tensor<4x8x8xf32>, tensor<4x8x16xf32>) -> tensor<4x8x16xf32>
  return %o, %w : tensor<4x8x16xf32>, tensor<4x8x8xf32>
}

// -----

// CHECK-LABEL: func.func @scores_used_again
// CHECK-NOT:   mlc.attention
// CHECK:       %[[S:.*]] = "mlc.matmul"
// CHECK:       "mlc.softmax"(%[[S]])
// CHECK:       "mlc.matmul"
// CHECK:       return %{{.*}}, %[[S]]
func.func @scores_used_again(%q: tensor<4x8x16xf32>, %k: tensor<4x8x16xf32>, %v: tensor<4x8x16xf32>) -> (tensor<4x8x16xf32>, tensor<4x8x8xf32>) {
  %kt = "mlc.transpose"(%k) {permutation = array<i64: 0, 2, 1>} : (tensor<4x8x16xf32>) -> tensor<4x16x8xf32>
  %s = "mlc.matmul"(%q, %kt) : (tensor<4x8x16xf32>, tensor<4x16x8xf32>) -> tensor<4x8x8xf32>
  %w = "mlc.softmax"(%s) {axis = 2 : i64} : (tensor<4x8x8xf32>) -> tensor<4x8x8xf32>
  %o = "mlc.matmul"(%w, %v) : (tensor<4x8x8xf32>, tensor<4x8x16xf32>) -> tensor<4x8x16xf32>
  return %o, %s : tensor<4x8x16xf32>, tensor<4x8x8xf32>
}

// -----

/// The scaled scores used again: the scale stays a step of its own, and so does the rest.

// CHECK-LABEL: func.func @scaled_scores_used_again
// CHECK-NOT:   mlc.attention
// CHECK:       %[[M:.*]] = "mlc.mul"
// CHECK:       "mlc.softmax"(%[[M]])
// CHECK:       return %{{.*}}, %[[M]]
func.func @scaled_scores_used_again(%q: tensor<4x8x16xf32>, %k: tensor<4x8x16xf32>, %v: tensor<4x8x16xf32>) -> (tensor<4x8x16xf32>, tensor<4x8x8xf32>) {
  %kt = "mlc.transpose"(%k) {permutation = array<i64: 0, 2, 1>} : (tensor<4x8x16xf32>) -> tensor<4x16x8xf32>
  %s = "mlc.matmul"(%q, %kt) : (tensor<4x8x16xf32>, tensor<4x16x8xf32>) -> tensor<4x8x8xf32>
  %c = "mlc.constant"() {value = dense<1.250000e-01> : tensor<f32>} : () -> tensor<f32>
  %m = "mlc.mul"(%s, %c) : (tensor<4x8x8xf32>, tensor<f32>) -> tensor<4x8x8xf32>
  %w = "mlc.softmax"(%m) {axis = 2 : i64} : (tensor<4x8x8xf32>) -> tensor<4x8x8xf32>
  %o = "mlc.matmul"(%w, %v) : (tensor<4x8x8xf32>, tensor<4x8x16xf32>) -> tensor<4x8x16xf32>
  return %o, %m : tensor<4x8x16xf32>, tensor<4x8x8xf32>
}

// -----

/// A softmax over the query axis (1 of [4, 8, 8]), not over the keys.

// CHECK-LABEL: func.func @softmax_over_queries
// CHECK-NOT:   mlc.attention
// CHECK:       "mlc.softmax"(%{{.*}}) {axis = 1 : i64}
// CHECK:       "mlc.matmul"
func.func @softmax_over_queries(%q: tensor<4x8x16xf32>, %k: tensor<4x8x16xf32>, %v: tensor<4x8x16xf32>) -> tensor<4x8x16xf32> {
  %kt = "mlc.transpose"(%k) {permutation = array<i64: 0, 2, 1>} : (tensor<4x8x16xf32>) -> tensor<4x16x8xf32>
  %s = "mlc.matmul"(%q, %kt) : (tensor<4x8x16xf32>, tensor<4x16x8xf32>) -> tensor<4x8x8xf32>
  %w = "mlc.softmax"(%s) {axis = 1 : i64} : (tensor<4x8x8xf32>) -> tensor<4x8x8xf32>
  %o = "mlc.matmul"(%w, %v) : (tensor<4x8x8xf32>, tensor<4x8x16xf32>) -> tensor<4x8x16xf32>
  return %o : tensor<4x8x16xf32>
}

// -----

/// The plugin's attention is f32 only.

// CHECK-LABEL: func.func @f16
// CHECK-NOT:   mlc.attention
// CHECK:       "mlc.softmax"
// CHECK:       "mlc.matmul"
func.func @f16(%q: tensor<4x8x16xf16>, %k: tensor<4x8x16xf16>, %v: tensor<4x8x16xf16>) -> tensor<4x8x16xf16> {
  %kt = "mlc.transpose"(%k) {permutation = array<i64: 0, 2, 1>} : (tensor<4x8x16xf16>) -> tensor<4x16x8xf16>
  %s = "mlc.matmul"(%q, %kt) : (tensor<4x8x16xf16>, tensor<4x16x8xf16>) -> tensor<4x8x8xf16>
  %w = "mlc.softmax"(%s) {axis = 2 : i64} : (tensor<4x8x8xf16>) -> tensor<4x8x8xf16>
  %o = "mlc.matmul"(%w, %v) : (tensor<4x8x8xf16>, tensor<4x8x16xf16>) -> tensor<4x8x16xf16>
  return %o : tensor<4x8x16xf16>
}

// -----

// CHECK-LABEL: func.func @bf16
// CHECK-NOT:   mlc.attention
// CHECK:       "mlc.softmax"
// CHECK:       "mlc.matmul"
func.func @bf16(%q: tensor<4x8x16xbf16>, %k: tensor<4x8x16xbf16>, %v: tensor<4x8x16xbf16>) -> tensor<4x8x16xbf16> {
  %kt = "mlc.transpose"(%k) {permutation = array<i64: 0, 2, 1>} : (tensor<4x8x16xbf16>) -> tensor<4x16x8xbf16>
  %s = "mlc.matmul"(%q, %kt) : (tensor<4x8x16xbf16>, tensor<4x16x8xbf16>) -> tensor<4x8x8xbf16>
  %c = "mlc.constant"() {value = dense<1.250000e-01> : tensor<bf16>} : () -> tensor<bf16>
  %m = "mlc.mul"(%s, %c) : (tensor<4x8x8xbf16>, tensor<bf16>) -> tensor<4x8x8xbf16>
  %w = "mlc.softmax"(%m) {axis = 2 : i64} : (tensor<4x8x8xbf16>) -> tensor<4x8x8xbf16>
  %o = "mlc.matmul"(%w, %v) : (tensor<4x8x8xbf16>, tensor<4x8x16xbf16>) -> tensor<4x8x16xbf16>
  return %o : tensor<4x8x16xbf16>
}

// -----

/// One key for every head (batch [1] broadcast against [4]): the op takes equal
/// batch dimensions only.

// CHECK-LABEL: func.func @broadcast_key
// CHECK-NOT:   mlc.attention
// CHECK:       "mlc.softmax"
// CHECK:       "mlc.matmul"
func.func @broadcast_key(%q: tensor<4x8x16xf32>, %k: tensor<1x8x16xf32>, %v: tensor<4x8x16xf32>) -> tensor<4x8x16xf32> {
  %kt = "mlc.transpose"(%k) {permutation = array<i64: 0, 2, 1>} : (tensor<1x8x16xf32>) -> tensor<1x16x8xf32>
  %s = "mlc.matmul"(%q, %kt) : (tensor<4x8x16xf32>, tensor<1x16x8xf32>) -> tensor<4x8x8xf32>
  %w = "mlc.softmax"(%s) {axis = 2 : i64} : (tensor<4x8x8xf32>) -> tensor<4x8x8xf32>
  %o = "mlc.matmul"(%w, %v) : (tensor<4x8x8xf32>, tensor<4x8x16xf32>) -> tensor<4x8x16xf32>
  return %o : tensor<4x8x16xf32>
}

// -----

/// One value for every head.

// CHECK-LABEL: func.func @broadcast_value
// CHECK-NOT:   mlc.attention
// CHECK:       "mlc.softmax"
// CHECK:       "mlc.matmul"
func.func @broadcast_value(%q: tensor<4x8x16xf32>, %k: tensor<4x8x16xf32>, %v: tensor<1x8x16xf32>) -> tensor<4x8x16xf32> {
  %kt = "mlc.transpose"(%k) {permutation = array<i64: 0, 2, 1>} : (tensor<4x8x16xf32>) -> tensor<4x16x8xf32>
  %s = "mlc.matmul"(%q, %kt) : (tensor<4x8x16xf32>, tensor<4x16x8xf32>) -> tensor<4x8x8xf32>
  %w = "mlc.softmax"(%s) {axis = 2 : i64} : (tensor<4x8x8xf32>) -> tensor<4x8x8xf32>
  %o = "mlc.matmul"(%w, %v) : (tensor<4x8x8xf32>, tensor<1x8x16xf32>) -> tensor<4x8x16xf32>
  return %o : tensor<4x8x16xf32>
}

// -----

/// Scores [2, 3, 4, 8, 8] and a mask [2, 1, 4, 8, 8]: read over the batch, the mask's
/// strides are (4 * 64, 0, 64), three runs where the plugin reads two (an outer index
/// and a head within it).

// CHECK-LABEL: func.func @mask_in_three_runs
// CHECK-NOT:   mlc.attention
// CHECK:       "mlc.add"
// CHECK:       "mlc.softmax"
// CHECK:       "mlc.matmul"
func.func @mask_in_three_runs(%q: tensor<2x3x4x8x16xf32>, %k: tensor<2x3x4x8x16xf32>, %v: tensor<2x3x4x8x16xf32>, %mask: tensor<2x1x4x8x8xf32>) -> tensor<2x3x4x8x16xf32> {
  %kt = "mlc.transpose"(%k) {permutation = array<i64: 0, 1, 2, 4, 3>} : (tensor<2x3x4x8x16xf32>) -> tensor<2x3x4x16x8xf32>
  %s = "mlc.matmul"(%q, %kt) : (tensor<2x3x4x8x16xf32>, tensor<2x3x4x16x8xf32>) -> tensor<2x3x4x8x8xf32>
  %a = "mlc.add"(%s, %mask) : (tensor<2x3x4x8x8xf32>, tensor<2x1x4x8x8xf32>) -> tensor<2x3x4x8x8xf32>
  %w = "mlc.softmax"(%a) {axis = 4 : i64} : (tensor<2x3x4x8x8xf32>) -> tensor<2x3x4x8x8xf32>
  %o = "mlc.matmul"(%w, %v) : (tensor<2x3x4x8x8xf32>, tensor<2x3x4x8x16xf32>) -> tensor<2x3x4x8x16xf32>
  return %o : tensor<2x3x4x8x16xf32>
}

// -----

/// A scale that is an argument, not a constant.

// CHECK-LABEL: func.func @scale_not_constant
// CHECK-NOT:   mlc.attention
// CHECK:       "mlc.mul"
// CHECK:       "mlc.softmax"
// CHECK:       "mlc.matmul"
func.func @scale_not_constant(%q: tensor<4x8x16xf32>, %k: tensor<4x8x16xf32>, %v: tensor<4x8x16xf32>, %scale: tensor<f32>) -> tensor<4x8x16xf32> {
  %kt = "mlc.transpose"(%k) {permutation = array<i64: 0, 2, 1>} : (tensor<4x8x16xf32>) -> tensor<4x16x8xf32>
  %s = "mlc.matmul"(%q, %kt) : (tensor<4x8x16xf32>, tensor<4x16x8xf32>) -> tensor<4x8x8xf32>
  %m = "mlc.mul"(%s, %scale) : (tensor<4x8x8xf32>, tensor<f32>) -> tensor<4x8x8xf32>
  %w = "mlc.softmax"(%m) {axis = 2 : i64} : (tensor<4x8x8xf32>) -> tensor<4x8x8xf32>
  %o = "mlc.matmul"(%w, %v) : (tensor<4x8x8xf32>, tensor<4x8x16xf32>) -> tensor<4x8x16xf32>
  return %o : tensor<4x8x16xf32>
}

// -----

/// A scale that is a constant but not a splat (one factor per key).

// CHECK-LABEL: func.func @scale_per_key
// CHECK-NOT:   mlc.attention
// CHECK:       "mlc.mul"
// CHECK:       "mlc.softmax"
func.func @scale_per_key(%q: tensor<4x8x16xf32>, %k: tensor<4x8x16xf32>, %v: tensor<4x8x16xf32>) -> tensor<4x8x16xf32> {
  %kt = "mlc.transpose"(%k) {permutation = array<i64: 0, 2, 1>} : (tensor<4x8x16xf32>) -> tensor<4x16x8xf32>
  %s = "mlc.matmul"(%q, %kt) : (tensor<4x8x16xf32>, tensor<4x16x8xf32>) -> tensor<4x8x8xf32>
  %c = "mlc.constant"() {value = dense<[1.0, 2.0, 1.0, 2.0, 1.0, 2.0, 1.0, 2.0]> : tensor<8xf32>} : () -> tensor<8xf32>
  %m = "mlc.mul"(%s, %c) : (tensor<4x8x8xf32>, tensor<8xf32>) -> tensor<4x8x8xf32>
  %w = "mlc.softmax"(%m) {axis = 2 : i64} : (tensor<4x8x8xf32>) -> tensor<4x8x8xf32>
  %o = "mlc.matmul"(%w, %v) : (tensor<4x8x8xf32>, tensor<4x8x16xf32>) -> tensor<4x8x16xf32>
  return %o : tensor<4x8x16xf32>
}

// -----

/// A select that is not the zeroing of fully masked rows: its condition compares
/// the weights themselves.

// CHECK-LABEL: func.func @other_select
// CHECK-NOT:   mlc.attention
// CHECK:       "mlc.softmax"
// CHECK:       "mlc.select"
// CHECK:       "mlc.matmul"
func.func @other_select(%q: tensor<4x8x16xf32>, %k: tensor<4x8x16xf32>, %v: tensor<4x8x16xf32>, %cond: tensor<4x8x8xi1>) -> tensor<4x8x16xf32> {
  %kt = "mlc.transpose"(%k) {permutation = array<i64: 0, 2, 1>} : (tensor<4x8x16xf32>) -> tensor<4x16x8xf32>
  %s = "mlc.matmul"(%q, %kt) : (tensor<4x8x16xf32>, tensor<4x16x8xf32>) -> tensor<4x8x8xf32>
  %w = "mlc.softmax"(%s) {axis = 2 : i64} : (tensor<4x8x8xf32>) -> tensor<4x8x8xf32>
  %zero = "mlc.constant"() {value = dense<0.000000e+00> : tensor<f32>} : () -> tensor<f32>
  %z = "mlc.select"(%cond, %zero, %w) : (tensor<4x8x8xi1>, tensor<f32>, tensor<4x8x8xf32>) -> tensor<4x8x8xf32>
  %o = "mlc.matmul"(%z, %v) : (tensor<4x8x8xf32>, tensor<4x8x16xf32>) -> tensor<4x8x16xf32>
  return %o : tensor<4x8x16xf32>
}

// -----

/// The zeroing of rows all -inf in one mask of two (as the conversion once wrote it):
/// the op's zero_masked_rows zeroes where the scores, the masks added, are -inf.

// CHECK-LABEL: func.func @zeroing_other_mask
// CHECK-NOT:   mlc.attention
// CHECK:       "mlc.softmax"
// CHECK:       "mlc.select"
func.func @zeroing_other_mask(%q: tensor<4x8x16xf32>, %k: tensor<4x8x16xf32>, %v: tensor<4x8x16xf32>, %mask: tensor<4x8x8xf32>, %other: tensor<4x8x8xf32>) -> tensor<4x8x16xf32> {
  %kt = "mlc.transpose"(%k) {permutation = array<i64: 0, 2, 1>} : (tensor<4x8x16xf32>) -> tensor<4x16x8xf32>
  %s = "mlc.matmul"(%q, %kt) : (tensor<4x8x16xf32>, tensor<4x16x8xf32>) -> tensor<4x8x8xf32>
  %a = "mlc.add"(%s, %mask) : (tensor<4x8x8xf32>, tensor<4x8x8xf32>) -> tensor<4x8x8xf32>
  %w = "mlc.softmax"(%a) {axis = 2 : i64} : (tensor<4x8x8xf32>) -> tensor<4x8x8xf32>
  %peak = "mlc.reduce_max"(%other) {axes = array<i64: -1>, keepdim = true} : (tensor<4x8x8xf32>) -> tensor<4x8x1xf32>
  %ninf = "mlc.constant"() {value = dense<0xFF800000> : tensor<f32>} : () -> tensor<f32>
  %masked = "mlc.compare"(%peak, %ninf) {predicate = "eq"} : (tensor<4x8x1xf32>, tensor<f32>) -> tensor<4x8x1xi1>
  %zero = "mlc.constant"() {value = dense<0.000000e+00> : tensor<f32>} : () -> tensor<f32>
  %z = "mlc.select"(%masked, %zero, %w) : (tensor<4x8x1xi1>, tensor<f32>, tensor<4x8x8xf32>) -> tensor<4x8x8xf32>
  %o = "mlc.matmul"(%z, %v) : (tensor<4x8x8xf32>, tensor<4x8x16xf32>) -> tensor<4x8x16xf32>
  return %o : tensor<4x8x16xf32>
}

// -----

/// One flag per row, from a max over the mask's rows (the form the conversion wrote
/// before): the op zeroes a weight where its own score is -inf, not by the mask's rows.

// CHECK-LABEL: func.func @row_flags_of_the_mask
// CHECK-NOT:   mlc.attention
// CHECK:       "mlc.softmax"
// CHECK:       "mlc.select"
func.func @row_flags_of_the_mask(%q: tensor<8x8x16xf32>, %k: tensor<8x8x16xf32>, %v: tensor<8x8x16xf32>, %mask: tensor<8x8x8xf32>) -> tensor<8x8x16xf32> {
  %kt = "mlc.transpose"(%k) {permutation = array<i64: 0, 2, 1>} : (tensor<8x8x16xf32>) -> tensor<8x16x8xf32>
  %s = "mlc.matmul"(%q, %kt) : (tensor<8x8x16xf32>, tensor<8x16x8xf32>) -> tensor<8x8x8xf32>
  %a = "mlc.add"(%s, %mask) : (tensor<8x8x8xf32>, tensor<8x8x8xf32>) -> tensor<8x8x8xf32>
  %w = "mlc.softmax"(%a) {axis = 2 : i64} : (tensor<8x8x8xf32>) -> tensor<8x8x8xf32>
  %peak = "mlc.reduce_max"(%mask) {axes = array<i64: -1>, keepdim = true} : (tensor<8x8x8xf32>) -> tensor<8x8x1xf32>
  %inf = "mlc.constant"() {value = dense<0xFF800000> : tensor<f32>} : () -> tensor<f32>
  %zero = "mlc.constant"() {value = dense<0.0> : tensor<f32>} : () -> tensor<f32>
  %masked = "mlc.compare"(%peak, %inf) {predicate = "eq"} : (tensor<8x8x1xf32>, tensor<f32>) -> tensor<8x8x1xi1>
  %z = "mlc.select"(%masked, %zero, %w) : (tensor<8x8x1xi1>, tensor<f32>, tensor<8x8x8xf32>) -> tensor<8x8x8xf32>
  %o = "mlc.matmul"(%z, %v) : (tensor<8x8x8xf32>, tensor<8x8x16xf32>) -> tensor<8x8x16xf32>
  return %o : tensor<8x8x16xf32>
}

// -----

/// The scores compared with -inf are also returned: the op would hide them, so the
/// steps stay.

// CHECK-LABEL: func.func @zeroed_scores_used_again
// CHECK-NOT:   mlc.attention
// CHECK:       "mlc.softmax"
// CHECK:       "mlc.select"
func.func @zeroed_scores_used_again(%q: tensor<4x8x16xf32>, %kt: tensor<4x16x8xf32>, %v: tensor<4x8x16xf32>) -> (tensor<4x8x16xf32>, tensor<4x8x8xf32>) {
  %s = "mlc.matmul"(%q, %kt) : (tensor<4x8x16xf32>, tensor<4x16x8xf32>) -> tensor<4x8x8xf32>
  %w = "mlc.softmax"(%s) {axis = -1 : i64} : (tensor<4x8x8xf32>) -> tensor<4x8x8xf32>
  %ninf = "mlc.constant"() {value = dense<0xFF800000> : tensor<f32>} : () -> tensor<f32>
  %empty = "mlc.compare"(%s, %ninf) {predicate = "eq"} : (tensor<4x8x8xf32>, tensor<f32>) -> tensor<4x8x8xi1>
  %zero = "mlc.constant"() {value = dense<0.000000e+00> : tensor<f32>} : () -> tensor<f32>
  %z = "mlc.select"(%empty, %zero, %w) : (tensor<4x8x8xi1>, tensor<f32>, tensor<4x8x8xf32>) -> tensor<4x8x8xf32>
  %o = "mlc.matmul"(%z, %v) : (tensor<4x8x8xf32>, tensor<4x8x16xf32>) -> tensor<4x8x16xf32>
  return %o, %s : tensor<4x8x16xf32>, tensor<4x8x8xf32>
}
