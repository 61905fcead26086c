// RUN: mlc-opt %s --split-input-file --pass-pipeline='builtin.module(mlc-conv-to-matmul)' | FileCheck %s
// RUN: mlc-opt %s --split-input-file --pass-pipeline='builtin.module(mlc-conv-to-matmul{max-pixels=0})' | FileCheck %s --check-prefix=OFF
// RUN: mlc-opt %s --split-input-file --pass-pipeline='builtin.module(mlc-conv-to-matmul)' --mlir-pass-statistics -o /dev/null 2>&1 | FileCheck %s --check-prefix=STATS

/// A 3x3 convolution with 7x7 = 49 output pixels: its windows become the rows of a
/// [49, 3*3*8] matrix, the HWCF weight is viewed as [72, 16], the bias is added to
/// the product, and the product is viewed as NHWC again.

// CHECK-LABEL: func.func @conv3x3_few_pixels
// CHECK-SAME: (%[[X:.*]]: tensor<1x7x7x8xf32>, %[[W:.*]]: tensor<3x3x8x16xf32>, %[[B:.*]]: tensor<16xf32>)
// CHECK:      %[[WIN:.*]] = "mlc.im2col"(%[[X]]) {dilation = array<i64: 1, 1>, kernel = array<i64: 3, 3>, padding = array<i64: 1, 1, 1, 1>, stride = array<i64: 1, 1>} : (tensor<1x7x7x8xf32>) -> tensor<1x7x7x72xf32>
// CHECK-NEXT: %[[ROWS:.*]] = "mlc.reshape"(%[[WIN]]) : (tensor<1x7x7x72xf32>) -> tensor<49x72xf32>
// CHECK-NEXT: %[[WM:.*]] = "mlc.reshape"(%[[W]]) : (tensor<3x3x8x16xf32>) -> tensor<72x16xf32>
// CHECK-NEXT: %[[MM:.*]] = "mlc.matmul"(%[[ROWS]], %[[WM]]) : (tensor<49x72xf32>, tensor<72x16xf32>) -> tensor<49x16xf32>
// CHECK-NEXT: %[[SUM:.*]] = "mlc.add"(%[[MM]], %[[B]]) : (tensor<49x16xf32>, tensor<16xf32>) -> tensor<49x16xf32>
// CHECK-NEXT: %[[OUT:.*]] = "mlc.reshape"(%[[SUM]]) : (tensor<49x16xf32>) -> tensor<1x7x7x16xf32>
// CHECK-NEXT: return %[[OUT]]
// OFF-LABEL: func.func @conv3x3_few_pixels
// OFF: "mlc.conv2d"
// OFF-NOT: mlc.im2col
func.func @conv3x3_few_pixels(%x: tensor<1x7x7x8xf32>, %w: tensor<3x3x8x16xf32>, %b: tensor<16xf32>) -> tensor<1x7x7x16xf32> {
  %c = "mlc.conv2d"(%x, %w, %b) {dilation = array<i64: 1, 1>, groups = 1 : i64, layout = "NHWC", padding = array<i64: 1, 1, 1, 1>, stride = array<i64: 1, 1>} : (tensor<1x7x7x8xf32>, tensor<3x3x8x16xf32>, tensor<16xf32>) -> tensor<1x7x7x16xf32>
  return %c : tensor<1x7x7x16xf32>
}

// -----

/// A 1x1 convolution at stride 2 copies no windows: a strided slice subsamples the
/// input, which viewed as [P, C] is the matmul's left operand.

// CHECK-LABEL: func.func @pointwise_strided
// CHECK-SAME: (%[[X:.*]]: tensor<1x14x14x8xf32>, %[[W:.*]]: tensor<1x1x8x16xf32>)
// CHECK:      %[[SUB:.*]] = "mlc.slice"(%[[X]]) {limit = array<i64: 1, 14, 14, 8>, start = array<i64: 0, 0, 0, 0>, stride = array<i64: 1, 2, 2, 1>} : (tensor<1x14x14x8xf32>) -> tensor<1x7x7x8xf32>
// CHECK-NEXT: %[[ROWS:.*]] = "mlc.reshape"(%[[SUB]]) : (tensor<1x7x7x8xf32>) -> tensor<49x8xf32>
// CHECK:      "mlc.matmul"(%[[ROWS]], %{{.*}}) : (tensor<49x8xf32>, tensor<8x16xf32>) -> tensor<49x16xf32>
// CHECK-NOT:  mlc.im2col
func.func @pointwise_strided(%x: tensor<1x14x14x8xf32>, %w: tensor<1x1x8x16xf32>) -> tensor<1x7x7x16xf32> {
  %c = "mlc.conv2d"(%x, %w) {dilation = array<i64: 1, 1>, groups = 1 : i64, layout = "NHWC", padding = array<i64: 0, 0, 0, 0>, stride = array<i64: 2, 2>} : (tensor<1x14x14x8xf32>, tensor<1x1x8x16xf32>) -> tensor<1x7x7x16xf32>
  return %c : tensor<1x7x7x16xf32>
}

// -----

/// Kept: more output pixels than max-pixels (IREE's direct code is faster there),
/// NCHW, grouped (depthwise), and dynamic batch.

// CHECK-LABEL: func.func @negative_kept
// CHECK-COUNT-4: "mlc.conv2d"
// CHECK-NOT: mlc.matmul
// STATS: 'mlc-conv-to-matmul'
// STATS-DAG: (1) convolutions to im2col + matmul
// STATS-DAG: (1) 1x1 convolutions to matmul
// STATS-DAG: (1) kept (more pixels than max-pixels)
// STATS-DAG: (2) kept (NCHW or grouped)
// STATS-DAG: (1) kept (dynamic shape)
func.func @negative_kept(%big: tensor<1x32x32x8xf32>, %nchw: tensor<1x8x7x7xf32>, %dyn: tensor<?x7x7x8xf32>,
                         %w: tensor<3x3x8x16xf32>, %wf: tensor<16x8x3x3xf32>, %dw: tensor<3x3x1x8xf32>)
    -> (tensor<1x32x32x16xf32>, tensor<1x16x7x7xf32>, tensor<1x7x7x8xf32>, tensor<?x7x7x16xf32>) {
  %a = "mlc.conv2d"(%big, %w) {dilation = array<i64: 1, 1>, groups = 1 : i64, layout = "NHWC", padding = array<i64: 1, 1, 1, 1>, stride = array<i64: 1, 1>} : (tensor<1x32x32x8xf32>, tensor<3x3x8x16xf32>) -> tensor<1x32x32x16xf32>
  %b = "mlc.conv2d"(%nchw, %wf) {dilation = array<i64: 1, 1>, groups = 1 : i64, layout = "NCHW", padding = array<i64: 1, 1, 1, 1>, stride = array<i64: 1, 1>} : (tensor<1x8x7x7xf32>, tensor<16x8x3x3xf32>) -> tensor<1x16x7x7xf32>
  %x = "mlc.transpose"(%nchw) {permutation = array<i64: 0, 2, 3, 1>} : (tensor<1x8x7x7xf32>) -> tensor<1x7x7x8xf32>
  %c = "mlc.conv2d"(%x, %dw) {dilation = array<i64: 1, 1>, groups = 8 : i64, layout = "NHWC", padding = array<i64: 1, 1, 1, 1>, stride = array<i64: 1, 1>} : (tensor<1x7x7x8xf32>, tensor<3x3x1x8xf32>) -> tensor<1x7x7x8xf32>
  %d = "mlc.conv2d"(%dyn, %w) {dilation = array<i64: 1, 1>, groups = 1 : i64, layout = "NHWC", padding = array<i64: 1, 1, 1, 1>, stride = array<i64: 1, 1>} : (tensor<?x7x7x8xf32>, tensor<3x3x8x16xf32>) -> tensor<?x7x7x16xf32>
  return %a, %b, %c, %d : tensor<1x32x32x16xf32>, tensor<1x16x7x7xf32>, tensor<1x7x7x8xf32>, tensor<?x7x7x16xf32>
}
