// RUN: mlc-opt %s --split-input-file --pass-pipeline='builtin.module(mlc-fuse, mlc-lower-to-linalg{keep-fusion-groups=true}, mlc-form-dispatch-regions, mlc-library-matmuls{shapes=4x8x64xq8 epilogues=true})' | FileCheck %s
// RUN: mlc-opt %s --split-input-file --pass-pipeline='builtin.module(mlc-fuse, mlc-lower-to-linalg{keep-fusion-groups=true}, mlc-form-dispatch-regions, mlc-library-matmuls{shapes=4x8x64xq8})' | FileCheck %s --check-prefix=ALONE

/// A lowered mlc.quantized_matmul of several rows (mlc-quantize-int8{whole-matrices})
/// goes whole to the plugin's mlc_gemm_s8_quantizing: the f32 rows, the int8 weight, its
/// columns' scales, then an epilogue's bias and residual (the rows in the place of an
/// absent term), M, N, K, the weight's fingerprint (0: not packed) and the epilogue's
/// flags. With `epilogues`, the group that only adds the bias and applies GELU to the
/// product goes into the call (flags 5: bias, GELU erf) and its region is gone; without,
/// the call's flags are 0 and the group stays IREE's region. None of the quantization's
/// steps is left either way.

// CHECK-LABEL: func.func @quantized_linear_gelu
// CHECK-SAME:    (%[[X:.*]]: tensor<4x8xf32>, %[[W:.*]]: tensor<8x64xi8>, %[[S:.*]]: tensor<64xf32>, %[[B:.*]]: tensor<64xf32>)
// CHECK-NOT:   linalg.generic
// CHECK:       %[[WORKGROUPS:.*]] = arith.constant 1 : index
// CHECK-NEXT:  %[[REGION:.*]] = "flow.dispatch.region"(%[[WORKGROUPS]]) ({
// CHECK-NEXT:    %[[Y:.*]] = tensor.empty() : tensor<4x64xf32>
// CHECK-NEXT:    %[[M:.*]] = arith.constant 4 : index
// CHECK-NEXT:    %[[N:.*]] = arith.constant 64 : index
// CHECK-NEXT:    %[[K:.*]] = arith.constant 8 : index
// CHECK-NEXT:    %[[NOT_PACKED:.*]] = arith.constant 0 : index
// CHECK-NEXT:    %[[FLAGS:.*]] = arith.constant 5 : index
// CHECK-NEXT:    %[[CALL:.*]] = "iree_codegen.ukernel.generic"(%[[X]], %[[W]], %[[S]], %[[B]], %[[X]], %[[Y]], %[[M]], %[[N]], %[[K]], %[[NOT_PACKED]], %[[FLAGS]]) {operandSegmentSizes = array<i32: 5, 1, 5>, {{.*}} u_kernel_fn_name = "mlc_gemm_s8_quantizing"}
// CHECK-SAME:      : (tensor<4x8xf32>, tensor<8x64xi8>, tensor<64xf32>, tensor<64xf32>, tensor<4x8xf32>, tensor<4x64xf32>, index, index, index, index, index) -> tensor<4x64xf32>
// CHECK-NEXT:    "flow.return"(%[[CALL]]) : (tensor<4x64xf32>) -> ()
// CHECK-NOT:   linalg.generic
// CHECK:       return %[[REGION]]

// ALONE-LABEL: func.func @quantized_linear_gelu
// ALONE:       arith.constant 0 : index
// ALONE-NEXT:  arith.constant 0 : index
// ALONE-NEXT:  "iree_codegen.ukernel.generic"{{.*}}u_kernel_fn_name = "mlc_gemm_s8_quantizing"
// ALONE:       "flow.dispatch.region"
// ALONE:       math.erf
func.func @quantized_linear_gelu(%x: tensor<4x8xf32>, %w: tensor<8x64xi8>, %s: tensor<64xf32>, %b: tensor<64xf32>) -> tensor<4x64xf32> {
  %0 = "mlc.quantized_matmul"(%x, %w, %s) : (tensor<4x8xf32>, tensor<8x64xi8>, tensor<64xf32>) -> tensor<4x64xf32>
  %1 = "mlc.add"(%0, %b) : (tensor<4x64xf32>, tensor<64xf32>) -> tensor<4x64xf32>
  %2 = "mlc.gelu"(%1) {approximate = "none"} : (tensor<4x64xf32>) -> tensor<4x64xf32>
  return %2 : tensor<4x64xf32>
}
