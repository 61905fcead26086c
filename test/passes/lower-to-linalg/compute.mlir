// RUN: mlc-opt %s --pass-pipeline='builtin.module(mlc-lower-to-linalg)' --split-input-file | FileCheck %s

/// matmul, conv2d and pooling become linalg's named ops on zero-filled (or
/// bias-initialized, or -inf-filled) accumulators; padding is an explicit tensor.pad.

// CHECK-LABEL: func.func @matmul_2d
// CHECK-SAME: (%[[A:.*]]: tensor<4x5xf32>, %[[B:.*]]: tensor<5x3xf32>)
// CHECK: %[[ZERO:.*]] = arith.constant 0.000000e+00 : f32
// CHECK-NEXT: %[[EMPTY:.*]] = tensor.empty() : tensor<4x3xf32>
// CHECK-NEXT: %[[ACC:.*]] = linalg.fill ins(%[[ZERO]] : f32) outs(%[[EMPTY]] : tensor<4x3xf32>)
// CHECK-NEXT: %[[C:.*]] = linalg.matmul ins(%[[A]], %[[B]] : tensor<4x5xf32>, tensor<5x3xf32>) outs(%[[ACC]] : tensor<4x3xf32>)
// CHECK-NEXT: return %[[C]]
func.func @matmul_2d(%a: tensor<4x5xf32>, %b: tensor<5x3xf32>) -> tensor<4x3xf32> {
  %0 = "mlc.matmul"(%a, %b) : (tensor<4x5xf32>, tensor<5x3xf32>) -> tensor<4x3xf32>
  return %0 : tensor<4x3xf32>
}

// -----

// CHECK-LABEL: func.func @matmul_batched
// CHECK-SAME: (%[[A:.*]]: tensor<2x4x5xf32>, %[[B:.*]]: tensor<2x5x3xf32>)
// CHECK: %[[ACC:.*]] = linalg.fill
// CHECK-NEXT: %[[C:.*]] = linalg.batch_matmul ins(%[[A]], %[[B]] : tensor<2x4x5xf32>, tensor<2x5x3xf32>) outs(%[[ACC]] : tensor<2x4x3xf32>)
// CHECK-NEXT: return %[[C]]
func.func @matmul_batched(%a: tensor<2x4x5xf32>, %b: tensor<2x5x3xf32>) -> tensor<2x4x3xf32> {
  %0 = "mlc.matmul"(%a, %b) : (tensor<2x4x5xf32>, tensor<2x5x3xf32>) -> tensor<2x4x3xf32>
  return %0 : tensor<2x4x3xf32>
}

// -----

/// Several batch dimensions fold into one around linalg.batch_matmul.

// CHECK-LABEL: func.func @matmul_4d
// CHECK-SAME: (%[[A:.*]]: tensor<2x3x4x5xf32>, %[[B:.*]]: tensor<2x3x5x6xf32>)
// CHECK: %[[A3:.*]] = tensor.collapse_shape %[[A]] {{\[}}[0, 1], [2], [3]] : tensor<2x3x4x5xf32> into tensor<6x4x5xf32>
// CHECK: %[[B3:.*]] = tensor.collapse_shape %[[B]] {{\[}}[0, 1], [2], [3]] : tensor<2x3x5x6xf32> into tensor<6x5x6xf32>
// CHECK: %[[C3:.*]] = linalg.batch_matmul ins(%[[A3]], %[[B3]] : {{.*}}) outs(%{{.*}} : tensor<6x4x6xf32>)
// CHECK-NEXT: %[[C:.*]] = tensor.expand_shape %[[C3]] {{\[}}[0, 1], [2], [3]] output_shape [2, 3, 4, 6] : tensor<6x4x6xf32> into tensor<2x3x4x6xf32>
// CHECK-NEXT: return %[[C]]
func.func @matmul_4d(%a: tensor<2x3x4x5xf32>, %b: tensor<2x3x5x6xf32>) -> tensor<2x3x4x6xf32> {
  %0 = "mlc.matmul"(%a, %b) : (tensor<2x3x4x5xf32>, tensor<2x3x5x6xf32>) -> tensor<2x3x4x6xf32>
  return %0 : tensor<2x3x4x6xf32>
}

// -----

/// A 2-D rhs lets the lhs batch fold into its rows: one linalg.matmul.

// CHECK-LABEL: func.func @matmul_rhs_2d
// CHECK-SAME: (%[[A:.*]]: tensor<2x4x5xf32>, %[[B:.*]]: tensor<5x6xf32>)
// CHECK: %[[A2:.*]] = tensor.collapse_shape %[[A]] {{\[}}[0, 1], [2]] : tensor<2x4x5xf32> into tensor<8x5xf32>
// CHECK: %[[C2:.*]] = linalg.matmul ins(%[[A2]], %[[B]] : tensor<8x5xf32>, tensor<5x6xf32>) outs(%{{.*}} : tensor<8x6xf32>)
// CHECK-NEXT: tensor.expand_shape %[[C2]] {{\[}}[0, 1], [2]] output_shape [2, 4, 6] : tensor<8x6xf32> into tensor<2x4x6xf32>
// CHECK-NOT: linalg.batch_matmul
func.func @matmul_rhs_2d(%a: tensor<2x4x5xf32>, %b: tensor<5x6xf32>) -> tensor<2x4x6xf32> {
  %0 = "mlc.matmul"(%a, %b) : (tensor<2x4x5xf32>, tensor<5x6xf32>) -> tensor<2x4x6xf32>
  return %0 : tensor<2x4x6xf32>
}

// -----

/// A broadcast batch is materialized first.

// CHECK-DAG: #[[$STRETCH:.*]] = affine_map<(d0, d1, d2, d3) -> (d0, 0, d2, d3)>
// CHECK-DAG: #[[$PREPEND:.*]] = affine_map<(d0, d1, d2, d3) -> (d1, d2, d3)>
// CHECK-LABEL: func.func @matmul_broadcast_batch
// CHECK-SAME: (%[[A:.*]]: tensor<2x1x4x5xf32>, %[[B:.*]]: tensor<3x5x6xf32>)
// CHECK: %[[A_FULL:.*]] = linalg.generic {indexing_maps = [#[[$STRETCH]], #{{.*}}]{{.*}} ins(%[[A]] : tensor<2x1x4x5xf32>) outs(%{{.*}} : tensor<2x3x4x5xf32>)
// CHECK: %[[B_FULL:.*]] = linalg.generic {indexing_maps = [#[[$PREPEND]], #{{.*}}]{{.*}} ins(%[[B]] : tensor<3x5x6xf32>) outs(%{{.*}} : tensor<2x3x5x6xf32>)
// CHECK: tensor.collapse_shape %[[A_FULL]]
// CHECK: tensor.collapse_shape %[[B_FULL]]
// CHECK: linalg.batch_matmul
func.func @matmul_broadcast_batch(%a: tensor<2x1x4x5xf32>, %b: tensor<3x5x6xf32>) -> tensor<2x3x4x6xf32> {
  %0 = "mlc.matmul"(%a, %b) : (tensor<2x1x4x5xf32>, tensor<3x5x6xf32>) -> tensor<2x3x4x6xf32>
  return %0 : tensor<2x3x4x6xf32>
}

// -----

/// Dynamic sizes are read with tensor.dim and carried through the reshapes.

// CHECK-LABEL: func.func @matmul_dynamic_batch
// CHECK-SAME: (%[[A:.*]]: tensor<?x4x5xf32>, %[[B:.*]]: tensor<5x3xf32>)
// CHECK: %[[N:.*]] = tensor.dim %[[A]], %{{.*}} : tensor<?x4x5xf32>
// CHECK: %[[A2:.*]] = tensor.collapse_shape %[[A]] {{\[}}[0, 1], [2]] : tensor<?x4x5xf32> into tensor<?x5xf32>
// CHECK: %[[C2:.*]] = linalg.matmul ins(%[[A2]], %[[B]] : tensor<?x5xf32>, tensor<5x3xf32>)
// CHECK: tensor.expand_shape %[[C2]] {{\[}}[0, 1], [2]] output_shape [%[[N]], 4, 3] : tensor<?x3xf32> into tensor<?x4x3xf32>
func.func @matmul_dynamic_batch(%a: tensor<?x4x5xf32>, %b: tensor<5x3xf32>) -> tensor<?x4x3xf32> {
  %0 = "mlc.matmul"(%a, %b) : (tensor<?x4x5xf32>, tensor<5x3xf32>) -> tensor<?x4x3xf32>
  return %0 : tensor<?x4x3xf32>
}

// -----

/// NCHW conv: zero padding as tensor.pad, the bias broadcast as the accumulator.

// CHECK-LABEL: func.func @conv_nchw_bias
// CHECK-SAME: (%[[X:.*]]: tensor<2x3x9x9xf32>, %[[W:.*]]: tensor<4x3x3x3xf32>, %[[BIAS:.*]]: tensor<4xf32>)
// CHECK: %[[EMPTY:.*]] = tensor.empty() : tensor<2x4x5x5xf32>
// CHECK-NEXT: %[[ACC:.*]] = linalg.broadcast ins(%[[BIAS]] : tensor<4xf32>) outs(%[[EMPTY]] : tensor<2x4x5x5xf32>) dimensions = [0, 2, 3]
// CHECK: %[[ZERO:.*]] = arith.constant 0.000000e+00 : f32
// CHECK-NEXT: %[[PADDED:.*]] = tensor.pad %[[X]] low[0, 0, 1, 2] high[0, 0, 1, 0]
// CHECK-NEXT: ^bb0
// CHECK-NEXT: tensor.yield %[[ZERO]] : f32
// CHECK-NEXT: } : tensor<2x3x9x9xf32> to tensor<2x3x11x11xf32>
// CHECK-NEXT: %[[Y:.*]] = linalg.conv_2d_nchw_fchw {dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>}
// CHECK-SAME: ins(%[[PADDED]], %[[W]] : tensor<2x3x11x11xf32>, tensor<4x3x3x3xf32>) outs(%[[ACC]] : tensor<2x4x5x5xf32>)
// CHECK-NEXT: return %[[Y]]
func.func @conv_nchw_bias(%x: tensor<2x3x9x9xf32>, %w: tensor<4x3x3x3xf32>, %b: tensor<4xf32>) -> tensor<2x4x5x5xf32> {
  %0 = "mlc.conv2d"(%x, %w, %b) {stride = array<i64: 2, 2>, padding = array<i64: 1, 1, 2, 0>, dilation = array<i64: 1, 1>, groups = 1 : i64, layout = "NCHW"} : (tensor<2x3x9x9xf32>, tensor<4x3x3x3xf32>, tensor<4xf32>) -> tensor<2x4x5x5xf32>
  return %0 : tensor<2x4x5x5xf32>
}

// -----

/// Without bias the accumulator is zero-filled; strides and dilations carry over. The
/// input is cut to what the windows read: three columns at stride 2 read 7 of the 8
/// (IREE folds a unit output dimension assuming the input has exactly that extent).

// CHECK-LABEL: func.func @conv_nhwc
// CHECK-SAME: (%[[X:.*]]: tensor<1x8x8x3xf32>, %[[W:.*]]: tensor<3x3x3x4xf32>)
// CHECK-NOT: tensor.pad
// CHECK: %[[ACC:.*]] = linalg.fill
// CHECK-NEXT: %[[READ:.*]] = tensor.extract_slice %[[X]][0, 0, 0, 0] [1, 8, 7, 3] [1, 1, 1, 1] : tensor<1x8x8x3xf32> to tensor<1x8x7x3xf32>
// CHECK-NEXT: linalg.conv_2d_nhwc_hwcf {dilations = dense<[2, 1]> : tensor<2xi64>, strides = dense<[1, 2]> : tensor<2xi64>}
// CHECK-SAME: ins(%[[READ]], %[[W]] : tensor<1x8x7x3xf32>, tensor<3x3x3x4xf32>) outs(%[[ACC]] : tensor<1x4x3x4xf32>)
func.func @conv_nhwc(%x: tensor<1x8x8x3xf32>, %w: tensor<3x3x3x4xf32>) -> tensor<1x4x3x4xf32> {
  %0 = "mlc.conv2d"(%x, %w) {stride = array<i64: 1, 2>, padding = array<i64: 0, 0, 0, 0>, dilation = array<i64: 2, 1>, groups = 1 : i64, layout = "NHWC"} : (tensor<1x8x8x3xf32>, tensor<3x3x3x4xf32>) -> tensor<1x4x3x4xf32>
  return %0 : tensor<1x4x3x4xf32>
}

// -----

/// One output position (a stride-2 conv1d over two columns): a matmul over channels x
/// window, one reduction dimension. The input is cut to the window first.

// CHECK-LABEL: func.func @conv_one_window_nchw
// CHECK-SAME: (%[[X:.*]]: tensor<6x2x1x3xf32>, %[[W:.*]]: tensor<5x2x1x2xf32>, %[[BIAS:.*]]: tensor<5xf32>)
// CHECK: %[[ACC:.*]] = linalg.broadcast ins(%[[BIAS]]
// CHECK: %[[READ:.*]] = tensor.extract_slice %[[X]][0, 0, 0, 0] [6, 2, 1, 2] [1, 1, 1, 1]
// CHECK: %[[LHS:.*]] = tensor.collapse_shape %[[READ]] {{\[\[}}0], [1, 2, 3]] : tensor<6x2x1x2xf32> into tensor<6x4xf32>
// CHECK: %[[RHS:.*]] = tensor.collapse_shape %[[W]] {{\[\[}}0], [1, 2, 3]] : tensor<5x2x1x2xf32> into tensor<5x4xf32>
// CHECK: %[[INIT:.*]] = tensor.collapse_shape %[[ACC]] {{\[\[}}0], [1, 2, 3]] : tensor<6x5x1x1xf32> into tensor<6x5xf32>
// CHECK: %[[PRODUCT:.*]] = linalg.matmul indexing_maps = [#{{.*}}, #{{.*}}, #{{.*}}] ins(%[[LHS]], %[[RHS]] : tensor<6x4xf32>, tensor<5x4xf32>) outs(%[[INIT]] : tensor<6x5xf32>)
// CHECK: tensor.expand_shape %[[PRODUCT]] {{\[\[}}0], [1, 2, 3]] output_shape [6, 5, 1, 1]
// CHECK-NOT: linalg.conv
func.func @conv_one_window_nchw(%x: tensor<6x2x1x3xf32>, %w: tensor<5x2x1x2xf32>, %b: tensor<5xf32>) -> tensor<6x5x1x1xf32> {
  %0 = "mlc.conv2d"(%x, %w, %b) {stride = array<i64: 1, 2>, padding = array<i64: 0, 0, 0, 0>, dilation = array<i64: 1, 1>, groups = 1 : i64, layout = "NCHW"} : (tensor<6x2x1x3xf32>, tensor<5x2x1x2xf32>, tensor<5xf32>) -> tensor<6x5x1x1xf32>
  return %0 : tensor<6x5x1x1xf32>
}

// -----

/// NHWC: [N, KH, KW, C] . [KH, KW, C, F] is a plain matmul.

// CHECK-LABEL: func.func @conv_one_window_nhwc
// CHECK: tensor.collapse_shape %{{.*}} {{\[\[}}0], [1, 2, 3]] : tensor<1x3x3x4xf32> into tensor<1x36xf32>
// CHECK: tensor.collapse_shape %{{.*}} {{\[\[}}0, 1, 2], [3]] : tensor<3x3x4x8xf32> into tensor<36x8xf32>
// CHECK: linalg.matmul
// CHECK-NOT: linalg.conv
func.func @conv_one_window_nhwc(%x: tensor<1x3x3x4xf32>, %w: tensor<3x3x4x8xf32>) -> tensor<1x1x1x8xf32> {
  %0 = "mlc.conv2d"(%x, %w) {stride = array<i64: 1, 1>, padding = array<i64: 0, 0, 0, 0>, dilation = array<i64: 1, 1>, groups = 1 : i64, layout = "NHWC"} : (tensor<1x3x3x4xf32>, tensor<3x3x4x8xf32>) -> tensor<1x1x1x8xf32>
  return %0 : tensor<1x1x1x8xf32>
}

// -----

/// Negative: one output position with dilation stays a convolution.

// CHECK-LABEL: func.func @conv_one_dilated_window
// CHECK: linalg.conv_2d_nchw_fchw
func.func @conv_one_dilated_window(%x: tensor<1x2x3x3xf32>, %w: tensor<4x2x2x2xf32>) -> tensor<1x4x1x1xf32> {
  %0 = "mlc.conv2d"(%x, %w) {stride = array<i64: 1, 1>, padding = array<i64: 0, 0, 0, 0>, dilation = array<i64: 2, 2>, groups = 1 : i64, layout = "NCHW"} : (tensor<1x2x3x3xf32>, tensor<4x2x2x2xf32>) -> tensor<1x4x1x1xf32>
  return %0 : tensor<1x4x1x1xf32>
}

// -----

/// Grouped NCHW conv: channels split into [groups, C/groups] by expand_shape.

// CHECK-LABEL: func.func @conv_nchw_groups
// CHECK-SAME: (%[[X:.*]]: tensor<1x4x7x7xf32>, %[[W:.*]]: tensor<6x2x3x3xf32>)
// CHECK: %[[ACC:.*]] = linalg.fill
// CHECK: %[[XG:.*]] = tensor.expand_shape %[[X]] {{\[}}[0], [1, 2], [3], [4]] output_shape [1, 2, 2, 7, 7]
// CHECK: %[[WG:.*]] = tensor.expand_shape %[[W]] {{\[}}[0, 1], [2], [3], [4]] output_shape [2, 3, 2, 3, 3]
// CHECK: %[[ACCG:.*]] = tensor.expand_shape %[[ACC]] {{\[}}[0], [1, 2], [3], [4]] output_shape [1, 2, 3, 5, 5]
// CHECK: %[[YG:.*]] = linalg.conv_2d_ngchw_gfchw {{.*}} ins(%[[XG]], %[[WG]] : tensor<1x2x2x7x7xf32>, tensor<2x3x2x3x3xf32>) outs(%[[ACCG]] : tensor<1x2x3x5x5xf32>)
// CHECK-NEXT: tensor.collapse_shape %[[YG]] {{\[}}[0], [1, 2], [3], [4]] : tensor<1x2x3x5x5xf32> into tensor<1x6x5x5xf32>
func.func @conv_nchw_groups(%x: tensor<1x4x7x7xf32>, %w: tensor<6x2x3x3xf32>) -> tensor<1x6x5x5xf32> {
  %0 = "mlc.conv2d"(%x, %w) {stride = array<i64: 1, 1>, padding = array<i64: 0, 0, 0, 0>, dilation = array<i64: 1, 1>, groups = 2 : i64, layout = "NCHW"} : (tensor<1x4x7x7xf32>, tensor<6x2x3x3xf32>) -> tensor<1x6x5x5xf32>
  return %0 : tensor<1x6x5x5xf32>
}

// -----

/// Grouped NHWC conv: the weight becomes G x F/G x KH x KW x C/G for conv_2d_nhwgc_gfhwc.

// CHECK-LABEL: func.func @conv_nhwc_groups
// CHECK-SAME: (%[[X:.*]]: tensor<1x7x7x4xf32>, %[[W:.*]]: tensor<3x3x2x6xf32>)
// CHECK: %[[XG:.*]] = tensor.expand_shape %[[X]] {{\[}}[0], [1], [2], [3, 4]] output_shape [1, 7, 7, 2, 2]
// CHECK: %[[WG:.*]] = tensor.expand_shape %[[W]] {{\[}}[0], [1], [2], [3, 4]] output_shape [3, 3, 2, 2, 3]
// CHECK: %[[WT:.*]] = linalg.transpose ins(%[[WG]] : tensor<3x3x2x2x3xf32>) outs(%{{.*}} : tensor<2x3x3x3x2xf32>) permutation = [3, 4, 0, 1, 2]
// CHECK: linalg.conv_2d_nhwgc_gfhwc {{.*}} ins(%[[XG]], %[[WT]] : tensor<1x7x7x2x2xf32>, tensor<2x3x3x3x2xf32>)
// CHECK-NEXT: tensor.collapse_shape
func.func @conv_nhwc_groups(%x: tensor<1x7x7x4xf32>, %w: tensor<3x3x2x6xf32>) -> tensor<1x5x5x6xf32> {
  %0 = "mlc.conv2d"(%x, %w) {stride = array<i64: 1, 1>, padding = array<i64: 0, 0, 0, 0>, dilation = array<i64: 1, 1>, groups = 2 : i64, layout = "NHWC"} : (tensor<1x7x7x4xf32>, tensor<3x3x2x6xf32>) -> tensor<1x5x5x6xf32>
  return %0 : tensor<1x5x5x6xf32>
}

// -----

/// Depthwise (one filter per channel): the weight's unit channel dimension folds away.

// CHECK-LABEL: func.func @conv_nchw_depthwise
// CHECK-SAME: (%[[X:.*]]: tensor<1x4x7x7xf32>, %[[W:.*]]: tensor<4x1x3x3xf32>, %[[BIAS:.*]]: tensor<4xf32>)
// CHECK: %[[ACC:.*]] = linalg.broadcast ins(%[[BIAS]]
// CHECK-NEXT: %[[WD:.*]] = tensor.collapse_shape %[[W]] {{\[}}[0, 1], [2], [3]] : tensor<4x1x3x3xf32> into tensor<4x3x3xf32>
// CHECK-NEXT: linalg.depthwise_conv_2d_nchw_chw {dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>}
// CHECK-SAME: ins(%[[X]], %[[WD]] : tensor<1x4x7x7xf32>, tensor<4x3x3xf32>) outs(%[[ACC]] : tensor<1x4x3x3xf32>)
func.func @conv_nchw_depthwise(%x: tensor<1x4x7x7xf32>, %w: tensor<4x1x3x3xf32>, %b: tensor<4xf32>) -> tensor<1x4x3x3xf32> {
  %0 = "mlc.conv2d"(%x, %w, %b) {stride = array<i64: 2, 2>, padding = array<i64: 0, 0, 0, 0>, dilation = array<i64: 1, 1>, groups = 4 : i64, layout = "NCHW"} : (tensor<1x4x7x7xf32>, tensor<4x1x3x3xf32>, tensor<4xf32>) -> tensor<1x4x3x3xf32>
  return %0 : tensor<1x4x3x3xf32>
}

// -----

// CHECK-LABEL: func.func @conv_nhwc_depthwise
// CHECK-SAME: (%[[X:.*]]: tensor<1x7x7x4xf32>, %[[W:.*]]: tensor<3x3x1x4xf32>)
// CHECK: %[[WD:.*]] = tensor.collapse_shape %[[W]] {{\[}}[0], [1], [2, 3]] : tensor<3x3x1x4xf32> into tensor<3x3x4xf32>
// CHECK-NEXT: linalg.depthwise_conv_2d_nhwc_hwc {{.*}} ins(%[[X]], %[[WD]] : tensor<1x7x7x4xf32>, tensor<3x3x4xf32>)
func.func @conv_nhwc_depthwise(%x: tensor<1x7x7x4xf32>, %w: tensor<3x3x1x4xf32>) -> tensor<1x5x5x4xf32> {
  %0 = "mlc.conv2d"(%x, %w) {stride = array<i64: 1, 1>, padding = array<i64: 0, 0, 0, 0>, dilation = array<i64: 1, 1>, groups = 4 : i64, layout = "NHWC"} : (tensor<1x7x7x4xf32>, tensor<3x3x1x4xf32>) -> tensor<1x5x5x4xf32>
  return %0 : tensor<1x5x5x4xf32>
}

// -----

/// Max pooling pads with -inf, so padding never wins, and starts from -inf. Only
/// the padding a window reads is added: the last window ends on the last row.

// CHECK-LABEL: func.func @max_pool_nchw
// CHECK-SAME: (%[[X:.*]]: tensor<1x2x8x8xf32>)
// CHECK: %[[NEG_INF:.*]] = arith.constant 0xFF800000 : f32
// CHECK-NEXT: %[[PADDED:.*]] = tensor.pad %[[X]] low[0, 0, 1, 1] high[0, 0, 0, 0]
// CHECK: tensor.yield %[[NEG_INF]] : f32
// CHECK: %[[INIT_VALUE:.*]] = arith.constant 0xFF800000 : f32
// CHECK: %[[ACC:.*]] = linalg.fill ins(%[[INIT_VALUE]] : f32)
// CHECK-NEXT: %[[WINDOW:.*]] = tensor.empty() : tensor<3x3xf32>
// CHECK-NEXT: linalg.pooling_nchw_max {dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>}
// CHECK-SAME: ins(%[[PADDED]], %[[WINDOW]] : tensor<1x2x9x9xf32>, tensor<3x3xf32>) outs(%[[ACC]] : tensor<1x2x4x4xf32>)
func.func @max_pool_nchw(%x: tensor<1x2x8x8xf32>) -> tensor<1x2x4x4xf32> {
  %0 = "mlc.max_pool2d"(%x) {kernel = array<i64: 3, 3>, stride = array<i64: 2, 2>, padding = array<i64: 1, 1, 1, 1>, dilation = array<i64: 1, 1>, ceil_mode = false, layout = "NCHW"} : (tensor<1x2x8x8xf32>) -> tensor<1x2x4x4xf32>
  return %0 : tensor<1x2x4x4xf32>
}

// -----

/// ceil_mode grows the bottom/right padding until the last window fits.

// CHECK-LABEL: func.func @max_pool_nhwc_ceil
// CHECK: tensor.pad %{{.*}} low[0, 0, 0, 0] high[0, 1, 1, 0]
// CHECK: } : tensor<1x8x8x2xf32> to tensor<1x9x9x2xf32>
// CHECK: linalg.pooling_nhwc_max {{.*}} outs(%{{.*}} : tensor<1x4x4x2xf32>)
func.func @max_pool_nhwc_ceil(%x: tensor<1x8x8x2xf32>) -> tensor<1x4x4x2xf32> {
  %0 = "mlc.max_pool2d"(%x) {kernel = array<i64: 3, 3>, stride = array<i64: 2, 2>, padding = array<i64: 0, 0, 0, 0>, dilation = array<i64: 1, 1>, ceil_mode = true, layout = "NHWC"} : (tensor<1x8x8x2xf32>) -> tensor<1x4x4x2xf32>
  return %0 : tensor<1x4x4x2xf32>
}

// -----

/// Average pooling sums, then divides; with equal windows by one constant.

// CHECK-LABEL: func.func @avg_pool_nhwc
// CHECK: %[[SUM:.*]] = linalg.pooling_nhwc_sum {{.*}} -> tensor<1x4x4x2xf32>
// CHECK: %[[COUNT:.*]] = arith.constant 4.000000e+00 : f32
// CHECK-NEXT: linalg.generic {{.*}} ins(%[[SUM]] : tensor<1x4x4x2xf32>)
// CHECK-NEXT: ^bb0(%[[S:.*]]: f32, %{{.*}}: f32):
// CHECK-NEXT: arith.divf %[[S]], %[[COUNT]] : f32
func.func @avg_pool_nhwc(%x: tensor<1x8x8x2xf32>) -> tensor<1x4x4x2xf32> {
  %0 = "mlc.avg_pool2d"(%x) {kernel = array<i64: 2, 2>, stride = array<i64: 2, 2>, padding = array<i64: 0, 0, 0, 0>, ceil_mode = false, count_include_pad = true, layout = "NHWC"} : (tensor<1x8x8x2xf32>) -> tensor<1x4x4x2xf32>
  return %0 : tensor<1x4x4x2xf32>
}

// -----

/// Without count_include_pad, border windows divide by what lies inside the
/// input: per-row and per-column counts, multiplied.

// CHECK-DAG: #[[$ID:.*]] = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
// CHECK-DAG: #[[$H:.*]] = affine_map<(d0, d1, d2, d3) -> (d2)>
// CHECK-DAG: #[[$W:.*]] = affine_map<(d0, d1, d2, d3) -> (d3)>
// CHECK-LABEL: func.func @avg_pool_exclude_pad
// CHECK: %[[SUM:.*]] = linalg.pooling_nchw_sum
// CHECK: %[[ROWS:.*]] = arith.constant dense<[2.000000e+00, 3.000000e+00, 3.000000e+00, 2.000000e+00]> : tensor<4xf32>
// CHECK-NEXT: %[[COLS:.*]] = arith.constant dense<[2.000000e+00, 3.000000e+00, 3.000000e+00, 2.000000e+00]> : tensor<4xf32>
// CHECK-NEXT: linalg.generic {indexing_maps = [#[[$ID]], #[[$H]], #[[$W]], #[[$ID]]]
// CHECK-SAME: ins(%[[SUM]], %[[ROWS]], %[[COLS]] :
// CHECK-NEXT: ^bb0(%[[S:.*]]: f32, %[[R:.*]]: f32, %[[C:.*]]: f32, %{{.*}}: f32):
// CHECK-NEXT: %[[COUNT:.*]] = arith.mulf %[[R]], %[[C]]
// CHECK-NEXT: arith.divf %[[S]], %[[COUNT]]
func.func @avg_pool_exclude_pad(%x: tensor<1x2x7x7xf32>) -> tensor<1x2x4x4xf32> {
  %0 = "mlc.avg_pool2d"(%x) {kernel = array<i64: 3, 3>, stride = array<i64: 2, 2>, padding = array<i64: 1, 1, 1, 1>, ceil_mode = false, count_include_pad = false, layout = "NCHW"} : (tensor<1x2x7x7xf32>) -> tensor<1x2x4x4xf32>
  return %0 : tensor<1x2x4x4xf32>
}

// -----

/// With count_include_pad and ceil_mode, the window is clipped to the padded
/// input (not to the extra ceil padding), as torch does: the last row and
/// column of windows count 2 x 3 and 3 x 2 elements.

// CHECK-LABEL: func.func @avg_pool_ceil_include_pad
// CHECK: tensor.pad %{{.*}} low[0, 0, 1, 1] high[0, 0, 2, 2]
// CHECK: %[[ROWS:.*]] = arith.constant dense<[3.000000e+00, 3.000000e+00, 3.000000e+00, 3.000000e+00, 2.000000e+00]> : tensor<5xf32>
// CHECK-NEXT: %[[COLS:.*]] = arith.constant dense<[3.000000e+00, 3.000000e+00, 3.000000e+00, 3.000000e+00, 2.000000e+00]> : tensor<5xf32>
// CHECK-NEXT: linalg.generic {{.*}} ins(%{{.*}}, %[[ROWS]], %[[COLS]] :
func.func @avg_pool_ceil_include_pad(%x: tensor<1x2x8x8xf32>) -> tensor<1x2x5x5xf32> {
  %0 = "mlc.avg_pool2d"(%x) {kernel = array<i64: 3, 3>, stride = array<i64: 2, 2>, padding = array<i64: 1, 1, 1, 1>, ceil_mode = true, count_include_pad = true, layout = "NCHW"} : (tensor<1x2x8x8xf32>) -> tensor<1x2x5x5xf32>
  return %0 : tensor<1x2x5x5xf32>
}

// -----

/// Trailing input columns no window reads are cut: here one window of 3 over 4
/// columns. (IREE 3.13 folds the unit output dimension as if the input had the
/// window's extent and emitted an invalid linalg.generic; a random program found it.)

// CHECK-LABEL: func.func @avg_pool_unread_columns
// CHECK: %[[READ:.*]] = tensor.extract_slice %{{.*}}[0, 0, 0, 0] [2, 5, 1, 3] [1, 1, 1, 1] : tensor<2x5x1x4xf32> to tensor<2x5x1x3xf32>
// CHECK: linalg.pooling_nchw_sum {{.*}} ins(%[[READ]], %{{.*}} : tensor<2x5x1x3xf32>, tensor<1x3xf32>)
func.func @avg_pool_unread_columns(%x: tensor<2x5x1x4xf32>) -> tensor<2x5x1x1xf32> {
  %0 = "mlc.avg_pool2d"(%x) {kernel = array<i64: 1, 3>, stride = array<i64: 1, 3>, padding = array<i64: 0, 0, 0, 0>, ceil_mode = false, count_include_pad = true, layout = "NCHW"} : (tensor<2x5x1x4xf32>) -> tensor<2x5x1x1xf32>
  return %0 : tensor<2x5x1x1xf32>
}

// -----

/// Named linalg ops already present are left alone.

// CHECK-LABEL: func.func @negative_linalg_matmul
// CHECK-NEXT: %[[C:.*]] = linalg.matmul ins(%{{.*}}, %{{.*}} : tensor<4x5xf32>, tensor<5x3xf32>) outs(%{{.*}} : tensor<4x3xf32>)
// CHECK-NEXT: return %[[C]]
func.func @negative_linalg_matmul(%a: tensor<4x5xf32>, %b: tensor<5x3xf32>, %c: tensor<4x3xf32>) -> tensor<4x3xf32> {
  %0 = linalg.matmul ins(%a, %b : tensor<4x5xf32>, tensor<5x3xf32>) outs(%c : tensor<4x3xf32>) -> tensor<4x3xf32>
  return %0 : tensor<4x3xf32>
}
