/// The fallback is the default: torch ops mlc does not convert (a product of complex
/// numbers, between mlc's polar and view_as_real) are lowered by torch-mlir in the same module; the report
/// counts them and one line on stderr names them. --no-fallback lists every missing op
/// instead; ops torch-mlir cannot lower either are named too, and so are ops whose
/// torch-mlir lowering is known wrong (a determinant larger than mlc's LU).

// RUN: mlc-compile %inputs/fallback_models.py:Polar --input-shape 9x9xf32 -o %t.vmfb --report - 2>%t.err | FileCheck %s
// RUN: FileCheck %s --check-prefix=NOTE < %t.err
// CHECK: "fallback": {
// CHECK-NEXT: "torch.aten.mul.Tensor": 1
// CHECK-NEXT: }
// CHECK: "dispatches":
// NOTE: mlc-compile: note: 1 torch op(s) of 1 kind(s) took torch-mlir's lowering, not mlc's (--no-fallback makes this an error): torch.aten.mul.Tensor x1
// NOTE-NOT: Traceback

/// mlc's matmul, tanh and polar (cos, sin, complex.create), torch-mlir's complex
/// product (complex.mul), mlc's view_as_real (complex.re, complex.im), and no torch op left.
// RUN: mlc-compile %inputs/fallback_models.py:Polar --input-shape 9x9xf32 --allow-fallback --emit=linalg | FileCheck %s --check-prefix=LINALG
// LINALG: linalg.matmul
// LINALG: math.tanh
// LINALG: math.cos
// LINALG: math.sin
// LINALG: outs(%{{.*}} : tensor<9x9xcomplex<f32>>)
// LINALG: complex.create
// LINALG: ins(%{{.*}}, %{{.*}} : tensor<9x9xcomplex<f32>>, tensor<9x9xcomplex<f32>>) outs(%{{.*}} : tensor<9x9xcomplex<f32>>)
// LINALG: complex.mul
// LINALG: complex.re
// LINALG: complex.im
// LINALG-NOT: torch.aten

// RUN: not mlc-compile %inputs/fallback_models.py:Mixed --input-shape 9x9xf32 --emit=mlc --no-fallback 2>&1 | FileCheck %s --check-prefix=STRICT
// STRICT: mlc-compile: error: {{.*}}fallback_models.py:{{[0-9]+}}:0: error: 3 torch op(s) of 3 kind(s) have no conversion to mlc:
// STRICT-DAG: torch.aten.erfinv {{ +}}x1  at {{.*}}fallback_models.py:25
// STRICT-DAG: torch.aten.kthvalue {{ +}}x1  at {{.*}}fallback_models.py:25
// STRICT-DAG: torch.aten.mul.Tensor {{ +}}x1  at {{.*}}fallback_models.py:24  [complex tensors: {{.*}}]
// STRICT: (by default, without allow_fallback=False or mlc-compile --no-fallback, torch-mlir lowers them instead)
// STRICT-NOT: Traceback

// RUN: not mlc-compile %inputs/fallback_models.py:Erfinv --input-shape 4xf32 --emit=mlc 2>&1 | FileCheck %s --check-prefix=NEITHER
// NEITHER: error: 1 torch op(s) of 1 kind(s) have no conversion to mlc and no lowering in torch-mlir:
// NEITHER-NEXT: torch.aten.erfinv  x1  at {{.*}}fallback_models.py:32
// NEITHER-NOT: Traceback

/// A determinant larger than mlc's LU: the fallback refuses it, since torch-mlir's
/// lowering of it is known wrong (an error, not a wrong number); --no-fallback gives
/// mlc's own reason.
// RUN: not mlc-compile %inputs/fallback_models.py:BigDet --input-shape 33x33xf32 -o %t.bigdet.vmfb 2>&1 | FileCheck %s --check-prefix=WRONG
// WRONG: mlc-compile: error: {{.*}}fallback_models.py:47:0: error: 1 torch op(s) of 1 kind(s) have no conversion to mlc, and torch-mlir's lowering of them is known wrong:
// WRONG-NEXT: torch.aten.linalg_det  x1  at {{.*}}fallback_models.py:47  [torch-mlir's lowering (elimination without pivoting in an scf.for) gives wrong determinants {{.*}}]
// WRONG-NOT: Traceback
// RUN: not mlc-compile %inputs/fallback_models.py:BigDet --input-shape 33x33xf32 --emit=mlc --no-fallback 2>&1 | FileCheck %s --check-prefix=BIGSTRICT
// BIGSTRICT: error: 1 torch op(s) of 1 kind(s) have no conversion to mlc:
// BIGSTRICT-NEXT: torch.aten.linalg_det  x1  at {{.*}}fallback_models.py:47  [determinant of a 33x33 matrix: mlc unrolls LU up to 32x32]

// Without fallback ops, nothing is said.
// RUN: mlc-compile %inputs/relu.mlir --emit=mlc -o /dev/null 2>&1 | FileCheck %s --check-prefix=QUIET --allow-empty
// QUIET-NOT: note
