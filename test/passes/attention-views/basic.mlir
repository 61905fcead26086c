// RUN: mlc-opt %s --split-input-file --pass-pipeline='builtin.module(mlc-attention-views)' | FileCheck %s
// RUN: mlc-opt %s --split-input-file --pass-pipeline='builtin.module(mlc-attention-views)' --mlir-pass-statistics -o /dev/null 2>&1 | FileCheck %s --check-prefix=STATS

/// An attention on the plugin reads its query, key and value where they lie: the
/// slices, reshapes and transposes that cut the heads out of a fused projection become
/// the op's `views` ([N, D], then offset, heads per outer index, outer, head and row
/// strides for each operand), the operands the projection itself, and the copies go.

// STATS: 'mlc-attention-views'
// STATS-NEXT: (3) operands read in place
// STATS: (5) operands read in place
// STATS: (8) operands read in place

/// nn.MultiheadAttention's (seq-first, batch 2, 4 heads of 8): the projection [16, 96]
/// is [tokens 8 x batch 2, q k v x 4 heads x 8]. Head (b, h) of q: offset 0, 4 heads
/// per batch index, b at stride 96, h at 8, rows (tokens) at 192; k at offset 32, v 64.

// CHECK-LABEL: func.func @multi_head_projection
// CHECK-SAME:    (%[[QKV:.*]]: tensor<16x96xf32>
// CHECK-NOT:   mlc.slice
// CHECK-NOT:   mlc.transpose
// CHECK:       "mlc.attention"(%[[QKV]], %[[QKV]], %[[QKV]], %{{.*}}) {bf16_products = false, library = true, scale = 1.000000e+00 : f64, views = array<i64: 8, 8, 0, 4, 96, 8, 192, 32, 4, 96, 8, 192, 64, 4, 96, 8, 192>, zero_masked_rows = false, zero_masked_tail = false} : (tensor<16x96xf32>, tensor<16x96xf32>, tensor<16x96xf32>, tensor<f32>) -> tensor<8x8x8xf32>
func.func @multi_head_projection(%qkv: tensor<16x96xf32>, %none: tensor<f32>) -> tensor<8x8x8xf32> {
  %0 = "mlc.reshape"(%qkv) : (tensor<16x96xf32>) -> tensor<8x2x3x32xf32>
  %q0 = "mlc.slice"(%0) {limit = array<i64: 8, 2, 1, 32>, start = array<i64: 0, 0, 0, 0>, stride = array<i64: 1, 1, 1, 1>} : (tensor<8x2x3x32xf32>) -> tensor<8x2x1x32xf32>
  %k0 = "mlc.slice"(%0) {limit = array<i64: 8, 2, 2, 32>, start = array<i64: 0, 0, 1, 0>, stride = array<i64: 1, 1, 1, 1>} : (tensor<8x2x3x32xf32>) -> tensor<8x2x1x32xf32>
  %v0 = "mlc.slice"(%0) {limit = array<i64: 8, 2, 3, 32>, start = array<i64: 0, 0, 2, 0>, stride = array<i64: 1, 1, 1, 1>} : (tensor<8x2x3x32xf32>) -> tensor<8x2x1x32xf32>
  %q1 = "mlc.reshape"(%q0) : (tensor<8x2x1x32xf32>) -> tensor<8x8x8xf32>
  %k1 = "mlc.reshape"(%k0) : (tensor<8x2x1x32xf32>) -> tensor<8x8x8xf32>
  %v1 = "mlc.reshape"(%v0) : (tensor<8x2x1x32xf32>) -> tensor<8x8x8xf32>
  %q = "mlc.transpose"(%q1) {permutation = array<i64: 1, 0, 2>} : (tensor<8x8x8xf32>) -> tensor<8x8x8xf32>
  %k = "mlc.transpose"(%k1) {permutation = array<i64: 1, 0, 2>} : (tensor<8x8x8xf32>) -> tensor<8x8x8xf32>
  %v = "mlc.transpose"(%v1) {permutation = array<i64: 1, 0, 2>} : (tensor<8x8x8xf32>) -> tensor<8x8x8xf32>
  %o = "mlc.attention"(%q, %k, %v, %none) {bf16_products = false, library = true, scale = 1.0 : f64, views = array<i64>, zero_masked_rows = false, zero_masked_tail = false} : (tensor<8x8x8xf32>, tensor<8x8x8xf32>, tensor<8x8x8xf32>, tensor<f32>) -> tensor<8x8x8xf32>
  return %o : tensor<8x8x8xf32>
}

// -----

/// BERT's: [1, 128, 12, 64] projections, heads moved to the front by transposes; here
/// the key also feeds another op, so its transpose stays, and the value is an argument
/// (a dense view: offset 0, one head per outer index, outer stride 8 x 16, rows 16). The
/// two heads of q and k are one run 16 apart, their rows 32.

// CHECK-LABEL: func.func @heads_moved_to_the_front
// CHECK-SAME:    (%[[Q:.*]]: tensor<1x8x2x16xf32>, %[[K:.*]]: tensor<1x8x2x16xf32>, %[[V:.*]]: tensor<2x8x16xf32>
// CHECK:       %[[KT:.*]] = "mlc.transpose"(%[[K]])
// CHECK-NOT:   "mlc.transpose"(%[[Q]])
// CHECK:       "mlc.attention"(%[[Q]], %[[K]], %[[V]], %{{.*}}) {bf16_products = false, library = true, scale = 1.000000e+00 : f64, views = array<i64: 8, 16, 0, 1, 16, 0, 32, 0, 1, 16, 0, 32, 0, 1, 128, 0, 16>, zero_masked_rows = false, zero_masked_tail = false}
// CHECK:       return %{{.*}}, %[[KT]]
func.func @heads_moved_to_the_front(%q4: tensor<1x8x2x16xf32>, %k4: tensor<1x8x2x16xf32>, %v: tensor<2x8x16xf32>, %none: tensor<f32>) -> (tensor<2x8x16xf32>, tensor<1x2x8x16xf32>) {
  %qt = "mlc.transpose"(%q4) {permutation = array<i64: 0, 2, 1, 3>} : (tensor<1x8x2x16xf32>) -> tensor<1x2x8x16xf32>
  %kt = "mlc.transpose"(%k4) {permutation = array<i64: 0, 2, 1, 3>} : (tensor<1x8x2x16xf32>) -> tensor<1x2x8x16xf32>
  %q = "mlc.reshape"(%qt) : (tensor<1x2x8x16xf32>) -> tensor<2x8x16xf32>
  %k = "mlc.reshape"(%kt) : (tensor<1x2x8x16xf32>) -> tensor<2x8x16xf32>
  %o = "mlc.attention"(%q, %k, %v, %none) {bf16_products = false, library = true, scale = 1.0 : f64, views = array<i64>, zero_masked_rows = false, zero_masked_tail = false} : (tensor<2x8x16xf32>, tensor<2x8x16xf32>, tensor<2x8x16xf32>, tensor<f32>) -> tensor<2x8x16xf32>
  return %o, %kt : tensor<2x8x16xf32>, tensor<1x2x8x16xf32>
}

// -----

/// Grouped-query attention at a decode step (Llama's repeat_kv): 4 query heads, 2 for
/// keys and values, each repeated for its group of 2 by a broadcast. The cache [1, 2, 16, 8]
/// is read in place: 2 heads per outer index at stride 0, outer stride 16 x 8. The
/// generator's promise that the cache past the keys attended to holds zeros
/// (zero_masked_tail) stays on the op.

// CHECK-LABEL: func.func @grouped_query_heads
// CHECK-SAME:    (%[[Q:.*]]: tensor<1x4x1x8xf32>, %[[K:.*]]: tensor<1x2x16x8xf32>, %[[V:.*]]: tensor<1x2x16x8xf32>
// CHECK-NOT:   mlc.broadcast
// CHECK:       "mlc.attention"(%[[Q]], %[[K]], %[[V]], %{{.*}}) {bf16_products = false, library = true, scale = 1.000000e+00 : f64, views = array<i64: 16, 8, 0, 1, 8, 0, 8, 0, 2, 128, 0, 8, 0, 2, 128, 0, 8>, zero_masked_rows = false, zero_masked_tail = true}
func.func @grouped_query_heads(%q4: tensor<1x4x1x8xf32>, %k4: tensor<1x2x16x8xf32>, %v4: tensor<1x2x16x8xf32>, %none: tensor<f32>) -> tensor<4x1x8xf32> {
  %k5 = "mlc.reshape"(%k4) : (tensor<1x2x16x8xf32>) -> tensor<1x2x1x16x8xf32>
  %v5 = "mlc.reshape"(%v4) : (tensor<1x2x16x8xf32>) -> tensor<1x2x1x16x8xf32>
  %kb = "mlc.broadcast"(%k5) : (tensor<1x2x1x16x8xf32>) -> tensor<1x2x2x16x8xf32>
  %vb = "mlc.broadcast"(%v5) : (tensor<1x2x1x16x8xf32>) -> tensor<1x2x2x16x8xf32>
  %q = "mlc.reshape"(%q4) : (tensor<1x4x1x8xf32>) -> tensor<4x1x8xf32>
  %k = "mlc.reshape"(%kb) : (tensor<1x2x2x16x8xf32>) -> tensor<4x16x8xf32>
  %v = "mlc.reshape"(%vb) : (tensor<1x2x2x16x8xf32>) -> tensor<4x16x8xf32>
  %o = "mlc.attention"(%q, %k, %v, %none) {bf16_products = false, library = true, scale = 1.0 : f64, views = array<i64>, zero_masked_rows = false, zero_masked_tail = true} : (tensor<4x1x8xf32>, tensor<4x16x8xf32>, tensor<4x16x8xf32>, tensor<f32>) -> tensor<4x1x8xf32>
  return %o : tensor<4x1x8xf32>
}

// -----

/// A broadcast that repeats a key's rows or columns is no view the plugin reads (a row
/// stride of 0; columns not one apart): it stays, and so does the key's copy.

// CHECK-LABEL: func.func @broadcast_rows_stay
// CHECK:       %[[KB:.*]] = "mlc.broadcast"
// CHECK:       %[[K:.*]] = "mlc.reshape"(%[[KB]])
// CHECK:       "mlc.attention"(%{{.*}}, %[[K]], %{{.*}}, %{{.*}}) {bf16_products = false, library = true, scale = 1.000000e+00 : f64, views = array<i64>, zero_masked_rows = false, zero_masked_tail = false}
func.func @broadcast_rows_stay(%q: tensor<2x1x8xf32>, %k1: tensor<2x1x8xf32>, %v: tensor<2x16x8xf32>, %none: tensor<f32>) -> tensor<2x1x8xf32> {
  %kb = "mlc.broadcast"(%k1) : (tensor<2x1x8xf32>) -> tensor<2x16x8xf32>
  %k = "mlc.reshape"(%kb) : (tensor<2x16x8xf32>) -> tensor<2x16x8xf32>
  %o = "mlc.attention"(%q, %k, %v, %none) {bf16_products = false, library = true, scale = 1.0 : f64, views = array<i64>, zero_masked_rows = false, zero_masked_tail = false} : (tensor<2x1x8xf32>, tensor<2x16x8xf32>, tensor<2x16x8xf32>, tensor<f32>) -> tensor<2x1x8xf32>
  return %o : tensor<2x1x8xf32>
}

// -----

/// Left as they are: a query whose rows' elements are not contiguous (a transpose of
/// the last two dimensions), and an attention that is not on the library.

// CHECK-LABEL: func.func @not_in_place
// CHECK:       "mlc.transpose"
// CHECK:       "mlc.attention"({{.*}}) {bf16_products = false, library = true, scale = 1.000000e+00 : f64, views = array<i64>, zero_masked_rows = false, zero_masked_tail = false}
// CHECK:       "mlc.transpose"
// CHECK:       "mlc.attention"({{.*}}) {bf16_products = false, library = false, scale = 1.000000e+00 : f64, views = array<i64>, zero_masked_rows = false, zero_masked_tail = false}
func.func @not_in_place(%x: tensor<2x16x8xf32>, %k: tensor<2x8x16xf32>, %v: tensor<2x8x16xf32>, %none: tensor<f32>) -> (tensor<2x8x16xf32>, tensor<2x8x16xf32>) {
  %q = "mlc.transpose"(%x) {permutation = array<i64: 0, 2, 1>} : (tensor<2x16x8xf32>) -> tensor<2x8x16xf32>
  %o = "mlc.attention"(%q, %k, %v, %none) {bf16_products = false, library = true, scale = 1.0 : f64, views = array<i64>, zero_masked_rows = false, zero_masked_tail = false} : (tensor<2x8x16xf32>, tensor<2x8x16xf32>, tensor<2x8x16xf32>, tensor<f32>) -> tensor<2x8x16xf32>
  %y = "mlc.transpose"(%x) {permutation = array<i64: 0, 2, 1>} : (tensor<2x16x8xf32>) -> tensor<2x8x16xf32>
  %p = "mlc.attention"(%q, %k, %v, %none) {bf16_products = false, library = false, scale = 1.0 : f64, views = array<i64>, zero_masked_rows = false, zero_masked_tail = false} : (tensor<2x8x16xf32>, tensor<2x8x16xf32>, tensor<2x8x16xf32>, tensor<f32>) -> tensor<2x8x16xf32>
  return %o, %p : tensor<2x8x16xf32>, tensor<2x8x16xf32>
}
