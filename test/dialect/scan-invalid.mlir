// RUN: mlc-opt %s --split-input-file --verify-diagnostics

func.func @cumsum_axis_out_of_range(%x: tensor<2x3xf32>) -> tensor<2x3xf32> {
  // expected-error @+1 {{'mlc.cumsum' op axis -3 is out of range for rank 2}}
  %0 = "mlc.cumsum"(%x) {axis = -3 : i64} : (tensor<2x3xf32>) -> tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}

// -----

func.func @cumprod_changes_type(%x: tensor<2x3xf32>) -> tensor<2x3xf16> {
  // expected-error @+1 {{'mlc.cumprod' op result type tensor<2x3xf16> must equal input type tensor<2x3xf32>}}
  %0 = "mlc.cumprod"(%x) {axis = 0 : i64} : (tensor<2x3xf32>) -> tensor<2x3xf16>
  return %0 : tensor<2x3xf16>
}

// -----

func.func @cumsum_of_scalar(%x: tensor<f32>) -> tensor<f32> {
  // expected-error @+1 {{'mlc.cumsum' op input must have rank >= 1, got rank 0}}
  %0 = "mlc.cumsum"(%x) {axis = 0 : i64} : (tensor<f32>) -> tensor<f32>
  return %0 : tensor<f32>
}

// -----

func.func @logcumsumexp_of_integers(%x: tensor<4xi32>) -> tensor<4xi32> {
  // expected-error @+1 {{'mlc.logcumsumexp' op requires a floating-point tensor, got tensor<4xi32>}}
  %0 = "mlc.logcumsumexp"(%x) {axis = 0 : i64} : (tensor<4xi32>) -> tensor<4xi32>
  return %0 : tensor<4xi32>
}
