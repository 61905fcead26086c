// RUN: not mlc-opt %s --pass-pipeline='builtin.module(torch-func-backend-type-conversion, mlc-convert-torch-to-mlc)' 2>&1 | FileCheck %s

/// negative: index_put with a boolean mask index is left to the fallback.

// CHECK: error: 1 torch op(s) of 1 kind(s) have no conversion to mlc:
// CHECK: torch.aten.index_put.hacked_twin  x1  at {{.*}}[index_put with a boolean mask index]
func.func @negative_index_put_mask(%arg0: !torch.vtensor<[4],f32>, %arg1: !torch.vtensor<[4],i1>, %arg2: !torch.vtensor<[1],f32>) -> !torch.vtensor<[4],f32> {
  %false = torch.constant.bool false
  %0 = torch.prim.ListConstruct %arg1 : (!torch.vtensor<[4],i1>) -> !torch.list<vtensor>
  %1 = torch.aten.index_put.hacked_twin %arg0, %0, %arg2, %false : !torch.vtensor<[4],f32>, !torch.list<vtensor>, !torch.vtensor<[1],f32>, !torch.bool -> !torch.vtensor<[4],f32>
  return %1 : !torch.vtensor<[4],f32>
}
