// RUN: mlc-opt %s --pass-pipeline='builtin.module(mlc-lower-to-linalg)' --split-input-file --verify-diagnostics

/// A case the lowering does not support is reported at the op, naming it.

func.func @avg_pool_integer(%x: tensor<1x1x4x4xi32>) -> tensor<1x1x2x2xi32> {
  // expected-error @+1 {{'mlc.avg_pool2d' op cannot be lowered to linalg: average pooling needs a floating-point tensor}}
  %0 = "mlc.avg_pool2d"(%x) {kernel = array<i64: 2, 2>, stride = array<i64: 2, 2>, padding = array<i64: 0, 0, 0, 0>, ceil_mode = false, count_include_pad = true, layout = "NCHW"} : (tensor<1x1x4x4xi32>) -> tensor<1x1x2x2xi32>
  return %0 : tensor<1x1x2x2xi32>
}

// -----

/// Every unsupported op is reported, not only the first.

func.func @two_unsupported(%x: tensor<?x4xf32>, %p: tensor<1x1x?x4xf32>) -> (tensor<4xf32>, tensor<1x1x?x2xf32>) {
  // expected-error @+1 {{'mlc.reduce_mean' op cannot be lowered to linalg: mean over a dynamic dimension}}
  %0 = "mlc.reduce_mean"(%x) {axes = array<i64: 0>, keepdim = false} : (tensor<?x4xf32>) -> tensor<4xf32>
  // expected-error @+1 {{'mlc.max_pool2d' op cannot be lowered to linalg: pooling needs static spatial sizes}}
  %1 = "mlc.max_pool2d"(%p) {kernel = array<i64: 1, 2>, stride = array<i64: 1, 2>, padding = array<i64: 0, 0, 0, 0>, dilation = array<i64: 1, 1>, ceil_mode = false, layout = "NCHW"} : (tensor<1x1x?x4xf32>) -> tensor<1x1x?x2xf32>
  return %0, %1 : tensor<4xf32>, tensor<1x1x?x2xf32>
}

// -----

func.func @reshape_dynamic_general(%x: tensor<?x6xf32>) -> tensor<?x?xf32> {
  // expected-error @+1 {{'mlc.reshape' op cannot be lowered to linalg: a dynamic reshape that is neither a collapse nor an expansion}}
  %0 = "mlc.reshape"(%x) : (tensor<?x6xf32>) -> tensor<?x?xf32>
  return %0 : tensor<?x?xf32>
}

// -----

func.func @conv_dynamic_spatial(%x: tensor<1x3x?x8xf32>, %w: tensor<4x3x3x3xf32>) -> tensor<1x4x?x6xf32> {
  // expected-error @+1 {{'mlc.conv2d' op cannot be lowered to linalg: only the batch dimension may be dynamic}}
  %0 = "mlc.conv2d"(%x, %w) {stride = array<i64: 1, 1>, padding = array<i64: 0, 0, 0, 0>, dilation = array<i64: 1, 1>, groups = 1 : i64, layout = "NCHW"} : (tensor<1x3x?x8xf32>, tensor<4x3x3x3xf32>) -> tensor<1x4x?x6xf32>
  return %0 : tensor<1x4x?x6xf32>
}

// -----

/// A concat chain along a dynamic axis fails as a whole, and the IR stays valid.
func.func @concat_chain_dynamic_axis(%a: tensor<?x3xf32>, %b: tensor<4x3xf32>, %c: tensor<1x3xf32>) -> tensor<?x3xf32> {
  %0 = "mlc.concat"(%a, %b) {axis = 0 : i64} : (tensor<?x3xf32>, tensor<4x3xf32>) -> tensor<?x3xf32>
  // expected-error @+1 {{'mlc.concat' op cannot be lowered to linalg: concatenation along a dynamic dimension}}
  %1 = "mlc.concat"(%0, %c) {axis = 0 : i64} : (tensor<?x3xf32>, tensor<1x3xf32>) -> tensor<?x3xf32>
  return %1 : tensor<?x3xf32>
}
