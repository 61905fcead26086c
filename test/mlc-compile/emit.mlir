/// --emit stops at a level and writes its IR; a .mlir input starts at its own level.

// RUN: mlc-compile %S/../../examples/models.py:make_cnn --input-shape 2x3x32x32xf32 --emit=torch | FileCheck %s --check-prefix=TORCH
// TORCH: torch.aten.conv2d
// TORCH: torch.aten.batch_norm

// RUN: mlc-compile %S/../../examples/models.py:make_cnn --input-shape 2x3x32x32xf32 -O0 --emit=mlc -o %t.mlc.mlir
// RUN: FileCheck %s --check-prefix=MLC --input-file=%t.mlc.mlir
// MLC: func.func @main(%arg0: tensor<2x3x32x32xf32>) -> tensor<2x10xf32>
// MLC-COUNT-3: "mlc.batch_norm"
// MLC-NOT: torch.

/// The emitted mlc IR is valid input again, weights included.
// RUN: mlc-opt %t.mlc.mlir | FileCheck %s --check-prefix=ROUNDTRIP
// ROUNDTRIP: dialect_resources

/// -O picks the pipeline; --report - writes the JSON report to stdout.
// RUN: mlc-compile %S/../../examples/models.py:make_cnn --input-shape 2x3x32x32xf32 -O1 --emit=mlc | FileCheck %s --check-prefix=O1
// O1: "mlc.batch_norm"
// RUN: mlc-compile %S/../../examples/models.py:make_cnn --input-shape 2x3x32x32xf32 -O2 --emit=mlc | FileCheck %s --check-prefix=O2
// O2-NOT: "mlc.batch_norm"
// O2: "mlc.fusion_group"
// RUN: mlc-compile %S/../../examples/models.py:make_cnn --input-shape 2x3x32x32xf32 -O2 -o %t.vmfb --report - | FileCheck %s --check-prefix=REPORT
// REPORT: "pipeline": "O2"
// REPORT: "mlc-fold-batchnorm"
// REPORT: "dispatches": [[N:[0-9]+]]
// RUN: not mlc-compile %S/../../examples/models.py:make_cnn --input-shape 2x3x32x32xf32 -O3 --emit=mlc 2>&1 | FileCheck %s --check-prefix=O3
// O3: mlc-compile: error: argument -O: invalid choice: 3 (choose from 0, 1, 2)
