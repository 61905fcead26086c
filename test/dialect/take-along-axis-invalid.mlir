// RUN: mlc-opt %s --split-input-file --verify-diagnostics

func.func @take_along_axis_rank_mismatch(%x: tensor<4x5xf32>, %i: tensor<4xi64>) -> tensor<4xf32> {
  // expected-error @+1 {{'mlc.take_along_axis' op indices must have the input's rank 2, got tensor<4xi64>}}
  %0 = "mlc.take_along_axis"(%x, %i) {axis = 1 : i64} : (tensor<4x5xf32>, tensor<4xi64>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

func.func @take_along_axis_float_indices(%x: tensor<4x5xf32>, %i: tensor<4x2xf32>) -> tensor<4x2xf32> {
  // expected-error @+1 {{'mlc.take_along_axis' op indices must be integers, got tensor<4x2xf32>}}
  %0 = "mlc.take_along_axis"(%x, %i) {axis = 1 : i64} : (tensor<4x5xf32>, tensor<4x2xf32>) -> tensor<4x2xf32>
  return %0 : tensor<4x2xf32>
}

// -----

func.func @take_along_axis_indices_larger_off_axis(%x: tensor<4x5xf32>, %i: tensor<6x2xi64>) -> tensor<6x2xf32> {
  // expected-error @+1 {{'mlc.take_along_axis' op indices dimension 0 (6) exceeds the input's (4)}}
  %0 = "mlc.take_along_axis"(%x, %i) {axis = 1 : i64} : (tensor<4x5xf32>, tensor<6x2xi64>) -> tensor<6x2xf32>
  return %0 : tensor<6x2xf32>
}

// -----

func.func @take_along_axis_wrong_result_shape(%x: tensor<4x5xf32>, %i: tensor<4x2xi64>) -> tensor<4x5xf32> {
  // expected-error @+1 {{'mlc.take_along_axis' op result has shape [4, 5], expected [4, 2]}}
  %0 = "mlc.take_along_axis"(%x, %i) {axis = 1 : i64} : (tensor<4x5xf32>, tensor<4x2xi64>) -> tensor<4x5xf32>
  return %0 : tensor<4x5xf32>
}

// -----

func.func @take_along_axis_axis_out_of_range(%x: tensor<4x5xf32>, %i: tensor<4x2xi64>) -> tensor<4x2xf32> {
  // expected-error @+1 {{'mlc.take_along_axis' op axis 2 is out of range for rank 2}}
  %0 = "mlc.take_along_axis"(%x, %i) {axis = 2 : i64} : (tensor<4x5xf32>, tensor<4x2xi64>) -> tensor<4x2xf32>
  return %0 : tensor<4x2xf32>
}
