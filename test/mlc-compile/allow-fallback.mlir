/// The fallback is the default: torch ops mlc does not convert (linalg_det of 9x9) are
/// lowered by torch-mlir in the same module; the report counts them and one line
/// on stderr names them. --no-fallback lists every missing op instead; ops
/// torch-mlir cannot lower either are named too.

// RUN: mlc-compile %inputs/fallback_models.py:Det --input-shape 9x9xf32 -o %t.vmfb --report - 2>%t.err | FileCheck %s
// RUN: FileCheck %s --check-prefix=NOTE < %t.err
// CHECK: "fallback": {
// CHECK-NEXT: "torch.aten.linalg_det": 1
// CHECK-NEXT: }
// CHECK: "dispatches":
// NOTE: mlc-compile: note: 1 torch op(s) of 1 kind(s) took torch-mlir's lowering, not mlc's (--no-fallback makes this an error): torch.aten.linalg_det x1
// NOTE-NOT: Traceback

// RUN: mlc-compile %inputs/fallback_models.py:Det --input-shape 9x9xf32 --allow-fallback --emit=linalg | FileCheck %s --check-prefix=LINALG
// LINALG: linalg.matmul
// LINALG: scf.for
// LINALG-NOT: torch.aten

// RUN: not mlc-compile %inputs/fallback_models.py:Mixed --input-shape 9x9xf32 --emit=mlc --no-fallback 2>&1 | FileCheck %s --check-prefix=STRICT
// STRICT: mlc-compile: error: {{.*}}fallback_models.py:{{[0-9]+}}:0: error: 3 torch op(s) of 3 kind(s) have no conversion to mlc:
// STRICT-DAG: torch.aten.erfinv {{ +}}x1  at {{.*}}fallback_models.py:25
// STRICT-DAG: torch.aten.kthvalue {{ +}}x1  at {{.*}}fallback_models.py:25
// STRICT-DAG: torch.aten.linalg_det {{ +}}x1  at {{.*}}fallback_models.py:24
// STRICT: (by default, without allow_fallback=False or mlc-compile --no-fallback, torch-mlir lowers them instead)
// STRICT-NOT: Traceback

// RUN: not mlc-compile %inputs/fallback_models.py:Erfinv --input-shape 4xf32 --emit=mlc 2>&1 | FileCheck %s --check-prefix=NEITHER
// NEITHER: error: 1 torch op(s) of 1 kind(s) have no conversion to mlc and no lowering in torch-mlir:
// NEITHER-NEXT: torch.aten.erfinv  x1  at {{.*}}fallback_models.py:32
// NEITHER-NOT: Traceback

// Without fallback ops, nothing is said.
// RUN: mlc-compile %inputs/relu.mlir --emit=mlc -o /dev/null 2>&1 | FileCheck %s --check-prefix=QUIET --allow-empty
// QUIET-NOT: note
