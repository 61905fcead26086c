// RUN: mlc-opt %s --pass-pipeline='builtin.module(torch-func-backend-type-conversion, mlc-convert-torch-to-mlc{allow-fallback=true})' | FileCheck %s
// RUN: not mlc-opt %s --pass-pipeline='builtin.module(torch-func-backend-type-conversion, mlc-convert-torch-to-mlc)' 2>&1 | FileCheck %s --check-prefix=STRICT

/// With allow-fallback, the ops mlc cannot convert stay as they are (for
/// mlc-lower-torch-fallback) and everything else is converted; without it, they
/// are all reported, with a hint about the fallback (and the reason mlc gives: a
/// 33x33 determinant is larger than the LU it unrolls). This pass does not judge
/// the fallback: mlc-lower-torch-fallback refuses this one (KNOWN_WRONG).

// CHECK-LABEL: func.func @f
// CHECK: %[[RELU:.*]] = "mlc.relu"
// CHECK: %[[T:.*]] = torch_c.from_builtin_tensor %[[RELU]]
// CHECK: %[[DET:.*]] = torch.aten.linalg_det %[[T]]
// CHECK: %[[B:.*]] = torch_c.to_builtin_tensor %[[DET]]
// CHECK: "mlc.neg"(%[[B]])
// CHECK-NOT: torch.aten

// STRICT: model.py:5:0: error: 1 torch op(s) of 1 kind(s) have no conversion to mlc:
// STRICT-NEXT: torch.aten.linalg_det  x1  at model.py:5  [determinant of a 33x33 matrix: mlc unrolls LU up to 32x32]
// STRICT-NEXT: (by default, without allow_fallback=False or mlc-compile --no-fallback, torch-mlir lowers them instead)
func.func @f(%x: !torch.vtensor<[33,33],f32>) -> !torch.vtensor<[],f32> {
  %0 = torch.aten.relu %x : !torch.vtensor<[33,33],f32> -> !torch.vtensor<[33,33],f32>
  %1 = torch.aten.linalg_det %0 : !torch.vtensor<[33,33],f32> -> !torch.vtensor<[],f32> loc("model.py":5:0)
  %2 = torch.aten.neg %1 : !torch.vtensor<[],f32> -> !torch.vtensor<[],f32>
  return %2 : !torch.vtensor<[],f32>
}
