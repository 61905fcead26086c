// RUN: not mlc-opt %s --pass-pipeline='builtin.module(torch-func-backend-type-conversion, mlc-convert-torch-to-mlc)' 2>&1 | FileCheck %s

/// negative: x[-2:] of a [s, 8] tensor (torch.export's real output) starts at an
/// offset from the end of a dynamic dimension, which mlc.slice cannot say: the op is
/// reported unconvertible, with the reason, instead of being sliced wrongly.

// CHECK: model.py:4:0: error: 1 torch op(s) of 1 kind(s) have no conversion to mlc:
// CHECK-NEXT: torch.aten.slice.Tensor  x1  at model.py:4  [a slice from the end of a dynamic dimension]
// CHECK-NOT: mlc.slice
func.func @main(%arg0: !torch.vtensor<[?,8],f32>) -> !torch.vtensor<[2,8],f32> {
  %int0 = torch.constant.int 0
  %int-2 = torch.constant.int -2
  %int9223372036854775807 = torch.constant.int 9223372036854775807
  %int1 = torch.constant.int 1
  %0 = torch.aten.slice.Tensor %arg0, %int0, %int-2, %int9223372036854775807, %int1 : !torch.vtensor<[?,8],f32>, !torch.int, !torch.int, !torch.int, !torch.int -> !torch.vtensor<[2,8],f32> loc("model.py":4:0)
  return %0 : !torch.vtensor<[2,8],f32>
}
