// RUN: mlc-opt %s --split-input-file --verify-diagnostics

func.func @matmul_mixed_element_types(%a: tensor<2x3xf32>, %b: tensor<3x4xf16>) -> tensor<2x4xf32> {
  // expected-error @+1 {{'mlc.matmul' op operands must share one element type, got f32, f16}}
  %0 = "mlc.matmul"(%a, %b) : (tensor<2x3xf32>, tensor<3x4xf16>) -> tensor<2x4xf32>
  return %0 : tensor<2x4xf32>
}

// -----

func.func @matmul_f32_into_f64(%a: tensor<2x3xf32>, %b: tensor<3x4xf32>) -> tensor<2x4xf64> {
  // expected-error @+1 {{'mlc.matmul' op result}}
  %0 = "mlc.matmul"(%a, %b) : (tensor<2x3xf32>, tensor<3x4xf32>) -> tensor<2x4xf64>
  return %0 : tensor<2x4xf64>
}

// -----

func.func @matmul_bf16_into_f16(%a: tensor<2x3xbf16>, %b: tensor<3x4xbf16>) -> tensor<2x4xf16> {
  // expected-error @+1 {{'mlc.matmul' op result}}
  %0 = "mlc.matmul"(%a, %b) : (tensor<2x3xbf16>, tensor<3x4xbf16>) -> tensor<2x4xf16>
  return %0 : tensor<2x4xf16>
}

// -----

func.func @matmul_i8_into_f32(%a: tensor<2x3xi8>, %b: tensor<3x4xi8>) -> tensor<2x4xf32> {
  // expected-error @+1 {{'mlc.matmul' op result}}
  %0 = "mlc.matmul"(%a, %b) : (tensor<2x3xi8>, tensor<3x4xi8>) -> tensor<2x4xf32>
  return %0 : tensor<2x4xf32>
}

// -----

func.func @matmul_unranked(%a: tensor<*xf32>, %b: tensor<3x4xf32>) -> tensor<2x4xf32> {
  // expected-error @+1 {{'mlc.matmul' op operands must be a ranked tensor, got tensor<*xf32>}}
  %0 = "mlc.matmul"(%a, %b) : (tensor<*xf32>, tensor<3x4xf32>) -> tensor<2x4xf32>
  return %0 : tensor<2x4xf32>
}

// -----

func.func @matmul_vector_operand(%a: tensor<3xf32>, %b: tensor<3x4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{'mlc.matmul' op operands must have rank >= 2, got ranks 1 and 2}}
  %0 = "mlc.matmul"(%a, %b) : (tensor<3xf32>, tensor<3x4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

func.func @matmul_contracting_mismatch(%a: tensor<2x3xf32>, %b: tensor<4x5xf32>) -> tensor<2x5xf32> {
  // expected-error @+1 {{'mlc.matmul' op contracting dimensions differ: lhs [2, 3] and rhs [4, 5]}}
  %0 = "mlc.matmul"(%a, %b) : (tensor<2x3xf32>, tensor<4x5xf32>) -> tensor<2x5xf32>
  return %0 : tensor<2x5xf32>
}

// -----

func.func @matmul_batch_mismatch(%a: tensor<2x3x4xf32>, %b: tensor<3x4x5xf32>) -> tensor<2x3x5xf32> {
  // expected-error @+1 {{'mlc.matmul' op batch dimensions [2] and [3] do not broadcast}}
  %0 = "mlc.matmul"(%a, %b) : (tensor<2x3x4xf32>, tensor<3x4x5xf32>) -> tensor<2x3x5xf32>
  return %0 : tensor<2x3x5xf32>
}

// -----

func.func @matmul_wrong_result_shape(%a: tensor<2x1x3x4xf32>, %b: tensor<5x4x6xf32>) -> tensor<2x1x3x6xf32> {
  // expected-error @+1 {{'mlc.matmul' op result has shape [2, 1, 3, 6], expected [2, 5, 3, 6]}}
  %0 = "mlc.matmul"(%a, %b) : (tensor<2x1x3x4xf32>, tensor<5x4x6xf32>) -> tensor<2x1x3x6xf32>
  return %0 : tensor<2x1x3x6xf32>
}

// -----

func.func @matmul_wrong_result_element_type(%a: tensor<2x3xi16>, %b: tensor<3x4xi16>) -> tensor<2x4xi32> {
  // expected-error @+1 {{'mlc.matmul' op result has element type i32, expected i16}}
  %0 = "mlc.matmul"(%a, %b) : (tensor<2x3xi16>, tensor<3x4xi16>) -> tensor<2x4xi32>
  return %0 : tensor<2x4xi32>
}

// -----

func.func @matmul_unranked_result(%a: tensor<2x3xf32>, %b: tensor<3x4xf32>) -> tensor<*xf32> {
  // expected-error @+1 {{'mlc.matmul' op result must be a ranked tensor, got tensor<*xf32>}}
  %0 = "mlc.matmul"(%a, %b) : (tensor<2x3xf32>, tensor<3x4xf32>) -> tensor<*xf32>
  return %0 : tensor<*xf32>
}

// -----

func.func @conv2d_missing_groups(%x: tensor<1x3x8x8xf32>, %w: tensor<4x3x3x3xf32>) -> tensor<1x4x6x6xf32> {
  // expected-error @+1 {{'mlc.conv2d' op requires attribute 'groups'}}
  %0 = "mlc.conv2d"(%x, %w) {dilation = array<i64: 1, 1>, layout = "NCHW", padding = array<i64: 0, 0, 0, 0>, stride = array<i64: 1, 1>} : (tensor<1x3x8x8xf32>, tensor<4x3x3x3xf32>) -> tensor<1x4x6x6xf32>
  return %0 : tensor<1x4x6x6xf32>
}

// -----

func.func @conv2d_bad_layout(%x: tensor<1x3x8x8xf32>, %w: tensor<4x3x3x3xf32>) -> tensor<1x4x6x6xf32> {
  // expected-error @+1 {{'mlc.conv2d' op attribute 'layout' must be one of 'NCHW', 'NHWC', got "CHWN"}}
  %0 = "mlc.conv2d"(%x, %w) {dilation = array<i64: 1, 1>, groups = 1 : i64, layout = "CHWN", padding = array<i64: 0, 0, 0, 0>, stride = array<i64: 1, 1>} : (tensor<1x3x8x8xf32>, tensor<4x3x3x3xf32>) -> tensor<1x4x6x6xf32>
  return %0 : tensor<1x4x6x6xf32>
}

// -----

func.func @conv2d_stride_not_i64_array(%x: tensor<1x3x8x8xf32>, %w: tensor<4x3x3x3xf32>) -> tensor<1x4x6x6xf32> {
  // expected-error @+1 {{'mlc.conv2d' op attribute 'stride' must be an array<i64>, got [1, 1]}}
  %0 = "mlc.conv2d"(%x, %w) {dilation = array<i64: 1, 1>, groups = 1 : i64, layout = "NCHW", padding = array<i64: 0, 0, 0, 0>, stride = [1, 1]} : (tensor<1x3x8x8xf32>, tensor<4x3x3x3xf32>) -> tensor<1x4x6x6xf32>
  return %0 : tensor<1x4x6x6xf32>
}

// -----

func.func @conv2d_dilation_i32_array(%x: tensor<1x3x8x8xf32>, %w: tensor<4x3x3x3xf32>) -> tensor<1x4x6x6xf32> {
  // expected-error @+1 {{'mlc.conv2d' op attribute 'dilation' must be an array<i64>, got array<i32: 1, 1>}}
  %0 = "mlc.conv2d"(%x, %w) {dilation = array<i32: 1, 1>, groups = 1 : i64, layout = "NCHW", padding = array<i64: 0, 0, 0, 0>, stride = array<i64: 1, 1>} : (tensor<1x3x8x8xf32>, tensor<4x3x3x3xf32>) -> tensor<1x4x6x6xf32>
  return %0 : tensor<1x4x6x6xf32>
}

// -----

func.func @conv2d_padding_two_values(%x: tensor<1x3x8x8xf32>, %w: tensor<4x3x3x3xf32>) -> tensor<1x4x8x8xf32> {
  // expected-error @+1 {{'mlc.conv2d' op attribute 'padding' must have 4 elements, got 2}}
  %0 = "mlc.conv2d"(%x, %w) {dilation = array<i64: 1, 1>, groups = 1 : i64, layout = "NCHW", padding = array<i64: 1, 1>, stride = array<i64: 1, 1>} : (tensor<1x3x8x8xf32>, tensor<4x3x3x3xf32>) -> tensor<1x4x8x8xf32>
  return %0 : tensor<1x4x8x8xf32>
}

// -----

func.func @conv2d_stride_three_values(%x: tensor<1x3x8x8xf32>, %w: tensor<4x3x3x3xf32>) -> tensor<1x4x6x6xf32> {
  // expected-error @+1 {{'mlc.conv2d' op attribute 'stride' must have 2 elements, got 3}}
  %0 = "mlc.conv2d"(%x, %w) {dilation = array<i64: 1, 1>, groups = 1 : i64, layout = "NCHW", padding = array<i64: 0, 0, 0, 0>, stride = array<i64: 1, 1, 1>} : (tensor<1x3x8x8xf32>, tensor<4x3x3x3xf32>) -> tensor<1x4x6x6xf32>
  return %0 : tensor<1x4x6x6xf32>
}

// -----

func.func @conv2d_zero_stride(%x: tensor<1x3x8x8xf32>, %w: tensor<4x3x3x3xf32>) -> tensor<1x4x6x6xf32> {
  // expected-error @+1 {{'mlc.conv2d' op stride and dilation must be positive}}
  %0 = "mlc.conv2d"(%x, %w) {dilation = array<i64: 1, 1>, groups = 1 : i64, layout = "NCHW", padding = array<i64: 0, 0, 0, 0>, stride = array<i64: 1, 0>} : (tensor<1x3x8x8xf32>, tensor<4x3x3x3xf32>) -> tensor<1x4x6x6xf32>
  return %0 : tensor<1x4x6x6xf32>
}

// -----

func.func @conv2d_zero_dilation(%x: tensor<1x3x8x8xf32>, %w: tensor<4x3x3x3xf32>) -> tensor<1x4x6x6xf32> {
  // expected-error @+1 {{'mlc.conv2d' op stride and dilation must be positive}}
  %0 = "mlc.conv2d"(%x, %w) {dilation = array<i64: 0, 1>, groups = 1 : i64, layout = "NCHW", padding = array<i64: 0, 0, 0, 0>, stride = array<i64: 1, 1>} : (tensor<1x3x8x8xf32>, tensor<4x3x3x3xf32>) -> tensor<1x4x6x6xf32>
  return %0 : tensor<1x4x6x6xf32>
}

// -----

func.func @conv2d_negative_padding(%x: tensor<1x3x8x8xf32>, %w: tensor<4x3x3x3xf32>) -> tensor<1x4x5x6xf32> {
  // expected-error @+1 {{'mlc.conv2d' op padding must not be negative, got [0, -1, 0, 0]}}
  %0 = "mlc.conv2d"(%x, %w) {dilation = array<i64: 1, 1>, groups = 1 : i64, layout = "NCHW", padding = array<i64: 0, -1, 0, 0>, stride = array<i64: 1, 1>} : (tensor<1x3x8x8xf32>, tensor<4x3x3x3xf32>) -> tensor<1x4x5x6xf32>
  return %0 : tensor<1x4x5x6xf32>
}

// -----

func.func @conv2d_float_groups(%x: tensor<1x3x8x8xf32>, %w: tensor<4x3x3x3xf32>) -> tensor<1x4x6x6xf32> {
  // expected-error @+1 {{'mlc.conv2d' op attribute 'groups' must be an integer, got 1.000000e+00 : f32}}
  %0 = "mlc.conv2d"(%x, %w) {dilation = array<i64: 1, 1>, groups = 1.0 : f32, layout = "NCHW", padding = array<i64: 0, 0, 0, 0>, stride = array<i64: 1, 1>} : (tensor<1x3x8x8xf32>, tensor<4x3x3x3xf32>) -> tensor<1x4x6x6xf32>
  return %0 : tensor<1x4x6x6xf32>
}

// -----

func.func @conv2d_mixed_element_types(%x: tensor<1x3x8x8xf32>, %w: tensor<4x3x3x3xf32>, %b: tensor<4xf16>) -> tensor<1x4x6x6xf32> {
  // expected-error @+1 {{'mlc.conv2d' op input, weight and bias must share one element type, got f32, f16}}
  %0 = "mlc.conv2d"(%x, %w, %b) {dilation = array<i64: 1, 1>, groups = 1 : i64, layout = "NCHW", padding = array<i64: 0, 0, 0, 0>, stride = array<i64: 1, 1>} : (tensor<1x3x8x8xf32>, tensor<4x3x3x3xf32>, tensor<4xf16>) -> tensor<1x4x6x6xf32>
  return %0 : tensor<1x4x6x6xf32>
}

// -----

func.func @conv2d_unranked_weight(%x: tensor<1x3x8x8xf32>, %w: tensor<*xf32>) -> tensor<1x4x6x6xf32> {
  // expected-error @+1 {{'mlc.conv2d' op input, weight and bias must be a ranked tensor, got tensor<*xf32>}}
  %0 = "mlc.conv2d"(%x, %w) {dilation = array<i64: 1, 1>, groups = 1 : i64, layout = "NCHW", padding = array<i64: 0, 0, 0, 0>, stride = array<i64: 1, 1>} : (tensor<1x3x8x8xf32>, tensor<*xf32>) -> tensor<1x4x6x6xf32>
  return %0 : tensor<1x4x6x6xf32>
}

// -----

func.func @conv2d_rank_3_input(%x: tensor<3x8x8xf32>, %w: tensor<4x3x3x3xf32>) -> tensor<4x6x6xf32> {
  // expected-error @+1 {{'mlc.conv2d' op input and weight must have rank 4, got 3 and 4}}
  %0 = "mlc.conv2d"(%x, %w) {dilation = array<i64: 1, 1>, groups = 1 : i64, layout = "NCHW", padding = array<i64: 0, 0, 0, 0>, stride = array<i64: 1, 1>} : (tensor<3x8x8xf32>, tensor<4x3x3x3xf32>) -> tensor<4x6x6xf32>
  return %0 : tensor<4x6x6xf32>
}

// -----

func.func @conv2d_zero_groups(%x: tensor<1x3x8x8xf32>, %w: tensor<4x3x3x3xf32>) -> tensor<1x4x6x6xf32> {
  // expected-error @+1 {{'mlc.conv2d' op groups 0 must divide input channels 3 and output channels 4}}
  %0 = "mlc.conv2d"(%x, %w) {dilation = array<i64: 1, 1>, groups = 0 : i64, layout = "NCHW", padding = array<i64: 0, 0, 0, 0>, stride = array<i64: 1, 1>} : (tensor<1x3x8x8xf32>, tensor<4x3x3x3xf32>) -> tensor<1x4x6x6xf32>
  return %0 : tensor<1x4x6x6xf32>
}

// -----

func.func @conv2d_groups_do_not_divide_input_channels(%x: tensor<1x3x8x8xf32>, %w: tensor<4x1x3x3xf32>) -> tensor<1x4x6x6xf32> {
  // expected-error @+1 {{'mlc.conv2d' op groups 2 must divide input channels 3 and output channels 4}}
  %0 = "mlc.conv2d"(%x, %w) {dilation = array<i64: 1, 1>, groups = 2 : i64, layout = "NCHW", padding = array<i64: 0, 0, 0, 0>, stride = array<i64: 1, 1>} : (tensor<1x3x8x8xf32>, tensor<4x1x3x3xf32>) -> tensor<1x4x6x6xf32>
  return %0 : tensor<1x4x6x6xf32>
}

// -----

func.func @conv2d_groups_do_not_divide_filters(%x: tensor<1x4x8x8xf32>, %w: tensor<3x2x3x3xf32>) -> tensor<1x3x6x6xf32> {
  // expected-error @+1 {{'mlc.conv2d' op groups 2 must divide input channels 4 and output channels 3}}
  %0 = "mlc.conv2d"(%x, %w) {dilation = array<i64: 1, 1>, groups = 2 : i64, layout = "NCHW", padding = array<i64: 0, 0, 0, 0>, stride = array<i64: 1, 1>} : (tensor<1x4x8x8xf32>, tensor<3x2x3x3xf32>) -> tensor<1x3x6x6xf32>
  return %0 : tensor<1x3x6x6xf32>
}

// -----

/// Dynamic input channels print as '?'.

func.func @conv2d_groups_do_not_divide_filters_dynamic_channels(%x: tensor<1x?x8x8xf32>, %w: tensor<4x1x3x3xf32>) -> tensor<1x4x6x6xf32> {
  // expected-error @+1 {{'mlc.conv2d' op groups 3 must divide input channels ? and output channels 4}}
  %0 = "mlc.conv2d"(%x, %w) {dilation = array<i64: 1, 1>, groups = 3 : i64, layout = "NCHW", padding = array<i64: 0, 0, 0, 0>, stride = array<i64: 1, 1>} : (tensor<1x?x8x8xf32>, tensor<4x1x3x3xf32>) -> tensor<1x4x6x6xf32>
  return %0 : tensor<1x4x6x6xf32>
}

// -----

func.func @conv2d_channel_mismatch(%x: tensor<1x3x8x8xf32>, %w: tensor<4x2x3x3xf32>) -> tensor<1x4x6x6xf32> {
  // expected-error @+1 {{'mlc.conv2d' op input has 3 channels but weight expects 2 (2 per group x 1 groups)}}
  %0 = "mlc.conv2d"(%x, %w) {dilation = array<i64: 1, 1>, groups = 1 : i64, layout = "NCHW", padding = array<i64: 0, 0, 0, 0>, stride = array<i64: 1, 1>} : (tensor<1x3x8x8xf32>, tensor<4x2x3x3xf32>) -> tensor<1x4x6x6xf32>
  return %0 : tensor<1x4x6x6xf32>
}

// -----

/// Depthwise with a full-depth weight: 8 groups of 8 channels would need 64.

func.func @conv2d_depthwise_channel_mismatch(%x: tensor<1x8x8x8xf32>, %w: tensor<8x8x3x3xf32>) -> tensor<1x8x6x6xf32> {
  // expected-error @+1 {{'mlc.conv2d' op input has 8 channels but weight expects 64 (8 per group x 8 groups)}}
  %0 = "mlc.conv2d"(%x, %w) {dilation = array<i64: 1, 1>, groups = 8 : i64, layout = "NCHW", padding = array<i64: 0, 0, 0, 0>, stride = array<i64: 1, 1>} : (tensor<1x8x8x8xf32>, tensor<8x8x3x3xf32>) -> tensor<1x8x6x6xf32>
  return %0 : tensor<1x8x6x6xf32>
}

// -----

/// An NCHW weight used with NHWC: the weight reads as KH=4, KW=3, C=3, F=3.

func.func @conv2d_nhwc_with_nchw_weight(%x: tensor<1x8x8x3xf32>, %w: tensor<4x3x3x3xf32>) -> tensor<1x6x6x4xf32> {
  // expected-error @+1 {{'mlc.conv2d' op result has shape [1, 6, 6, 4], expected [1, 5, 6, 3]}}
  %0 = "mlc.conv2d"(%x, %w) {dilation = array<i64: 1, 1>, groups = 1 : i64, layout = "NHWC", padding = array<i64: 0, 0, 0, 0>, stride = array<i64: 1, 1>} : (tensor<1x8x8x3xf32>, tensor<4x3x3x3xf32>) -> tensor<1x6x6x4xf32>
  return %0 : tensor<1x6x6x4xf32>
}

// -----

func.func @conv2d_bias_shape(%x: tensor<1x3x8x8xf32>, %w: tensor<4x3x3x3xf32>, %b: tensor<3xf32>) -> tensor<1x4x6x6xf32> {
  // expected-error @+1 {{'mlc.conv2d' op bias has shape [3], expected [4]}}
  %0 = "mlc.conv2d"(%x, %w, %b) {dilation = array<i64: 1, 1>, groups = 1 : i64, layout = "NCHW", padding = array<i64: 0, 0, 0, 0>, stride = array<i64: 1, 1>} : (tensor<1x3x8x8xf32>, tensor<4x3x3x3xf32>, tensor<3xf32>) -> tensor<1x4x6x6xf32>
  return %0 : tensor<1x4x6x6xf32>
}

// -----

func.func @conv2d_kernel_larger_than_input(%x: tensor<1x3x4x4xf32>, %w: tensor<4x3x5x5xf32>) -> tensor<1x4x1x1xf32> {
  // expected-error @+1 {{'mlc.conv2d' op window of size 5 (dilation 1) does not fit input size 4 with padding}}
  %0 = "mlc.conv2d"(%x, %w) {dilation = array<i64: 1, 1>, groups = 1 : i64, layout = "NCHW", padding = array<i64: 0, 0, 0, 0>, stride = array<i64: 1, 1>} : (tensor<1x3x4x4xf32>, tensor<4x3x5x5xf32>) -> tensor<1x4x1x1xf32>
  return %0 : tensor<1x4x1x1xf32>
}

// -----

/// Dilation 3 makes a 3-wide kernel span 7, wider than 6.

func.func @conv2d_dilated_kernel_too_wide(%x: tensor<1x3x8x6xf32>, %w: tensor<4x3x3x3xf32>) -> tensor<1x4x2x1xf32> {
  // expected-error @+1 {{'mlc.conv2d' op window of size 3 (dilation 3) does not fit input size 6 with padding}}
  %0 = "mlc.conv2d"(%x, %w) {dilation = array<i64: 3, 3>, groups = 1 : i64, layout = "NCHW", padding = array<i64: 0, 0, 0, 0>, stride = array<i64: 1, 1>} : (tensor<1x3x8x6xf32>, tensor<4x3x3x3xf32>) -> tensor<1x4x2x1xf32>
  return %0 : tensor<1x4x2x1xf32>
}

// -----

/// Stride 2 and padding 1 on 8x8 give 4x4, not 3x3 (no ceil/floor confusion).

func.func @conv2d_wrong_result_shape(%x: tensor<1x3x8x8xf32>, %w: tensor<4x3x3x3xf32>) -> tensor<1x4x3x3xf32> {
  // expected-error @+1 {{'mlc.conv2d' op result has shape [1, 4, 3, 3], expected [1, 4, 4, 4]}}
  %0 = "mlc.conv2d"(%x, %w) {dilation = array<i64: 1, 1>, groups = 1 : i64, layout = "NCHW", padding = array<i64: 1, 1, 1, 1>, stride = array<i64: 2, 2>} : (tensor<1x3x8x8xf32>, tensor<4x3x3x3xf32>) -> tensor<1x4x3x3xf32>
  return %0 : tensor<1x4x3x3xf32>
}

// -----

func.func @conv2d_wrong_result_element_type(%x: tensor<1x3x8x8xf16>, %w: tensor<4x3x3x3xf16>) -> tensor<1x4x6x6xf32> {
  // expected-error @+1 {{'mlc.conv2d' op result has element type f32, expected f16}}
  %0 = "mlc.conv2d"(%x, %w) {dilation = array<i64: 1, 1>, groups = 1 : i64, layout = "NCHW", padding = array<i64: 0, 0, 0, 0>, stride = array<i64: 1, 1>} : (tensor<1x3x8x8xf16>, tensor<4x3x3x3xf16>) -> tensor<1x4x6x6xf32>
  return %0 : tensor<1x4x6x6xf32>
}

// -----

func.func @max_pool2d_missing_ceil_mode(%x: tensor<1x3x8x8xf32>) -> tensor<1x3x4x4xf32> {
  // expected-error @+1 {{'mlc.max_pool2d' op requires attribute 'ceil_mode'}}
  %0 = "mlc.max_pool2d"(%x) {dilation = array<i64: 1, 1>, kernel = array<i64: 2, 2>, layout = "NCHW", padding = array<i64: 0, 0, 0, 0>, stride = array<i64: 2, 2>} : (tensor<1x3x8x8xf32>) -> tensor<1x3x4x4xf32>
  return %0 : tensor<1x3x4x4xf32>
}

// -----

func.func @max_pool2d_bad_layout(%x: tensor<1x3x8x8xf32>) -> tensor<1x3x4x4xf32> {
  // expected-error @+1 {{'mlc.max_pool2d' op attribute 'layout' must be one of 'NCHW', 'NHWC', got "nchw"}}
  %0 = "mlc.max_pool2d"(%x) {ceil_mode = false, dilation = array<i64: 1, 1>, kernel = array<i64: 2, 2>, layout = "nchw", padding = array<i64: 0, 0, 0, 0>, stride = array<i64: 2, 2>} : (tensor<1x3x8x8xf32>) -> tensor<1x3x4x4xf32>
  return %0 : tensor<1x3x4x4xf32>
}

// -----

func.func @max_pool2d_kernel_one_value(%x: tensor<1x3x8x8xf32>) -> tensor<1x3x4x4xf32> {
  // expected-error @+1 {{'mlc.max_pool2d' op attribute 'kernel' must have 2 elements, got 1}}
  %0 = "mlc.max_pool2d"(%x) {ceil_mode = false, dilation = array<i64: 1, 1>, kernel = array<i64: 2>, layout = "NCHW", padding = array<i64: 0, 0, 0, 0>, stride = array<i64: 2, 2>} : (tensor<1x3x8x8xf32>) -> tensor<1x3x4x4xf32>
  return %0 : tensor<1x3x4x4xf32>
}

// -----

func.func @max_pool2d_kernel_not_i64_array(%x: tensor<1x3x8x8xf32>) -> tensor<1x3x4x4xf32> {
  // expected-error @+1 {{'mlc.max_pool2d' op attribute 'kernel' must be an array<i64>, got 2 : i64}}
  %0 = "mlc.max_pool2d"(%x) {ceil_mode = false, dilation = array<i64: 1, 1>, kernel = 2 : i64, layout = "NCHW", padding = array<i64: 0, 0, 0, 0>, stride = array<i64: 2, 2>} : (tensor<1x3x8x8xf32>) -> tensor<1x3x4x4xf32>
  return %0 : tensor<1x3x4x4xf32>
}

// -----

func.func @max_pool2d_dilation_one_value(%x: tensor<1x3x8x8xf32>) -> tensor<1x3x4x4xf32> {
  // expected-error @+1 {{'mlc.max_pool2d' op attribute 'dilation' must have 2 elements, got 1}}
  %0 = "mlc.max_pool2d"(%x) {ceil_mode = false, dilation = array<i64: 1>, kernel = array<i64: 2, 2>, layout = "NCHW", padding = array<i64: 0, 0, 0, 0>, stride = array<i64: 2, 2>} : (tensor<1x3x8x8xf32>) -> tensor<1x3x4x4xf32>
  return %0 : tensor<1x3x4x4xf32>
}

// -----

func.func @max_pool2d_zero_stride(%x: tensor<1x3x8x8xf32>) -> tensor<1x3x4x4xf32> {
  // expected-error @+1 {{'mlc.max_pool2d' op stride and dilation must be positive}}
  %0 = "mlc.max_pool2d"(%x) {ceil_mode = false, dilation = array<i64: 1, 1>, kernel = array<i64: 2, 2>, layout = "NCHW", padding = array<i64: 0, 0, 0, 0>, stride = array<i64: 0, 2>} : (tensor<1x3x8x8xf32>) -> tensor<1x3x4x4xf32>
  return %0 : tensor<1x3x4x4xf32>
}

// -----

func.func @max_pool2d_negative_padding(%x: tensor<1x3x8x8xf32>) -> tensor<1x3x4x4xf32> {
  // expected-error @+1 {{'mlc.max_pool2d' op padding must not be negative, got [0, 0, -1, 0]}}
  %0 = "mlc.max_pool2d"(%x) {ceil_mode = false, dilation = array<i64: 1, 1>, kernel = array<i64: 2, 2>, layout = "NCHW", padding = array<i64: 0, 0, -1, 0>, stride = array<i64: 2, 2>} : (tensor<1x3x8x8xf32>) -> tensor<1x3x4x4xf32>
  return %0 : tensor<1x3x4x4xf32>
}

// -----

func.func @max_pool2d_zero_kernel(%x: tensor<1x3x8x8xf32>) -> tensor<1x3x4x4xf32> {
  // expected-error @+1 {{'mlc.max_pool2d' op kernel must be positive, got [2, 0]}}
  %0 = "mlc.max_pool2d"(%x) {ceil_mode = false, dilation = array<i64: 1, 1>, kernel = array<i64: 2, 0>, layout = "NCHW", padding = array<i64: 0, 0, 0, 0>, stride = array<i64: 2, 2>} : (tensor<1x3x8x8xf32>) -> tensor<1x3x4x4xf32>
  return %0 : tensor<1x3x4x4xf32>
}

// -----

/// As torch: padding may be at most half the kernel (here 3 // 2 = 1).

func.func @max_pool2d_padding_over_half_kernel(%x: tensor<1x3x8x8xf32>) -> tensor<1x3x5x5xf32> {
  // expected-error @+1 {{'mlc.max_pool2d' op padding [2, 2, 2, 2] must be at most half the kernel [3, 3]}}
  %0 = "mlc.max_pool2d"(%x) {ceil_mode = false, dilation = array<i64: 1, 1>, kernel = array<i64: 3, 3>, layout = "NCHW", padding = array<i64: 2, 2, 2, 2>, stride = array<i64: 2, 2>} : (tensor<1x3x8x8xf32>) -> tensor<1x3x5x5xf32>
  return %0 : tensor<1x3x5x5xf32>
}

// -----

/// The rule holds for the bottom and right padding too: with 2x2 windows,
/// stride 2 and 3 rows of bottom padding on 4 rows, the third window (rows 4
/// and 5) would lie wholly in the padding.

func.func @max_pool2d_bottom_padding_over_half_kernel(%x: tensor<1x3x4x4xf32>) -> tensor<1x3x3x2xf32> {
  // expected-error @+1 {{'mlc.max_pool2d' op padding [0, 3, 0, 0] must be at most half the kernel [2, 2]}}
  %0 = "mlc.max_pool2d"(%x) {ceil_mode = false, dilation = array<i64: 1, 1>, kernel = array<i64: 2, 2>, layout = "NCHW", padding = array<i64: 0, 3, 0, 0>, stride = array<i64: 2, 2>} : (tensor<1x3x4x4xf32>) -> tensor<1x3x3x2xf32>
  return %0 : tensor<1x3x3x2xf32>
}

// -----

func.func @max_pool2d_integer_ceil_mode(%x: tensor<1x3x8x8xf32>) -> tensor<1x3x4x4xf32> {
  // expected-error @+1 {{'mlc.max_pool2d' op attribute 'ceil_mode' must be a bool, got 0 : i64}}
  %0 = "mlc.max_pool2d"(%x) {ceil_mode = 0 : i64, dilation = array<i64: 1, 1>, kernel = array<i64: 2, 2>, layout = "NCHW", padding = array<i64: 0, 0, 0, 0>, stride = array<i64: 2, 2>} : (tensor<1x3x8x8xf32>) -> tensor<1x3x4x4xf32>
  return %0 : tensor<1x3x4x4xf32>
}

// -----

func.func @max_pool2d_unranked(%x: tensor<*xf32>) -> tensor<1x3x4x4xf32> {
  // expected-error @+1 {{'mlc.max_pool2d' op input must be a ranked tensor, got tensor<*xf32>}}
  %0 = "mlc.max_pool2d"(%x) {ceil_mode = false, dilation = array<i64: 1, 1>, kernel = array<i64: 2, 2>, layout = "NCHW", padding = array<i64: 0, 0, 0, 0>, stride = array<i64: 2, 2>} : (tensor<*xf32>) -> tensor<1x3x4x4xf32>
  return %0 : tensor<1x3x4x4xf32>
}

// -----

func.func @max_pool2d_rank_3(%x: tensor<3x8x8xf32>) -> tensor<3x4x4xf32> {
  // expected-error @+1 {{'mlc.max_pool2d' op input must have rank 4, got 3}}
  %0 = "mlc.max_pool2d"(%x) {ceil_mode = false, dilation = array<i64: 1, 1>, kernel = array<i64: 2, 2>, layout = "NCHW", padding = array<i64: 0, 0, 0, 0>, stride = array<i64: 2, 2>} : (tensor<3x8x8xf32>) -> tensor<3x4x4xf32>
  return %0 : tensor<3x4x4xf32>
}

// -----

func.func @max_pool2d_window_too_large(%x: tensor<1x3x2x8xf32>) -> tensor<1x3x1x3xf32> {
  // expected-error @+1 {{'mlc.max_pool2d' op window of size 3 (dilation 1) does not fit input size 2 with padding}}
  %0 = "mlc.max_pool2d"(%x) {ceil_mode = false, dilation = array<i64: 1, 1>, kernel = array<i64: 3, 3>, layout = "NCHW", padding = array<i64: 0, 0, 0, 0>, stride = array<i64: 2, 2>} : (tensor<1x3x2x8xf32>) -> tensor<1x3x1x3xf32>
  return %0 : tensor<1x3x1x3xf32>
}

// -----

/// Without ceil_mode the partial last window is dropped: 7x7 gives 3x3.

func.func @max_pool2d_floor_mode_result(%x: tensor<1x3x7x7xf32>) -> tensor<1x3x4x4xf32> {
  // expected-error @+1 {{'mlc.max_pool2d' op result has shape [1, 3, 4, 4], expected [1, 3, 3, 3]}}
  %0 = "mlc.max_pool2d"(%x) {ceil_mode = false, dilation = array<i64: 1, 1>, kernel = array<i64: 2, 2>, layout = "NCHW", padding = array<i64: 0, 0, 0, 0>, stride = array<i64: 2, 2>} : (tensor<1x3x7x7xf32>) -> tensor<1x3x4x4xf32>
  return %0 : tensor<1x3x4x4xf32>
}

// -----

/// With ceil_mode, a last window starting in the right padding is dropped: 3x3, not 4x4.

func.func @max_pool2d_ceil_mode_window_in_padding(%x: tensor<1x3x5x5xf32>) -> tensor<1x3x4x4xf32> {
  // expected-error @+1 {{'mlc.max_pool2d' op result has shape [1, 3, 4, 4], expected [1, 3, 3, 3]}}
  %0 = "mlc.max_pool2d"(%x) {ceil_mode = true, dilation = array<i64: 1, 1>, kernel = array<i64: 2, 2>, layout = "NCHW", padding = array<i64: 1, 1, 1, 1>, stride = array<i64: 2, 2>} : (tensor<1x3x5x5xf32>) -> tensor<1x3x4x4xf32>
  return %0 : tensor<1x3x4x4xf32>
}

// -----

/// NHWC keeps channels last.

func.func @max_pool2d_nhwc_channels_first_result(%x: tensor<1x8x8x3xf32>) -> tensor<1x3x4x4xf32> {
  // expected-error @+1 {{'mlc.max_pool2d' op result has shape [1, 3, 4, 4], expected [1, 4, 4, 3]}}
  %0 = "mlc.max_pool2d"(%x) {ceil_mode = false, dilation = array<i64: 1, 1>, kernel = array<i64: 2, 2>, layout = "NHWC", padding = array<i64: 0, 0, 0, 0>, stride = array<i64: 2, 2>} : (tensor<1x8x8x3xf32>) -> tensor<1x3x4x4xf32>
  return %0 : tensor<1x3x4x4xf32>
}

// -----

func.func @max_pool2d_wrong_result_element_type(%x: tensor<1x3x8x8xf32>) -> tensor<1x3x4x4xf16> {
  // expected-error @+1 {{'mlc.max_pool2d' op result has element type f16, expected f32}}
  %0 = "mlc.max_pool2d"(%x) {ceil_mode = false, dilation = array<i64: 1, 1>, kernel = array<i64: 2, 2>, layout = "NCHW", padding = array<i64: 0, 0, 0, 0>, stride = array<i64: 2, 2>} : (tensor<1x3x8x8xf32>) -> tensor<1x3x4x4xf16>
  return %0 : tensor<1x3x4x4xf16>
}

// -----

func.func @avg_pool2d_missing_count_include_pad(%x: tensor<1x3x8x8xf32>) -> tensor<1x3x4x4xf32> {
  // expected-error @+1 {{'mlc.avg_pool2d' op requires attribute 'count_include_pad'}}
  %0 = "mlc.avg_pool2d"(%x) {ceil_mode = false, kernel = array<i64: 2, 2>, layout = "NCHW", padding = array<i64: 0, 0, 0, 0>, stride = array<i64: 2, 2>} : (tensor<1x3x8x8xf32>) -> tensor<1x3x4x4xf32>
  return %0 : tensor<1x3x4x4xf32>
}

// -----

func.func @avg_pool2d_string_count_include_pad(%x: tensor<1x3x8x8xf32>) -> tensor<1x3x4x4xf32> {
  // expected-error @+1 {{'mlc.avg_pool2d' op attribute 'count_include_pad' must be a bool, got "yes"}}
  %0 = "mlc.avg_pool2d"(%x) {ceil_mode = false, count_include_pad = "yes", kernel = array<i64: 2, 2>, layout = "NCHW", padding = array<i64: 0, 0, 0, 0>, stride = array<i64: 2, 2>} : (tensor<1x3x8x8xf32>) -> tensor<1x3x4x4xf32>
  return %0 : tensor<1x3x4x4xf32>
}

// -----

func.func @avg_pool2d_padding_over_half_kernel(%x: tensor<1x3x8x8xf32>) -> tensor<1x3x5x5xf32> {
  // expected-error @+1 {{'mlc.avg_pool2d' op padding [0, 0, 1, 1] must be at most half the kernel [2, 1]}}
  %0 = "mlc.avg_pool2d"(%x) {ceil_mode = false, count_include_pad = true, kernel = array<i64: 2, 1>, layout = "NCHW", padding = array<i64: 0, 0, 1, 1>, stride = array<i64: 2, 2>} : (tensor<1x3x8x8xf32>) -> tensor<1x3x5x5xf32>
  return %0 : tensor<1x3x5x5xf32>
}

// -----

/// 6x6 with 3x3 windows and stride 2 gives 3x3 in ceil mode.

func.func @avg_pool2d_ceil_mode_result(%x: tensor<1x3x6x6xf32>) -> tensor<1x3x2x2xf32> {
  // expected-error @+1 {{'mlc.avg_pool2d' op result has shape [1, 3, 2, 2], expected [1, 3, 3, 3]}}
  %0 = "mlc.avg_pool2d"(%x) {ceil_mode = true, count_include_pad = true, kernel = array<i64: 3, 3>, layout = "NCHW", padding = array<i64: 0, 0, 0, 0>, stride = array<i64: 2, 2>} : (tensor<1x3x6x6xf32>) -> tensor<1x3x2x2xf32>
  return %0 : tensor<1x3x2x2xf32>
}

// -----

func.func @avg_pool2d_wrong_result_element_type(%x: tensor<1x3x8x8xf32>) -> tensor<1x3x4x4xf64> {
  // expected-error @+1 {{'mlc.avg_pool2d' op result has element type f64, expected f32}}
  %0 = "mlc.avg_pool2d"(%x) {ceil_mode = false, count_include_pad = true, kernel = array<i64: 2, 2>, layout = "NCHW", padding = array<i64: 0, 0, 0, 0>, stride = array<i64: 2, 2>} : (tensor<1x3x8x8xf32>) -> tensor<1x3x4x4xf64>
  return %0 : tensor<1x3x4x4xf64>
}

// -----

func.func @quantized_matmul_of_int8_rows(%x: tensor<1x8xi8>, %w: tensor<8x4xi8>, %s: tensor<4xf32>) -> tensor<1x4xf32> {
  // expected-error @+1 {{'mlc.quantized_matmul' op lhs must be f32 rows [M, K], got tensor<1x8xi8>}}
  %0 = "mlc.quantized_matmul"(%x, %w, %s) : (tensor<1x8xi8>, tensor<8x4xi8>, tensor<4xf32>) -> tensor<1x4xf32>
  return %0 : tensor<1x4xf32>
}

// -----

func.func @quantized_matmul_inner_sizes_differ(%x: tensor<1x8xf32>, %w: tensor<6x4xi8>, %s: tensor<4xf32>) -> tensor<1x4xf32> {
  // expected-error @+1 {{'mlc.quantized_matmul' op weight must be int8 [K, N] with K = 8, got tensor<6x4xi8>}}
  %0 = "mlc.quantized_matmul"(%x, %w, %s) : (tensor<1x8xf32>, tensor<6x4xi8>, tensor<4xf32>) -> tensor<1x4xf32>
  return %0 : tensor<1x4xf32>
}

// -----

func.func @quantized_matmul_scale_per_row(%x: tensor<1x8xf32>, %w: tensor<8x4xi8>, %s: tensor<8xf32>) -> tensor<1x4xf32> {
  // expected-error @+1 {{'mlc.quantized_matmul' op scale must be f32 [N] with N = 4, got tensor<8xf32>}}
  %0 = "mlc.quantized_matmul"(%x, %w, %s) : (tensor<1x8xf32>, tensor<8x4xi8>, tensor<8xf32>) -> tensor<1x4xf32>
  return %0 : tensor<1x4xf32>
}

// -----

func.func @quantized_matmul_wrong_result(%x: tensor<1x8xf32>, %w: tensor<8x4xi8>, %s: tensor<4xf32>) -> tensor<1x4xi32> {
  // expected-error @+1 {{'mlc.quantized_matmul' op result}}
  %0 = "mlc.quantized_matmul"(%x, %w, %s) : (tensor<1x8xf32>, tensor<8x4xi8>, tensor<4xf32>) -> tensor<1x4xi32>
  return %0 : tensor<1x4xi32>
}
