/// --emit stops at a level and writes its IR; a .mlir input starts at its own level.

// RUN: mlc-compile %S/../../examples/models.py:make_cnn --input-shape 2x3x32x32xf32 --emit=torch | FileCheck %s --check-prefix=TORCH
// TORCH: torch.aten.conv2d
// TORCH: torch.aten.batch_norm

// RUN: mlc-compile %S/../../examples/models.py:make_cnn --input-shape 2x3x32x32xf32 --emit=mlc -o %t.mlc.mlir
// RUN: FileCheck %s --check-prefix=MLC --input-file=%t.mlc.mlir
// MLC: func.func @main(%arg0: tensor<2x3x32x32xf32>) -> tensor<2x10xf32>
// MLC-COUNT-3: "mlc.batch_norm"
// MLC-NOT: torch.

/// The emitted mlc IR is valid input again, weights included.
// RUN: mlc-opt %t.mlc.mlir | FileCheck %s --check-prefix=ROUNDTRIP
// ROUNDTRIP: dialect_resources
