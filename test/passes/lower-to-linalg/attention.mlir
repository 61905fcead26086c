// RUN: mlc-opt %s --split-input-file --pass-pipeline='builtin.module(mlc-lower-to-linalg)' | FileCheck %s

/// mlc.attention with `library` becomes a dispatch region of one workgroup, which
/// calls the plugin's mlc_attention once for all heads (the product of the batch
/// dimensions) on query, key, value and mask as vectors of their elements, and all
/// rows of the result (created in the region); the plugin shares the heads among its
/// own threads. The 32 index scalars are the number of heads, M, N, D, Dv, the mask's
/// strides (heads per outer index, outer, head, row, column), the views of query, key
/// and value (offset, heads per outer index, outer, head and row strides: dense
/// operands here; mlc-attention-views sets others), the output's view (dense [heads,
/// M, Dv]; mlc-attention-output-views sets others), the scale's f32 bits and the flags
/// (1: a mask, 2: zero fully masked rows, 4: bf16 products, 8: zero masked tail). Without `library` the op becomes its steps:
/// batched matmuls around the scale, the mask and a softmax.

/// Scores [2, 3, 8, 10] and a mask [2, 1, 8, 10]: 6 heads in runs of 3 that share a
/// mask of 80 elements (heads per outer index 3, outer stride 80, head stride 0), rows
/// of 10; a dense query [6 heads, 8, 16] is read at head * 128, rows 16 apart; scale
/// 0.125 is 0x3E000000 = 1040187392; flags 1 (a mask). The call writes all 6 * 8 rows.

// CHECK-LABEL: func.func @on_library
// CHECK-SAME:    (%[[Q:.*]]: tensor<2x3x8x16xf32>, %[[K:.*]]: tensor<2x3x10x16xf32>, %[[V:.*]]: tensor<2x3x10x32xf32>, %[[MASK:.*]]: tensor<2x1x8x10xf32>)
// CHECK-NOT:   mlc.attention
// CHECK:       %[[Q1:.*]] = tensor.collapse_shape %[[Q]] {{\[}}[0, 1, 2, 3]] : tensor<2x3x8x16xf32> into tensor<768xf32>
// CHECK-NEXT:  %[[K1:.*]] = tensor.collapse_shape %[[K]] {{\[}}[0, 1, 2, 3]] : tensor<2x3x10x16xf32> into tensor<960xf32>
// CHECK-NEXT:  %[[V1:.*]] = tensor.collapse_shape %[[V]] {{\[}}[0, 1, 2, 3]] : tensor<2x3x10x32xf32> into tensor<1920xf32>
// CHECK-NEXT:  %[[M1:.*]] = tensor.collapse_shape %[[MASK]] {{\[}}[0, 1, 2, 3]] : tensor<2x1x8x10xf32> into tensor<160xf32>
// CHECK-NEXT:  %[[WORKGROUPS:.*]] = arith.constant 1 : index
// CHECK-NEXT:  %[[REGION:.*]] = "flow.dispatch.region"(%[[WORKGROUPS]]) ({
// CHECK-NEXT:    %[[DEST:.*]] = tensor.empty() : tensor<48x32xf32>
// CHECK-NEXT:    %[[HEADS:.*]] = arith.constant 6 : index
// CHECK-NEXT:    %[[M:.*]] = arith.constant 8 : index
// CHECK-NEXT:    %[[N:.*]] = arith.constant 10 : index
// CHECK-NEXT:    %[[D:.*]] = arith.constant 16 : index
// CHECK-NEXT:    %[[DV:.*]] = arith.constant 32 : index
// CHECK-NEXT:    %[[INNER:.*]] = arith.constant 3 : index
// CHECK-NEXT:    %[[OUTER_STRIDE:.*]] = arith.constant 80 : index
// CHECK-NEXT:    %[[HEAD_STRIDE:.*]] = arith.constant 0 : index
// CHECK-NEXT:    %[[ROW_STRIDE:.*]] = arith.constant 10 : index
// CHECK-NEXT:    %[[COLUMN_STRIDE:.*]] = arith.constant 1 : index
// CHECK-NEXT:    %[[Q_OFFSET:.*]] = arith.constant 0 : index
// CHECK-NEXT:    %[[Q_HEADS:.*]] = arith.constant 1 : index
// CHECK-NEXT:    %[[Q_OUTER:.*]] = arith.constant 128 : index
// CHECK-NEXT:    %[[Q_HEAD:.*]] = arith.constant 0 : index
// CHECK-NEXT:    %[[Q_ROW:.*]] = arith.constant 16 : index
// CHECK-NOT:     flow.dispatch.workgroup.id
// CHECK-NOT:     tensor.extract_slice
// CHECK:         %[[SCALE:.*]] = arith.constant 1040187392 : index
// CHECK-NEXT:    %[[FLAGS:.*]] = arith.constant 1 : index
// CHECK-NEXT:    %[[CALL:.*]] = "iree_codegen.ukernel.generic"(%[[Q1]], %[[K1]], %[[V1]], %[[M1]], %[[DEST]], %[[HEADS]], %[[M]], %[[N]], %[[D]], %[[DV]], %[[INNER]], %[[OUTER_STRIDE]], %[[HEAD_STRIDE]], %[[ROW_STRIDE]], %[[COLUMN_STRIDE]], %[[Q_OFFSET]], %[[Q_HEADS]], %[[Q_OUTER]], %[[Q_HEAD]], %[[Q_ROW]], {{.*}}, %[[SCALE]], %[[FLAGS]])
// CHECK-SAME:      operandSegmentSizes = array<i32: 4, 1, 32>
// CHECK-SAME:      u_kernel_fn_name = "mlc_attention"
// CHECK-SAME:      : (tensor<768xf32>, tensor<960xf32>, tensor<1920xf32>, tensor<160xf32>, tensor<48x32xf32>, index, index, index, index, index, index, index, index, index, index, index, index, index, index, index, index, index, index, index, index, index, index, index, index, index, index, index, index, index, index, index, index) -> tensor<48x32xf32>
// CHECK-NEXT:    "flow.return"(%[[CALL]]) : (tensor<48x32xf32>) -> ()
// CHECK-NEXT:  }, {
// CHECK-NEXT:  ^bb0(%[[WORKLOAD:.*]]: index):
// CHECK-NEXT:    %[[ONE:.*]] = arith.constant 1 : index
// CHECK-NEXT:    "flow.return"(%[[WORKLOAD]], %[[ONE]], %[[ONE]]) : (index, index, index) -> ()
// CHECK-NEXT:  }) {operandSegmentSizes = array<i32: 0, 1>} : (index) -> tensor<48x32xf32>
// CHECK-NEXT:  %[[RESULT:.*]] = tensor.expand_shape %[[REGION]] {{\[}}[0, 1, 2], [3]] output_shape [2, 3, 8, 32] : tensor<48x32xf32> into tensor<2x3x8x32xf32>
// CHECK-NEXT:  return %[[RESULT]]
// CHECK-NOT:   linalg.softmax
// CHECK-NOT:   linalg.batch_matmul
func.func @on_library(%q: tensor<2x3x8x16xf32>, %k: tensor<2x3x10x16xf32>, %v: tensor<2x3x10x32xf32>, %mask: tensor<2x1x8x10xf32>) -> tensor<2x3x8x32xf32> {
  %o = "mlc.attention"(%q, %k, %v, %mask) {bf16_products = false, library = true, scale = 1.250000e-01 : f64, views = array<i64>, zero_masked_rows = false, zero_masked_tail = false} : (tensor<2x3x8x16xf32>, tensor<2x3x10x16xf32>, tensor<2x3x10x32xf32>, tensor<2x1x8x10xf32>) -> tensor<2x3x8x32xf32>
  return %o : tensor<2x3x8x32xf32>
}

// -----

/// No mask (the 0-d zero mlc-form-attention gives): the call gets it as a vector of
/// one element, all mask strides 0, scale 1.0 (0x3F800000) and no flags; 4 heads,
/// all in the one call.

// CHECK-LABEL: func.func @no_mask
// CHECK:       %[[ZERO:.*]] = arith.constant dense<0.000000e+00> : tensor<f32>
// CHECK:       %[[ONE_ZERO:.*]] = tensor.expand_shape %[[ZERO]] [] output_shape [1] : tensor<f32> into tensor<1xf32>
// CHECK:       %[[WORKGROUPS:.*]] = arith.constant 1 : index
// CHECK-NEXT:  "flow.dispatch.region"(%[[WORKGROUPS]]) ({
// CHECK-NEXT:    %[[DEST:.*]] = tensor.empty() : tensor<32x32xf32>
// CHECK-NEXT:    %[[HEADS:.*]] = arith.constant 4 : index
// CHECK:         %[[INNER:.*]] = arith.constant 1 : index
// CHECK-NEXT:    %[[OUTER_STRIDE:.*]] = arith.constant 0 : index
// CHECK-NEXT:    %[[HEAD_STRIDE:.*]] = arith.constant 0 : index
// CHECK-NEXT:    %[[ROW_STRIDE:.*]] = arith.constant 0 : index
// CHECK-NEXT:    %[[COLUMN_STRIDE:.*]] = arith.constant 0 : index
// CHECK:         %[[SCALE:.*]] = arith.constant 1065353216 : index
// CHECK-NEXT:    %[[FLAGS:.*]] = arith.constant 0 : index
// CHECK-NEXT:    "iree_codegen.ukernel.generic"(%{{.*}}, %{{.*}}, %{{.*}}, %[[ONE_ZERO]], %[[DEST]], %[[HEADS]], %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %[[INNER]], %[[OUTER_STRIDE]], %[[HEAD_STRIDE]], %[[ROW_STRIDE]], %[[COLUMN_STRIDE]], {{.*}}, %[[SCALE]], %[[FLAGS]])
// CHECK-SAME:      operandSegmentSizes = array<i32: 4, 1, 32>
// CHECK-SAME:      u_kernel_fn_name = "mlc_attention"
// CHECK-SAME:      : (tensor<512xf32>, tensor<640xf32>, tensor<1280xf32>, tensor<1xf32>, tensor<32x32xf32>,
// CHECK-SAME:      -> tensor<32x32xf32>
func.func @no_mask(%q: tensor<4x8x16xf32>, %k: tensor<4x10x16xf32>, %v: tensor<4x10x32xf32>) -> tensor<4x8x32xf32> {
  %zero = "mlc.constant"() {value = dense<0.000000e+00> : tensor<f32>} : () -> tensor<f32>
  %o = "mlc.attention"(%q, %k, %v, %zero) {bf16_products = false, library = true, scale = 1.000000e+00 : f64, views = array<i64>, zero_masked_rows = false, zero_masked_tail = false} : (tensor<4x8x16xf32>, tensor<4x10x16xf32>, tensor<4x10x32xf32>, tensor<f32>) -> tensor<4x8x32xf32>
  return %o : tensor<4x8x32xf32>
}

// -----

/// No batch dimensions: one head (the call's first scalar is 1), no expand of the result.
/// zero_masked_rows with a mask sets both flags (3).

// CHECK-LABEL: func.func @one_head_zeroing_rows
// CHECK-SAME:    (%[[Q:.*]]: tensor<8x16xf32>, %[[K:.*]]: tensor<10x16xf32>, %[[V:.*]]: tensor<10x32xf32>, %[[MASK:.*]]: tensor<8x10xf32>)
// CHECK-DAG:   %[[Q1:.*]] = tensor.collapse_shape %[[Q]] {{\[}}[0, 1]] : tensor<8x16xf32> into tensor<128xf32>
// CHECK-DAG:   %[[M1:.*]] = tensor.collapse_shape %[[MASK]] {{\[}}[0, 1]] : tensor<8x10xf32> into tensor<80xf32>
// CHECK:       %[[WORKGROUPS:.*]] = arith.constant 1 : index
// CHECK:       %[[REGION:.*]] = "flow.dispatch.region"(%[[WORKGROUPS]])
// CHECK-NEXT:    %[[DEST:.*]] = tensor.empty() : tensor<8x32xf32>
// CHECK-NEXT:    %[[HEADS:.*]] = arith.constant 1 : index
// CHECK:         %[[FLAGS:.*]] = arith.constant 3 : index
// CHECK-NEXT:    %[[CALL:.*]] = "iree_codegen.ukernel.generic"(%[[Q1]], %{{.*}}, %{{.*}}, %[[M1]], %[[DEST]], %[[HEADS]], {{.*}}, %[[FLAGS]]) {{.*}} u_kernel_fn_name = "mlc_attention"
// CHECK-NEXT:    "flow.return"(%[[CALL]]) : (tensor<8x32xf32>) -> ()
// CHECK-NOT:   tensor.expand_shape
// CHECK:       return %[[REGION]]
func.func @one_head_zeroing_rows(%q: tensor<8x16xf32>, %k: tensor<10x16xf32>, %v: tensor<10x32xf32>, %mask: tensor<8x10xf32>) -> tensor<8x32xf32> {
  %o = "mlc.attention"(%q, %k, %v, %mask) {bf16_products = false, library = true, scale = 1.250000e-01 : f64, views = array<i64>, zero_masked_rows = true, zero_masked_tail = false} : (tensor<8x16xf32>, tensor<10x16xf32>, tensor<10x32xf32>, tensor<8x10xf32>) -> tensor<8x32xf32>
  return %o : tensor<8x32xf32>
}

// -----

/// bf16_products (precision bf16) sets flag 4, with the mask's 1; the operands stay f32
/// (the plugin converts them where the CPU multiplies bf16).

// CHECK-LABEL: func.func @bf16_products_on_library
// CHECK:         %[[FLAGS:.*]] = arith.constant 5 : index
// CHECK-NEXT:    %[[CALL:.*]] = "iree_codegen.ukernel.generic"({{.*}}, %[[FLAGS]]) {{.*}} u_kernel_fn_name = "mlc_attention"
// CHECK-SAME:      : (tensor<128xf32>, tensor<160xf32>, tensor<320xf32>, tensor<80xf32>, tensor<8x32xf32>,
func.func @bf16_products_on_library(%q: tensor<8x16xf32>, %k: tensor<10x16xf32>, %v: tensor<10x32xf32>, %mask: tensor<8x10xf32>) -> tensor<8x32xf32> {
  %o = "mlc.attention"(%q, %k, %v, %mask) {bf16_products = true, library = true, scale = 1.250000e-01 : f64, views = array<i64>, zero_masked_rows = false, zero_masked_tail = false} : (tensor<8x16xf32>, tensor<10x16xf32>, tensor<10x32xf32>, tensor<8x10xf32>) -> tensor<8x32xf32>
  return %o : tensor<8x32xf32>
}

// -----

/// zero_masked_tail (mlc.generator's promise that the cache past the keys attended to
/// holds zeros) sets flag 8, with the mask's 1: the plugin reads the keys up to the
/// last one attended to.

// CHECK-LABEL: func.func @zero_masked_tail_on_library
// CHECK:         %[[FLAGS:.*]] = arith.constant 9 : index
// CHECK-NEXT:    %[[CALL:.*]] = "iree_codegen.ukernel.generic"({{.*}}, %[[FLAGS]]) {{.*}} u_kernel_fn_name = "mlc_attention"
func.func @zero_masked_tail_on_library(%q: tensor<1x16xf32>, %k: tensor<64x16xf32>, %v: tensor<64x32xf32>, %mask: tensor<1x64xf32>) -> tensor<1x32xf32> {
  %o = "mlc.attention"(%q, %k, %v, %mask) {bf16_products = false, library = true, scale = 1.250000e-01 : f64, views = array<i64>, zero_masked_rows = false, zero_masked_tail = true} : (tensor<1x16xf32>, tensor<64x16xf32>, tensor<64x32xf32>, tensor<1x64xf32>) -> tensor<1x32xf32>
  return %o : tensor<1x32xf32>
}

// -----

/// Without the library the steps read every key, which gives what skipping the zeros
/// would: zero_masked_tail changes nothing there.

// CHECK-LABEL: func.func @zero_masked_tail_as_steps
// CHECK-NOT:     mlc_attention
// CHECK:         linalg.batch_matmul
// CHECK:         linalg.batch_matmul ins(%{{.*}}, %{{.*}} : tensor<1x1x64xf32>, tensor<1x64x32xf32>)
func.func @zero_masked_tail_as_steps(%q: tensor<1x16xf32>, %k: tensor<64x16xf32>, %v: tensor<64x32xf32>, %mask: tensor<1x64xf32>) -> tensor<1x32xf32> {
  %o = "mlc.attention"(%q, %k, %v, %mask) {bf16_products = false, library = false, scale = 1.250000e-01 : f64, views = array<i64>, zero_masked_rows = false, zero_masked_tail = true} : (tensor<1x16xf32>, tensor<64x16xf32>, tensor<64x32xf32>, tensor<1x64xf32>) -> tensor<1x32xf32>
  return %o : tensor<1x32xf32>
}

// -----

/// Without `library`: the steps, on the heads folded into one batch dimension. The
/// key is transposed, the scores scaled, the mask added at the full batch shape,
/// the softmax taken over the keys, then the batched matmul by the value.

// CHECK-LABEL: func.func @steps
// CHECK-SAME:    (%[[Q:.*]]: tensor<2x3x8x16xf32>, %[[K:.*]]: tensor<2x3x10x16xf32>, %[[V:.*]]: tensor<2x3x10x32xf32>, %[[MASK:.*]]: tensor<2x1x8x10xf32>)
// CHECK-NOT:   iree_codegen.ukernel.generic
// CHECK-NOT:   flow.dispatch.region
// CHECK-DAG:   %[[Q3:.*]] = tensor.collapse_shape %[[Q]] {{\[}}[0, 1], [2], [3]] : tensor<2x3x8x16xf32> into tensor<6x8x16xf32>
// CHECK-DAG:   %[[K3:.*]] = tensor.collapse_shape %[[K]] {{\[}}[0, 1], [2], [3]] : tensor<2x3x10x16xf32> into tensor<6x10x16xf32>
// CHECK-DAG:   %[[V3:.*]] = tensor.collapse_shape %[[V]] {{\[}}[0, 1], [2], [3]] : tensor<2x3x10x32xf32> into tensor<6x10x32xf32>
// CHECK:       %[[KT:.*]] = linalg.generic {{.*}} ins(%[[K3]] : tensor<6x10x16xf32>) outs(%{{.*}} : tensor<6x16x10xf32>)
// CHECK:       %[[S:.*]] = linalg.batch_matmul ins(%[[Q3]], %[[KT]] : tensor<6x8x16xf32>, tensor<6x16x10xf32>) outs(%{{.*}} : tensor<6x8x10xf32>)
// CHECK:       %[[SCALE:.*]] = arith.constant dense<1.250000e-01> : tensor<f32>
// CHECK:       %[[SCALED:.*]] = linalg.generic {{.*}} ins(%[[S]], %[[SCALE]] : tensor<6x8x10xf32>, tensor<f32>)
// CHECK:         arith.mulf
// CHECK:       %[[S4:.*]] = tensor.expand_shape %[[SCALED]] {{\[}}[0, 1], [2], [3]] output_shape [2, 3, 8, 10] : tensor<6x8x10xf32> into tensor<2x3x8x10xf32>
// CHECK:       %[[MASKED:.*]] = linalg.generic {{.*}} ins(%[[S4]], %[[MASK]] : tensor<2x3x8x10xf32>, tensor<2x1x8x10xf32>)
// CHECK:         arith.addf
// CHECK:       %[[W:.*]] = linalg.softmax dimension(3) ins(%[[MASKED]] : tensor<2x3x8x10xf32>)
// CHECK:       %[[W3:.*]] = tensor.collapse_shape %[[W]] {{\[}}[0, 1], [2], [3]] : tensor<2x3x8x10xf32> into tensor<6x8x10xf32>
// CHECK:       %[[O:.*]] = linalg.batch_matmul ins(%[[W3]], %[[V3]] : tensor<6x8x10xf32>, tensor<6x10x32xf32>) outs(%{{.*}} : tensor<6x8x32xf32>)
// CHECK:       %[[R:.*]] = tensor.expand_shape %[[O]] {{\[}}[0, 1], [2], [3]] output_shape [2, 3, 8, 32] : tensor<6x8x32xf32> into tensor<2x3x8x32xf32>
// CHECK-NEXT:  return %[[R]]
func.func @steps(%q: tensor<2x3x8x16xf32>, %k: tensor<2x3x10x16xf32>, %v: tensor<2x3x10x32xf32>, %mask: tensor<2x1x8x10xf32>) -> tensor<2x3x8x32xf32> {
  %o = "mlc.attention"(%q, %k, %v, %mask) {bf16_products = false, library = false, scale = 1.250000e-01 : f64, views = array<i64>, zero_masked_rows = false, zero_masked_tail = false} : (tensor<2x3x8x16xf32>, tensor<2x3x10x16xf32>, tensor<2x3x10x32xf32>, tensor<2x1x8x10xf32>) -> tensor<2x3x8x32xf32>
  return %o : tensor<2x3x8x32xf32>
}

// -----

/// zero_masked_rows as steps: the softmax's weights selected to 0 where the scores (the
/// mask added) are -inf, one elementwise step that joins the product's dispatch.

// CHECK-LABEL: func.func @steps_zeroing_rows
// CHECK-SAME:    (%{{.*}}: tensor<2x3x8x16xf32>, %{{.*}}: tensor<2x3x10x16xf32>, %{{.*}}: tensor<2x3x10x32xf32>, %[[MASK:.*]]: tensor<2x1x8x10xf32>)
// CHECK-NOT:   iree_codegen.ukernel.generic
// CHECK:       %[[SCORES:.*]] = linalg.generic {{.*}} ins(%{{.*}}, %[[MASK]] : tensor<2x3x8x10xf32>, tensor<2x1x8x10xf32>)
// CHECK:         arith.addf
// CHECK:       %[[W:.*]] = linalg.softmax dimension(3) ins(%[[SCORES]]
// CHECK:       %[[MINUS_INF:.*]] = linalg.generic {{.*}} ins(%[[SCORES]], %{{.*}} : tensor<2x3x8x10xf32>, tensor<f32>) outs(%{{.*}} : tensor<2x3x8x10xi1>)
// CHECK:         arith.cmpf oeq
// CHECK:       %[[ZEROED:.*]] = linalg.generic {{.*}} ins(%[[MINUS_INF]], %{{.*}}, %[[W]] : tensor<2x3x8x10xi1>, tensor<f32>, tensor<2x3x8x10xf32>)
// CHECK:         arith.select
// CHECK:       %[[W3:.*]] = tensor.collapse_shape %[[ZEROED]]
// CHECK:       linalg.batch_matmul ins(%[[W3]], %{{.*}} : tensor<6x8x10xf32>, tensor<6x10x32xf32>)
func.func @steps_zeroing_rows(%q: tensor<2x3x8x16xf32>, %k: tensor<2x3x10x16xf32>, %v: tensor<2x3x10x32xf32>, %mask: tensor<2x1x8x10xf32>) -> tensor<2x3x8x32xf32> {
  %o = "mlc.attention"(%q, %k, %v, %mask) {bf16_products = false, library = false, scale = 1.250000e-01 : f64, views = array<i64>, zero_masked_rows = true, zero_masked_tail = false} : (tensor<2x3x8x16xf32>, tensor<2x3x10x16xf32>, tensor<2x3x10x32xf32>, tensor<2x1x8x10xf32>) -> tensor<2x3x8x32xf32>
  return %o : tensor<2x3x8x32xf32>
}

// -----

/// bf16_products as steps: each product's operands cast to bf16, summed in f32; the
/// softmax stays f32.

// CHECK-LABEL: func.func @steps_bf16_products
// CHECK-NOT:   iree_codegen.ukernel.generic
// CHECK:       linalg.batch_matmul ins(%{{.*}}, %{{.*}} : tensor<6x8x16xbf16>, tensor<6x16x10xbf16>) outs(%{{.*}} : tensor<6x8x10xf32>)
// CHECK:       linalg.softmax dimension(3) ins(%{{.*}} : tensor<2x3x8x10xf32>)
// CHECK:       linalg.batch_matmul ins(%{{.*}}, %{{.*}} : tensor<6x8x10xbf16>, tensor<6x10x32xbf16>) outs(%{{.*}} : tensor<6x8x32xf32>)
func.func @steps_bf16_products(%q: tensor<2x3x8x16xf32>, %k: tensor<2x3x10x16xf32>, %v: tensor<2x3x10x32xf32>, %mask: tensor<2x1x8x10xf32>) -> tensor<2x3x8x32xf32> {
  %o = "mlc.attention"(%q, %k, %v, %mask) {bf16_products = true, library = false, scale = 1.250000e-01 : f64, views = array<i64>, zero_masked_rows = false, zero_masked_tail = false} : (tensor<2x3x8x16xf32>, tensor<2x3x10x16xf32>, tensor<2x3x10x32xf32>, tensor<2x1x8x10xf32>) -> tensor<2x3x8x32xf32>
  return %o : tensor<2x3x8x32xf32>
}
