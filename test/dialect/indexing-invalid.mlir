// RUN: mlc-opt %s --split-input-file --verify-diagnostics

func.func @argmax_axis_out_of_range(%x: tensor<2x3xf32>) -> tensor<2xi64> {
  // expected-error @+1 {{'mlc.argmax' op axis 2 is out of range for rank 2}}
  %0 = "mlc.argmax"(%x) {axis = 2 : i64, keepdim = false} : (tensor<2x3xf32>) -> tensor<2xi64>
  return %0 : tensor<2xi64>
}

// -----

func.func @argmin_wrong_shape(%x: tensor<2x3xf32>) -> tensor<3xi64> {
  // expected-error @+1 {{'mlc.argmin' op result has shape [3], expected [2]}}
  %0 = "mlc.argmin"(%x) {axis = 1 : i64, keepdim = false} : (tensor<2x3xf32>) -> tensor<3xi64>
  return %0 : tensor<3xi64>
}

// -----

func.func @argmax_float_result(%x: tensor<2x3xf32>) -> tensor<2xf32> {
  // expected-error @+1 {{'mlc.argmax' op result must hold integer indices, got f32}}
  %0 = "mlc.argmax"(%x) {axis = 1 : i64, keepdim = false} : (tensor<2x3xf32>) -> tensor<2xf32>
  return %0 : tensor<2xf32>
}

// -----

func.func @argmax_of_scalar(%x: tensor<f32>) -> tensor<i64> {
  // expected-error @+1 {{'mlc.argmax' op input must have rank >= 1, got rank 0}}
  %0 = "mlc.argmax"(%x) {axis = 0 : i64, keepdim = false} : (tensor<f32>) -> tensor<i64>
  return %0 : tensor<i64>
}

// -----

func.func @argsort_missing_descending(%x: tensor<4xf32>) -> tensor<4xi64> {
  // expected-error @+1 {{'mlc.argsort' op requires attribute 'descending'}}
  %0 = "mlc.argsort"(%x) {axis = 0 : i64} : (tensor<4xf32>) -> tensor<4xi64>
  return %0 : tensor<4xi64>
}

// -----

func.func @argsort_bool_result(%x: tensor<4xf32>) -> tensor<4xi1> {
  // expected-error @+1 {{'mlc.argsort' op result must hold integer indices, got i1}}
  %0 = "mlc.argsort"(%x) {axis = 0 : i64, descending = false} : (tensor<4xf32>) -> tensor<4xi1>
  return %0 : tensor<4xi1>
}

// -----

func.func @argsort_wrong_shape(%x: tensor<4x2xf32>) -> tensor<4xi64> {
  // expected-error @+1 {{'mlc.argsort' op result has shape [4], expected [4, 2]}}
  %0 = "mlc.argsort"(%x) {axis = 0 : i64, descending = false} : (tensor<4x2xf32>) -> tensor<4xi64>
  return %0 : tensor<4xi64>
}
