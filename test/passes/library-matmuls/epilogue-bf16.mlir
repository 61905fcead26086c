// RUN: mlc-opt %s --split-input-file --pass-pipeline='builtin.module(mlc-fuse{outside=matmul}, mlc-lower-to-linalg{keep-fusion-groups=true}, mlc-form-dispatch-regions, mlc-library-matmuls{shapes=all epilogues=true})' | FileCheck %s
// RUN: mlc-opt %s --split-input-file --pass-pipeline='builtin.module(mlc-fuse{outside=matmul}, mlc-lower-to-linalg{keep-fusion-groups=true}, mlc-form-dispatch-regions, mlc-library-matmuls{shapes=all epilogues=true})' --mlir-pass-statistics -o /dev/null 2>&1 | FileCheck %s --check-prefix=STATS

/// At bf16 a product lies outside every group (bf16 x bf16 summed in f32), and the group
/// that reads it is its epilogue: the bias and GELU, then the cast of the result to bf16
/// for the next product. The call takes all three (flags 1 bias + 4 GELU + 32 bf16
/// result) and writes bf16; the group's region is gone.

// STATS: 'mlc-library-matmuls'
// STATS-DAG: (2) epilogues on the library
// STATS-DAG: (3) matmuls on the library
// STATS-DAG: (2) regions left empty

// CHECK-LABEL: func.func @linear_gelu_to_bf16
// CHECK-SAME:    (%[[X:.*]]: tensor<64x32xbf16>, %[[W:.*]]: tensor<32x48xbf16>, %[[B:.*]]: tensor<48xf32>)
// CHECK:       %[[RESULT:.*]] = "flow.dispatch.region"
// CHECK-NEXT:    %[[C:.*]] = tensor.empty() : tensor<64x48xbf16>
// CHECK:         %[[FLAGS:.*]] = arith.constant 37 : index
// CHECK-NEXT:    %[[CALL:.*]] = "iree_codegen.ukernel.generic"(%[[X]], %[[W]], %[[B]], %[[X]], %[[C]], {{.*}}, %[[FLAGS]]) {{.*}} u_kernel_fn_name = "mlc_gemm_bf16_epilogue"}
// CHECK-SAME:      -> tensor<64x48xbf16>
// CHECK-NEXT:    "flow.return"(%[[CALL]]) : (tensor<64x48xbf16>) -> ()
// CHECK-NOT:   linalg.generic
// CHECK:       return %[[RESULT]]
func.func @linear_gelu_to_bf16(%x: tensor<64x32xbf16>, %w: tensor<32x48xbf16>, %b: tensor<48xf32>) -> tensor<64x48xbf16> {
  %0 = "mlc.matmul"(%x, %w) : (tensor<64x32xbf16>, tensor<32x48xbf16>) -> tensor<64x48xf32>
  %1 = "mlc.add"(%0, %b) : (tensor<64x48xf32>, tensor<48xf32>) -> tensor<64x48xf32>
  %2 = "mlc.gelu"(%1) {approximate = "none"} : (tensor<64x48xf32>) -> tensor<64x48xf32>
  %3 = "mlc.cast"(%2) : (tensor<64x48xf32>) -> tensor<64x48xbf16>
  return %3 : tensor<64x48xbf16>
}

// -----

/// The last product of a block: bias and residual in f32, no cast (flags 3).

// CHECK-LABEL: func.func @linear_residual
// CHECK:         %[[FLAGS:.*]] = arith.constant 3 : index
// CHECK-NEXT:    "iree_codegen.ukernel.generic"({{.*}}, %[[FLAGS]]) {{.*}} u_kernel_fn_name = "mlc_gemm_bf16_epilogue"}
// CHECK-SAME:      -> tensor<64x32xf32>
// CHECK-NOT:   linalg.generic
func.func @linear_residual(%x: tensor<64x32xbf16>, %w: tensor<32x32xbf16>, %b: tensor<32xf32>, %r: tensor<64x32xf32>) -> tensor<64x32xf32> {
  %0 = "mlc.matmul"(%x, %w) : (tensor<64x32xbf16>, tensor<32x32xbf16>) -> tensor<64x32xf32>
  %1 = "mlc.add"(%0, %b) : (tensor<64x32xf32>, tensor<32xf32>) -> tensor<64x32xf32>
  %2 = "mlc.add"(%r, %1) : (tensor<64x32xf32>, tensor<64x32xf32>) -> tensor<64x32xf32>
  return %2 : tensor<64x32xf32>
}

// -----

/// A cast to bf16 that is not the last step (a residual added after it) keeps the region.

// CHECK-LABEL: func.func @cast_then_more
// CHECK:         u_kernel_fn_name = "mlc_gemm_bf16"
// CHECK:         "flow.dispatch.region"
// CHECK:         linalg.generic
func.func @cast_then_more(%x: tensor<64x32xbf16>, %w: tensor<32x32xbf16>, %r: tensor<64x32xbf16>) -> tensor<64x32xbf16> {
  %0 = "mlc.matmul"(%x, %w) : (tensor<64x32xbf16>, tensor<32x32xbf16>) -> tensor<64x32xf32>
  %1 = "mlc.cast"(%0) : (tensor<64x32xf32>) -> tensor<64x32xbf16>
  %2 = "mlc.add"(%1, %r) : (tensor<64x32xbf16>, tensor<64x32xbf16>) -> tensor<64x32xbf16>
  return %2 : tensor<64x32xbf16>
}
