// RUN: mlc-opt %s --split-input-file --pass-pipeline='builtin.module(mlc-lower-to-linalg, mlc-library-matmuls{shapes=1x8x64xq8})' | FileCheck %s
// RUN: mlc-opt %s --split-input-file --pass-pipeline='builtin.module(mlc-lower-to-linalg, mlc-library-matmuls{shapes=1x8x64xi8})' | FileCheck %s --check-prefix=KEPT

/// A lowered mlc.quantized_matmul of one row (`MxKxNxq8`) goes to the library whole: one
/// call of the plugin's mlc_matvec_s8_quantizing per block of columns, on the f32 row,
/// the int8 weight's block and its columns' scales, which quantizes the row itself. The
/// steps that only led up to it (the rows' largest magnitudes and scales, the int8 row,
/// the int8 product and its rescale) are gone. Not chosen (only its int8 product's
/// shape is named), every step stays.

// CHECK-LABEL: func.func @quantized_row
// CHECK-SAME: (%[[X:.*]]: tensor<1x8xf32>, %[[W:.*]]: tensor<8x64xi8>, %[[S:.*]]: tensor<64xf32>)
// CHECK-NOT:  linalg.generic
// CHECK-NOT:  linalg.matmul
// CHECK:      "flow.dispatch.region"
// CHECK:        %[[WB:.*]] = tensor.extract_slice %[[W]][0, %[[OFFSET:.*]]] [8, %[[SIZE:.*]]] [1, 1] : tensor<8x64xi8> to tensor<8x?xi8>
// CHECK:        %[[SB:.*]] = tensor.extract_slice %[[S]][%[[OFFSET]]] [%[[SIZE]]] [1] : tensor<64xf32> to tensor<?xf32>
// CHECK:        %[[YB:.*]] = tensor.extract_slice %{{.*}}[%[[OFFSET]]] [%[[SIZE]]] [1] : tensor<64xf32> to tensor<?xf32>
// CHECK:        "iree_codegen.ukernel.generic"(%[[X]], %[[WB]], %[[SB]], %[[YB]], %{{.*}}, %[[SIZE]], %{{.*}}) {operandSegmentSizes = array<i32: 3, 1, 3>, strided_dims = {{\[\[}}0], [0], [0], [0]], u_kernel_fn_name = "mlc_matvec_s8_quantizing"}
// CHECK-NOT:  linalg.generic
// CHECK-NOT:  linalg.matmul
// CHECK:      tensor.expand_shape

// KEPT-LABEL: func.func @quantized_row
// KEPT-NOT:   ukernel
// KEPT:       mlc.quantized_matmul = "quantize"
// KEPT:       mlc.quantized_matmul = "product"
// KEPT:       mlc.quantized_matmul = "rescale"
func.func @quantized_row(%x: tensor<1x8xf32>, %w: tensor<8x64xi8>, %s: tensor<64xf32>) -> tensor<1x64xf32> {
  %0 = "mlc.quantized_matmul"(%x, %w, %s) : (tensor<1x8xf32>, tensor<8x64xi8>, tensor<64xf32>) -> tensor<1x64xf32>
  return %0 : tensor<1x64xf32>
}
