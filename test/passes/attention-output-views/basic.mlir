// RUN: mlc-opt %s --split-input-file --pass-pipeline='builtin.module(mlc-lower-to-linalg{keep-fusion-groups=true}, mlc-form-dispatch-regions, mlc-attention-output-views, cse)' | FileCheck %s
// RUN: mlc-opt %s --split-input-file --pass-pipeline='builtin.module(mlc-lower-to-linalg{keep-fusion-groups=true}, mlc-form-dispatch-regions, mlc-attention-output-views, cse)' --mlir-pass-statistics -o /dev/null 2>&1 | FileCheck %s --check-prefix=STATS

/// The transpose that gathers the heads back into rows ([batch, heads, tokens, dim] to
/// [batch, tokens, heads, dim]) is no dispatch: the attention's call writes head h's row
/// i at (h / 4) * 2048 + (h % 4) * 16 + i * 64 (the last five of its scalars before the
/// scale: offset 0, 4 heads per batch, a batch's stride 2048, a head's 16, a row's 64),
/// into a vector that is the transpose's result reshaped.

// STATS:      'mlc-attention-output-views'
// STATS-NEXT:   (1) transposes written by the attention

// CHECK-LABEL: func.func @heads_back_into_rows
// CHECK-NOT:   linalg.transpose
// CHECK:       %[[CALL:.*]] = "flow.dispatch.region"
// CHECK:         "iree_codegen.ukernel.generic"
// CHECK-SAME:      %c0, %c4, %c2048, %c16, %c64, %c1048576000, %c0)
// CHECK-SAME:      u_kernel_fn_name = "mlc_attention"
// CHECK-SAME:      -> tensor<4096xf32>
// CHECK:       %[[ROWS:.*]] = tensor.expand_shape %[[CALL]] {{\[}}[0, 1, 2, 3]] output_shape [2, 32, 4, 16] : tensor<4096xf32> into tensor<2x32x4x16xf32>
// CHECK-NOT:   linalg.transpose
// CHECK:       return %[[ROWS]]
func.func @heads_back_into_rows(%q: tensor<8x32x16xf32>, %k: tensor<8x32x16xf32>, %v: tensor<8x32x16xf32>) -> tensor<2x32x4x16xf32> {
  %zero = "mlc.constant"() {value = dense<0.000000e+00> : tensor<f32>} : () -> tensor<f32>
  %a = "mlc.attention"(%q, %k, %v, %zero) {bf16_products = false, library = true, scale = 2.500000e-01 : f64, views = array<i64>, zero_masked_rows = false, zero_masked_tail = false} : (tensor<8x32x16xf32>, tensor<8x32x16xf32>, tensor<8x32x16xf32>, tensor<f32>) -> tensor<8x32x16xf32>
  %r = "mlc.reshape"(%a) : (tensor<8x32x16xf32>) -> tensor<2x4x32x16xf32>
  %t = "mlc.fusion_group"() ({
    %0 = "mlc.transpose"(%r) {permutation = array<i64: 0, 2, 1, 3>} : (tensor<2x4x32x16xf32>) -> tensor<2x32x4x16xf32>
    "mlc.yield"(%0) : (tensor<2x32x4x16xf32>) -> ()
  }) : () -> tensor<2x32x4x16xf32>
  return %t : tensor<2x32x4x16xf32>
}

// -----

/// Left as it is: a transpose that moves a head's dimension off the last axis (the
/// plugin writes a row's elements one apart), one of a result (or of its reshape) read elsewhere too, and a
/// transpose of something else. The attention keeps its dense output view
/// (0, 1, 512, 0, 16: heads one after another).

// CHECK-LABEL: func.func @columns_moved
// CHECK:       "iree_codegen.ukernel.generic"
// CHECK-SAME:    %c512, %c0, %c16, %c1048576000, %c0)
// CHECK:       linalg.transpose
func.func @columns_moved(%q: tensor<8x32x16xf32>, %k: tensor<8x32x16xf32>, %v: tensor<8x32x16xf32>) -> tensor<8x16x32xf32> {
  %zero = "mlc.constant"() {value = dense<0.000000e+00> : tensor<f32>} : () -> tensor<f32>
  %a = "mlc.attention"(%q, %k, %v, %zero) {bf16_products = false, library = true, scale = 2.500000e-01 : f64, views = array<i64>, zero_masked_rows = false, zero_masked_tail = false} : (tensor<8x32x16xf32>, tensor<8x32x16xf32>, tensor<8x32x16xf32>, tensor<f32>) -> tensor<8x32x16xf32>
  %t = "mlc.fusion_group"() ({
    %0 = "mlc.transpose"(%a) {permutation = array<i64: 0, 2, 1>} : (tensor<8x32x16xf32>) -> tensor<8x16x32xf32>
    "mlc.yield"(%0) : (tensor<8x16x32xf32>) -> ()
  }) : () -> tensor<8x16x32xf32>
  return %t : tensor<8x16x32xf32>
}

// -----

// CHECK-LABEL: func.func @result_read_elsewhere
// CHECK:       "iree_codegen.ukernel.generic"
// CHECK-SAME:    %c512, %c0, %c16, %c1048576000, %c0)
// CHECK:       linalg.transpose
func.func @result_read_elsewhere(%q: tensor<8x32x16xf32>, %k: tensor<8x32x16xf32>, %v: tensor<8x32x16xf32>) -> (tensor<2x32x4x16xf32>, tensor<8x32x16xf32>) {
  %zero = "mlc.constant"() {value = dense<0.000000e+00> : tensor<f32>} : () -> tensor<f32>
  %a = "mlc.attention"(%q, %k, %v, %zero) {bf16_products = false, library = true, scale = 2.500000e-01 : f64, views = array<i64>, zero_masked_rows = false, zero_masked_tail = false} : (tensor<8x32x16xf32>, tensor<8x32x16xf32>, tensor<8x32x16xf32>, tensor<f32>) -> tensor<8x32x16xf32>
  %r = "mlc.reshape"(%a) : (tensor<8x32x16xf32>) -> tensor<2x4x32x16xf32>
  %t = "mlc.fusion_group"() ({
    %0 = "mlc.transpose"(%r) {permutation = array<i64: 0, 2, 1, 3>} : (tensor<2x4x32x16xf32>) -> tensor<2x32x4x16xf32>
    "mlc.yield"(%0) : (tensor<2x32x4x16xf32>) -> ()
  }) : () -> tensor<2x32x4x16xf32>
  return %t, %a : tensor<2x32x4x16xf32>, tensor<8x32x16xf32>
}

// -----

/// The reshape of the result read elsewhere (random programs, seed 380103: SDPA, then a
/// reduction and a channels-last convolution of its reshaped result): erasing it with
/// the transpose's region left the other reader nothing, and mlc-opt crashed.

// CHECK-LABEL: func.func @reshape_read_elsewhere
// CHECK:       "iree_codegen.ukernel.generic"
// CHECK-SAME:    %c512, %c0, %c16, %c1048576000, %c0)
// CHECK:       linalg.transpose
func.func @reshape_read_elsewhere(%q: tensor<8x32x16xf32>, %k: tensor<8x32x16xf32>, %v: tensor<8x32x16xf32>) -> (tensor<2x32x4x16xf32>, tensor<2x4x32x16xf32>) {
  %zero = "mlc.constant"() {value = dense<0.000000e+00> : tensor<f32>} : () -> tensor<f32>
  %a = "mlc.attention"(%q, %k, %v, %zero) {bf16_products = false, library = true, scale = 2.500000e-01 : f64, views = array<i64>, zero_masked_rows = false, zero_masked_tail = false} : (tensor<8x32x16xf32>, tensor<8x32x16xf32>, tensor<8x32x16xf32>, tensor<f32>) -> tensor<8x32x16xf32>
  %r = "mlc.reshape"(%a) : (tensor<8x32x16xf32>) -> tensor<2x4x32x16xf32>
  %t = "mlc.fusion_group"() ({
    %0 = "mlc.transpose"(%r) {permutation = array<i64: 0, 2, 1, 3>} : (tensor<2x4x32x16xf32>) -> tensor<2x32x4x16xf32>
    "mlc.yield"(%0) : (tensor<2x32x4x16xf32>) -> ()
  }) : () -> tensor<2x32x4x16xf32>
  return %t, %r : tensor<2x32x4x16xf32>, tensor<2x4x32x16xf32>
}

// -----

// CHECK-LABEL: func.func @transpose_of_an_argument
// CHECK:       linalg.transpose
func.func @transpose_of_an_argument(%x: tensor<2x4x32x16xf32>) -> tensor<2x32x4x16xf32> {
  %t = "mlc.fusion_group"() ({
    %0 = "mlc.transpose"(%x) {permutation = array<i64: 0, 2, 1, 3>} : (tensor<2x4x32x16xf32>) -> tensor<2x32x4x16xf32>
    "mlc.yield"(%0) : (tensor<2x32x4x16xf32>) -> ()
  }) : () -> tensor<2x32x4x16xf32>
  return %t : tensor<2x32x4x16xf32>
}
