// RUN: not mlc-opt %s --pass-pipeline='builtin.module(torch-func-backend-type-conversion, mlc-convert-torch-to-mlc, func.func(torch-finalizing-backend-type-conversion))' 2>&1 | FileCheck %s

/// A constant-false torch.runtime.assert, torch-mlir's mark of a decomposition it
/// could not do, is reported with its message.

// CHECK: error: 1 torch op(s) of 1 kind(s) have no conversion to mlc:
// CHECK-NEXT: torch.runtime.assert  x1  at model.py:3  [torch-mlir: unimplemented: only support cases with fixed stride size.]
func.func @false_assert_reported(%x: !torch.vtensor<[4],f32>) -> !torch.vtensor<[4],f32> {
  %false = torch.constant.bool false
  torch.runtime.assert %false, "unimplemented: only support cases with fixed stride size." loc("model.py":3:0)
  return %x : !torch.vtensor<[4],f32>
}
