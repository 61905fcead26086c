// RUN: mlc-opt %s --split-input-file --verify-diagnostics

func.func @scatter_float_indices(%x: tensor<4x5xf32>, %i: tensor<3x1xf32>, %u: tensor<3x5xf32>) -> tensor<4x5xf32> {
  // expected-error @+1 {{'mlc.scatter' op indices must be integers, got tensor<3x1xf32>}}
  %0 = "mlc.scatter"(%x, %i, %u) {combine = "add"} : (tensor<4x5xf32>, tensor<3x1xf32>, tensor<3x5xf32>) -> tensor<4x5xf32>
  return %0 : tensor<4x5xf32>
}

// -----

func.func @scatter_indices_not_2d(%x: tensor<4x5xf32>, %i: tensor<3xi64>, %u: tensor<3x5xf32>) -> tensor<4x5xf32> {
  // expected-error @+1 {{'mlc.scatter' op indices must have shape [N, K] with a static K, got tensor<3xi64>}}
  %0 = "mlc.scatter"(%x, %i, %u) {combine = "add"} : (tensor<4x5xf32>, tensor<3xi64>, tensor<3x5xf32>) -> tensor<4x5xf32>
  return %0 : tensor<4x5xf32>
}

// -----

func.func @scatter_too_deep(%x: tensor<4x5xf32>, %i: tensor<3x3xi64>, %u: tensor<3xf32>) -> tensor<4x5xf32> {
  // expected-error @+1 {{'mlc.scatter' op indices address 3 dims, expected 1 to the input's rank 2}}
  %0 = "mlc.scatter"(%x, %i, %u) {combine = "add"} : (tensor<4x5xf32>, tensor<3x3xi64>, tensor<3xf32>) -> tensor<4x5xf32>
  return %0 : tensor<4x5xf32>
}

// -----

func.func @scatter_wrong_updates_shape(%x: tensor<4x5xf32>, %i: tensor<3x1xi64>, %u: tensor<3x4xf32>) -> tensor<4x5xf32> {
  // expected-error @+1 {{'mlc.scatter' op updates has shape [3, 4], expected [3, 5]}}
  %0 = "mlc.scatter"(%x, %i, %u) {combine = "add"} : (tensor<4x5xf32>, tensor<3x1xi64>, tensor<3x4xf32>) -> tensor<4x5xf32>
  return %0 : tensor<4x5xf32>
}

// -----

func.func @scatter_unknown_combine(%x: tensor<4x5xf32>, %i: tensor<3x1xi64>, %u: tensor<3x5xf32>) -> tensor<4x5xf32> {
  // expected-error @+1 {{'mlc.scatter' op attribute 'combine' must be one of 'replace', 'add', 'mul', 'max', 'min', got "mean"}}
  %0 = "mlc.scatter"(%x, %i, %u) {combine = "mean"} : (tensor<4x5xf32>, tensor<3x1xi64>, tensor<3x5xf32>) -> tensor<4x5xf32>
  return %0 : tensor<4x5xf32>
}

// -----

func.func @scatter_wrong_result_type(%x: tensor<4x5xf32>, %i: tensor<3x1xi64>, %u: tensor<3x5xf32>) -> tensor<4x5xf64> {
  // expected-error @+1 {{'mlc.scatter' op result has element type f64, expected f32}}
  %0 = "mlc.scatter"(%x, %i, %u) {combine = "add"} : (tensor<4x5xf32>, tensor<3x1xi64>, tensor<3x5xf32>) -> tensor<4x5xf64>
  return %0 : tensor<4x5xf64>
}
