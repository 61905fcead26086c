// RUN: not mlc-opt %s --pass-pipeline='builtin.module(torch-func-backend-type-conversion, mlc-convert-torch-to-mlc)' 2>&1 | FileCheck %s

/// A scalar operand known only at run time is reported by the name torch-mlir's
/// op class gives it, not by its position.

// CHECK: error: 1 torch op(s) of 1 kind(s) have no conversion to mlc:
// CHECK-NEXT: torch.aten.transpose.int  x1  at model.py:3  [operand 'dim0' must be a constant (torch.constant.int)]
func.func @f(%x: !torch.vtensor<[2,4],f32>, %d: !torch.int) -> !torch.vtensor<[4,2],f32> {
  %int1 = torch.constant.int 1
  %0 = torch.aten.transpose.int %x, %d, %int1 : !torch.vtensor<[2,4],f32>, !torch.int, !torch.int -> !torch.vtensor<[4,2],f32> loc("model.py":3:0)
  return %0 : !torch.vtensor<[4,2],f32>
}
