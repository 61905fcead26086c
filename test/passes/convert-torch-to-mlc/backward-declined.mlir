// RUN: not mlc-opt %s --pass-pipeline='builtin.module(torch-func-backend-type-conversion, mlc-convert-torch-to-mlc)' 2>&1 | FileCheck %s

/// negative: a gradient of another dtype than the input is left to the fallback, with the reason.

// CHECK: error: 1 torch op(s) of 1 kind(s) have no conversion to mlc:
// CHECK: torch.aten.threshold_backward  x1  at {{.*}}[threshold_backward of non-float or mixed types]
func.func @negative_mixed_types(%arg0: !torch.vtensor<[2,3],f32>, %arg1: !torch.vtensor<[2,3],f64>) -> !torch.vtensor<[2,3],f32> {
  %float5.000000e-01 = torch.constant.float 5.000000e-01
  %0 = torch.aten.threshold_backward %arg0, %arg1, %float5.000000e-01 : !torch.vtensor<[2,3],f32>, !torch.vtensor<[2,3],f64>, !torch.float -> !torch.vtensor<[2,3],f32>
  return %0 : !torch.vtensor<[2,3],f32>
}
