/// `mlc-compile --profile`: every dispatch of one call timed by IREE's profiler, slowest
/// first, each with its fusion group, mlc ops and the model's source line; convolution
/// pads that IREE dispatches itself and data tiling's packs are named as such.

// RUN: rm -rf %t && mkdir -p %t
// RUN: mlc-compile %S/../../examples/models.py:make_cnn --input-shape 2x3x32x32xf32 -o %t/cnn.vmfb --profile \
// RUN:   | FileCheck %s
// CHECK: {{[0-9]+}} dispatches per call; a call takes {{[0-9.]+}} ms (median of 20)
// CHECK: us   share  what
// CHECK-DAG: fusion group {{[0-9]+}} {{.*}}conv_2d_nhwc_hwcf{{.*}}[conv2d, relu, add]  at {{.*}}models.py:45
// CHECK-DAG: formed by IREE {{.*}}[tensor.pad]
// CHECK-DAG: data-tiling pack {{.*}}_encoding_
// CHECK: by kind: fusion group {{[0-9]+}}%

/// A .mlir model profiles on seeded inputs of main's types.
// RUN: mlc-compile %s -o %t/relu.vmfb --profile | FileCheck %s --check-prefix=MLIR
// MLIR: 1 dispatches per call
// MLIR: fusion group 0 {{.*}}[relu]

// RUN: not mlc-compile %S/../../examples/models.py:make_cnn --input-shape 2x3x32x32xf32 --emit=mlc --profile 2>&1 \
// RUN:   | FileCheck %s --check-prefix=EMIT
// EMIT: mlc-compile: error: --profile runs the executable: it needs --emit=vmfb (the default) and --target llvm-cpu
// RUN: not mlc-compile %S/../../examples/models.py:make_cnn --input-shape 2x3x32x32xf32 --target vulkan-spirv -o %t/v.vmfb --profile 2>&1 \
// RUN:   | FileCheck %s --check-prefix=EMIT

func.func @main(%x: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %0 = "mlc.relu"(%x) : (tensor<4x8xf32>) -> tensor<4x8xf32>
  return %0 : tensor<4x8xf32>
}
