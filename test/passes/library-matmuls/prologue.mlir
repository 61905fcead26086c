// RUN: mlc-opt %s --split-input-file --pass-pipeline='builtin.module(mlc-fuse, mlc-lower-to-linalg{keep-fusion-groups=true}, mlc-form-dispatch-regions, mlc-library-matmuls{shapes=all})' | FileCheck %s
// RUN: mlc-opt %s --split-input-file --pass-pipeline='builtin.module(mlc-fuse, mlc-lower-to-linalg{keep-fusion-groups=true}, mlc-form-dispatch-regions, mlc-library-matmuls{shapes=all})' --mlir-pass-statistics -o /dev/null 2>&1 | FileCheck %s --check-prefix=STATS

/// A matmul whose group computes its input (an RMSNorm's scaling, fused before a head)
/// still goes to the library: that computation moves into a region of its own before,
/// and the library's region reads its result. Where the group uses that input again
/// (after the product: not-eligible.mlir), it cannot move, and the matmul stays.

// STATS: 'mlc-library-matmuls'
// STATS-DAG: (1) prologues moved out
// STATS-DAG: (1) matmuls on the library

// CHECK-LABEL: func.func @scaled_then_head
// CHECK-SAME:    (%[[X:.*]]: tensor<4x32xf32>, %[[S:.*]]: tensor<32xf32>, %[[W:.*]]: tensor<32x64xf32>)
// CHECK:       %[[SCALED:.*]] = "flow.dispatch.region"() ({
// CHECK:         %[[MUL:.*]] = linalg.generic {{.*}} ins(%[[X]], %[[S]]
// CHECK:         arith.mulf
// CHECK:         "flow.return"(%[[MUL]]) : (tensor<4x32xf32>) -> ()
// CHECK:       %[[PRODUCT:.*]] = "flow.dispatch.region"
// CHECK:         "iree_codegen.ukernel.generic"(%[[SCALED]], %[[W]], {{.*}}u_kernel_fn_name = "mlc_sgemm"
// CHECK-NOT:   linalg.matmul
// CHECK:       return %[[PRODUCT]]
func.func @scaled_then_head(%x: tensor<4x32xf32>, %s: tensor<32xf32>, %w: tensor<32x64xf32>) -> tensor<4x64xf32> {
  %0 = "mlc.mul"(%x, %s) : (tensor<4x32xf32>, tensor<32xf32>) -> tensor<4x32xf32>
  %1 = "mlc.matmul"(%0, %w) : (tensor<4x32xf32>, tensor<32x64xf32>) -> tensor<4x64xf32>
  return %1 : tensor<4x64xf32>
}

