// RUN: mlc-opt %s --split-input-file --verify-diagnostics

/// mlc.attention's verifier: query [..., M, D], key [..., N, D] and value [..., N, Dv]
/// of one rank and equal batch dimensions, one element type, a mask that broadcasts
/// to the scores [..., M, N], and a result [..., M, Dv].

/// Valid: a mask broadcast over the heads, and a 0-d mask (none), whose rows of
/// scores all -inf may still get zero weights (zero_masked_rows).
func.func @valid(%q: tensor<2x3x8x16xf32>, %k: tensor<2x3x10x16xf32>, %v: tensor<2x3x10x32xf32>, %mask: tensor<2x1x8x10xf32>, %none: tensor<f32>) -> (tensor<2x3x8x32xf32>, tensor<2x3x8x32xf32>) {
  %0 = "mlc.attention"(%q, %k, %v, %mask) {bf16_products = false, library = true, scale = 1.250000e-01 : f64, views = array<i64>, zero_masked_rows = true, zero_masked_tail = false} : (tensor<2x3x8x16xf32>, tensor<2x3x10x16xf32>, tensor<2x3x10x32xf32>, tensor<2x1x8x10xf32>) -> tensor<2x3x8x32xf32>
  %1 = "mlc.attention"(%q, %k, %v, %none) {bf16_products = false, library = false, scale = 1.000000e+00 : f64, views = array<i64>, zero_masked_rows = true, zero_masked_tail = false} : (tensor<2x3x8x16xf32>, tensor<2x3x10x16xf32>, tensor<2x3x10x32xf32>, tensor<f32>) -> tensor<2x3x8x32xf32>
  return %0, %1 : tensor<2x3x8x32xf32>, tensor<2x3x8x32xf32>
}

// -----

func.func @key_rank_differs(%q: tensor<2x8x16xf32>, %k: tensor<10x16xf32>, %v: tensor<2x10x32xf32>, %mask: tensor<f32>) -> tensor<2x8x32xf32> {
  // expected-error @+1 {{'mlc.attention' op query, key and value must have one rank >= 2, got tensor<2x8x16xf32>, tensor<10x16xf32> and tensor<2x10x32xf32>}}
  %0 = "mlc.attention"(%q, %k, %v, %mask) {bf16_products = false, library = true, scale = 1.000000e+00 : f64, views = array<i64>, zero_masked_rows = false, zero_masked_tail = false} : (tensor<2x8x16xf32>, tensor<10x16xf32>, tensor<2x10x32xf32>, tensor<f32>) -> tensor<2x8x32xf32>
  return %0 : tensor<2x8x32xf32>
}

// -----

func.func @vectors(%q: tensor<16xf32>, %k: tensor<16xf32>, %v: tensor<16xf32>, %mask: tensor<f32>) -> tensor<16xf32> {
  // expected-error @+1 {{'mlc.attention' op query, key and value must have one rank >= 2}}
  %0 = "mlc.attention"(%q, %k, %v, %mask) {bf16_products = false, library = true, scale = 1.000000e+00 : f64, views = array<i64>, zero_masked_rows = false, zero_masked_tail = false} : (tensor<16xf32>, tensor<16xf32>, tensor<16xf32>, tensor<f32>) -> tensor<16xf32>
  return %0 : tensor<16xf32>
}

// -----

func.func @batch_differs(%q: tensor<2x8x16xf32>, %k: tensor<3x10x16xf32>, %v: tensor<2x10x32xf32>, %mask: tensor<f32>) -> tensor<2x8x32xf32> {
  // expected-error @+1 {{'mlc.attention' op batch dimensions differ: tensor<2x8x16xf32>, tensor<3x10x16xf32> and tensor<2x10x32xf32>}}
  %0 = "mlc.attention"(%q, %k, %v, %mask) {bf16_products = false, library = true, scale = 1.000000e+00 : f64, views = array<i64>, zero_masked_rows = false, zero_masked_tail = false} : (tensor<2x8x16xf32>, tensor<3x10x16xf32>, tensor<2x10x32xf32>, tensor<f32>) -> tensor<2x8x32xf32>
  return %0 : tensor<2x8x32xf32>
}

// -----

/// No broadcasting of the batch: a key of one head for two.
func.func @batch_broadcast(%q: tensor<2x8x16xf32>, %k: tensor<1x10x16xf32>, %v: tensor<2x10x32xf32>, %mask: tensor<f32>) -> tensor<2x8x32xf32> {
  // expected-error @+1 {{'mlc.attention' op batch dimensions differ}}
  %0 = "mlc.attention"(%q, %k, %v, %mask) {bf16_products = false, library = true, scale = 1.000000e+00 : f64, views = array<i64>, zero_masked_rows = false, zero_masked_tail = false} : (tensor<2x8x16xf32>, tensor<1x10x16xf32>, tensor<2x10x32xf32>, tensor<f32>) -> tensor<2x8x32xf32>
  return %0 : tensor<2x8x32xf32>
}

// -----

func.func @key_depth_differs(%q: tensor<2x8x16xf32>, %k: tensor<2x10x12xf32>, %v: tensor<2x10x32xf32>, %mask: tensor<f32>) -> tensor<2x8x32xf32> {
  // expected-error @+1 {{'mlc.attention' op key must be [..., N, D] with query's D and value [..., N, Dv] with key's N, got tensor<2x10x12xf32> and tensor<2x10x32xf32>}}
  %0 = "mlc.attention"(%q, %k, %v, %mask) {bf16_products = false, library = true, scale = 1.000000e+00 : f64, views = array<i64>, zero_masked_rows = false, zero_masked_tail = false} : (tensor<2x8x16xf32>, tensor<2x10x12xf32>, tensor<2x10x32xf32>, tensor<f32>) -> tensor<2x8x32xf32>
  return %0 : tensor<2x8x32xf32>
}

// -----

func.func @value_length_differs(%q: tensor<2x8x16xf32>, %k: tensor<2x10x16xf32>, %v: tensor<2x12x32xf32>, %mask: tensor<f32>) -> tensor<2x8x32xf32> {
  // expected-error @+1 {{'mlc.attention' op key must be [..., N, D] with query's D and value [..., N, Dv] with key's N, got tensor<2x10x16xf32> and tensor<2x12x32xf32>}}
  %0 = "mlc.attention"(%q, %k, %v, %mask) {bf16_products = false, library = true, scale = 1.000000e+00 : f64, views = array<i64>, zero_masked_rows = false, zero_masked_tail = false} : (tensor<2x8x16xf32>, tensor<2x10x16xf32>, tensor<2x12x32xf32>, tensor<f32>) -> tensor<2x8x32xf32>
  return %0 : tensor<2x8x32xf32>
}

// -----

func.func @mask_does_not_broadcast(%q: tensor<2x8x16xf32>, %k: tensor<2x10x16xf32>, %v: tensor<2x10x32xf32>, %mask: tensor<8x8xf32>) -> tensor<2x8x32xf32> {
  // expected-error @+1 {{'mlc.attention' op mask tensor<8x8xf32> does not broadcast to the scores [2, 8, 10]}}
  %0 = "mlc.attention"(%q, %k, %v, %mask) {bf16_products = false, library = true, scale = 1.000000e+00 : f64, views = array<i64>, zero_masked_rows = false, zero_masked_tail = false} : (tensor<2x8x16xf32>, tensor<2x10x16xf32>, tensor<2x10x32xf32>, tensor<8x8xf32>) -> tensor<2x8x32xf32>
  return %0 : tensor<2x8x32xf32>
}

// -----

/// A mask that would broadcast the scores up (a batch of 4 over 2 heads' scores).
func.func @mask_broadcasts_scores(%q: tensor<2x8x16xf32>, %k: tensor<2x10x16xf32>, %v: tensor<2x10x32xf32>, %mask: tensor<4x2x8x10xf32>) -> tensor<2x8x32xf32> {
  // expected-error @+1 {{'mlc.attention' op mask tensor<4x2x8x10xf32> does not broadcast to the scores [2, 8, 10]}}
  %0 = "mlc.attention"(%q, %k, %v, %mask) {bf16_products = false, library = true, scale = 1.000000e+00 : f64, views = array<i64>, zero_masked_rows = false, zero_masked_tail = false} : (tensor<2x8x16xf32>, tensor<2x10x16xf32>, tensor<2x10x32xf32>, tensor<4x2x8x10xf32>) -> tensor<2x8x32xf32>
  return %0 : tensor<2x8x32xf32>
}

// -----

func.func @result_shape_wrong(%q: tensor<2x8x16xf32>, %k: tensor<2x10x16xf32>, %v: tensor<2x10x32xf32>, %mask: tensor<f32>) -> tensor<2x8x16xf32> {
  // expected-error @+1 {{'mlc.attention' op result has shape [2, 8, 16], expected [2, 8, 32]}}
  %0 = "mlc.attention"(%q, %k, %v, %mask) {bf16_products = false, library = true, scale = 1.000000e+00 : f64, views = array<i64>, zero_masked_rows = false, zero_masked_tail = false} : (tensor<2x8x16xf32>, tensor<2x10x16xf32>, tensor<2x10x32xf32>, tensor<f32>) -> tensor<2x8x16xf32>
  return %0 : tensor<2x8x16xf32>
}

// -----

func.func @mixed_element_types(%q: tensor<2x8x16xf32>, %k: tensor<2x10x16xf16>, %v: tensor<2x10x32xf32>, %mask: tensor<f32>) -> tensor<2x8x32xf32> {
  // expected-error @+1 {{'mlc.attention' op operands must share one element type, got f32, f16}}
  %0 = "mlc.attention"(%q, %k, %v, %mask) {bf16_products = false, library = true, scale = 1.000000e+00 : f64, views = array<i64>, zero_masked_rows = false, zero_masked_tail = false} : (tensor<2x8x16xf32>, tensor<2x10x16xf16>, tensor<2x10x32xf32>, tensor<f32>) -> tensor<2x8x32xf32>
  return %0 : tensor<2x8x32xf32>
}

// -----

func.func @result_element_type_wrong(%q: tensor<2x8x16xf32>, %k: tensor<2x10x16xf32>, %v: tensor<2x10x32xf32>, %mask: tensor<f32>) -> tensor<2x8x32xf16> {
  // expected-error @+1 {{'mlc.attention' op result has element type f16, expected f32}}
  %0 = "mlc.attention"(%q, %k, %v, %mask) {bf16_products = false, library = true, scale = 1.000000e+00 : f64, views = array<i64>, zero_masked_rows = false, zero_masked_tail = false} : (tensor<2x8x16xf32>, tensor<2x10x16xf32>, tensor<2x10x32xf32>, tensor<f32>) -> tensor<2x8x32xf16>
  return %0 : tensor<2x8x32xf16>
}

// -----

func.func @scale_not_float(%q: tensor<2x8x16xf32>, %k: tensor<2x10x16xf32>, %v: tensor<2x10x32xf32>, %mask: tensor<f32>) -> tensor<2x8x32xf32> {
  // expected-error @+1 {{'mlc.attention' op attribute 'scale' must be a float, got 1 : i64}}
  %0 = "mlc.attention"(%q, %k, %v, %mask) {bf16_products = false, library = true, scale = 1 : i64, views = array<i64>, zero_masked_rows = false, zero_masked_tail = false} : (tensor<2x8x16xf32>, tensor<2x10x16xf32>, tensor<2x10x32xf32>, tensor<f32>) -> tensor<2x8x32xf32>
  return %0 : tensor<2x8x32xf32>
}

// -----

func.func @bf16_products_not_bool(%q: tensor<2x8x16xf32>, %k: tensor<2x10x16xf32>, %v: tensor<2x10x32xf32>, %mask: tensor<f32>) -> tensor<2x8x32xf32> {
  // expected-error @+1 {{'mlc.attention' op attribute 'bf16_products' must be a bool, got 1 : i64}}
  %0 = "mlc.attention"(%q, %k, %v, %mask) {bf16_products = 1 : i64, library = true, scale = 1.000000e+00 : f64, views = array<i64>, zero_masked_rows = false, zero_masked_tail = false} : (tensor<2x8x16xf32>, tensor<2x10x16xf32>, tensor<2x10x32xf32>, tensor<f32>) -> tensor<2x8x32xf32>
  return %0 : tensor<2x8x32xf32>
}

// -----

func.func @zero_masked_tail_not_bool(%q: tensor<2x8x16xf32>, %k: tensor<2x10x16xf32>, %v: tensor<2x10x32xf32>, %mask: tensor<f32>) -> tensor<2x8x32xf32> {
  // expected-error @+1 {{'mlc.attention' op attribute 'zero_masked_tail' must be a bool, got "yes"}}
  %0 = "mlc.attention"(%q, %k, %v, %mask) {bf16_products = false, library = true, scale = 1.000000e+00 : f64, views = array<i64>, zero_masked_rows = false, zero_masked_tail = "yes"} : (tensor<2x8x16xf32>, tensor<2x10x16xf32>, tensor<2x10x32xf32>, tensor<f32>) -> tensor<2x8x32xf32>
  return %0 : tensor<2x8x32xf32>
}

// -----

/// On the library, the mask's batch dimensions must fold into two runs the plugin reads
/// by two strides: [2, 1, 4] over heads [2, 3, 4] is three.

func.func @library_mask_in_three_runs(%q: tensor<2x3x4x8x16xf32>, %k: tensor<2x3x4x10x16xf32>, %v: tensor<2x3x4x10x32xf32>, %mask: tensor<2x1x4x8x10xf32>) -> tensor<2x3x4x8x32xf32> {
  // expected-error @+1 {{'mlc.attention' op on the library (library = true), the mask's batch dimensions must fold into two runs of broadcast or contiguous ones; tensor<2x1x4x8x10xf32> over [2, 3, 4, 8, 10] does not}}
  %0 = "mlc.attention"(%q, %k, %v, %mask) {bf16_products = false, library = true, scale = 1.000000e+00 : f64, views = array<i64>, zero_masked_rows = false, zero_masked_tail = false} : (tensor<2x3x4x8x16xf32>, tensor<2x3x4x10x16xf32>, tensor<2x3x4x10x32xf32>, tensor<2x1x4x8x10xf32>) -> tensor<2x3x4x8x32xf32>
  return %0 : tensor<2x3x4x8x32xf32>
}

// -----

func.func @library_dynamic(%q: tensor<?x8x16xf32>, %k: tensor<?x10x16xf32>, %v: tensor<?x10x32xf32>, %mask: tensor<f32>) -> tensor<?x8x32xf32> {
  // expected-error @+1 {{'mlc.attention' op on the library (library = true), the operands' shapes must be static}}
  %0 = "mlc.attention"(%q, %k, %v, %mask) {bf16_products = false, library = true, scale = 1.000000e+00 : f64, views = array<i64>, zero_masked_rows = false, zero_masked_tail = false} : (tensor<?x8x16xf32>, tensor<?x10x16xf32>, tensor<?x10x32xf32>, tensor<f32>) -> tensor<?x8x32xf32>
  return %0 : tensor<?x8x32xf32>
}

// -----

/// With views, the operands are the tensors read; a view must stay inside its tensor,
/// and only the library reads views.

func.func @view_past_the_end(%qkv: tensor<16x96xf32>, %none: tensor<f32>) -> tensor<8x8x8xf32> {
  // expected-error @+1 {{'mlc.attention' op value's view [80, 4, 96, 8, 192] reads past the end of tensor<16x96xf32>}}
  %0 = "mlc.attention"(%qkv, %qkv, %qkv, %none) {bf16_products = false, library = true, scale = 1.0 : f64, views = array<i64: 8, 8, 0, 4, 96, 8, 192, 32, 4, 96, 8, 192, 80, 4, 96, 8, 192>, zero_masked_rows = false, zero_masked_tail = false} : (tensor<16x96xf32>, tensor<16x96xf32>, tensor<16x96xf32>, tensor<f32>) -> tensor<8x8x8xf32>
  return %0 : tensor<8x8x8xf32>
}

// -----

func.func @views_off_the_library(%qkv: tensor<16x96xf32>, %none: tensor<f32>) -> tensor<8x8x8xf32> {
  // expected-error @+1 {{'mlc.attention' op views are read by the library only (library = true)}}
  %0 = "mlc.attention"(%qkv, %qkv, %qkv, %none) {bf16_products = false, library = false, scale = 1.0 : f64, views = array<i64: 8, 8, 0, 4, 96, 8, 192, 32, 4, 96, 8, 192, 64, 4, 96, 8, 192>, zero_masked_rows = false, zero_masked_tail = false} : (tensor<16x96xf32>, tensor<16x96xf32>, tensor<16x96xf32>, tensor<f32>) -> tensor<8x8x8xf32>
  return %0 : tensor<8x8x8xf32>
}
