/// --coverage prints, per torch op type, its count, whether it converts to mlc
/// (and into what), lowers, compiles for each target (or --target), and whether
/// torch-mlir's fallback takes it; every failure has its source line. Nothing
/// is written and the exit code is 0. This file is itself a torch-level input:
/// polar and view_as_real convert to mlc, and the product of complex numbers between
/// them takes the fallback; mlir-cpu compiles none of the three (complex tensors).
/// A 33x33 determinant is too large for mlc's LU, and the fallback refuses it
/// (torch-mlir's lowering of it is known wrong), with both reasons.

// RUN: mlc-compile %s --coverage --target mlir-cpu | FileCheck %s
// CHECK: torch op                 count  converts to mlc                              lowers  mlir-cpu  fallback
// CHECK-NEXT: torch.aten.relu              2  mlc.relu                                     yes     yes       -
// CHECK-NEXT: torch.aten.linalg_det        1  no                                           -       no        no
// CHECK-NEXT: torch.aten.mul.Tensor        1  no                                           -       no        yes
// CHECK-NEXT: torch.aten.polar             1  mlc.cos, mlc.mul, mlc.sin, mlc.complex       yes     no        -
// CHECK-NEXT: torch.aten.view_as_real      1  mlc.reshape, mlc.real, mlc.imag, mlc.concat  yes     no        -
// CHECK-NEXT: 6 torch op(s) of 5 kind(s); 4 convert to mlc.
// CHECK-NEXT: failures:
// CHECK-NEXT: torch.aten.linalg_det: determinant of a 33x33 matrix: mlc unrolls LU up to 32x32 (at model.py:13)
// CHECK-NEXT: torch.aten.linalg_det fallback to torch-mlir: refused, known wrong: torch-mlir's lowering (elimination without pivoting in an scf.for) gives wrong determinants {{.*}} (at model.py:13)
// CHECK-NEXT: torch.aten.mul.Tensor: complex tensors: mlc only builds them and takes them apart {{.*}} (at model.py:12)
// CHECK-NEXT: torch.aten.mul.Tensor on mlir-cpu (via fallback): target 'mlir-cpu' takes static tensors of {{.*}}: main's input 0 is tensor<33x33xcomplex<f32>> (at model.py:12)
// CHECK-NEXT: torch.aten.polar on mlir-cpu: target 'mlir-cpu' takes static tensors of {{.*}}: main's result 0 is tensor<33x33xcomplex<f32>> (at model.py:12)
// CHECK-NEXT: torch.aten.view_as_real on mlir-cpu: target 'mlir-cpu' takes static tensors of {{.*}}: main's input 0 is tensor<33x33xcomplex<f32>> (at model.py:12)
// CHECK-NOT: {{.}}
func.func @main(%x: !torch.vtensor<[33,33],f32>) -> (!torch.vtensor<[33,33,2],f32>, !torch.vtensor<[],f32>) {
  %0 = torch.aten.relu %x : !torch.vtensor<[33,33],f32> -> !torch.vtensor<[33,33],f32> loc("model.py":10:0)
  %1 = torch.aten.relu %0 : !torch.vtensor<[33,33],f32> -> !torch.vtensor<[33,33],f32> loc("model.py":11:0)
  %2 = torch.aten.polar %1, %x : !torch.vtensor<[33,33],f32>, !torch.vtensor<[33,33],f32> -> !torch.vtensor<[33,33],complex<f32>> loc("model.py":12:0)
  %3 = torch.aten.mul.Tensor %2, %2 : !torch.vtensor<[33,33],complex<f32>>, !torch.vtensor<[33,33],complex<f32>> -> !torch.vtensor<[33,33],complex<f32>> loc("model.py":12:0)
  %4 = torch.aten.view_as_real %3 : !torch.vtensor<[33,33],complex<f32>> -> !torch.vtensor<[33,33,2],f32> loc("model.py":12:0)
  %5 = torch.aten.linalg_det %1 : !torch.vtensor<[33,33],f32> -> !torch.vtensor<[],f32> loc("model.py":13:0)
  return %4, %5 : !torch.vtensor<[33,33,2],f32>, !torch.vtensor<[],f32>
}

/// A Python model, every target, the report as JSON (-o takes the table).
// RUN: mlc-compile %inputs/fallback_models.py:Polar --input-shape 9x9xf32 --coverage -o %t.txt --report %t.json
// RUN: FileCheck %s --check-prefix=TABLE --input-file=%t.txt
// TABLE: torch op {{.*}} llvm-cpu  vulkan-spirv  cuda  mlir-cpu  fallback
// TABLE: torch.aten.linear {{ +}}1  mlc.transpose, mlc.matmul, mlc.add  yes  yes  yes  yes  yes  -
// TABLE: torch.aten.mul.Tensor {{ +}}1  no {{ +}}-  yes*  yes*  yes*  no  yes
// TABLE: torch.aten.polar {{ +}}1  mlc.cos, mlc.mul, mlc.sin, mlc.complex {{ +}}yes  yes  yes  yes  no  -
// TABLE: torch.aten.view_as_real {{ +}}1  mlc.reshape, mlc.real, mlc.imag, mlc.concat  yes  yes  yes  yes  no  -
// TABLE: failures:
// TABLE-NEXT: torch.aten.mul.Tensor: complex tensors: {{.*}} (at {{.*}}fallback_models.py:16)
// TABLE-NEXT: torch.aten.mul.Tensor on mlir-cpu (via fallback): {{.*}} is tensor<9x9xcomplex<f32>> (at {{.*}}fallback_models.py:16)
// TABLE-NEXT: torch.aten.polar on mlir-cpu: {{.*}} is tensor<9x9xcomplex<f32>> (at {{.*}}fallback_models.py:16)
// TABLE-NEXT: torch.aten.view_as_real on mlir-cpu: {{.*}} is tensor<9x9xcomplex<f32>> (at {{.*}}fallback_models.py:16)
// RUN: FileCheck %s --check-prefix=JSON --input-file=%t.json
// JSON: "targets": [
// JSON: "op": "torch.aten.mul.Tensor"
// JSON: "fallback": {
// JSON-NEXT: "ok": true
// JSON-NOT: "op":
// JSON: "via_fallback": true

/// Errors: coverage writes no IR and no executable, and starts from torch ops.
// RUN: not mlc-compile %s --coverage --emit=mlc 2>&1 | FileCheck %s --check-prefix=EMIT
// EMIT: mlc-compile: error: --coverage checks each target with its default options and writes no IR or executable: drop --emit
// RUN: not mlc-compile %s --coverage --cuda-sm 90 2>&1 | FileCheck %s --check-prefix=SM
// SM: mlc-compile: error: {{.*}}drop --cuda-sm
// RUN: not mlc-compile %inputs/relu.mlir --coverage 2>&1 | FileCheck %s --check-prefix=LEVEL
// LEVEL: mlc-compile: error: coverage starts from torch ops, but the input is already at level 'mlc': give the model, a .pt2, or an .mlir at torch level
// RUN: not mlc-compile %s --coverage --target tpu 2>&1 | FileCheck %s --check-prefix=TARGET
// TARGET: mlc-compile: error: unknown target 'tpu'

// An op torch-mlir has no op for (special_bessel_j0 imports as torch.operator) is a
// row of the table, with its source line, not an error; the rest is still checked.
// RUN: mlc-compile %inputs/fallback_models.py:Bessel --input-shape 4xf32 --coverage --target llvm-cpu | FileCheck %s --check-prefix=UNKNOWN
// UNKNOWN: torch.aten.relu                   1  mlc.relu         yes     yes       -
// UNKNOWN: torch.aten.special_bessel_j0      1  no               -       no        no
// UNKNOWN: torch.aten.special_bessel_j0: torch-mlir has no op for it, so no conversion to mlc (at {{.*}}fallback_models.py:39)
