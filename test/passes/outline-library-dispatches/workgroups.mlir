// RUN: mlc-opt %s --pass-pipeline='builtin.module(mlc-fuse, mlc-lower-to-linalg{keep-fusion-groups=true}, mlc-form-dispatch-regions, mlc-library-matmuls{shapes=all workgroups=2}, mlc-outline-library-dispatches)' | FileCheck %s
// RUN: mlc-opt %s --pass-pipeline='builtin.module(mlc-fuse, mlc-lower-to-linalg{keep-fusion-groups=true}, mlc-form-dispatch-regions, mlc-library-matmuls{shapes=all workgroups=2}, mlc-outline-library-dispatches)' --mlir-pass-statistics -o /dev/null 2>&1 | FileCheck %s --check-prefix=STATS

// STATS: 'mlc-outline-library-dispatches'
// STATS: (1) library regions kept

/// A plan on IREE's workers: each of the two workgroups computes its own columns
/// (`flow.dispatch.workgroup.id`). Outlined with one store of the whole result, each
/// workgroup's result became a stack buffer (ResNet's: over IREE's 32 KiB limit), so
/// the region stays.

// CHECK-NOT:   flow.executable
// CHECK-LABEL: func.func @linear
// CHECK:       "flow.dispatch.region"
// CHECK:         flow.dispatch.workgroup.id
// CHECK:         iree_codegen.ukernel.generic
// CHECK-NOT:   "flow.dispatch"(
func.func @linear(%x: tensor<64x32xf32>, %w: tensor<32x256xf32>) -> tensor<64x256xf32> {
  %0 = "mlc.matmul"(%x, %w) : (tensor<64x32xf32>, tensor<32x256xf32>) -> tensor<64x256xf32>
  return %0 : tensor<64x256xf32>
}
