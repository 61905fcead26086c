// RUN: not mlc-opt %s --pass-pipeline='builtin.module(torch-func-backend-type-conversion, mlc-convert-torch-to-mlc)' 2>&1 | FileCheck %s

/// negative: the bag sizes (result 2) are used, which mlc does not compute.

// CHECK: error: 1 torch op(s) of 1 kind(s) have no conversion to mlc:
// CHECK: torch.aten.embedding_bag.padding_idx  x1  at {{.*}}[embedding_bag's offset2bag, bag_size or max_indices results are used]
func.func @negative_bag_sizes_used(%arg0: !torch.vtensor<[10,3],f32>, %arg1: !torch.vtensor<[5],si64>, %arg2: !torch.vtensor<[3],si64>) -> !torch.vtensor<[3],si64> {
  %false = torch.constant.bool false
  %int1 = torch.constant.int 1
  %none = torch.constant.none
  %result0, %result1, %result2, %result3 = torch.aten.embedding_bag.padding_idx %arg0, %arg1, %arg2, %false, %int1, %false, %none, %false, %none : !torch.vtensor<[10,3],f32>, !torch.vtensor<[5],si64>, !torch.vtensor<[3],si64>, !torch.bool, !torch.int, !torch.bool, !torch.none, !torch.bool, !torch.none -> !torch.vtensor<[3,3],f32>, !torch.vtensor<[5],si64>, !torch.vtensor<[3],si64>, !torch.vtensor<[3],si64>
  return %result2 : !torch.vtensor<[3],si64>
}
