// RUN: mlc-opt %s --split-input-file --pass-pipeline='builtin.module(mlc-fuse, mlc-lower-to-linalg{keep-fusion-groups=true}, mlc-form-dispatch-regions, mlc-library-matmuls{shapes=all epilogues=true})' | FileCheck %s
// RUN: mlc-opt %s --split-input-file --pass-pipeline='builtin.module(mlc-fuse, mlc-lower-to-linalg{keep-fusion-groups=true}, mlc-form-dispatch-regions, mlc-library-matmuls{shapes=all epilogues=true})' --mlir-pass-statistics -o /dev/null 2>&1 | FileCheck %s --check-prefix=STATS
// RUN: mlc-opt %s --split-input-file --pass-pipeline='builtin.module(mlc-fuse, mlc-lower-to-linalg{keep-fusion-groups=true}, mlc-form-dispatch-regions, mlc-library-matmuls{shapes=all})' | FileCheck %s --check-prefix=OFF

/// With `epilogues`, a group that is only the product's bias, a residual and a GELU goes
/// into the library's call (mlc_sgemm_epilogue, passes/library_epilogue.py): the whole
/// bias and residual beside B (A in the place of a term that is absent), then M, N, K,
/// B's fingerprint (0: not packed) and the flags (1 bias, 2 residual, 4 GELU erf,
/// 8 GELU tanh, 16 packed), in the region's one workgroup; the group's region is gone.
/// Anything else after the product keeps the region.

// STATS: 'mlc-library-matmuls'
// STATS-DAG: (3) epilogues on the library
// STATS-DAG: (6) matmuls on the library
// STATS-DAG: (3) regions left empty

// CHECK-LABEL: func.func @linear_gelu
// CHECK-SAME:    (%[[X:.*]]: tensor<64x32xf32>, %[[W:.*]]: tensor<32x48xf32>, %[[B:.*]]: tensor<48xf32>)
// CHECK:       %[[WORKGROUPS:.*]] = arith.constant 1 : index
// CHECK-NEXT:  %[[PRODUCT:.*]] = "flow.dispatch.region"(%[[WORKGROUPS]]) ({
// CHECK-NEXT:    %[[C:.*]] = tensor.empty() : tensor<64x48xf32>
// CHECK-NEXT:    %[[M:.*]] = arith.constant 64 : index
// CHECK-NEXT:    %[[N:.*]] = arith.constant 48 : index
// CHECK-NEXT:    %[[K:.*]] = arith.constant 32 : index
// CHECK-NEXT:    %[[NOT_PACKED:.*]] = arith.constant 0 : index
// CHECK-NEXT:    %[[FLAGS:.*]] = arith.constant 5 : index
// CHECK-NEXT:    %[[CALL:.*]] = "iree_codegen.ukernel.generic"(%[[X]], %[[W]], %[[B]], %[[X]], %[[C]], %[[M]], %[[N]], %[[K]], %[[NOT_PACKED]], %[[FLAGS]]) {operandSegmentSizes = array<i32: 4, 1, 5>, {{.*}} u_kernel_fn_name = "mlc_sgemm_epilogue"}
// CHECK-SAME:      : (tensor<64x32xf32>, tensor<32x48xf32>, tensor<48xf32>, tensor<64x32xf32>, tensor<64x48xf32>, index, index, index, index, index) -> tensor<64x48xf32>
// CHECK-NEXT:    "flow.return"(%[[CALL]]) : (tensor<64x48xf32>) -> ()
// CHECK-NOT:   linalg.generic
// CHECK:       return %[[PRODUCT]]
// OFF-LABEL:   func.func @linear_gelu
// OFF:         u_kernel_fn_name = "mlc_sgemm"
// OFF:         math.erf
func.func @linear_gelu(%x: tensor<64x32xf32>, %w: tensor<32x48xf32>, %b: tensor<48xf32>) -> tensor<64x48xf32> {
  %0 = "mlc.matmul"(%x, %w) : (tensor<64x32xf32>, tensor<32x48xf32>) -> tensor<64x48xf32>
  %1 = "mlc.add"(%0, %b) : (tensor<64x48xf32>, tensor<48xf32>) -> tensor<64x48xf32>
  %2 = "mlc.gelu"(%1) {approximate = "none"} : (tensor<64x48xf32>) -> tensor<64x48xf32>
  return %2 : tensor<64x48xf32>
}

// -----

/// A skip connection: bias, then the residual (flags 3).

// CHECK-LABEL: func.func @linear_residual
// CHECK-SAME:    (%[[X:.*]]: tensor<64x32xf32>, %[[W:.*]]: tensor<32x32xf32>, %[[B:.*]]: tensor<32xf32>, %[[R:.*]]: tensor<64x32xf32>)
// CHECK:         %[[FLAGS:.*]] = arith.constant 3 : index
// CHECK-NEXT:    "iree_codegen.ukernel.generic"(%[[X]], %[[W]], %[[B]], %[[R]], %{{.*}}, %[[FLAGS]]) {{.*}} u_kernel_fn_name = "mlc_sgemm_epilogue"}
// CHECK-NOT:   linalg.generic
func.func @linear_residual(%x: tensor<64x32xf32>, %w: tensor<32x32xf32>, %b: tensor<32xf32>, %r: tensor<64x32xf32>) -> tensor<64x32xf32> {
  %0 = "mlc.matmul"(%x, %w) : (tensor<64x32xf32>, tensor<32x32xf32>) -> tensor<64x32xf32>
  %1 = "mlc.add"(%0, %b) : (tensor<64x32xf32>, tensor<32xf32>) -> tensor<64x32xf32>
  %2 = "mlc.add"(%r, %1) : (tensor<64x32xf32>, tensor<64x32xf32>) -> tensor<64x32xf32>
  return %2 : tensor<64x32xf32>
}

// -----

/// GELU's tanh form alone (flags 8).

// CHECK-LABEL: func.func @gelu_tanh
// CHECK:         %[[FLAGS:.*]] = arith.constant 8 : index
// CHECK-NEXT:    "iree_codegen.ukernel.generic"({{.*}}, %[[FLAGS]]) {{.*}} u_kernel_fn_name = "mlc_sgemm_epilogue"
func.func @gelu_tanh(%x: tensor<64x32xf32>, %w: tensor<32x32xf32>) -> tensor<64x32xf32> {
  %0 = "mlc.matmul"(%x, %w) : (tensor<64x32xf32>, tensor<32x32xf32>) -> tensor<64x32xf32>
  %1 = "mlc.gelu"(%0) {approximate = "tanh"} : (tensor<64x32xf32>) -> tensor<64x32xf32>
  return %1 : tensor<64x32xf32>
}

// -----

/// Not an epilogue: a residual after the GELU (the plugin adds before it), a ReLU, and a
/// bias along rows. Each keeps its region, after the plain call.

// CHECK-LABEL: func.func @residual_after_gelu
// CHECK:         u_kernel_fn_name = "mlc_sgemm"
// CHECK:         math.erf
// CHECK-LABEL: func.func @relu
// CHECK:         u_kernel_fn_name = "mlc_sgemm"
// CHECK:         arith.maximumf
// CHECK-LABEL: func.func @bias_along_rows
// CHECK:         u_kernel_fn_name = "mlc_sgemm"
// CHECK:         linalg.generic
func.func @residual_after_gelu(%x: tensor<64x32xf32>, %w: tensor<32x32xf32>, %r: tensor<64x32xf32>) -> tensor<64x32xf32> {
  %0 = "mlc.matmul"(%x, %w) : (tensor<64x32xf32>, tensor<32x32xf32>) -> tensor<64x32xf32>
  %1 = "mlc.gelu"(%0) {approximate = "none"} : (tensor<64x32xf32>) -> tensor<64x32xf32>
  %2 = "mlc.add"(%1, %r) : (tensor<64x32xf32>, tensor<64x32xf32>) -> tensor<64x32xf32>
  return %2 : tensor<64x32xf32>
}
func.func @relu(%x: tensor<64x32xf32>, %w: tensor<32x32xf32>) -> tensor<64x32xf32> {
  %0 = "mlc.matmul"(%x, %w) : (tensor<64x32xf32>, tensor<32x32xf32>) -> tensor<64x32xf32>
  %1 = "mlc.relu"(%0) : (tensor<64x32xf32>) -> tensor<64x32xf32>
  return %1 : tensor<64x32xf32>
}
func.func @bias_along_rows(%x: tensor<64x32xf32>, %w: tensor<32x32xf32>, %b: tensor<64x1xf32>) -> tensor<64x32xf32> {
  %0 = "mlc.matmul"(%x, %w) : (tensor<64x32xf32>, tensor<32x32xf32>) -> tensor<64x32xf32>
  %1 = "mlc.add"(%0, %b) : (tensor<64x32xf32>, tensor<64x1xf32>) -> tensor<64x32xf32>
  return %1 : tensor<64x32xf32>
}
