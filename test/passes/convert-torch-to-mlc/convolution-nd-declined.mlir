// RUN: not mlc-opt %s --pass-pipeline='builtin.module(torch-func-backend-type-conversion, mlc-convert-torch-to-mlc)' 2>&1 | FileCheck %s

/// negative: a 1-D convolution of a dynamic length cannot be viewed as a height-1
/// image without its size, so it is declined (and goes to the fallback), not guessed.

// CHECK: error: 1 torch op(s) of 1 kind(s) have no conversion to mlc:
// CHECK-NEXT: torch.aten.convolution  x1  at {{.*}}[a convolution with a dynamic size other than the batch]
func.func @negative_conv1d_dynamic_length(%x: !torch.vtensor<[2,4,?],f32>, %w: !torch.vtensor<[6,4,3],f32>) -> !torch.vtensor<[2,6,?],f32> {
  %none = torch.constant.none
  %int0 = torch.constant.int 0
  %int1 = torch.constant.int 1
  %false = torch.constant.bool false
  %ones = torch.prim.ListConstruct %int1 : (!torch.int) -> !torch.list<int>
  %zeros = torch.prim.ListConstruct %int0 : (!torch.int) -> !torch.list<int>
  %0 = torch.aten.convolution %x, %w, %none, %ones, %zeros, %ones, %false, %zeros, %int1 : !torch.vtensor<[2,4,?],f32>, !torch.vtensor<[6,4,3],f32>, !torch.none, !torch.list<int>, !torch.list<int>, !torch.list<int>, !torch.bool, !torch.list<int>, !torch.int -> !torch.vtensor<[2,6,?],f32>
  return %0 : !torch.vtensor<[2,6,?],f32>
}
