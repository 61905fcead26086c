/// More bad inputs for mlc-compile: one `error:` line each, exit code 1, no traceback.

// RUN: not mlc-compile 2>&1 | FileCheck %s --check-prefix=NO-MODEL
// NO-MODEL: mlc-compile: error: no model given: mlc-compile MODEL (file.py:Name, .pt2 or .mlir)

// RUN: not mlc-compile %inputs/bad_factory.py:broken --input-shape 2xf32 --emit=mlc 2>&1 | FileCheck %s --check-prefix=FACTORY
// FACTORY: mlc-compile: error: calling broken() from '{{.*}}bad_factory.py' failed: ValueError: no weights here

// RUN: not mlc-compile %inputs/bad_import.py:Net --input-shape 2xf32 --emit=mlc 2>&1 | FileCheck %s --check-prefix=IMPORT
// IMPORT: mlc-compile: error: importing '{{.*}}bad_import.py' failed: ModuleNotFoundError: No module named 'not_a_module'

// RUN: not mlc-compile %t.missing.pt2 -o %t.vmfb 2>&1 | FileCheck %s --check-prefix=PT2-MISSING
// PT2-MISSING-NOT: Traceback
// PT2-MISSING: mlc-compile: error: could not open '{{.*}}missing.pt2': no such file
// PT2-MISSING-NOT: Traceback

// RUN: echo garbage > %t.bad.pt2
// RUN: not mlc-compile %t.bad.pt2 -o %t.vmfb 2>&1 | FileCheck %s --check-prefix=PT2-BAD
// PT2-BAD-NOT: Traceback
// PT2-BAD: mlc-compile: error: '{{.*}}bad.pt2' is not a torch.export program: BadZipFile: File is not a zip file
// PT2-BAD-NOT: Traceback

// RUN: not mlc-compile %inputs/relu.mlir --input-shape 4xf32 --emit=linalg 2>&1 | FileCheck %s --check-prefix=SHAPE-FOR-MLIR
// SHAPE-FOR-MLIR: mlc-compile: error: --input-shape applies to Python models only; an .mlir file has its own types

// RUN: not mlc-compile %inputs/no_main.linalg.mlir --emit=mlc 2>&1 | FileCheck %s --check-prefix=LEVEL
// LEVEL: mlc-compile: error: the input is already at level 'linalg', below --emit=mlc

/// IREE's own errors come through located, without op or target dumps.
// RUN: not mlc-compile %inputs/f64_erf.linalg.mlir -o %t.vmfb 2>&1 | FileCheck %s --check-prefix=IREE
// IREE: mlc-compile: error: IREE failed to compile for llvm-cpu:
// IREE-NEXT: f64_erf.linalg.mlir:6:10: error: failed to legalize operation 'math.erf' that was explicitly marked illegal
// IREE-NOT: hal.executable.target

// RUN: not mlc-compile %inputs/no_main.linalg.mlir --target mlir-cpu -o %t.bc 2>&1 | FileCheck %s --check-prefix=NO-MAIN
// NO-MAIN: mlc-compile: error: target 'mlir-cpu': the module has no func.func @main

// RUN: not mlc-compile %inputs/dynamic.linalg.mlir --target mlir-cpu -o %t.bc 2>&1 | FileCheck %s --check-prefix=DYNAMIC
// DYNAMIC: mlc-compile: error: target 'mlir-cpu' takes static tensors of {{.*}}: main's input 0 is tensor<?xf32>
