// RUN: mlc-opt %s --split-input-file --verify-diagnostics

func.func @softmax_missing_axis(%x: tensor<2x8xf32>) -> tensor<2x8xf32> {
  // expected-error @+1 {{'mlc.softmax' op requires attribute 'axis'}}
  %0 = "mlc.softmax"(%x) : (tensor<2x8xf32>) -> tensor<2x8xf32>
  return %0 : tensor<2x8xf32>
}

// -----

func.func @softmax_unranked(%x: tensor<*xf32>) -> tensor<*xf32> {
  // expected-error @+1 {{'mlc.softmax' op input must be a ranked tensor, got tensor<*xf32>}}
  %0 = "mlc.softmax"(%x) {axis = 0 : i64} : (tensor<*xf32>) -> tensor<*xf32>
  return %0 : tensor<*xf32>
}

// -----

func.func @softmax_of_integers(%x: tensor<2x8xi32>) -> tensor<2x8xi32> {
  // expected-error @+1 {{'mlc.softmax' op input must be a floating-point tensor, got tensor<2x8xi32>}}
  %0 = "mlc.softmax"(%x) {axis = 1 : i64} : (tensor<2x8xi32>) -> tensor<2x8xi32>
  return %0 : tensor<2x8xi32>
}

// -----

func.func @softmax_float_axis(%x: tensor<2x8xf32>) -> tensor<2x8xf32> {
  // expected-error @+1 {{'mlc.softmax' op attribute 'axis' must be an integer, got 1.000000e+00 : f32}}
  %0 = "mlc.softmax"(%x) {axis = 1.0 : f32} : (tensor<2x8xf32>) -> tensor<2x8xf32>
  return %0 : tensor<2x8xf32>
}

// -----

func.func @softmax_axis_out_of_range(%x: tensor<2x8xf32>) -> tensor<2x8xf32> {
  // expected-error @+1 {{'mlc.softmax' op axis 2 is out of range for rank 2}}
  %0 = "mlc.softmax"(%x) {axis = 2 : i64} : (tensor<2x8xf32>) -> tensor<2x8xf32>
  return %0 : tensor<2x8xf32>
}

// -----

func.func @softmax_negative_axis_out_of_range(%x: tensor<2x8xf32>) -> tensor<2x8xf32> {
  // expected-error @+1 {{'mlc.softmax' op axis -3 is out of range for rank 2}}
  %0 = "mlc.softmax"(%x) {axis = -3 : i64} : (tensor<2x8xf32>) -> tensor<2x8xf32>
  return %0 : tensor<2x8xf32>
}

// -----

func.func @softmax_result_type(%x: tensor<2x8xf32>) -> tensor<2x8xf16> {
  // expected-error @+1 {{'mlc.softmax' op result type tensor<2x8xf16> must equal input type tensor<2x8xf32>}}
  %0 = "mlc.softmax"(%x) {axis = 1 : i64} : (tensor<2x8xf32>) -> tensor<2x8xf16>
  return %0 : tensor<2x8xf16>
}

// -----

func.func @layer_norm_missing_epsilon(%x: tensor<2x8xf32>, %w: tensor<8xf32>) -> tensor<2x8xf32> {
  // expected-error @+1 {{'mlc.layer_norm' op requires attribute 'epsilon'}}
  %0 = "mlc.layer_norm"(%x, %w, %w) {axis = 1 : i64, library = false} : (tensor<2x8xf32>, tensor<8xf32>, tensor<8xf32>) -> tensor<2x8xf32>
  return %0 : tensor<2x8xf32>
}

// -----

func.func @layer_norm_of_integers(%x: tensor<2x8xi32>, %w: tensor<8xi32>) -> tensor<2x8xi32> {
  // expected-error @+1 {{'mlc.layer_norm' op input must be a floating-point tensor, got tensor<2x8xi32>}}
  %0 = "mlc.layer_norm"(%x, %w, %w) {axis = 1 : i64, epsilon = 1.0e-5 : f64, library = false} : (tensor<2x8xi32>, tensor<8xi32>, tensor<8xi32>) -> tensor<2x8xi32>
  return %0 : tensor<2x8xi32>
}

// -----

func.func @layer_norm_axis_out_of_range(%x: tensor<2x8xf32>, %w: tensor<8xf32>) -> tensor<2x8xf32> {
  // expected-error @+1 {{'mlc.layer_norm' op axis 2 is out of range for rank 2}}
  %0 = "mlc.layer_norm"(%x, %w, %w) {axis = 2 : i64, epsilon = 1.0e-5 : f64, library = false} : (tensor<2x8xf32>, tensor<8xf32>, tensor<8xf32>) -> tensor<2x8xf32>
  return %0 : tensor<2x8xf32>
}

// -----

func.func @layer_norm_zero_epsilon(%x: tensor<2x8xf32>, %w: tensor<8xf32>) -> tensor<2x8xf32> {
  // expected-error @+1 {{'mlc.layer_norm' op epsilon must be positive, got 0.000000e+00 : f64}}
  %0 = "mlc.layer_norm"(%x, %w, %w) {axis = 1 : i64, epsilon = 0.0 : f64, library = false} : (tensor<2x8xf32>, tensor<8xf32>, tensor<8xf32>) -> tensor<2x8xf32>
  return %0 : tensor<2x8xf32>
}

// -----

func.func @layer_norm_integer_epsilon(%x: tensor<2x8xf32>, %w: tensor<8xf32>) -> tensor<2x8xf32> {
  // expected-error @+1 {{'mlc.layer_norm' op attribute 'epsilon' must be a float, got 1 : i64}}
  %0 = "mlc.layer_norm"(%x, %w, %w) {axis = 1 : i64, epsilon = 1 : i64, library = false} : (tensor<2x8xf32>, tensor<8xf32>, tensor<8xf32>) -> tensor<2x8xf32>
  return %0 : tensor<2x8xf32>
}

// -----

func.func @layer_norm_mixed_element_types(%x: tensor<2x8xf32>, %w: tensor<8xf16>, %b: tensor<8xf32>) -> tensor<2x8xf32> {
  // expected-error @+1 {{'mlc.layer_norm' op input, weight and bias must share one element type, got f32, f16}}
  %0 = "mlc.layer_norm"(%x, %w, %b) {axis = 1 : i64, epsilon = 1.0e-5 : f64, library = false} : (tensor<2x8xf32>, tensor<8xf16>, tensor<8xf32>) -> tensor<2x8xf32>
  return %0 : tensor<2x8xf32>
}

// -----

/// With axis 1 of a rank-3 input the normalized shape is [5, 8], not [8].

func.func @layer_norm_weight_shape(%x: tensor<2x5x8xf32>, %w: tensor<8xf32>, %b: tensor<5x8xf32>) -> tensor<2x5x8xf32> {
  // expected-error @+1 {{'mlc.layer_norm' op weight has shape [8], expected [5, 8]}}
  %0 = "mlc.layer_norm"(%x, %w, %b) {axis = 1 : i64, epsilon = 1.0e-5 : f64, library = false} : (tensor<2x5x8xf32>, tensor<8xf32>, tensor<5x8xf32>) -> tensor<2x5x8xf32>
  return %0 : tensor<2x5x8xf32>
}

// -----

func.func @layer_norm_bias_shape(%x: tensor<2x5x8xf32>, %w: tensor<8xf32>, %b: tensor<5xf32>) -> tensor<2x5x8xf32> {
  // expected-error @+1 {{'mlc.layer_norm' op bias has shape [5], expected [8]}}
  %0 = "mlc.layer_norm"(%x, %w, %b) {axis = -1 : i64, epsilon = 1.0e-5 : f64, library = false} : (tensor<2x5x8xf32>, tensor<8xf32>, tensor<5xf32>) -> tensor<2x5x8xf32>
  return %0 : tensor<2x5x8xf32>
}

// -----

func.func @layer_norm_result_type(%x: tensor<2x8xf32>, %w: tensor<8xf32>) -> tensor<8x2xf32> {
  // expected-error @+1 {{'mlc.layer_norm' op result type tensor<8x2xf32> must equal input type tensor<2x8xf32>}}
  %0 = "mlc.layer_norm"(%x, %w, %w) {axis = 1 : i64, epsilon = 1.0e-5 : f64, library = false} : (tensor<2x8xf32>, tensor<8xf32>, tensor<8xf32>) -> tensor<8x2xf32>
  return %0 : tensor<8x2xf32>
}

// -----

/// On the library (mlc-library-layer-norms), the plugin's call takes f32 rows of static shape.

func.func @layer_norm_library_of_bf16(%x: tensor<2x8xbf16>, %w: tensor<8xbf16>) -> tensor<2x8xbf16> {
  // expected-error @+1 {{'mlc.layer_norm' op on the library (library = true), the input must be f32 of static shape, got tensor<2x8xbf16>}}
  %0 = "mlc.layer_norm"(%x, %w, %w) {axis = 1 : i64, epsilon = 1.0e-5 : f64, library = true} : (tensor<2x8xbf16>, tensor<8xbf16>, tensor<8xbf16>) -> tensor<2x8xbf16>
  return %0 : tensor<2x8xbf16>
}

// -----

func.func @layer_norm_library_of_dynamic_rows(%x: tensor<?x8xf32>, %w: tensor<8xf32>) -> tensor<?x8xf32> {
  // expected-error @+1 {{'mlc.layer_norm' op on the library (library = true), the input must be f32 of static shape, got tensor<?x8xf32>}}
  %0 = "mlc.layer_norm"(%x, %w, %w) {axis = 1 : i64, epsilon = 1.0e-5 : f64, library = true} : (tensor<?x8xf32>, tensor<8xf32>, tensor<8xf32>) -> tensor<?x8xf32>
  return %0 : tensor<?x8xf32>
}

// -----

func.func @layer_norm_library_not_a_bool(%x: tensor<2x8xf32>, %w: tensor<8xf32>) -> tensor<2x8xf32> {
  // expected-error @+1 {{'mlc.layer_norm' op attribute 'library' must be a bool, got 1 : i64}}
  %0 = "mlc.layer_norm"(%x, %w, %w) {axis = 1 : i64, epsilon = 1.0e-5 : f64, library = 1 : i64} : (tensor<2x8xf32>, tensor<8xf32>, tensor<8xf32>) -> tensor<2x8xf32>
  return %0 : tensor<2x8xf32>
}

// -----

func.func @batch_norm_missing_axis(%x: tensor<2x3x4x4xf32>, %s: tensor<3xf32>) -> tensor<2x3x4x4xf32> {
  // expected-error @+1 {{'mlc.batch_norm' op requires attribute 'axis'}}
  %0 = "mlc.batch_norm"(%x, %s, %s, %s, %s) {epsilon = 1.0e-5 : f64} : (tensor<2x3x4x4xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>) -> tensor<2x3x4x4xf32>
  return %0 : tensor<2x3x4x4xf32>
}

// -----

func.func @batch_norm_of_integers(%x: tensor<2x3x4x4xi8>, %s: tensor<3xi8>) -> tensor<2x3x4x4xi8> {
  // expected-error @+1 {{'mlc.batch_norm' op input must be a floating-point tensor, got tensor<2x3x4x4xi8>}}
  %0 = "mlc.batch_norm"(%x, %s, %s, %s, %s) {axis = 1 : i64, epsilon = 1.0e-5 : f64} : (tensor<2x3x4x4xi8>, tensor<3xi8>, tensor<3xi8>, tensor<3xi8>, tensor<3xi8>) -> tensor<2x3x4x4xi8>
  return %0 : tensor<2x3x4x4xi8>
}

// -----

func.func @batch_norm_unranked(%x: tensor<*xf32>, %s: tensor<3xf32>) -> tensor<*xf32> {
  // expected-error @+1 {{'mlc.batch_norm' op input must be a ranked tensor, got tensor<*xf32>}}
  %0 = "mlc.batch_norm"(%x, %s, %s, %s, %s) {axis = 1 : i64, epsilon = 1.0e-5 : f64} : (tensor<*xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>) -> tensor<*xf32>
  return %0 : tensor<*xf32>
}

// -----

/// A rank-0 input has no channel dimension.

func.func @batch_norm_rank_0(%x: tensor<f32>, %s: tensor<1xf32>) -> tensor<f32> {
  // expected-error @+1 {{'mlc.batch_norm' op input must have a channel dimension, got rank 0}}
  %0 = "mlc.batch_norm"(%x, %s, %s, %s, %s) {axis = 0 : i64, epsilon = 1.0e-5 : f64} : (tensor<f32>, tensor<1xf32>, tensor<1xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<f32>
  return %0 : tensor<f32>
}

// -----

func.func @batch_norm_axis_out_of_range(%x: tensor<2x3x4x4xf32>, %s: tensor<3xf32>) -> tensor<2x3x4x4xf32> {
  // expected-error @+1 {{'mlc.batch_norm' op axis 4 is out of range for rank 4}}
  %0 = "mlc.batch_norm"(%x, %s, %s, %s, %s) {axis = 4 : i64, epsilon = 1.0e-5 : f64} : (tensor<2x3x4x4xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>) -> tensor<2x3x4x4xf32>
  return %0 : tensor<2x3x4x4xf32>
}

// -----

func.func @batch_norm_string_axis(%x: tensor<2x3x4x4xf32>, %s: tensor<3xf32>) -> tensor<2x3x4x4xf32> {
  // expected-error @+1 {{'mlc.batch_norm' op attribute 'axis' must be an integer, got "C"}}
  %0 = "mlc.batch_norm"(%x, %s, %s, %s, %s) {axis = "C", epsilon = 1.0e-5 : f64} : (tensor<2x3x4x4xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>) -> tensor<2x3x4x4xf32>
  return %0 : tensor<2x3x4x4xf32>
}

// -----

func.func @batch_norm_negative_epsilon(%x: tensor<2x3x4x4xf32>, %s: tensor<3xf32>) -> tensor<2x3x4x4xf32> {
  // expected-error @+1 {{'mlc.batch_norm' op epsilon must be positive, got -1.000000e-05 : f64}}
  %0 = "mlc.batch_norm"(%x, %s, %s, %s, %s) {axis = 1 : i64, epsilon = -1.0e-5 : f64} : (tensor<2x3x4x4xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>) -> tensor<2x3x4x4xf32>
  return %0 : tensor<2x3x4x4xf32>
}

// -----

func.func @batch_norm_string_epsilon(%x: tensor<2x3x4x4xf32>, %s: tensor<3xf32>) -> tensor<2x3x4x4xf32> {
  // expected-error @+1 {{'mlc.batch_norm' op attribute 'epsilon' must be a float, got "small"}}
  %0 = "mlc.batch_norm"(%x, %s, %s, %s, %s) {axis = 1 : i64, epsilon = "small"} : (tensor<2x3x4x4xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>) -> tensor<2x3x4x4xf32>
  return %0 : tensor<2x3x4x4xf32>
}

// -----

func.func @batch_norm_mixed_element_types(%x: tensor<2x3x4x4xf32>, %s: tensor<3xf32>, %v: tensor<3xf64>) -> tensor<2x3x4x4xf32> {
  // expected-error @+1 {{'mlc.batch_norm' op input and statistics must share one element type, got f32, f64}}
  %0 = "mlc.batch_norm"(%x, %s, %s, %s, %v) {axis = 1 : i64, epsilon = 1.0e-5 : f64} : (tensor<2x3x4x4xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf64>) -> tensor<2x3x4x4xf32>
  return %0 : tensor<2x3x4x4xf32>
}

// -----

/// Statistics per channel of an NHWC input (axis 3) have 3 elements, not 4.

func.func @batch_norm_scale_shape(%x: tensor<2x4x4x3xf32>, %s: tensor<3xf32>, %bad: tensor<4xf32>) -> tensor<2x4x4x3xf32> {
  // expected-error @+1 {{'mlc.batch_norm' op scale has shape [4], expected [3]}}
  %0 = "mlc.batch_norm"(%x, %bad, %s, %s, %s) {axis = 3 : i64, epsilon = 1.0e-5 : f64} : (tensor<2x4x4x3xf32>, tensor<4xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>) -> tensor<2x4x4x3xf32>
  return %0 : tensor<2x4x4x3xf32>
}

// -----

func.func @batch_norm_offset_shape(%x: tensor<2x3x4x4xf32>, %s: tensor<3xf32>, %bad: tensor<1x3xf32>) -> tensor<2x3x4x4xf32> {
  // expected-error @+1 {{'mlc.batch_norm' op offset has shape [1, 3], expected [3]}}
  %0 = "mlc.batch_norm"(%x, %s, %bad, %s, %s) {axis = 1 : i64, epsilon = 1.0e-5 : f64} : (tensor<2x3x4x4xf32>, tensor<3xf32>, tensor<1x3xf32>, tensor<3xf32>, tensor<3xf32>) -> tensor<2x3x4x4xf32>
  return %0 : tensor<2x3x4x4xf32>
}

// -----

func.func @batch_norm_mean_shape(%x: tensor<2x3x4x4xf32>, %s: tensor<3xf32>, %bad: tensor<4xf32>) -> tensor<2x3x4x4xf32> {
  // expected-error @+1 {{'mlc.batch_norm' op mean has shape [4], expected [3]}}
  %0 = "mlc.batch_norm"(%x, %s, %s, %bad, %s) {axis = 1 : i64, epsilon = 1.0e-5 : f64} : (tensor<2x3x4x4xf32>, tensor<3xf32>, tensor<3xf32>, tensor<4xf32>, tensor<3xf32>) -> tensor<2x3x4x4xf32>
  return %0 : tensor<2x3x4x4xf32>
}

// -----

func.func @batch_norm_variance_shape(%x: tensor<2x3x4x4xf32>, %s: tensor<3xf32>, %bad: tensor<2xf32>) -> tensor<2x3x4x4xf32> {
  // expected-error @+1 {{'mlc.batch_norm' op variance has shape [2], expected [3]}}
  %0 = "mlc.batch_norm"(%x, %s, %s, %s, %bad) {axis = 1 : i64, epsilon = 1.0e-5 : f64} : (tensor<2x3x4x4xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<2xf32>) -> tensor<2x3x4x4xf32>
  return %0 : tensor<2x3x4x4xf32>
}

// -----

func.func @batch_norm_result_type(%x: tensor<2x3x4x4xf32>, %s: tensor<3xf32>) -> tensor<2x3x4x4xf16> {
  // expected-error @+1 {{'mlc.batch_norm' op result type tensor<2x3x4x4xf16> must equal input type tensor<2x3x4x4xf32>}}
  %0 = "mlc.batch_norm"(%x, %s, %s, %s, %s) {axis = 1 : i64, epsilon = 1.0e-5 : f64} : (tensor<2x3x4x4xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>) -> tensor<2x3x4x4xf16>
  return %0 : tensor<2x3x4x4xf16>
}
