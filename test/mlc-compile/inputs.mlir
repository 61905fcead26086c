/// mlc-compile takes an ExportedProgram (.pt2) and .mlir at the mlc or linalg level,
/// and the .vmfb it writes runs under iree-run-module.

// RUN: %PYTHON -c "import sys, torch; sys.path.insert(0, '%S/../../examples'); import models; torch.export.save(torch.export.export(models.make_mlp(), (torch.randn(8, 64),)), '%t.pt2')"
// RUN: mlc-compile %t.pt2 -o %t.pt2.vmfb
// RUN: iree-run-module --module=%t.pt2.vmfb --device=local-task --function=main --input=8x64xf32=0 | FileCheck %s --check-prefix=PT2
// PT2: result[0]: hal.buffer_view
// PT2-NEXT: 8x32xf32=

// RUN: mlc-compile %s -o %t.vmfb
// RUN: iree-run-module --module=%t.vmfb --device=local-task --function=scaled_relu --input=4xf32="-1 0 2 3" | FileCheck %s --check-prefix=EXEC
// EXEC-LABEL: EXEC @scaled_relu
// EXEC: 4xf32=0 0 4 6

// RUN: mlc-compile %s --emit=linalg | FileCheck %s --check-prefix=LINALG
// LINALG-LABEL: func.func @scaled_relu
// LINALG: linalg.generic
// LINALG-NOT: "mlc.

func.func @scaled_relu(%x: tensor<4xf32>) -> tensor<4xf32> {
  %two = "mlc.constant"() {value = dense<2.0> : tensor<f32>} : () -> tensor<f32>
  %0 = "mlc.mul"(%x, %two) : (tensor<4xf32>, tensor<f32>) -> tensor<4xf32>
  %1 = "mlc.relu"(%0) : (tensor<4xf32>) -> tensor<4xf32>
  return %1 : tensor<4xf32>
}
