// RUN: mlc-opt %s --split-input-file | mlc-opt --split-input-file | FileCheck %s

/// Compute ops round-trip through the printer and parser unchanged.

// CHECK-LABEL: func.func @matmul_2d
// CHECK-SAME: (%[[A:.*]]: tensor<2x3xf32>, %[[B:.*]]: tensor<3x4xf32>)
func.func @matmul_2d(%a: tensor<2x3xf32>, %b: tensor<3x4xf32>) -> tensor<2x4xf32> {
  // CHECK: "mlc.matmul"(%[[A]], %[[B]]) : (tensor<2x3xf32>, tensor<3x4xf32>) -> tensor<2x4xf32>
  %0 = "mlc.matmul"(%a, %b) : (tensor<2x3xf32>, tensor<3x4xf32>) -> tensor<2x4xf32>
  return %0 : tensor<2x4xf32>
}

// -----

/// bf16 operands may accumulate in an f32 result (mlc-reduce-precision).

// CHECK-LABEL: func.func @matmul_bf16_into_f32
// CHECK: "mlc.matmul"(%{{.*}}, %{{.*}}) : (tensor<2x3xbf16>, tensor<3x4xbf16>) -> tensor<2x4xf32>
func.func @matmul_bf16_into_f32(%a: tensor<2x3xbf16>, %b: tensor<3x4xbf16>) -> tensor<2x4xf32> {
  %0 = "mlc.matmul"(%a, %b) : (tensor<2x3xbf16>, tensor<3x4xbf16>) -> tensor<2x4xf32>
  return %0 : tensor<2x4xf32>
}

// -----

/// i8 operands may sum in an i32 result (mlc-quantize-int8).

// CHECK-LABEL: func.func @matmul_i8_into_i32
// CHECK: "mlc.matmul"(%{{.*}}, %{{.*}}) : (tensor<2x3xi8>, tensor<3x4xi8>) -> tensor<2x4xi32>
func.func @matmul_i8_into_i32(%a: tensor<2x3xi8>, %b: tensor<3x4xi8>) -> tensor<2x4xi32> {
  %0 = "mlc.matmul"(%a, %b) : (tensor<2x3xi8>, tensor<3x4xi8>) -> tensor<2x4xi32>
  return %0 : tensor<2x4xi32>
}

// -----

/// Batch dimensions broadcast as in torch.matmul: [2, 1] and [5] give [2, 5].

// CHECK-LABEL: func.func @matmul_batched_broadcast
func.func @matmul_batched_broadcast(%a: tensor<2x1x3x4xf32>, %b: tensor<5x4x6xf32>, %c: tensor<4x6xf32>) -> (tensor<2x5x3x6xf32>, tensor<2x1x3x6xf32>) {
  // CHECK: "mlc.matmul"(%{{.*}}, %{{.*}}) : (tensor<2x1x3x4xf32>, tensor<5x4x6xf32>) -> tensor<2x5x3x6xf32>
  %0 = "mlc.matmul"(%a, %b) : (tensor<2x1x3x4xf32>, tensor<5x4x6xf32>) -> tensor<2x5x3x6xf32>
  /// A 2-D rhs is shared by every batch.
  // CHECK: "mlc.matmul"(%{{.*}}, %{{.*}}) : (tensor<2x1x3x4xf32>, tensor<4x6xf32>) -> tensor<2x1x3x6xf32>
  %1 = "mlc.matmul"(%a, %c) : (tensor<2x1x3x4xf32>, tensor<4x6xf32>) -> tensor<2x1x3x6xf32>
  return %0, %1 : tensor<2x5x3x6xf32>, tensor<2x1x3x6xf32>
}

// -----

// CHECK-LABEL: func.func @matmul_dynamic
func.func @matmul_dynamic(%a: tensor<?x?x8xf16>, %b: tensor<4x?x16xf16>) -> tensor<4x?x16xf16> {
  // CHECK: "mlc.matmul"(%{{.*}}, %{{.*}}) : (tensor<?x?x8xf16>, tensor<4x?x16xf16>) -> tensor<4x?x16xf16>
  %0 = "mlc.matmul"(%a, %b) : (tensor<?x?x8xf16>, tensor<4x?x16xf16>) -> tensor<4x?x16xf16>
  return %0 : tensor<4x?x16xf16>
}

// -----

// CHECK-LABEL: func.func @matmul_integer
func.func @matmul_integer(%a: tensor<2x3xi8>, %b: tensor<3x4xi8>) -> tensor<2x4xi8> {
  // CHECK: "mlc.matmul"(%{{.*}}, %{{.*}}) : (tensor<2x3xi8>, tensor<3x4xi8>) -> tensor<2x4xi8>
  %0 = "mlc.matmul"(%a, %b) : (tensor<2x3xi8>, tensor<3x4xi8>) -> tensor<2x4xi8>
  return %0 : tensor<2x4xi8>
}

// -----

/// 8x8 input, 3x3 kernel, no padding: (8 - 3) / 1 + 1 = 6.

// CHECK-LABEL: func.func @conv2d_nchw
func.func @conv2d_nchw(%x: tensor<1x3x8x8xf32>, %w: tensor<4x3x3x3xf32>) -> tensor<1x4x6x6xf32> {
  // CHECK: "mlc.conv2d"(%{{.*}}, %{{.*}}) {dilation = array<i64: 1, 1>, groups = 1 : i64, layout = "NCHW", padding = array<i64: 0, 0, 0, 0>, stride = array<i64: 1, 1>} : (tensor<1x3x8x8xf32>, tensor<4x3x3x3xf32>) -> tensor<1x4x6x6xf32>
  %0 = "mlc.conv2d"(%x, %w) {dilation = array<i64: 1, 1>, groups = 1 : i64, layout = "NCHW", padding = array<i64: 0, 0, 0, 0>, stride = array<i64: 1, 1>} : (tensor<1x3x8x8xf32>, tensor<4x3x3x3xf32>) -> tensor<1x4x6x6xf32>
  return %0 : tensor<1x4x6x6xf32>
}

// -----

/// Stride 2 and padding 1: (8 + 1 + 1 - 3) / 2 + 1 = 4 (floor of 3.5, plus 1).
/// The bias is the optional third operand.

// CHECK-LABEL: func.func @conv2d_nchw_bias_stride_padding
// CHECK-SAME: (%[[X:.*]]: tensor<1x3x8x8xf32>, %[[W:.*]]: tensor<4x3x3x3xf32>, %[[B:.*]]: tensor<4xf32>)
func.func @conv2d_nchw_bias_stride_padding(%x: tensor<1x3x8x8xf32>, %w: tensor<4x3x3x3xf32>, %b: tensor<4xf32>) -> tensor<1x4x4x4xf32> {
  // CHECK: "mlc.conv2d"(%[[X]], %[[W]], %[[B]]) {dilation = array<i64: 1, 1>, groups = 1 : i64, layout = "NCHW", padding = array<i64: 1, 1, 1, 1>, stride = array<i64: 2, 2>} : (tensor<1x3x8x8xf32>, tensor<4x3x3x3xf32>, tensor<4xf32>) -> tensor<1x4x4x4xf32>
  %0 = "mlc.conv2d"(%x, %w, %b) {dilation = array<i64: 1, 1>, groups = 1 : i64, layout = "NCHW", padding = array<i64: 1, 1, 1, 1>, stride = array<i64: 2, 2>} : (tensor<1x3x8x8xf32>, tensor<4x3x3x3xf32>, tensor<4xf32>) -> tensor<1x4x4x4xf32>
  return %0 : tensor<1x4x4x4xf32>
}

// -----

/// Dilation 2 makes a 3-wide kernel span 5. Height: (9 + 2 + 2 - 5) / 1 + 1 = 9;
/// width: (9 + 0 + 0 - 5) / 2 + 1 = 3.

// CHECK-LABEL: func.func @conv2d_dilation_per_axis
func.func @conv2d_dilation_per_axis(%x: tensor<2x3x9x9xf32>, %w: tensor<4x3x3x3xf32>) -> tensor<2x4x9x3xf32> {
  // CHECK: "mlc.conv2d"(%{{.*}}, %{{.*}}) {dilation = array<i64: 2, 2>, groups = 1 : i64, layout = "NCHW", padding = array<i64: 2, 2, 0, 0>, stride = array<i64: 1, 2>} : (tensor<2x3x9x9xf32>, tensor<4x3x3x3xf32>) -> tensor<2x4x9x3xf32>
  %0 = "mlc.conv2d"(%x, %w) {dilation = array<i64: 2, 2>, groups = 1 : i64, layout = "NCHW", padding = array<i64: 2, 2, 0, 0>, stride = array<i64: 1, 2>} : (tensor<2x3x9x9xf32>, tensor<4x3x3x3xf32>) -> tensor<2x4x9x3xf32>
  return %0 : tensor<2x4x9x3xf32>
}

// -----

/// Asymmetric ("same") padding [top 0, bottom 1, left 1, right 0] with a 2x2
/// kernel keeps 7x7: (7 + 0 + 1 - 2) / 1 + 1 = 7.

// CHECK-LABEL: func.func @conv2d_asymmetric_padding
func.func @conv2d_asymmetric_padding(%x: tensor<1x3x7x7xf32>, %w: tensor<4x3x2x2xf32>) -> tensor<1x4x7x7xf32> {
  // CHECK: "mlc.conv2d"(%{{.*}}, %{{.*}}) {dilation = array<i64: 1, 1>, groups = 1 : i64, layout = "NCHW", padding = array<i64: 0, 1, 1, 0>, stride = array<i64: 1, 1>} : (tensor<1x3x7x7xf32>, tensor<4x3x2x2xf32>) -> tensor<1x4x7x7xf32>
  %0 = "mlc.conv2d"(%x, %w) {dilation = array<i64: 1, 1>, groups = 1 : i64, layout = "NCHW", padding = array<i64: 0, 1, 1, 0>, stride = array<i64: 1, 1>} : (tensor<1x3x7x7xf32>, tensor<4x3x2x2xf32>) -> tensor<1x4x7x7xf32>
  return %0 : tensor<1x4x7x7xf32>
}

// -----

/// NHWC: the input is N x H x W x C and the weight KH x KW x C x F.

// CHECK-LABEL: func.func @conv2d_nhwc
// CHECK-SAME: (%[[X:.*]]: tensor<1x8x8x3xf32>, %[[W:.*]]: tensor<3x3x3x4xf32>, %[[B:.*]]: tensor<4xf32>)
func.func @conv2d_nhwc(%x: tensor<1x8x8x3xf32>, %w: tensor<3x3x3x4xf32>, %b: tensor<4xf32>) -> (tensor<1x8x8x4xf32>, tensor<1x3x3x4xf32>) {
  // CHECK: "mlc.conv2d"(%[[X]], %[[W]]) {dilation = array<i64: 1, 1>, groups = 1 : i64, layout = "NHWC", padding = array<i64: 1, 1, 1, 1>, stride = array<i64: 1, 1>} : (tensor<1x8x8x3xf32>, tensor<3x3x3x4xf32>) -> tensor<1x8x8x4xf32>
  %0 = "mlc.conv2d"(%x, %w) {dilation = array<i64: 1, 1>, groups = 1 : i64, layout = "NHWC", padding = array<i64: 1, 1, 1, 1>, stride = array<i64: 1, 1>} : (tensor<1x8x8x3xf32>, tensor<3x3x3x4xf32>) -> tensor<1x8x8x4xf32>
  /// (8 - 3) / 2 + 1 = 3.
  // CHECK: "mlc.conv2d"(%[[X]], %[[W]], %[[B]]) {dilation = array<i64: 1, 1>, groups = 1 : i64, layout = "NHWC", padding = array<i64: 0, 0, 0, 0>, stride = array<i64: 2, 2>} : (tensor<1x8x8x3xf32>, tensor<3x3x3x4xf32>, tensor<4xf32>) -> tensor<1x3x3x4xf32>
  %1 = "mlc.conv2d"(%x, %w, %b) {dilation = array<i64: 1, 1>, groups = 1 : i64, layout = "NHWC", padding = array<i64: 0, 0, 0, 0>, stride = array<i64: 2, 2>} : (tensor<1x8x8x3xf32>, tensor<3x3x3x4xf32>, tensor<4xf32>) -> tensor<1x3x3x4xf32>
  return %0, %1 : tensor<1x8x8x4xf32>, tensor<1x3x3x4xf32>
}

// -----

/// Two groups: 4 input channels, 2 per group in the weight, 6 filters.

// CHECK-LABEL: func.func @conv2d_grouped
func.func @conv2d_grouped(%x: tensor<1x4x8x8xf32>, %w: tensor<6x2x3x3xf32>) -> tensor<1x6x6x6xf32> {
  // CHECK: "mlc.conv2d"(%{{.*}}, %{{.*}}) {dilation = array<i64: 1, 1>, groups = 2 : i64, layout = "NCHW", padding = array<i64: 0, 0, 0, 0>, stride = array<i64: 1, 1>} : (tensor<1x4x8x8xf32>, tensor<6x2x3x3xf32>) -> tensor<1x6x6x6xf32>
  %0 = "mlc.conv2d"(%x, %w) {dilation = array<i64: 1, 1>, groups = 2 : i64, layout = "NCHW", padding = array<i64: 0, 0, 0, 0>, stride = array<i64: 1, 1>} : (tensor<1x4x8x8xf32>, tensor<6x2x3x3xf32>) -> tensor<1x6x6x6xf32>
  return %0 : tensor<1x6x6x6xf32>
}

// -----

/// Depthwise: groups equals the channel count and each filter sees one channel.
/// (10 + 1 + 1 - 3) / 2 + 1 = 5.

// CHECK-LABEL: func.func @conv2d_depthwise
func.func @conv2d_depthwise(%x: tensor<1x8x10x10xf32>, %w: tensor<8x1x3x3xf32>, %b: tensor<8xf32>,
                            %xh: tensor<1x10x10x8xf32>, %wh: tensor<3x3x1x8xf32>) -> (tensor<1x8x5x5xf32>, tensor<1x5x5x8xf32>) {
  // CHECK: "mlc.conv2d"(%{{.*}}, %{{.*}}, %{{.*}}) {dilation = array<i64: 1, 1>, groups = 8 : i64, layout = "NCHW", padding = array<i64: 1, 1, 1, 1>, stride = array<i64: 2, 2>} : (tensor<1x8x10x10xf32>, tensor<8x1x3x3xf32>, tensor<8xf32>) -> tensor<1x8x5x5xf32>
  %0 = "mlc.conv2d"(%x, %w, %b) {dilation = array<i64: 1, 1>, groups = 8 : i64, layout = "NCHW", padding = array<i64: 1, 1, 1, 1>, stride = array<i64: 2, 2>} : (tensor<1x8x10x10xf32>, tensor<8x1x3x3xf32>, tensor<8xf32>) -> tensor<1x8x5x5xf32>
  // CHECK: "mlc.conv2d"(%{{.*}}, %{{.*}}) {dilation = array<i64: 1, 1>, groups = 8 : i64, layout = "NHWC", padding = array<i64: 1, 1, 1, 1>, stride = array<i64: 2, 2>} : (tensor<1x10x10x8xf32>, tensor<3x3x1x8xf32>) -> tensor<1x5x5x8xf32>
  %1 = "mlc.conv2d"(%xh, %wh) {dilation = array<i64: 1, 1>, groups = 8 : i64, layout = "NHWC", padding = array<i64: 1, 1, 1, 1>, stride = array<i64: 2, 2>} : (tensor<1x10x10x8xf32>, tensor<3x3x1x8xf32>) -> tensor<1x5x5x8xf32>
  return %0, %1 : tensor<1x8x5x5xf32>, tensor<1x5x5x8xf32>
}

// -----

/// Dynamic batch, height and width give dynamic output sizes.

// CHECK-LABEL: func.func @conv2d_dynamic
func.func @conv2d_dynamic(%x: tensor<?x3x?x?xf32>, %w: tensor<4x3x3x3xf32>) -> tensor<?x4x?x?xf32> {
  // CHECK: "mlc.conv2d"(%{{.*}}, %{{.*}}) {dilation = array<i64: 1, 1>, groups = 1 : i64, layout = "NCHW", padding = array<i64: 1, 1, 1, 1>, stride = array<i64: 1, 1>} : (tensor<?x3x?x?xf32>, tensor<4x3x3x3xf32>) -> tensor<?x4x?x?xf32>
  %0 = "mlc.conv2d"(%x, %w) {dilation = array<i64: 1, 1>, groups = 1 : i64, layout = "NCHW", padding = array<i64: 1, 1, 1, 1>, stride = array<i64: 1, 1>} : (tensor<?x3x?x?xf32>, tensor<4x3x3x3xf32>) -> tensor<?x4x?x?xf32>
  return %0 : tensor<?x4x?x?xf32>
}

// -----

/// A weight with dynamic dimensions (filters, channels per group, kernel height)
/// checks only what is static; a static result size is taken on trust.

// CHECK-LABEL: func.func @conv2d_dynamic_weight
func.func @conv2d_dynamic_weight(%x: tensor<1x6x8x8xf32>, %w: tensor<?x?x?x3xf32>) -> (tensor<1x?x?x6xf32>, tensor<1x?x6x6xf32>) {
  // CHECK: "mlc.conv2d"(%{{.*}}, %{{.*}}) {dilation = array<i64: 1, 1>, groups = 3 : i64, layout = "NCHW", padding = array<i64: 0, 0, 0, 0>, stride = array<i64: 1, 1>} : (tensor<1x6x8x8xf32>, tensor<?x?x?x3xf32>) -> tensor<1x?x?x6xf32>
  %0 = "mlc.conv2d"(%x, %w) {dilation = array<i64: 1, 1>, groups = 3 : i64, layout = "NCHW", padding = array<i64: 0, 0, 0, 0>, stride = array<i64: 1, 1>} : (tensor<1x6x8x8xf32>, tensor<?x?x?x3xf32>) -> tensor<1x?x?x6xf32>
  // CHECK: "mlc.conv2d"(%{{.*}}, %{{.*}}) {dilation = array<i64: 1, 1>, groups = 3 : i64, layout = "NCHW", padding = array<i64: 0, 0, 0, 0>, stride = array<i64: 1, 1>} : (tensor<1x6x8x8xf32>, tensor<?x?x?x3xf32>) -> tensor<1x?x6x6xf32>
  %1 = "mlc.conv2d"(%x, %w) {dilation = array<i64: 1, 1>, groups = 3 : i64, layout = "NCHW", padding = array<i64: 0, 0, 0, 0>, stride = array<i64: 1, 1>} : (tensor<1x6x8x8xf32>, tensor<?x?x?x3xf32>) -> tensor<1x?x6x6xf32>
  return %0, %1 : tensor<1x?x?x6xf32>, tensor<1x?x6x6xf32>
}

// -----

/// 2x2 windows with stride 2 halve 8x8; a dilated 3x3 window spans 5:
/// (8 - 5) / 1 + 1 = 4.

// CHECK-LABEL: func.func @max_pool2d
func.func @max_pool2d(%x: tensor<1x3x8x8xf32>) -> (tensor<1x3x4x4xf32>, tensor<1x3x4x4xf32>) {
  // CHECK: "mlc.max_pool2d"(%{{.*}}) {ceil_mode = false, dilation = array<i64: 1, 1>, kernel = array<i64: 2, 2>, layout = "NCHW", padding = array<i64: 0, 0, 0, 0>, stride = array<i64: 2, 2>} : (tensor<1x3x8x8xf32>) -> tensor<1x3x4x4xf32>
  %0 = "mlc.max_pool2d"(%x) {ceil_mode = false, dilation = array<i64: 1, 1>, kernel = array<i64: 2, 2>, layout = "NCHW", padding = array<i64: 0, 0, 0, 0>, stride = array<i64: 2, 2>} : (tensor<1x3x8x8xf32>) -> tensor<1x3x4x4xf32>
  // CHECK: "mlc.max_pool2d"(%{{.*}}) {ceil_mode = false, dilation = array<i64: 2, 2>, kernel = array<i64: 3, 3>, layout = "NCHW", padding = array<i64: 0, 0, 0, 0>, stride = array<i64: 1, 1>} : (tensor<1x3x8x8xf32>) -> tensor<1x3x4x4xf32>
  %1 = "mlc.max_pool2d"(%x) {ceil_mode = false, dilation = array<i64: 2, 2>, kernel = array<i64: 3, 3>, layout = "NCHW", padding = array<i64: 0, 0, 0, 0>, stride = array<i64: 1, 1>} : (tensor<1x3x8x8xf32>) -> tensor<1x3x4x4xf32>
  return %0, %1 : tensor<1x3x4x4xf32>, tensor<1x3x4x4xf32>
}

// -----

/// NHWC, 3x3 windows, stride 2, padding 1: (8 + 1 + 1 - 3) / 2 + 1 = 4.

// CHECK-LABEL: func.func @max_pool2d_nhwc
func.func @max_pool2d_nhwc(%x: tensor<1x8x8x3xf32>) -> tensor<1x4x4x3xf32> {
  // CHECK: "mlc.max_pool2d"(%{{.*}}) {ceil_mode = false, dilation = array<i64: 1, 1>, kernel = array<i64: 3, 3>, layout = "NHWC", padding = array<i64: 1, 1, 1, 1>, stride = array<i64: 2, 2>} : (tensor<1x8x8x3xf32>) -> tensor<1x4x4x3xf32>
  %0 = "mlc.max_pool2d"(%x) {ceil_mode = false, dilation = array<i64: 1, 1>, kernel = array<i64: 3, 3>, layout = "NHWC", padding = array<i64: 1, 1, 1, 1>, stride = array<i64: 2, 2>} : (tensor<1x8x8x3xf32>) -> tensor<1x4x4x3xf32>
  return %0 : tensor<1x4x4x3xf32>
}

// -----

/// ceil_mode keeps the partial last window: 7x7 with 2x2 windows, stride 2,
/// gives floor(5 / 2) + 1 = 3 without it and ceil(5 / 2) + 1 = 4 with it.

// CHECK-LABEL: func.func @max_pool2d_ceil_mode
func.func @max_pool2d_ceil_mode(%x: tensor<1x3x7x7xf32>) -> (tensor<1x3x3x3xf32>, tensor<1x3x4x4xf32>) {
  // CHECK: "mlc.max_pool2d"(%{{.*}}) {ceil_mode = false, dilation = array<i64: 1, 1>, kernel = array<i64: 2, 2>, layout = "NCHW", padding = array<i64: 0, 0, 0, 0>, stride = array<i64: 2, 2>} : (tensor<1x3x7x7xf32>) -> tensor<1x3x3x3xf32>
  %0 = "mlc.max_pool2d"(%x) {ceil_mode = false, dilation = array<i64: 1, 1>, kernel = array<i64: 2, 2>, layout = "NCHW", padding = array<i64: 0, 0, 0, 0>, stride = array<i64: 2, 2>} : (tensor<1x3x7x7xf32>) -> tensor<1x3x3x3xf32>
  // CHECK: "mlc.max_pool2d"(%{{.*}}) {ceil_mode = true, dilation = array<i64: 1, 1>, kernel = array<i64: 2, 2>, layout = "NCHW", padding = array<i64: 0, 0, 0, 0>, stride = array<i64: 2, 2>} : (tensor<1x3x7x7xf32>) -> tensor<1x3x4x4xf32>
  %1 = "mlc.max_pool2d"(%x) {ceil_mode = true, dilation = array<i64: 1, 1>, kernel = array<i64: 2, 2>, layout = "NCHW", padding = array<i64: 0, 0, 0, 0>, stride = array<i64: 2, 2>} : (tensor<1x3x7x7xf32>) -> tensor<1x3x4x4xf32>
  return %0, %1 : tensor<1x3x3x3xf32>, tensor<1x3x4x4xf32>
}

// -----

/// torch drops a last window that would start in the right padding: 5x5 with
/// 2x2 windows, stride 2, padding 1 gives ceil(5 / 2) + 1 = 4, but window 4
/// would start at 6 >= 5 + 1, so 3 remain.

// CHECK-LABEL: func.func @max_pool2d_ceil_mode_drops_window_in_padding
func.func @max_pool2d_ceil_mode_drops_window_in_padding(%x: tensor<1x3x5x5xf32>) -> tensor<1x3x3x3xf32> {
  // CHECK: "mlc.max_pool2d"(%{{.*}}) {ceil_mode = true, dilation = array<i64: 1, 1>, kernel = array<i64: 2, 2>, layout = "NCHW", padding = array<i64: 1, 1, 1, 1>, stride = array<i64: 2, 2>} : (tensor<1x3x5x5xf32>) -> tensor<1x3x3x3xf32>
  %0 = "mlc.max_pool2d"(%x) {ceil_mode = true, dilation = array<i64: 1, 1>, kernel = array<i64: 2, 2>, layout = "NCHW", padding = array<i64: 1, 1, 1, 1>, stride = array<i64: 2, 2>} : (tensor<1x3x5x5xf32>) -> tensor<1x3x3x3xf32>
  return %0 : tensor<1x3x3x3xf32>
}

// -----

// CHECK-LABEL: func.func @max_pool2d_dynamic
func.func @max_pool2d_dynamic(%x: tensor<?x3x?x8xf32>) -> tensor<?x3x?x4xf32> {
  // CHECK: "mlc.max_pool2d"(%{{.*}}) {ceil_mode = false, dilation = array<i64: 1, 1>, kernel = array<i64: 2, 2>, layout = "NCHW", padding = array<i64: 0, 0, 0, 0>, stride = array<i64: 2, 2>} : (tensor<?x3x?x8xf32>) -> tensor<?x3x?x4xf32>
  %0 = "mlc.max_pool2d"(%x) {ceil_mode = false, dilation = array<i64: 1, 1>, kernel = array<i64: 2, 2>, layout = "NCHW", padding = array<i64: 0, 0, 0, 0>, stride = array<i64: 2, 2>} : (tensor<?x3x?x8xf32>) -> tensor<?x3x?x4xf32>
  return %0 : tensor<?x3x?x4xf32>
}

// -----

// CHECK-LABEL: func.func @avg_pool2d
func.func @avg_pool2d(%x: tensor<1x3x8x8xf32>, %xh: tensor<1x8x8x3xf32>) -> (tensor<1x3x4x4xf32>, tensor<1x8x8x3xf32>) {
  // CHECK: "mlc.avg_pool2d"(%{{.*}}) {ceil_mode = false, count_include_pad = true, kernel = array<i64: 2, 2>, layout = "NCHW", padding = array<i64: 0, 0, 0, 0>, stride = array<i64: 2, 2>} : (tensor<1x3x8x8xf32>) -> tensor<1x3x4x4xf32>
  %0 = "mlc.avg_pool2d"(%x) {ceil_mode = false, count_include_pad = true, kernel = array<i64: 2, 2>, layout = "NCHW", padding = array<i64: 0, 0, 0, 0>, stride = array<i64: 2, 2>} : (tensor<1x3x8x8xf32>) -> tensor<1x3x4x4xf32>
  /// (8 + 1 + 1 - 3) / 1 + 1 = 8.
  // CHECK: "mlc.avg_pool2d"(%{{.*}}) {ceil_mode = false, count_include_pad = false, kernel = array<i64: 3, 3>, layout = "NHWC", padding = array<i64: 1, 1, 1, 1>, stride = array<i64: 1, 1>} : (tensor<1x8x8x3xf32>) -> tensor<1x8x8x3xf32>
  %1 = "mlc.avg_pool2d"(%xh) {ceil_mode = false, count_include_pad = false, kernel = array<i64: 3, 3>, layout = "NHWC", padding = array<i64: 1, 1, 1, 1>, stride = array<i64: 1, 1>} : (tensor<1x8x8x3xf32>) -> tensor<1x8x8x3xf32>
  return %0, %1 : tensor<1x3x4x4xf32>, tensor<1x8x8x3xf32>
}

// -----

/// 6x6 with 3x3 windows, stride 2: floor(3 / 2) + 1 = 2, ceil(3 / 2) + 1 = 3.

// CHECK-LABEL: func.func @avg_pool2d_ceil_mode
func.func @avg_pool2d_ceil_mode(%x: tensor<1x3x6x6xf32>) -> (tensor<1x3x2x2xf32>, tensor<1x3x3x3xf32>) {
  // CHECK: "mlc.avg_pool2d"(%{{.*}}) {ceil_mode = false, count_include_pad = true, kernel = array<i64: 3, 3>, layout = "NCHW", padding = array<i64: 0, 0, 0, 0>, stride = array<i64: 2, 2>} : (tensor<1x3x6x6xf32>) -> tensor<1x3x2x2xf32>
  %0 = "mlc.avg_pool2d"(%x) {ceil_mode = false, count_include_pad = true, kernel = array<i64: 3, 3>, layout = "NCHW", padding = array<i64: 0, 0, 0, 0>, stride = array<i64: 2, 2>} : (tensor<1x3x6x6xf32>) -> tensor<1x3x2x2xf32>
  // CHECK: "mlc.avg_pool2d"(%{{.*}}) {ceil_mode = true, count_include_pad = true, kernel = array<i64: 3, 3>, layout = "NCHW", padding = array<i64: 0, 0, 0, 0>, stride = array<i64: 2, 2>} : (tensor<1x3x6x6xf32>) -> tensor<1x3x3x3xf32>
  %1 = "mlc.avg_pool2d"(%x) {ceil_mode = true, count_include_pad = true, kernel = array<i64: 3, 3>, layout = "NCHW", padding = array<i64: 0, 0, 0, 0>, stride = array<i64: 2, 2>} : (tensor<1x3x6x6xf32>) -> tensor<1x3x3x3xf32>
  return %0, %1 : tensor<1x3x2x2xf32>, tensor<1x3x3x3xf32>
}

// -----

// CHECK-LABEL: func.func @quantized_matmul
// CHECK-SAME: (%[[X:.*]]: tensor<1x8xf32>, %[[W:.*]]: tensor<8x4xi8>, %[[S:.*]]: tensor<4xf32>)
func.func @quantized_matmul(%x: tensor<1x8xf32>, %w: tensor<8x4xi8>, %s: tensor<4xf32>) -> tensor<1x4xf32> {
  // CHECK: "mlc.quantized_matmul"(%[[X]], %[[W]], %[[S]]) : (tensor<1x8xf32>, tensor<8x4xi8>, tensor<4xf32>) -> tensor<1x4xf32>
  %0 = "mlc.quantized_matmul"(%x, %w, %s) : (tensor<1x8xf32>, tensor<8x4xi8>, tensor<4xf32>) -> tensor<1x4xf32>
  return %0 : tensor<1x4xf32>
}
