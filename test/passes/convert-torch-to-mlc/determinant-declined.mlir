// RUN: not mlc-opt %s --pass-pipeline='builtin.module(torch-func-backend-type-conversion, mlc-convert-torch-to-mlc)' 2>&1 | FileCheck %s

/// negative: mlc unrolls LU up to 32x32; a larger determinant is declined, with the reason
/// (the fallback then refuses it too: torch-mlir's lowering of it is known wrong).

// CHECK: error: 1 torch op(s) of 1 kind(s) have no conversion to mlc:
// CHECK: torch.aten.linalg_det  x1  at {{.*}}[determinant of a 33x33 matrix: mlc unrolls LU up to 32x32]
func.func @negative_33x33(%arg0: !torch.vtensor<[33,33],f32>) -> !torch.vtensor<[],f32> {
  %0 = torch.aten.linalg_det %arg0 : !torch.vtensor<[33,33],f32> -> !torch.vtensor<[],f32>
  return %0 : !torch.vtensor<[],f32>
}
