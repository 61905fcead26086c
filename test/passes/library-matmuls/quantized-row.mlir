// RUN: mlc-opt %s --split-input-file --pass-pipeline='builtin.module(mlc-lower-to-linalg, mlc-library-matmuls{shapes=1x8x64xq8})' | FileCheck %s
// RUN: mlc-opt %s --split-input-file --pass-pipeline='builtin.module(mlc-lower-to-linalg, mlc-library-matmuls{shapes=1x8x64xi8})' | FileCheck %s --check-prefix=KEPT
// RUN: mlc-opt %s --split-input-file --pass-pipeline='builtin.module(mlc-lower-to-linalg, mlc-library-matmuls{shapes=1x8x64xq8 packed=true})' | FileCheck %s --check-prefix=PACKED

/// A lowered mlc.quantized_matmul of one row (`MxKxNxq8`) goes to the library whole: one
/// workgroup, one call of the plugin's mlc_matvec_s8_quantizing on the f32 row, the
/// whole int8 weight and its columns' scales, which quantizes the row itself and splits
/// the columns among its own threads. The result is a vector of N, expanded to 1xN after
/// the region; its last scalar, 0, says the weight is read as it lies (no fingerprint).
/// The steps that only led up to it (the rows' largest magnitudes and
/// scales, the int8 row, the int8 product and its rescale) are gone. Not chosen (only
/// its int8 product's shape is named), every step stays.

// CHECK-LABEL: func.func @quantized_row
// CHECK-SAME: (%[[X:.*]]: tensor<1x8xf32>, %[[W:.*]]: tensor<8x64xi8>, %[[S:.*]]: tensor<64xf32>)
// CHECK-NOT:  linalg.generic
// CHECK-NOT:  linalg.matmul
// CHECK:      %[[WORKGROUPS:.*]] = arith.constant 1 : index
// CHECK-NEXT: %[[REGION:.*]] = "flow.dispatch.region"(%[[WORKGROUPS]]) ({
// CHECK-NEXT:   %[[Y:.*]] = tensor.empty() : tensor<64xf32>
// CHECK-NEXT:   %[[M:.*]] = arith.constant 1 : index
// CHECK-NEXT:   %[[N:.*]] = arith.constant 64 : index
// CHECK-NEXT:   %[[K:.*]] = arith.constant 8 : index
// CHECK-NEXT:   %[[NONE:.*]] = arith.constant 0 : index
// CHECK-NEXT:   %[[CALL:.*]] = "iree_codegen.ukernel.generic"(%[[X]], %[[W]], %[[S]], %[[Y]], %[[M]], %[[N]], %[[K]], %[[NONE]]) {operandSegmentSizes = array<i32: 3, 1, 4>, strided_dims = {{\[\[}}0], [0], [0], [0]], u_kernel_fn_name = "mlc_matvec_s8_quantizing"}
// CHECK-SAME:     : (tensor<1x8xf32>, tensor<8x64xi8>, tensor<64xf32>, tensor<64xf32>, index, index, index, index) -> tensor<64xf32>
// CHECK-NEXT:   "flow.return"(%[[CALL]]) : (tensor<64xf32>) -> ()
// CHECK:      }) {operandSegmentSizes = array<i32: 0, 1>} : (index) -> tensor<64xf32>
// CHECK-NEXT: %[[ROW:.*]] = tensor.expand_shape %[[REGION]] {{\[\[}}0, 1]] output_shape [1, 64] : tensor<64xf32> into tensor<1x64xf32>
// CHECK-NEXT: return %[[ROW]]

// KEPT-LABEL: func.func @quantized_row
// KEPT-NOT:   ukernel
// KEPT:       mlc.quantized_matmul = "quantize"
// KEPT:       mlc.quantized_matmul = "product"
// KEPT:       mlc.quantized_matmul = "rescale"
func.func @quantized_row(%x: tensor<1x8xf32>, %w: tensor<8x64xi8>, %s: tensor<64xf32>) -> tensor<1x64xf32> {
  %0 = "mlc.quantized_matmul"(%x, %w, %s) : (tensor<1x8xf32>, tensor<8x64xi8>, tensor<64xf32>) -> tensor<1x64xf32>
  return %0 : tensor<1x64xf32>
}

// -----

/// With `packed`, a constant weight's fingerprint is the call's last scalar: the plugin
/// lays the weight out once as its VNNI row kernel streams it. A weight that is an
/// argument keeps 0 (PACKED of @quantized_row above, which the first case also runs).

// PACKED-LABEL: func.func @quantized_row
// PACKED:       "iree_codegen.ukernel.generic"
// PACKED-SAME:    %c0{{.*}}) {{.*}}u_kernel_fn_name = "mlc_matvec_s8_quantizing"

// CHECK-LABEL:  func.func @constant_weight
// PACKED-LABEL: func.func @constant_weight
// PACKED:       "iree_codegen.ukernel.generic"({{.*}}, %c64, %c8, %c{{[1-9][0-9]+}}) {{.*}}u_kernel_fn_name = "mlc_matvec_s8_quantizing"
func.func @constant_weight(%x: tensor<1x8xf32>, %s: tensor<64xf32>) -> tensor<1x64xf32> {
  %w = "mlc.constant"() {value = dense<3> : tensor<8x64xi8>} : () -> tensor<8x64xi8>
  %0 = "mlc.quantized_matmul"(%x, %w, %s) : (tensor<1x8xf32>, tensor<8x64xi8>, tensor<64xf32>) -> tensor<1x64xf32>
  return %0 : tensor<1x64xf32>
}
