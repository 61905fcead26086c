// RUN: not mlc-opt %s --split-input-file --pass-pipeline='builtin.module(torch-func-backend-type-conversion, mlc-convert-torch-to-mlc{allow-fallback=true}, mlc-lower-torch-fallback)' 2>&1 | FileCheck %s

/// negative: an op whose torch-mlir lowering is known to compute something else
/// (KNOWN_WRONG) is refused with the reason, not lowered: here an embedding_bag that
/// mlc declines (its bag sizes are used) would lose its per_sample_weights.

// CHECK: model.py:7:0: error: 1 torch op(s) of 1 kind(s) have no conversion to mlc, and torch-mlir's lowering of them is known wrong:
// CHECK-NEXT: torch.aten.embedding_bag.padding_idx  x1  at model.py:7  [torch-mlir's lowering ignores per_sample_weights
// CHECK-NOT: linalg
func.func @negative_embedding_bag(%arg0: !torch.vtensor<[10,3],f32>, %arg1: !torch.vtensor<[5],si64>, %arg2: !torch.vtensor<[3],si64>, %arg3: !torch.vtensor<[5],f32>) -> (!torch.vtensor<[3,3],f32>, !torch.vtensor<[3],si64>) {
  %false = torch.constant.bool false
  %int0 = torch.constant.int 0
  %none = torch.constant.none
  %result0, %result1, %result2, %result3 = torch.aten.embedding_bag.padding_idx %arg0, %arg1, %arg2, %false, %int0, %false, %arg3, %false, %none : !torch.vtensor<[10,3],f32>, !torch.vtensor<[5],si64>, !torch.vtensor<[3],si64>, !torch.bool, !torch.int, !torch.bool, !torch.vtensor<[5],f32>, !torch.bool, !torch.none -> !torch.vtensor<[3,3],f32>, !torch.vtensor<[0],si64>, !torch.vtensor<[3],si64>, !torch.vtensor<[3],si64> loc("model.py":7:0)
  return %result0, %result2 : !torch.vtensor<[3,3],f32>, !torch.vtensor<[3],si64>
}

// -----

/// negative: a determinant larger than mlc's LU (33x33) is refused too: torch-mlir's
/// lowering eliminates without pivoting and gave wrong determinants under IREE.

// CHECK: model.py:4:0: error: 1 torch op(s) of 1 kind(s) have no conversion to mlc, and torch-mlir's lowering of them is known wrong:
// CHECK-NEXT: torch.aten.linalg_det  x1  at model.py:4  [torch-mlir's lowering (elimination without pivoting in an scf.for) gives wrong determinants
// CHECK-NOT: scf.for
func.func @negative_det_33x33(%arg0: !torch.vtensor<[33,33],f32>) -> !torch.vtensor<[],f32> {
  %0 = torch.aten.tanh %arg0 : !torch.vtensor<[33,33],f32> -> !torch.vtensor<[33,33],f32>
  %1 = torch.aten.linalg_det %0 : !torch.vtensor<[33,33],f32> -> !torch.vtensor<[],f32> loc("model.py":4:0)
  return %1 : !torch.vtensor<[],f32>
}
