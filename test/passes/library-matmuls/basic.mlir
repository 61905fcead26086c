// RUN: mlc-opt %s --split-input-file --pass-pipeline='builtin.module(mlc-fuse, mlc-lower-to-linalg{keep-fusion-groups=true}, mlc-form-dispatch-regions, mlc-library-matmuls{shapes=all})' | FileCheck %s
// RUN: mlc-opt %s --split-input-file --pass-pipeline='builtin.module(mlc-fuse, mlc-lower-to-linalg{keep-fusion-groups=true}, mlc-form-dispatch-regions, mlc-library-matmuls{shapes=64x32x32,8x32x16})' --mlir-pass-statistics -o /dev/null 2>&1 | FileCheck %s --check-prefix=STATS

/// A chosen matmul leaves its group for a dispatch region of its own, before the
/// group: one workgroup (the count region returns the workload, 1), which creates the
/// result in the region and calls the plugin's mlc_sgemm on all of A, B and C, with
/// M, N and K; the plugin splits the columns among its own threads. The group keeps
/// its epilogue and reads the product.

// STATS: 'mlc-library-matmuls'
// STATS-DAG: (2) matmuls on the library
// STATS-DAG: (1) matmuls left to IREE's kernel
// STATS-DAG: (1) regions left empty

// CHECK-LABEL: func.func @linear_relu
// CHECK-SAME:    (%[[X:.*]]: tensor<64x32xf32>, %[[W:.*]]: tensor<32x32xf32>, %[[B:.*]]: tensor<32xf32>)
// CHECK:       %[[WORKGROUPS:.*]] = arith.constant 1 : index
// CHECK-NEXT:  %[[PRODUCT:.*]] = "flow.dispatch.region"(%[[WORKGROUPS]]) ({
// CHECK-NEXT:    %[[DEST:.*]] = tensor.empty() : tensor<64x32xf32>
// CHECK-NEXT:    %[[M:.*]] = arith.constant 64 : index
// CHECK-NEXT:    %[[N:.*]] = arith.constant 32 : index
// CHECK-NEXT:    %[[K:.*]] = arith.constant 32 : index
// CHECK-NEXT:    %[[CALL:.*]] = "iree_codegen.ukernel.generic"(%[[X]], %[[W]], %[[DEST]], %[[M]], %[[N]], %[[K]]) {operandSegmentSizes = array<i32: 2, 1, 3>, strided_dims = {{\[\[}}0], [0], [0]], u_kernel_fn_name = "mlc_sgemm"} : (tensor<64x32xf32>, tensor<32x32xf32>, tensor<64x32xf32>, index, index, index) -> tensor<64x32xf32>
// CHECK-NEXT:    "flow.return"(%[[CALL]]) : (tensor<64x32xf32>) -> ()
// CHECK-NEXT:  }, {
// CHECK-NEXT:  ^bb0(%[[WORKLOAD:.*]]: index):
// CHECK-NEXT:    %[[ONE:.*]] = arith.constant 1 : index
// CHECK-NEXT:    "flow.return"(%[[WORKLOAD]], %[[ONE]], %[[ONE]]) : (index, index, index) -> ()
// CHECK-NEXT:  }) {operandSegmentSizes = array<i32: 0, 1>} : (index) -> tensor<64x32xf32>
// CHECK:       %[[GROUP:.*]] = "flow.dispatch.region"() ({
// CHECK-NOT:     linalg.matmul
// CHECK-NOT:     linalg.fill
// CHECK:         linalg.generic {{.*}} ins(%[[PRODUCT]], %[[B]]
// CHECK:         arith.maximumf
// CHECK:       return %[[GROUP]]
func.func @linear_relu(%x: tensor<64x32xf32>, %w: tensor<32x32xf32>, %b: tensor<32xf32>) -> tensor<64x32xf32> {
  %0 = "mlc.matmul"(%x, %w) : (tensor<64x32xf32>, tensor<32x32xf32>) -> tensor<64x32xf32>
  %1 = "mlc.add"(%0, %b) : (tensor<64x32xf32>, tensor<32xf32>) -> tensor<64x32xf32>
  %2 = "mlc.relu"(%1) : (tensor<64x32xf32>) -> tensor<64x32xf32>
  return %2 : tensor<64x32xf32>
}

// -----

/// A group that was only the matmul is gone: the library's region replaces it.

// CHECK-LABEL: func.func @matmul_alone
// CHECK:       %[[PRODUCT:.*]] = "flow.dispatch.region"(%{{.*}}) ({
// CHECK:         %[[CALL:.*]] = "iree_codegen.ukernel.generic"
// CHECK-NEXT:    "flow.return"(%[[CALL]])
// CHECK-NOT:   "flow.dispatch.region"
// CHECK:       return %[[PRODUCT]]
func.func @matmul_alone(%x: tensor<8x32xf32>, %w: tensor<32x16xf32>) -> tensor<8x16xf32> {
  %0 = "mlc.matmul"(%x, %w) : (tensor<8x32xf32>, tensor<32x16xf32>) -> tensor<8x16xf32>
  return %0 : tensor<8x16xf32>
}

// -----

/// A batch folded into the rows ([2, 3, 32] x [32, 16]: one 6x32x16 matmul) takes the
/// library too (M = 6); the expand back to 3-D stays in the group.

// CHECK-LABEL: func.func @batched_rows
// CHECK:       %[[ROWS:.*]] = tensor.collapse_shape
// CHECK:       "flow.dispatch.region"
// CHECK:         %[[M:.*]] = arith.constant 6 : index
// CHECK-NEXT:    %[[N:.*]] = arith.constant 16 : index
// CHECK-NEXT:    %[[K:.*]] = arith.constant 32 : index
// CHECK-NEXT:    "iree_codegen.ukernel.generic"(%[[ROWS]], %{{.*}}, %{{.*}}, %[[M]], %[[N]], %[[K]]){{.*}} : (tensor<6x32xf32>, tensor<32x16xf32>, tensor<6x16xf32>, index, index, index) -> tensor<6x16xf32>
// CHECK:       tensor.expand_shape
func.func @batched_rows(%x: tensor<2x3x32xf32>, %w: tensor<32x16xf32>) -> tensor<2x3x16xf32> {
  %0 = "mlc.matmul"(%x, %w) : (tensor<2x3x32xf32>, tensor<32x16xf32>) -> tensor<2x3x16xf32>
  %1 = "mlc.relu"(%0) : (tensor<2x3x16xf32>) -> tensor<2x3x16xf32>
  return %1 : tensor<2x3x16xf32>
}

// -----

/// A bf16 matmul summed in f32, which mlc leaves outside every group at bf16 (for
/// IREE's own dispatch formation), is replaced in place by a region calling
/// mlc_gemm_bf16; its zero fill goes with it.

// CHECK-LABEL: func.func @bf16_outside_groups
// CHECK-SAME:    (%[[X:.*]]: tensor<8x32xbf16>, %[[W:.*]]: tensor<32x32xbf16>)
// CHECK-NOT:   linalg.fill
// CHECK:       %[[PRODUCT:.*]] = "flow.dispatch.region"(%{{.*}}) ({
// CHECK-NEXT:    %[[DEST:.*]] = tensor.empty() : tensor<8x32xf32>
// CHECK:         "iree_codegen.ukernel.generic"(%[[X]], %[[W]], %[[DEST]], {{.*}} u_kernel_fn_name = "mlc_gemm_bf16"} : (tensor<8x32xbf16>, tensor<32x32xbf16>, tensor<8x32xf32>, index, index, index) -> tensor<8x32xf32>
// CHECK-NOT:   linalg.matmul
// CHECK:       return %[[PRODUCT]]
func.func @bf16_outside_groups(%x: tensor<8x32xbf16>, %w: tensor<32x32xbf16>) -> tensor<8x32xf32> {
  %cst = arith.constant 0.000000e+00 : f32
  %0 = tensor.empty() : tensor<8x32xf32>
  %1 = linalg.fill ins(%cst : f32) outs(%0 : tensor<8x32xf32>) -> tensor<8x32xf32>
  %2 = linalg.matmul ins(%x, %w : tensor<8x32xbf16>, tensor<32x32xbf16>) outs(%1 : tensor<8x32xf32>) -> tensor<8x32xf32>
  return %2 : tensor<8x32xf32>
}

// -----

/// An int8 matmul summed in i32 (mlc-quantize-int8 leaves it outside every group)
/// calls mlc_gemm_s8 into an i32 result; its zero fill is an integer 0.

// CHECK-LABEL: func.func @int8_outside_groups
// CHECK-NOT:   linalg.fill
// CHECK:       %[[PRODUCT:.*]] = "flow.dispatch.region"(%{{.*}}) ({
// CHECK-NEXT:    %[[DEST:.*]] = tensor.empty() : tensor<8x32xi32>
// CHECK:         "iree_codegen.ukernel.generic"(%{{.*}}, %{{.*}}, %[[DEST]], {{.*}} u_kernel_fn_name = "mlc_gemm_s8"} : (tensor<8x32xi8>, tensor<32x32xi8>, tensor<8x32xi32>, index, index, index) -> tensor<8x32xi32>
// CHECK-NOT:   linalg.matmul
// CHECK:       return %[[PRODUCT]]
func.func @int8_outside_groups(%x: tensor<8x32xi8>, %w: tensor<32x32xi8>) -> tensor<8x32xi32> {
  %zero = arith.constant 0 : i32
  %0 = tensor.empty() : tensor<8x32xi32>
  %1 = linalg.fill ins(%zero : i32) outs(%0 : tensor<8x32xi32>) -> tensor<8x32xi32>
  %2 = linalg.matmul ins(%x, %w : tensor<8x32xi8>, tensor<32x32xi8>) outs(%1 : tensor<8x32xi32>) -> tensor<8x32xi32>
  return %2 : tensor<8x32xi32>
}

