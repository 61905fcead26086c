// RUN: not mlc-opt %s --pass-pipeline='builtin.module(torch-func-backend-type-conversion, mlc-convert-torch-to-mlc)' 2>&1 | FileCheck %s

/// negative: mlc unrolls LU up to 8x8; a larger determinant goes to the fallback, with the reason.

// CHECK: error: 1 torch op(s) of 1 kind(s) have no conversion to mlc:
// CHECK: torch.aten.linalg_det  x1  at {{.*}}[determinant of a 9x9 matrix: mlc unrolls LU up to 8x8]
func.func @negative_9x9(%arg0: !torch.vtensor<[9,9],f32>) -> !torch.vtensor<[],f32> {
  %0 = torch.aten.linalg_det %arg0 : !torch.vtensor<[9,9],f32> -> !torch.vtensor<[],f32>
  return %0 : !torch.vtensor<[],f32>
}
