/// mlc-compile --dynamic-dim: one executable for every batch and sequence length,
/// the report's record of the symbolic sizes, and the flag's errors.

// RUN: mlc-compile %S/../../examples/models.py:make_transformer_block --input-shape 2x16x128xf32 \
// RUN:   --dynamic-dim 0:0=batch --dynamic-dim 0:1=seq -o %t.vmfb --report %t.json
// RUN: FileCheck %s --check-prefix=REPORT < %t.json
// REPORT: "dynamic shapes": {
// REPORT: "s{{[0-9]+}} in [{{[0-9]+}}, inf]",
// REPORT: "s{{[0-9]+}} in [{{[0-9]+}}, inf]",
// REPORT: "128"
// REPORT: "specialized": []
// RUN: iree-run-module --module=%t.vmfb --device=local-task --function=main --input=3x40x128xf32=1 | FileCheck %s --check-prefix=EXEC
// RUN: iree-run-module --module=%t.vmfb --device=local-task --function=main --input=1x7x128xf32=1 | FileCheck %s --check-prefix=EXEC
// EXEC-LABEL: result[0]: hal.buffer_view
// EXEC-NEXT: {{3x40x128|1x7x128}}xf32=

// RUN: not mlc-compile %S/../../examples/models.py:make_mlp --input-shape 8x64xf32 --dynamic-dim 0 -o %t.vmfb 2>&1 \
// RUN:   | FileCheck %s --check-prefix=SYNTAX
// SYNTAX: mlc-compile: error: --dynamic-dim expects INPUT:DIM or INPUT:DIM=NAME (e.g. 0:0=batch), got '0'
// RUN: not mlc-compile %S/../../examples/models.py:make_mlp --input-shape 8x64xf32 --dynamic-dim 1:0 -o %t.vmfb 2>&1 \
// RUN:   | FileCheck %s --check-prefix=COUNT
// COUNT: mlc-compile: error: --dynamic-dim 1:0: the model has 1 input(s)
// RUN: not mlc-compile %s --dynamic-dim 0:0 --emit=linalg 2>&1 | FileCheck %s --check-prefix=MLIR
// MLIR: mlc-compile: error: --dynamic-dim applies to Python models only; .pt2 and .mlir files have their shapes
