// RUN: not mlc-opt %s --pass-pipeline='builtin.module(torch-func-backend-type-conversion, mlc-convert-torch-to-mlc{allow-fallback=true}, mlc-lower-torch-fallback)' 2>&1 | FileCheck %s

/// Ops that neither mlc nor torch-mlir can lower are reported at once, with
/// counts and source lines; those mlc converts or torch-mlir lowers (polar) are not listed.

// CHECK: model.py:7:0: error: 3 torch op(s) of 2 kind(s) have no conversion to mlc and no lowering in torch-mlir:
// CHECK-NEXT: torch.aten.erfinv        x2  at model.py:7, model.py:8
// CHECK-NEXT: torch.aten.special_zeta  x1  at model.py:10
// CHECK-NOT: polar
// CHECK-NOT: error
func.func @f(%x: !torch.vtensor<[2,4],f32>) -> !torch.vtensor<[2,4],f32> {
  %0 = torch.aten.erfinv %x : !torch.vtensor<[2,4],f32> -> !torch.vtensor<[2,4],f32> loc("model.py":7:0)
  %1 = torch.aten.erfinv %0 : !torch.vtensor<[2,4],f32> -> !torch.vtensor<[2,4],f32> loc("model.py":8:0)
  %2 = torch.aten.polar %x, %0 : !torch.vtensor<[2,4],f32>, !torch.vtensor<[2,4],f32> -> !torch.vtensor<[2,4],complex<f32>> loc("model.py":9:0)
  %3 = torch.operator "torch.aten.special_zeta"(%1, %1) : (!torch.vtensor<[2,4],f32>, !torch.vtensor<[2,4],f32>) -> !torch.vtensor<[2,4],f32> loc("model.py":10:0)
  return %3 : !torch.vtensor<[2,4],f32>
}
