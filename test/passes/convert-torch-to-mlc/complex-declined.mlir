// RUN: not mlc-opt %s --split-input-file --pass-pipeline='builtin.module(torch-func-backend-type-conversion, mlc-convert-torch-to-mlc)' 2>&1 | FileCheck %s

/// negative: mlc computes on real numbers; a product of complex numbers is left
/// (for the fallback) with the reason, while the complex it multiplies converts.

// CHECK: error: 1 torch op(s) of 1 kind(s) have no conversion to mlc:
// CHECK: torch.aten.mul.Tensor  x1  at {{.*}}[complex tensors: mlc only builds them and takes them apart (complex, polar, view_as_complex, view_as_real, abs)]
func.func @negative_complex_product(%arg0: !torch.vtensor<[3],f32>, %arg1: !torch.vtensor<[3],f32>) -> !torch.vtensor<[3],complex<f32>> {
  %0 = torch.aten.complex %arg0, %arg1 : !torch.vtensor<[3],f32>, !torch.vtensor<[3],f32> -> !torch.vtensor<[3],complex<f32>>
  %1 = torch.aten.mul.Tensor %0, %0 : !torch.vtensor<[3],complex<f32>>, !torch.vtensor<[3],complex<f32>> -> !torch.vtensor<[3],complex<f32>>
  return %1 : !torch.vtensor<[3],complex<f32>>
}

// -----

/// negative: a complex operand is enough, even when the result is real (z == w).

// CHECK: error: 1 torch op(s) of 1 kind(s) have no conversion to mlc:
// CHECK: torch.aten.eq.Tensor  x1  at {{.*}}[complex tensors: {{.*}}]
func.func @negative_complex_compare(%arg0: !torch.vtensor<[3],complex<f32>>, %arg1: !torch.vtensor<[3],complex<f32>>) -> !torch.vtensor<[3],i1> {
  %0 = torch.aten.eq.Tensor %arg0, %arg1 : !torch.vtensor<[3],complex<f32>>, !torch.vtensor<[3],complex<f32>> -> !torch.vtensor<[3],i1>
  return %0 : !torch.vtensor<[3],i1>
}

// -----

/// negative: complex tensors inside a list (cat) count too.

// CHECK: error: 1 torch op(s) of 1 kind(s) have no conversion to mlc:
// CHECK: torch.aten.cat  x1  at {{.*}}[complex tensors: {{.*}}]
func.func @negative_complex_cat(%arg0: !torch.vtensor<[3],complex<f32>>) -> !torch.vtensor<[6],complex<f32>> {
  %int0 = torch.constant.int 0
  %0 = torch.prim.ListConstruct %arg0, %arg0 : (!torch.vtensor<[3],complex<f32>>, !torch.vtensor<[3],complex<f32>>) -> !torch.list<vtensor>
  %1 = torch.aten.cat %0, %int0 : !torch.list<vtensor>, !torch.int -> !torch.vtensor<[6],complex<f32>>
  return %1 : !torch.vtensor<[6],complex<f32>>
}

// -----

/// negative: complex32 (torch's complex of halves) has no builtin type in mlc.

// CHECK: error: 1 torch op(s) of 1 kind(s) have no conversion to mlc:
// CHECK: torch.aten.complex  x1  at {{.*}}[type !torch.vtensor<[3],complex<f16>> has no builtin tensor equivalent]
func.func @negative_complex_of_halves(%arg0: !torch.vtensor<[3],f16>, %arg1: !torch.vtensor<[3],f16>) -> !torch.vtensor<[3],complex<f16>> {
  %0 = torch.aten.complex %arg0, %arg1 : !torch.vtensor<[3],f16>, !torch.vtensor<[3],f16> -> !torch.vtensor<[3],complex<f16>>
  return %0 : !torch.vtensor<[3],complex<f16>>
}
