// RUN: mlc-opt %s --split-input-file --verify-diagnostics

func.func @missing_keepdim(%x: tensor<2x3xf32>) -> tensor<2xf32> {
  // expected-error @+1 {{'mlc.reduce_sum' op requires attribute 'keepdim'}}
  %0 = "mlc.reduce_sum"(%x) {axes = array<i64: 1>} : (tensor<2x3xf32>) -> tensor<2xf32>
  return %0 : tensor<2xf32>
}

// -----

func.func @unranked(%x: tensor<*xf32>) -> tensor<*xf32> {
  // expected-error @+1 {{'mlc.reduce_sum' op input must be a ranked tensor, got tensor<*xf32>}}
  %0 = "mlc.reduce_sum"(%x) {axes = array<i64: 0>, keepdim = false} : (tensor<*xf32>) -> tensor<*xf32>
  return %0 : tensor<*xf32>
}

// -----

func.func @axes_not_i64_array(%x: tensor<2x3xf32>) -> tensor<2xf32> {
  // expected-error @+1 {{'mlc.reduce_sum' op attribute 'axes' must be an array<i64>, got [1]}}
  %0 = "mlc.reduce_sum"(%x) {axes = [1], keepdim = false} : (tensor<2x3xf32>) -> tensor<2xf32>
  return %0 : tensor<2xf32>
}

// -----

func.func @axis_out_of_range(%x: tensor<2x3xf32>) -> tensor<2xf32> {
  // expected-error @+1 {{'mlc.reduce_max' op axis 2 is out of range for rank 2}}
  %0 = "mlc.reduce_max"(%x) {axes = array<i64: 2>, keepdim = false} : (tensor<2x3xf32>) -> tensor<2xf32>
  return %0 : tensor<2xf32>
}

// -----

func.func @negative_axis_out_of_range(%x: tensor<2x3xf32>) -> tensor<3xf32> {
  // expected-error @+1 {{'mlc.reduce_min' op axis -3 is out of range for rank 2}}
  %0 = "mlc.reduce_min"(%x) {axes = array<i64: -3>, keepdim = false} : (tensor<2x3xf32>) -> tensor<3xf32>
  return %0 : tensor<3xf32>
}

// -----

/// -1 and 1 name the same axis of a rank-2 tensor.

func.func @repeated_axis(%x: tensor<2x3xf32>) -> tensor<2xf32> {
  // expected-error @+1 {{'mlc.reduce_sum' op axes [1, -1] repeat an axis}}
  %0 = "mlc.reduce_sum"(%x) {axes = array<i64: 1, -1>, keepdim = false} : (tensor<2x3xf32>) -> tensor<2xf32>
  return %0 : tensor<2xf32>
}

// -----

func.func @no_axes(%x: tensor<2x3xf32>) -> tensor<2x3xf32> {
  // expected-error @+1 {{'mlc.reduce_sum' op attribute 'axes' must name at least one axis}}
  %0 = "mlc.reduce_sum"(%x) {axes = array<i64>, keepdim = false} : (tensor<2x3xf32>) -> tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}

// -----

func.func @mean_of_integers(%x: tensor<2x3xi32>) -> tensor<2xi32> {
  // expected-error @+1 {{'mlc.reduce_mean' op requires a floating-point tensor, got tensor<2x3xi32>}}
  %0 = "mlc.reduce_mean"(%x) {axes = array<i64: 1>, keepdim = false} : (tensor<2x3xi32>) -> tensor<2xi32>
  return %0 : tensor<2xi32>
}

// -----

func.func @keepdim_not_bool(%x: tensor<2x3xf32>) -> tensor<2x1xf32> {
  // expected-error @+1 {{'mlc.reduce_sum' op attribute 'keepdim' must be a bool, got 1 : i64}}
  %0 = "mlc.reduce_sum"(%x) {axes = array<i64: 1>, keepdim = 1 : i64} : (tensor<2x3xf32>) -> tensor<2x1xf32>
  return %0 : tensor<2x1xf32>
}

// -----

/// keepdim = true keeps the reduced axis as size 1.

func.func @keepdim_dropped(%x: tensor<2x3xf32>) -> tensor<2xf32> {
  // expected-error @+1 {{'mlc.reduce_sum' op result has shape [2], expected [2, 1]}}
  %0 = "mlc.reduce_sum"(%x) {axes = array<i64: 1>, keepdim = true} : (tensor<2x3xf32>) -> tensor<2xf32>
  return %0 : tensor<2xf32>
}

// -----

func.func @wrong_axis_reduced(%x: tensor<2x3xf32>) -> tensor<3xf32> {
  // expected-error @+1 {{'mlc.reduce_mean' op result has shape [3], expected [2]}}
  %0 = "mlc.reduce_mean"(%x) {axes = array<i64: 1>, keepdim = false} : (tensor<2x3xf32>) -> tensor<3xf32>
  return %0 : tensor<3xf32>
}

// -----

func.func @wrong_result_element_type(%x: tensor<2x3xi8>) -> tensor<2xi32> {
  // expected-error @+1 {{'mlc.reduce_sum' op result has element type i32, expected i8}}
  %0 = "mlc.reduce_sum"(%x) {axes = array<i64: 1>, keepdim = false} : (tensor<2x3xi8>) -> tensor<2xi32>
  return %0 : tensor<2xi32>
}
