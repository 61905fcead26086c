// RUN: mlc-opt %s --split-input-file --verify-diagnostics

func.func @conv3d_groups_do_not_divide(%x: tensor<1x4x5x5x5xf32>, %w: tensor<6x2x3x3x3xf32>) -> tensor<1x6x3x3x3xf32> {
  // expected-error @+1 {{'mlc.conv3d' op groups 4 must divide input channels 4 and output channels 6}}
  %0 = "mlc.conv3d"(%x, %w) {stride = array<i64: 1, 1, 1>, padding = array<i64: 0, 0, 0, 0, 0, 0>, dilation = array<i64: 1, 1, 1>, groups = 4 : i64} : (tensor<1x4x5x5x5xf32>, tensor<6x2x3x3x3xf32>) -> tensor<1x6x3x3x3xf32>
  return %0 : tensor<1x6x3x3x3xf32>
}

// -----

func.func @conv3d_wrong_result(%x: tensor<1x4x5x5x5xf32>, %w: tensor<6x4x3x3x3xf32>) -> tensor<1x6x5x5x5xf32> {
  // expected-error @+1 {{'mlc.conv3d' op result has shape [1, 6, 5, 5, 5], expected [1, 6, 3, 3, 3]}}
  %0 = "mlc.conv3d"(%x, %w) {stride = array<i64: 1, 1, 1>, padding = array<i64: 0, 0, 0, 0, 0, 0>, dilation = array<i64: 1, 1, 1>, groups = 1 : i64} : (tensor<1x4x5x5x5xf32>, tensor<6x4x3x3x3xf32>) -> tensor<1x6x5x5x5xf32>
  return %0 : tensor<1x6x5x5x5xf32>
}

// -----

func.func @max_pool_indices_not_i64(%x: tensor<1x2x8xf32>) -> tensor<1x2x4xf32> {
  // expected-error @+1 {{'mlc.max_pool_indices' op result has element type f32, expected i64}}
  %0 = "mlc.max_pool_indices"(%x) {kernel = array<i64: 2>, stride = array<i64: 2>, padding = array<i64: 0, 0>, dilation = array<i64: 1>, ceil_mode = false} : (tensor<1x2x8xf32>) -> tensor<1x2x4xf32>
  return %0 : tensor<1x2x4xf32>
}

// -----

func.func @max_pool_nd_padding_too_large(%x: tensor<1x2x8xf32>) -> tensor<1x2x6xf32> {
  // expected-error @+1 {{'mlc.max_pool_nd' op padding [2, 2] must be at most half the (dilated) kernel [2]}}
  %0 = "mlc.max_pool_nd"(%x) {kernel = array<i64: 2>, stride = array<i64: 2>, padding = array<i64: 2, 2>, dilation = array<i64: 1>, ceil_mode = false} : (tensor<1x2x8xf32>) -> tensor<1x2x6xf32>
  return %0 : tensor<1x2x6xf32>
}

// -----

func.func @avg_pool_nd_rank_too_high(%x: tensor<1x2x3x4x5x6xf32>) -> tensor<1x2x3x4x5x6xf32> {
  // expected-error @+1 {{'mlc.avg_pool_nd' op input must have rank 3, 4 or 5, got 6}}
  %0 = "mlc.avg_pool_nd"(%x) {kernel = array<i64: 1, 1, 1, 1>, stride = array<i64: 1, 1, 1, 1>, padding = array<i64: 0, 0, 0, 0, 0, 0, 0, 0>, ceil_mode = false, count_include_pad = true, divisor = 0 : i64} : (tensor<1x2x3x4x5x6xf32>) -> tensor<1x2x3x4x5x6xf32>
  return %0 : tensor<1x2x3x4x5x6xf32>
}
