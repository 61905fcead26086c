// RUN: not mlc-opt %s --pass-pipeline='builtin.module(torch-func-backend-type-conversion, mlc-convert-torch-to-mlc)' 2>&1 | FileCheck %s

/// negative: a gradient broadcast against the input is left to the fallback, with the reason.

// CHECK: error: 1 torch op(s) of 1 kind(s) have no conversion to mlc:
// CHECK: torch.aten.threshold_backward  x1  at {{.*}}[threshold_backward with a broadcast gradient]
func.func @negative_broadcast_gradient(%arg0: !torch.vtensor<[3],si64>, %arg1: !torch.vtensor<[2,3],si64>) -> !torch.vtensor<[2,3],si64> {
  %int1 = torch.constant.int 1
  %0 = torch.aten.threshold_backward %arg0, %arg1, %int1 : !torch.vtensor<[3],si64>, !torch.vtensor<[2,3],si64>, !torch.int -> !torch.vtensor<[2,3],si64>
  return %0 : !torch.vtensor<[2,3],si64>
}
