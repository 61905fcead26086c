// RUN: not mlc-opt %s --pass-pipeline='builtin.module(torch-func-backend-type-conversion, mlc-convert-torch-to-mlc)' 2>&1 | FileCheck %s

/// addmm whose beta is not a compile-time constant stays for the fallback, with the reason.

// CHECK: error: 1 torch op(s) of 1 kind(s) have no conversion to mlc:
// CHECK-NEXT: torch.aten.addmm  x1  at model.py:3  [operand 'beta' must be a constant (torch.constant.float or torch.constant.int)]
func.func @negative_addmm_runtime_beta(%arg0: !torch.vtensor<[3,4],si64>, %arg1: !torch.vtensor<[3,5],si64>, %arg2: !torch.vtensor<[5,4],si64>, %beta: !torch.int) -> !torch.vtensor<[3,4],si64> {
  %int1 = torch.constant.int 1
  %0 = torch.aten.addmm %arg0, %arg1, %arg2, %beta, %int1 : !torch.vtensor<[3,4],si64>, !torch.vtensor<[3,5],si64>, !torch.vtensor<[5,4],si64>, !torch.int, !torch.int -> !torch.vtensor<[3,4],si64> loc("model.py":3:0)
  return %0 : !torch.vtensor<[3,4],si64>
}
