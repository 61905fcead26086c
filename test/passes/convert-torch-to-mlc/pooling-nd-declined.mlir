// RUN: not mlc-opt %s --pass-pipeline='builtin.module(torch-func-backend-type-conversion, mlc-convert-torch-to-mlc)' 2>&1 | FileCheck %s

/// negative: what mlc does not convert goes to the fallback with a reason.
/// - torch-mlir's decomposition of adaptive_avg_pool1d (8 -> 5) was an avg_pool1d of
///   kernel 1 whose result says 5: its window gives 8 (once a verifier error).
/// - adaptive max pooling's indices over uneven windows of a dynamic batch.

// CHECK: error: 2 torch op(s) of 2 kind(s) have no conversion to mlc:
// CHECK-DAG: torch.aten.avg_pool1d {{.*}}[result length 5 is not the window's 8]
// CHECK-DAG: torch.aten.adaptive_max_pool1d {{.*}}[adaptive max pooling indices with uneven windows of a dynamic batch]
func.func @negative(%x: !torch.vtensor<[2,8,8],f32>, %y: !torch.vtensor<[?,8,8],f32>) -> (!torch.vtensor<[2,8,5],f32>, !torch.vtensor<[?,8,3],si64>) {
  %int0 = torch.constant.int 0
  %int1 = torch.constant.int 1
  %int3 = torch.constant.int 3
  %false = torch.constant.bool false
  %true = torch.constant.bool true
  %ones = torch.prim.ListConstruct %int1 : (!torch.int) -> !torch.list<int>
  %zeros = torch.prim.ListConstruct %int0 : (!torch.int) -> !torch.list<int>
  %0 = torch.aten.avg_pool1d %x, %ones, %ones, %zeros, %false, %true : !torch.vtensor<[2,8,8],f32>, !torch.list<int>, !torch.list<int>, !torch.list<int>, !torch.bool, !torch.bool -> !torch.vtensor<[2,8,5],f32>
  %size = torch.prim.ListConstruct %int3 : (!torch.int) -> !torch.list<int>
  %1:2 = torch.aten.adaptive_max_pool1d %y, %size : !torch.vtensor<[?,8,8],f32>, !torch.list<int> -> !torch.vtensor<[?,8,3],f32>, !torch.vtensor<[?,8,3],si64>
  return %0, %1#1 : !torch.vtensor<[2,8,5],f32>, !torch.vtensor<[?,8,3],si64>
}
