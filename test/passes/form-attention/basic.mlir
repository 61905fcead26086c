// RUN: mlc-opt %s --split-input-file --pass-pipeline='builtin.module(mlc-form-attention{library=true})' | FileCheck %s
// RUN: mlc-opt %s --split-input-file --pass-pipeline='builtin.module(mlc-form-attention{library=true})' --mlir-pass-statistics -o /dev/null 2>&1 | FileCheck %s --check-prefix=STATS
// RUN: mlc-opt %s --split-input-file --pass-pipeline='builtin.module(mlc-form-attention{library=true zero-masked-tail=true})' | FileCheck %s --check-prefix=TAIL
// RUN: mlc-opt %s --split-input-file --pass-pipeline='builtin.module(mlc-form-attention{library=true bf16-products=true})' | FileCheck %s --check-prefix=BF16

/// mlc-form-attention makes matmul(select?(softmax(matmul(q, kT) * scale + mask...)), v)
/// one mlc.attention: the forms torch's scaled_dot_product_attention takes through
/// mlc's converter (a scale by multiply or divide, a broadcast mask, the select that
/// zeroes rows of scores all -inf), and the forms it drops (no scale, a constant false
/// select, a splat zero mask). Each chain here is formed: the count (which adds up
/// over the split inputs) grows by one with each function. With `zero-masked-tail`
/// (mlc.generator's promise that its cache past the keys attended to holds zeros) each
/// op says so, for the plugin to read only the keys attended to. With `bf16-products`
/// (the int8 pipeline's) each op multiplies bf16, its operands cast or not.

// TAIL-COUNT-14: zero_masked_tail = true
// TAIL-NOT:      zero_masked_tail = false

// BF16-COUNT-14: bf16_products = true
// BF16-NOT:      bf16_products = false

// STATS: 'mlc-form-attention'
// STATS-NEXT: (1) attentions formed
// STATS: (2) attentions formed
// STATS: (3) attentions formed
// STATS: (4) attentions formed
// STATS: (5) attentions formed
// STATS: (6) attentions formed
// STATS: (7) attentions formed
// STATS: (8) attentions formed
// STATS-NEXT: 'mlc-form-attention'
// STATS-NEXT: (9) attentions formed
// STATS-NEXT: 'mlc-form-attention'
// STATS-NEXT: (10) attentions formed
// STATS-NEXT: 'mlc-form-attention'
// STATS-NEXT: (11) attentions formed
// STATS-NEXT: 'mlc-form-attention'
// STATS-NEXT: (12) attentions formed
// STATS-NEXT: 'mlc-form-attention'
// STATS-NEXT: (13) attentions formed
// STATS-NEXT: 'mlc-form-attention'
// STATS-NEXT: (14) attentions formed
// STATS-NOT: attentions formed

/// As mlc's converter emits SDPA: the key [1, 128, 12, 64] transposed to [1, 12, 64,
/// 128] and viewed as [12, 64, 128]; the scale a 0-d splat; a mask broadcast over the
/// heads. The key operand is one transpose of x (the two transposes folded) viewed as
/// [12, 128, 64], and no step of the chain remains.

// CHECK-LABEL: func.func @sdpa_as_converted
// CHECK-SAME:    (%[[Q:.*]]: tensor<12x128x64xf32>, %[[X:.*]]: tensor<1x128x12x64xf32>, %[[V:.*]]: tensor<12x128x64xf32>, %[[MASK:.*]]: tensor<1x128x128xf32>)
// CHECK-NOT:   mlc.softmax
// CHECK:       %[[T:.*]] = "mlc.transpose"(%[[X]]) {permutation = array<i64: 0, 2, 1, 3>} : (tensor<1x128x12x64xf32>) -> tensor<1x12x128x64xf32>
// CHECK-NEXT:  %[[K:.*]] = "mlc.reshape"(%[[T]]) : (tensor<1x12x128x64xf32>) -> tensor<12x128x64xf32>
// CHECK-NEXT:  %[[O:.*]] = "mlc.attention"(%[[Q]], %[[K]], %[[V]], %[[MASK]]) {bf16_products = false, library = true, scale = 1.250000e-01 : f64, views = array<i64>, zero_masked_rows = false, zero_masked_tail = false} : (tensor<12x128x64xf32>, tensor<12x128x64xf32>, tensor<12x128x64xf32>, tensor<1x128x128xf32>) -> tensor<12x128x64xf32>
// CHECK-NEXT:  return %[[O]]
// CHECK-NOT:   mlc.softmax
// CHECK-NOT:   mlc.matmul
func.func @sdpa_as_converted(%q: tensor<12x128x64xf32>, %x: tensor<1x128x12x64xf32>, %v: tensor<12x128x64xf32>, %mask: tensor<1x128x128xf32>) -> tensor<12x128x64xf32> {
  %t = "mlc.transpose"(%x) {permutation = array<i64: 0, 2, 3, 1>} : (tensor<1x128x12x64xf32>) -> tensor<1x12x64x128xf32>
  %kt = "mlc.reshape"(%t) : (tensor<1x12x64x128xf32>) -> tensor<12x64x128xf32>
  %s = "mlc.matmul"(%q, %kt) : (tensor<12x128x64xf32>, tensor<12x64x128xf32>) -> tensor<12x128x128xf32>
  %c = "mlc.constant"() {value = dense<1.250000e-01> : tensor<f32>} : () -> tensor<f32>
  %m = "mlc.mul"(%s, %c) : (tensor<12x128x128xf32>, tensor<f32>) -> tensor<12x128x128xf32>
  %a = "mlc.add"(%m, %mask) : (tensor<12x128x128xf32>, tensor<1x128x128xf32>) -> tensor<12x128x128xf32>
  %w = "mlc.softmax"(%a) {axis = 2 : i64} : (tensor<12x128x128xf32>) -> tensor<12x128x128xf32>
  %o = "mlc.matmul"(%w, %v) : (tensor<12x128x128xf32>, tensor<12x128x64xf32>) -> tensor<12x128x64xf32>
  return %o : tensor<12x128x64xf32>
}

// -----

/// No mask and no scale; kT a transpose of k's last two dimensions, which folds away:
/// the key is k itself, the mask the 0-d zero that means none, the scale 1.0.

// CHECK-LABEL: func.func @unscaled_unmasked
// CHECK-SAME:    (%[[Q:.*]]: tensor<4x8x16xf32>, %[[K:.*]]: tensor<4x10x16xf32>, %[[V:.*]]: tensor<4x10x32xf32>)
// CHECK:       %[[ZERO:.*]] = "mlc.constant"() {value = dense<0.000000e+00> : tensor<f32>} : () -> tensor<f32>
// CHECK-NEXT:  %[[O:.*]] = "mlc.attention"(%[[Q]], %[[K]], %[[V]], %[[ZERO]]) {bf16_products = false, library = true, scale = 1.000000e+00 : f64, views = array<i64>, zero_masked_rows = false, zero_masked_tail = false} : (tensor<4x8x16xf32>, tensor<4x10x16xf32>, tensor<4x10x32xf32>, tensor<f32>) -> tensor<4x8x32xf32>
// CHECK-NEXT:  return %[[O]]
// CHECK-NOT:   mlc.transpose
// CHECK-NOT:   mlc.softmax
func.func @unscaled_unmasked(%q: tensor<4x8x16xf32>, %k: tensor<4x10x16xf32>, %v: tensor<4x10x32xf32>) -> tensor<4x8x32xf32> {
  %kt = "mlc.transpose"(%k) {permutation = array<i64: 0, 2, 1>} : (tensor<4x10x16xf32>) -> tensor<4x16x10xf32>
  %s = "mlc.matmul"(%q, %kt) : (tensor<4x8x16xf32>, tensor<4x16x10xf32>) -> tensor<4x8x10xf32>
  %w = "mlc.softmax"(%s) {axis = -1 : i64} : (tensor<4x8x10xf32>) -> tensor<4x8x10xf32>
  %o = "mlc.matmul"(%w, %v) : (tensor<4x8x10xf32>, tensor<4x10x32xf32>) -> tensor<4x8x32xf32>
  return %o : tensor<4x8x32xf32>
}

// -----

/// A scale by division: the scale is 1 / divisor.

// CHECK-LABEL: func.func @divided
// CHECK-SAME:    (%[[Q:.*]]: tensor<2x3x8x16xf32>, %[[K:.*]]: tensor<2x3x8x16xf32>, %[[V:.*]]: tensor<2x3x8x16xf32>, %[[MASK:.*]]: tensor<2x1x8x8xf32>)
// CHECK:       "mlc.attention"(%[[Q]], %[[K]], %[[V]], %[[MASK]]) {bf16_products = false, library = true, scale = 2.500000e-01 : f64, views = array<i64>, zero_masked_rows = false, zero_masked_tail = false}
// CHECK-NOT:   mlc.div
// CHECK-NOT:   mlc.softmax
func.func @divided(%q: tensor<2x3x8x16xf32>, %k: tensor<2x3x8x16xf32>, %v: tensor<2x3x8x16xf32>, %mask: tensor<2x1x8x8xf32>) -> tensor<2x3x8x16xf32> {
  %kt = "mlc.transpose"(%k) {permutation = array<i64: 0, 1, 3, 2>} : (tensor<2x3x8x16xf32>) -> tensor<2x3x16x8xf32>
  %s = "mlc.matmul"(%q, %kt) : (tensor<2x3x8x16xf32>, tensor<2x3x16x8xf32>) -> tensor<2x3x8x8xf32>
  %c = "mlc.constant"() {value = dense<4.000000e+00> : tensor<f32>} : () -> tensor<f32>
  %d = "mlc.div"(%s, %c) : (tensor<2x3x8x8xf32>, tensor<f32>) -> tensor<2x3x8x8xf32>
  %a = "mlc.add"(%d, %mask) : (tensor<2x3x8x8xf32>, tensor<2x1x8x8xf32>) -> tensor<2x3x8x8xf32>
  %w = "mlc.softmax"(%a) {axis = 3 : i64} : (tensor<2x3x8x8xf32>) -> tensor<2x3x8x8xf32>
  %o = "mlc.matmul"(%w, %v) : (tensor<2x3x8x8xf32>, tensor<2x3x8x16xf32>) -> tensor<2x3x8x16xf32>
  return %o : tensor<2x3x8x16xf32>
}

// -----

/// torch's attention zeroes the weights of a query whose scores are all -inf (every
/// key masked, or scores overflowed; softmax alone gives NaN there), which the
/// conversion writes select(softmax's input == -inf, 0, softmax). The select goes into
/// the op as zero_masked_rows; the mask stays its operand.

// CHECK-LABEL: func.func @zeroed_rows_of_minus_inf
// CHECK-SAME:    (%[[Q:.*]]: tensor<2x3x8x16xf32>, %[[K:.*]]: tensor<2x3x8x16xf32>, %[[V:.*]]: tensor<2x3x8x16xf32>, %[[MASK:.*]]: tensor<2x1x8x8xf32>)
// CHECK:       %[[O:.*]] = "mlc.attention"(%[[Q]], %[[K]], %[[V]], %[[MASK]]) {bf16_products = false, library = true, scale = 2.500000e-01 : f64, views = array<i64>, zero_masked_rows = true, zero_masked_tail = false}
// CHECK-NEXT:  return %[[O]]
// CHECK-NOT:   mlc.select
// CHECK-NOT:   mlc.compare
// CHECK-NOT:   mlc.reduce_max
func.func @zeroed_rows_of_minus_inf(%q: tensor<2x3x8x16xf32>, %k: tensor<2x3x8x16xf32>, %v: tensor<2x3x8x16xf32>, %mask: tensor<2x1x8x8xf32>) -> tensor<2x3x8x16xf32> {
  %kt = "mlc.transpose"(%k) {permutation = array<i64: 0, 1, 3, 2>} : (tensor<2x3x8x16xf32>) -> tensor<2x3x16x8xf32>
  %s = "mlc.matmul"(%q, %kt) : (tensor<2x3x8x16xf32>, tensor<2x3x16x8xf32>) -> tensor<2x3x8x8xf32>
  %c = "mlc.constant"() {value = dense<2.500000e-01> : tensor<f32>} : () -> tensor<f32>
  %m = "mlc.mul"(%s, %c) : (tensor<2x3x8x8xf32>, tensor<f32>) -> tensor<2x3x8x8xf32>
  %a = "mlc.add"(%m, %mask) : (tensor<2x3x8x8xf32>, tensor<2x1x8x8xf32>) -> tensor<2x3x8x8xf32>
  %w = "mlc.softmax"(%a) {axis = -1 : i64} : (tensor<2x3x8x8xf32>) -> tensor<2x3x8x8xf32>
  %ninf = "mlc.constant"() {value = dense<0xFF800000> : tensor<f32>} : () -> tensor<f32>
  %empty = "mlc.compare"(%a, %ninf) {predicate = "eq"} : (tensor<2x3x8x8xf32>, tensor<f32>) -> tensor<2x3x8x8xi1>
  %zero = "mlc.constant"() {value = dense<0.000000e+00> : tensor<f32>} : () -> tensor<f32>
  %z = "mlc.select"(%empty, %zero, %w) : (tensor<2x3x8x8xi1>, tensor<f32>, tensor<2x3x8x8xf32>) -> tensor<2x3x8x8xf32>
  %o = "mlc.matmul"(%z, %v) : (tensor<2x3x8x8xf32>, tensor<2x3x8x16xf32>) -> tensor<2x3x8x16xf32>
  return %o : tensor<2x3x8x16xf32>
}

// -----

/// Without a mask, the comparison reads the scaled scores, the softmax's input: the op
/// has the 0-d zero mask and zero_masked_rows.

// CHECK-LABEL: func.func @zeroed_rows_without_mask
// CHECK:       "mlc.attention"(%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}) {bf16_products = false, library = true, scale = 2.500000e-01 : f64, views = array<i64>, zero_masked_rows = true, zero_masked_tail = false} : (tensor<4x8x16xf32>, tensor<4x8x16xf32>, tensor<4x8x16xf32>, tensor<f32>) -> tensor<4x8x16xf32>
// CHECK-NOT:   mlc.select
// CHECK-NOT:   mlc.reduce_max
func.func @zeroed_rows_without_mask(%q: tensor<4x8x16xf32>, %k: tensor<4x8x16xf32>, %v: tensor<4x8x16xf32>) -> tensor<4x8x16xf32> {
  %kt = "mlc.transpose"(%k) {permutation = array<i64: 0, 2, 1>} : (tensor<4x8x16xf32>) -> tensor<4x16x8xf32>
  %s = "mlc.matmul"(%q, %kt) : (tensor<4x8x16xf32>, tensor<4x16x8xf32>) -> tensor<4x8x8xf32>
  %c = "mlc.constant"() {value = dense<2.500000e-01> : tensor<f32>} : () -> tensor<f32>
  %m = "mlc.mul"(%s, %c) : (tensor<4x8x8xf32>, tensor<f32>) -> tensor<4x8x8xf32>
  %w = "mlc.softmax"(%m) {axis = -1 : i64} : (tensor<4x8x8xf32>) -> tensor<4x8x8xf32>
  %ninf = "mlc.constant"() {value = dense<0xFF800000> : tensor<f32>} : () -> tensor<f32>
  %empty = "mlc.compare"(%m, %ninf) {predicate = "eq"} : (tensor<4x8x8xf32>, tensor<f32>) -> tensor<4x8x8xi1>
  %zero = "mlc.constant"() {value = dense<0.000000e+00> : tensor<f32>} : () -> tensor<f32>
  %z = "mlc.select"(%empty, %zero, %w) : (tensor<4x8x8xi1>, tensor<f32>, tensor<4x8x8xf32>) -> tensor<4x8x8xf32>
  %o = "mlc.matmul"(%z, %v) : (tensor<4x8x8xf32>, tensor<4x8x16xf32>) -> tensor<4x8x16xf32>
  return %o : tensor<4x8x16xf32>
}

// -----

/// After mlc-sink-reshapes the softmax reads the scores at [heads, rows, keys] and the
/// comparison at [batch, heads, rows, keys], through a reshape: both are seen through,
/// and the select's elements are the softmax's in order.

// CHECK-LABEL: func.func @zeroed_rows_through_views
// CHECK:       "mlc.attention"(%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}) {bf16_products = false, library = true, scale = 2.500000e-01 : f64, views = array<i64>, zero_masked_rows = true, zero_masked_tail = false} : (tensor<6x5x16xf32>, tensor<6x5x16xf32>, tensor<6x5x16xf32>, tensor<f32>) -> tensor<6x5x16xf32>
// CHECK-NOT:   mlc.select
func.func @zeroed_rows_through_views(%q: tensor<6x5x16xf32>, %kt: tensor<6x16x5xf32>, %v: tensor<6x5x16xf32>) -> tensor<6x5x16xf32> {
  %s = "mlc.matmul"(%q, %kt) : (tensor<6x5x16xf32>, tensor<6x16x5xf32>) -> tensor<6x5x5xf32>
  %c = "mlc.constant"() {value = dense<2.500000e-01> : tensor<f32>} : () -> tensor<f32>
  %m = "mlc.mul"(%s, %c) : (tensor<6x5x5xf32>, tensor<f32>) -> tensor<6x5x5xf32>
  %m4 = "mlc.reshape"(%m) : (tensor<6x5x5xf32>) -> tensor<2x3x5x5xf32>
  %w = "mlc.softmax"(%m) {axis = 2 : i64} : (tensor<6x5x5xf32>) -> tensor<6x5x5xf32>
  %w4 = "mlc.reshape"(%w) : (tensor<6x5x5xf32>) -> tensor<2x3x5x5xf32>
  %ninf = "mlc.constant"() {value = dense<0xFF800000> : tensor<f32>} : () -> tensor<f32>
  %empty = "mlc.compare"(%m4, %ninf) {predicate = "eq"} : (tensor<2x3x5x5xf32>, tensor<f32>) -> tensor<2x3x5x5xi1>
  %zero = "mlc.constant"() {value = dense<0.000000e+00> : tensor<f32>} : () -> tensor<f32>
  %z = "mlc.select"(%empty, %zero, %w4) : (tensor<2x3x5x5xi1>, tensor<f32>, tensor<2x3x5x5xf32>) -> tensor<2x3x5x5xf32>
  %z3 = "mlc.reshape"(%z) : (tensor<2x3x5x5xf32>) -> tensor<6x5x5xf32>
  %o = "mlc.matmul"(%z3, %v) : (tensor<6x5x5xf32>, tensor<6x5x16xf32>) -> tensor<6x5x16xf32>
  return %o : tensor<6x5x16xf32>
}

// -----

/// A select whose condition is a constant false (the conversion's zeroing when it
/// could tell no row is masked) is dropped: zero_masked_rows is false.

// CHECK-LABEL: func.func @select_never
// CHECK-SAME:    (%[[Q:.*]]: tensor<4x8x16xf32>, %[[K:.*]]: tensor<4x8x16xf32>, %[[V:.*]]: tensor<4x8x16xf32>, %[[MASK:.*]]: tensor<8x8xf32>)
// CHECK:       %[[O:.*]] = "mlc.attention"(%[[Q]], %[[K]], %[[V]], %[[MASK]]) {bf16_products = false, library = true, scale = 1.000000e+00 : f64, views = array<i64>, zero_masked_rows = false, zero_masked_tail = false}
// CHECK-NEXT:  return %[[O]]
// CHECK-NOT:   mlc.select
func.func @select_never(%q: tensor<4x8x16xf32>, %k: tensor<4x8x16xf32>, %v: tensor<4x8x16xf32>, %mask: tensor<8x8xf32>) -> tensor<4x8x16xf32> {
  %kt = "mlc.transpose"(%k) {permutation = array<i64: 0, 2, 1>} : (tensor<4x8x16xf32>) -> tensor<4x16x8xf32>
  %s = "mlc.matmul"(%q, %kt) : (tensor<4x8x16xf32>, tensor<4x16x8xf32>) -> tensor<4x8x8xf32>
  %a = "mlc.add"(%s, %mask) : (tensor<4x8x8xf32>, tensor<8x8xf32>) -> tensor<4x8x8xf32>
  %w = "mlc.softmax"(%a) {axis = 2 : i64} : (tensor<4x8x8xf32>) -> tensor<4x8x8xf32>
  %never = "mlc.constant"() {value = dense<false> : tensor<i1>} : () -> tensor<i1>
  %zero = "mlc.constant"() {value = dense<0.000000e+00> : tensor<f32>} : () -> tensor<f32>
  %z = "mlc.select"(%never, %zero, %w) : (tensor<i1>, tensor<f32>, tensor<4x8x8xf32>) -> tensor<4x8x8xf32>
  %o = "mlc.matmul"(%z, %v) : (tensor<4x8x8xf32>, tensor<4x8x16xf32>) -> tensor<4x8x16xf32>
  return %o : tensor<4x8x16xf32>
}

// -----

/// A mask that is a splat zero, seen through a view, adds nothing: it is dropped and
/// the op gets the 0-d zero (no mask).

// CHECK-LABEL: func.func @zero_mask_through_view
// CHECK-SAME:    (%[[Q:.*]]: tensor<4x8x16xf32>, %[[K:.*]]: tensor<4x8x16xf32>, %[[V:.*]]: tensor<4x8x16xf32>)
// CHECK:       %[[ZERO:.*]] = "mlc.constant"() {value = dense<0.000000e+00> : tensor<f32>} : () -> tensor<f32>
// CHECK-NEXT:  %[[O:.*]] = "mlc.attention"(%[[Q]], %[[K]], %[[V]], %[[ZERO]]) {bf16_products = false, library = true, scale = 1.250000e-01 : f64, views = array<i64>, zero_masked_rows = false, zero_masked_tail = false} : (tensor<4x8x16xf32>, tensor<4x8x16xf32>, tensor<4x8x16xf32>, tensor<f32>) -> tensor<4x8x16xf32>
// CHECK-NEXT:  return %[[O]]
// CHECK-NOT:   mlc.reshape
func.func @zero_mask_through_view(%q: tensor<4x8x16xf32>, %k: tensor<4x8x16xf32>, %v: tensor<4x8x16xf32>) -> tensor<4x8x16xf32> {
  %kt = "mlc.transpose"(%k) {permutation = array<i64: 0, 2, 1>} : (tensor<4x8x16xf32>) -> tensor<4x16x8xf32>
  %s = "mlc.matmul"(%q, %kt) : (tensor<4x8x16xf32>, tensor<4x16x8xf32>) -> tensor<4x8x8xf32>
  %c = "mlc.constant"() {value = dense<1.250000e-01> : tensor<f32>} : () -> tensor<f32>
  %m = "mlc.mul"(%s, %c) : (tensor<4x8x8xf32>, tensor<f32>) -> tensor<4x8x8xf32>
  %zeros = "mlc.constant"() {value = dense<0.000000e+00> : tensor<64xf32>} : () -> tensor<64xf32>
  %mask = "mlc.reshape"(%zeros) : (tensor<64xf32>) -> tensor<1x8x8xf32>
  %a = "mlc.add"(%m, %mask) : (tensor<4x8x8xf32>, tensor<1x8x8xf32>) -> tensor<4x8x8xf32>
  %w = "mlc.softmax"(%a) {axis = 2 : i64} : (tensor<4x8x8xf32>) -> tensor<4x8x8xf32>
  %o = "mlc.matmul"(%w, %v) : (tensor<4x8x8xf32>, tensor<4x8x16xf32>) -> tensor<4x8x16xf32>
  return %o : tensor<4x8x16xf32>
}

// -----

/// Two additive masks (a causal one and a padding one) become one mask operand:
/// their sum, broadcast to the shape of both.

// CHECK-LABEL: func.func @two_masks
// CHECK-SAME:    (%[[Q:.*]]: tensor<4x8x16xf32>, %[[K:.*]]: tensor<4x8x16xf32>, %[[V:.*]]: tensor<4x8x16xf32>, %[[CAUSAL:.*]]: tensor<8x8xf32>, %[[PAD:.*]]: tensor<4x1x8xf32>)
// CHECK:       %[[MASK:.*]] = "mlc.add"(%[[CAUSAL]], %[[PAD]]) : (tensor<8x8xf32>, tensor<4x1x8xf32>) -> tensor<4x8x8xf32>
// CHECK-NEXT:  %[[O:.*]] = "mlc.attention"(%[[Q]], %[[K]], %[[V]], %[[MASK]]) {bf16_products = false, library = true, scale = 1.250000e-01 : f64, views = array<i64>, zero_masked_rows = false, zero_masked_tail = false}
// CHECK-NEXT:  return %[[O]]
// CHECK-NOT:   mlc.softmax
func.func @two_masks(%q: tensor<4x8x16xf32>, %k: tensor<4x8x16xf32>, %v: tensor<4x8x16xf32>, %causal: tensor<8x8xf32>, %pad: tensor<4x1x8xf32>) -> tensor<4x8x16xf32> {
  %kt = "mlc.transpose"(%k) {permutation = array<i64: 0, 2, 1>} : (tensor<4x8x16xf32>) -> tensor<4x16x8xf32>
  %s = "mlc.matmul"(%q, %kt) : (tensor<4x8x16xf32>, tensor<4x16x8xf32>) -> tensor<4x8x8xf32>
  %c = "mlc.constant"() {value = dense<1.250000e-01> : tensor<f32>} : () -> tensor<f32>
  %m = "mlc.mul"(%s, %c) : (tensor<4x8x8xf32>, tensor<f32>) -> tensor<4x8x8xf32>
  %a = "mlc.add"(%m, %causal) : (tensor<4x8x8xf32>, tensor<8x8xf32>) -> tensor<4x8x8xf32>
  %b = "mlc.add"(%a, %pad) : (tensor<4x8x8xf32>, tensor<4x1x8xf32>) -> tensor<4x8x8xf32>
  %w = "mlc.softmax"(%b) {axis = 2 : i64} : (tensor<4x8x8xf32>) -> tensor<4x8x8xf32>
  %o = "mlc.matmul"(%w, %v) : (tensor<4x8x8xf32>, tensor<4x8x16xf32>) -> tensor<4x8x16xf32>
  return %o : tensor<4x8x16xf32>
}

// -----

/// The mask on the left of the add: the side that leads back to the scores' matmul
/// is found on either side.

// CHECK-LABEL: func.func @mask_on_the_left
// CHECK-SAME:    (%[[Q:.*]]: tensor<4x8x16xf32>, %[[K:.*]]: tensor<4x8x16xf32>, %[[V:.*]]: tensor<4x8x16xf32>, %[[MASK:.*]]: tensor<8x8xf32>)
// CHECK:       %[[O:.*]] = "mlc.attention"(%[[Q]], %[[K]], %[[V]], %[[MASK]]) {bf16_products = false, library = true, scale = 1.250000e-01 : f64, views = array<i64>, zero_masked_rows = false, zero_masked_tail = false}
// CHECK-NEXT:  return %[[O]]
func.func @mask_on_the_left(%q: tensor<4x8x16xf32>, %k: tensor<4x8x16xf32>, %v: tensor<4x8x16xf32>, %mask: tensor<8x8xf32>) -> tensor<4x8x16xf32> {
  %kt = "mlc.transpose"(%k) {permutation = array<i64: 0, 2, 1>} : (tensor<4x8x16xf32>) -> tensor<4x16x8xf32>
  %s = "mlc.matmul"(%q, %kt) : (tensor<4x8x16xf32>, tensor<4x16x8xf32>) -> tensor<4x8x8xf32>
  %c = "mlc.constant"() {value = dense<1.250000e-01> : tensor<f32>} : () -> tensor<f32>
  %m = "mlc.mul"(%s, %c) : (tensor<4x8x8xf32>, tensor<f32>) -> tensor<4x8x8xf32>
  %a = "mlc.add"(%mask, %m) : (tensor<8x8xf32>, tensor<4x8x8xf32>) -> tensor<4x8x8xf32>
  %w = "mlc.softmax"(%a) {axis = 2 : i64} : (tensor<4x8x8xf32>) -> tensor<4x8x8xf32>
  %o = "mlc.matmul"(%w, %v) : (tensor<4x8x8xf32>, tensor<4x8x16xf32>) -> tensor<4x8x16xf32>
  return %o : tensor<4x8x16xf32>
}

// -----

/// Scores [2, 3, 4, 8, 8] and a mask [2, 3, 1, 8, 8]: the mask's batch folds into two
/// runs (6 outer indices of 64 elements, each shared by 4 heads), which the plugin
/// reads (compare not-formed.mlir's mask in three runs).

// CHECK-LABEL: func.func @mask_over_outer_batch
// CHECK:       "mlc.attention"(%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}) {bf16_products = false, library = true, scale = 1.000000e+00 : f64, views = array<i64>, zero_masked_rows = false, zero_masked_tail = false} : (tensor<2x3x4x8x16xf32>, tensor<2x3x4x8x16xf32>, tensor<2x3x4x8x16xf32>, tensor<2x3x1x8x8xf32>) -> tensor<2x3x4x8x16xf32>
// CHECK-NOT:   mlc.softmax
func.func @mask_over_outer_batch(%q: tensor<2x3x4x8x16xf32>, %k: tensor<2x3x4x8x16xf32>, %v: tensor<2x3x4x8x16xf32>, %mask: tensor<2x3x1x8x8xf32>) -> tensor<2x3x4x8x16xf32> {
  %kt = "mlc.transpose"(%k) {permutation = array<i64: 0, 1, 2, 4, 3>} : (tensor<2x3x4x8x16xf32>) -> tensor<2x3x4x16x8xf32>
  %s = "mlc.matmul"(%q, %kt) : (tensor<2x3x4x8x16xf32>, tensor<2x3x4x16x8xf32>) -> tensor<2x3x4x8x8xf32>
  %a = "mlc.add"(%s, %mask) : (tensor<2x3x4x8x8xf32>, tensor<2x3x1x8x8xf32>) -> tensor<2x3x4x8x8xf32>
  %w = "mlc.softmax"(%a) {axis = 4 : i64} : (tensor<2x3x4x8x8xf32>) -> tensor<2x3x4x8x8xf32>
  %o = "mlc.matmul"(%w, %v) : (tensor<2x3x4x8x8xf32>, tensor<2x3x4x8x16xf32>) -> tensor<2x3x4x8x16xf32>
  return %o : tensor<2x3x4x8x16xf32>
}

// -----

/// The scale on the left of the multiply.

// CHECK-LABEL: func.func @scale_on_the_left
// CHECK:       "mlc.attention"({{.*}}) {bf16_products = false, library = true, scale = 5.000000e-01 : f64, views = array<i64>, zero_masked_rows = false, zero_masked_tail = false}
// CHECK-NOT:   "mlc.softmax"
func.func @scale_on_the_left(%q: tensor<4x8x16xf32>, %k: tensor<4x8x16xf32>, %v: tensor<4x8x16xf32>) -> tensor<4x8x16xf32> {
  %half = "mlc.constant"() {value = dense<0.5> : tensor<f32>} : () -> tensor<f32>
  %kt = "mlc.transpose"(%k) {permutation = array<i64: 0, 2, 1>} : (tensor<4x8x16xf32>) -> tensor<4x16x8xf32>
  %s = "mlc.matmul"(%q, %kt) : (tensor<4x8x16xf32>, tensor<4x16x8xf32>) -> tensor<4x8x8xf32>
  %m = "mlc.mul"(%half, %s) : (tensor<f32>, tensor<4x8x8xf32>) -> tensor<4x8x8xf32>
  %w = "mlc.softmax"(%m) {axis = 2 : i64} : (tensor<4x8x8xf32>) -> tensor<4x8x8xf32>
  %o = "mlc.matmul"(%w, %v) : (tensor<4x8x8xf32>, tensor<4x8x16xf32>) -> tensor<4x8x16xf32>
  return %o : tensor<4x8x16xf32>
}

// -----

/// At bf16, mlc-reduce-precision cast the products' operands to bf16 (summed in f32):
/// the op takes the f32 values before the casts, with bf16_products, and the casts go.

// CHECK-LABEL: func.func @narrowed_by_reduce_precision
// CHECK:       "mlc.attention"(%arg0, %arg1, %arg2, %{{.*}}) {bf16_products = true, library = true, scale = 1.000000e+00 : f64, views = array<i64>, zero_masked_rows = false, zero_masked_tail = false} : (tensor<4x8x16xf32>, tensor<4x8x16xf32>, tensor<4x8x16xf32>, tensor<f32>) -> tensor<4x8x16xf32>
// CHECK-NOT:   "mlc.cast"
func.func @narrowed_by_reduce_precision(%q: tensor<4x8x16xf32>, %k: tensor<4x8x16xf32>, %v: tensor<4x8x16xf32>) -> tensor<4x8x16xf32> {
  %kt = "mlc.transpose"(%k) {permutation = array<i64: 0, 2, 1>} : (tensor<4x8x16xf32>) -> tensor<4x16x8xf32>
  %qb = "mlc.cast"(%q) : (tensor<4x8x16xf32>) -> tensor<4x8x16xbf16>
  %ktb = "mlc.cast"(%kt) : (tensor<4x16x8xf32>) -> tensor<4x16x8xbf16>
  %s = "mlc.matmul"(%qb, %ktb) : (tensor<4x8x16xbf16>, tensor<4x16x8xbf16>) -> tensor<4x8x8xf32>
  %w = "mlc.softmax"(%s) {axis = 2 : i64} : (tensor<4x8x8xf32>) -> tensor<4x8x8xf32>
  %wb = "mlc.cast"(%w) : (tensor<4x8x8xf32>) -> tensor<4x8x8xbf16>
  %vb = "mlc.cast"(%v) : (tensor<4x8x16xf32>) -> tensor<4x8x16xbf16>
  %o = "mlc.matmul"(%wb, %vb) : (tensor<4x8x8xbf16>, tensor<4x8x16xbf16>) -> tensor<4x8x16xf32>
  return %o : tensor<4x8x16xf32>
}

// -----

/// Only the scores' product narrowed (no pass makes this; by hand): the op multiplies
/// in f32, without bf16_products.

// CHECK-LABEL: func.func @one_product_narrowed
// CHECK:       "mlc.attention"(%arg0, %arg1, %arg2, %{{.*}}) {bf16_products = false, library = true
func.func @one_product_narrowed(%q: tensor<4x8x16xf32>, %k: tensor<4x8x16xf32>, %v: tensor<4x8x16xf32>) -> tensor<4x8x16xf32> {
  %kt = "mlc.transpose"(%k) {permutation = array<i64: 0, 2, 1>} : (tensor<4x8x16xf32>) -> tensor<4x16x8xf32>
  %qb = "mlc.cast"(%q) : (tensor<4x8x16xf32>) -> tensor<4x8x16xbf16>
  %ktb = "mlc.cast"(%kt) : (tensor<4x16x8xf32>) -> tensor<4x16x8xbf16>
  %s = "mlc.matmul"(%qb, %ktb) : (tensor<4x8x16xbf16>, tensor<4x16x8xbf16>) -> tensor<4x8x8xf32>
  %w = "mlc.softmax"(%s) {axis = 2 : i64} : (tensor<4x8x8xf32>) -> tensor<4x8x8xf32>
  %o = "mlc.matmul"(%w, %v) : (tensor<4x8x8xf32>, tensor<4x8x16xf32>) -> tensor<4x8x16xf32>
  return %o : tensor<4x8x16xf32>
}
