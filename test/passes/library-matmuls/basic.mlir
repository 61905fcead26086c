// RUN: mlc-opt %s --split-input-file --pass-pipeline='builtin.module(mlc-fuse, mlc-lower-to-linalg{keep-fusion-groups=true}, mlc-form-dispatch-regions, mlc-library-matmuls{shapes=all})' | FileCheck %s
// RUN: mlc-opt %s --split-input-file --pass-pipeline='builtin.module(mlc-fuse, mlc-lower-to-linalg{keep-fusion-groups=true}, mlc-form-dispatch-regions, mlc-library-matmuls{shapes=64x32x16,8x32x16})' --mlir-pass-statistics -o /dev/null 2>&1 | FileCheck %s --check-prefix=STATS

/// A chosen matmul leaves its group for a dispatch region of its own, before the
/// group: two workgroups (the count region returns the workload), each calling the
/// plugin's mlc_sgemm on its block of rows. The group keeps its epilogue and reads
/// the product.

// STATS: 'mlc-library-matmuls'
// STATS-DAG: (2) matmuls on the library
// STATS-DAG: (1) matmuls left to IREE's kernel
// STATS-DAG: (1) regions left empty

// CHECK-LABEL: func.func @linear_relu
// CHECK-SAME:    (%[[X:.*]]: tensor<64x32xf32>, %[[W:.*]]: tensor<32x16xf32>, %[[B:.*]]: tensor<16xf32>)
// CHECK:       %[[DEST:.*]] = tensor.empty() : tensor<64x16xf32>
// CHECK:       %[[TWO:.*]] = arith.constant 2 : index
// CHECK:       %[[PRODUCT:.*]] = "flow.dispatch.region"(%[[TWO]]) ({
// CHECK:         %[[ID:.*]] = "flow.dispatch.workgroup.id"() {dimension = 0 : index} : () -> index
// CHECK:         %[[ROWS:.*]] = arith.constant 32 : index
// CHECK:         %[[OFFSET:.*]] = arith.muli %[[ID]], %[[ROWS]] : index
// CHECK:         %[[SIZE:.*]] = arith.minsi
// CHECK:         %[[A:.*]] = tensor.extract_slice %[[X]][%[[OFFSET]], 0] [%[[SIZE]], 32] [1, 1] : tensor<64x32xf32> to tensor<?x32xf32>
// CHECK:         %[[C:.*]] = tensor.extract_slice %[[DEST]][%[[OFFSET]], 0] [%[[SIZE]], 16] [1, 1] : tensor<64x16xf32> to tensor<?x16xf32>
// CHECK:         %[[CALL:.*]] = "iree_codegen.ukernel.generic"(%[[A]], %[[W]], %[[C]], %[[SIZE]], %{{.*}}, %{{.*}}) {operandSegmentSizes = array<i32: 2, 1, 3>, strided_dims = {{\[\[}}0], [0], [0]], u_kernel_fn_name = "mlc_sgemm"}
// CHECK:         %[[BLOCK:.*]] = tensor.insert_slice %[[CALL]] into %[[DEST]][%[[OFFSET]], 0] [%[[SIZE]], 16] [1, 1]
// CHECK:         "flow.return"(%[[BLOCK]]) : (tensor<64x16xf32>) -> ()
// CHECK:       }, {
// CHECK:       ^bb0(%[[WORKLOAD:.*]]: index):
// CHECK:         %[[ONE:.*]] = arith.constant 1 : index
// CHECK:         "flow.return"(%[[WORKLOAD]], %[[ONE]], %[[ONE]]) : (index, index, index) -> ()
// CHECK:       }) {operandSegmentSizes = array<i32: 0, 1>} : (index) -> tensor<64x16xf32>
// CHECK:       %[[GROUP:.*]] = "flow.dispatch.region"() ({
// CHECK-NOT:     linalg.matmul
// CHECK-NOT:     linalg.fill
// CHECK:         linalg.generic {{.*}} ins(%[[PRODUCT]], %[[B]]
// CHECK:         arith.maximumf
// CHECK:       return %[[GROUP]]
func.func @linear_relu(%x: tensor<64x32xf32>, %w: tensor<32x16xf32>, %b: tensor<16xf32>) -> tensor<64x16xf32> {
  %0 = "mlc.matmul"(%x, %w) : (tensor<64x32xf32>, tensor<32x16xf32>) -> tensor<64x16xf32>
  %1 = "mlc.add"(%0, %b) : (tensor<64x16xf32>, tensor<16xf32>) -> tensor<64x16xf32>
  %2 = "mlc.relu"(%1) : (tensor<64x16xf32>) -> tensor<64x16xf32>
  return %2 : tensor<64x16xf32>
}

// -----

/// A group that was only the matmul is gone: the library's region replaces it.

// CHECK-LABEL: func.func @matmul_alone
// CHECK:       %[[PRODUCT:.*]] = "flow.dispatch.region"(%{{.*}}) ({
// CHECK:         "iree_codegen.ukernel.generic"
// CHECK-NOT:   "flow.dispatch.region"
// CHECK:       return %[[PRODUCT]]
func.func @matmul_alone(%x: tensor<8x32xf32>, %w: tensor<32x16xf32>) -> tensor<8x16xf32> {
  %0 = "mlc.matmul"(%x, %w) : (tensor<8x32xf32>, tensor<32x16xf32>) -> tensor<8x16xf32>
  return %0 : tensor<8x16xf32>
}

// -----

/// A batch folded into the rows ([2, 3, 32] x [32, 16]: one 6x32x16 matmul) takes the
/// library too; the expand back to 3-D stays in the group.

// CHECK-LABEL: func.func @batched_rows
// CHECK:       tensor.collapse_shape
// CHECK:       "flow.dispatch.region"
// CHECK:         "iree_codegen.ukernel.generic"{{.*}} : (tensor<?x32xf32>, tensor<32x16xf32>, tensor<?x16xf32>, index, index, index) -> tensor<?x16xf32>
// CHECK:       tensor.expand_shape
func.func @batched_rows(%x: tensor<2x3x32xf32>, %w: tensor<32x16xf32>) -> tensor<2x3x16xf32> {
  %0 = "mlc.matmul"(%x, %w) : (tensor<2x3x32xf32>, tensor<32x16xf32>) -> tensor<2x3x16xf32>
  %1 = "mlc.relu"(%0) : (tensor<2x3x16xf32>) -> tensor<2x3x16xf32>
  return %1 : tensor<2x3x16xf32>
}
