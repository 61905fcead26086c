/// mlc-compile: each bad input gets one `error:` line and exit code 1, never a traceback.

// RUN: not mlc-compile %S/../../examples/models.py:no_such_factory --input-shape 2xf32 --emit=mlc 2>&1 | FileCheck %s --check-prefix=NAME
// NAME: mlc-compile: error: '{{.*}}models.py' defines no 'no_such_factory'

// RUN: not mlc-compile %S/no_such_file.py:Net --input-shape 2xf32 --emit=mlc 2>&1 | FileCheck %s --check-prefix=FILE
// FILE: mlc-compile: error: model file '{{.*}}no_such_file.py' not found

// RUN: not mlc-compile %S/../../examples/models.py:make_mlp --input-shape 2x3xf32 --emit=mlc 2>&1 | FileCheck %s --check-prefix=SHAPE
// SHAPE: mlc-compile: error: torch.export failed: RuntimeError: a and b must have same reduction dim, but got [2, 3] X [64, 256].
// SHAPE-NOT: Traceback

// RUN: not mlc-compile %S/../../examples/models.py:make_mlp --input-shape 2x3xq7 --emit=mlc 2>&1 | FileCheck %s --check-prefix=DTYPE
// DTYPE: mlc-compile: error: bad --input-shape '2x3xq7': expected dims and a dtype like 1x3x224x224xf32

// RUN: not mlc-compile %S/../../examples/models.py:make_mlp --emit=mlc 2>&1 | FileCheck %s --check-prefix=NO-SHAPE
// NO-SHAPE: mlc-compile: error: a Python model needs --input-shape for each input

// RUN: not mlc-compile %S/../../examples/models.py:make_mlp --input-shape 8x64xf32 --target tpu -o %t.vmfb 2>&1 | FileCheck %s --check-prefix=TARGET
// TARGET: mlc-compile: error: unknown target 'tpu' (known: llvm-cpu, vulkan-spirv, cuda, mlir-cpu)

// RUN: not mlc-compile %S/../../examples/models.py:make_mlp --input-shape 8x64xf32 2>&1 | FileCheck %s --check-prefix=OUTPUT
// OUTPUT: mlc-compile: error: the executable is binary: name an output file with -o model.vmfb

// RUN: not mlc-compile %S/../../examples/models.py:make_mlp --emit=everything 2>&1 | FileCheck %s --check-prefix=EMIT
// EMIT: mlc-compile: error: argument --emit: invalid choice: 'everything'

// RUN: not mlc-compile %s.txt --emit=mlc 2>&1 | FileCheck %s --check-prefix=KIND
// KIND: mlc-compile: error: cannot tell what '{{.*}}errors.mlir.txt' is: expected file.py:Name, a .pt2 or an .mlir file

// RUN: not mlc-compile %S/../inputs/unexpected.mlir --emit=linalg 2>&1 | FileCheck %s --check-prefix=VERIFY
// VERIFY: unexpected.mlir:2:8: error: 'mlc.relu' op result type tensor<5xf32> must equal input type tensor<4xf32>
