// RUN: mlc-opt %s --split-input-file --verify-diagnostics

func.func @offset_not_scalar(%x: tensor<4x5xf32>, %u: tensor<1x5xf32>, %at: tensor<1xi64>) -> tensor<4x5xf32> {
  // expected-error @+1 {{'mlc.update_slice' op offset must be a 0-d integer tensor, got tensor<1xi64>}}
  %0 = "mlc.update_slice"(%x, %u, %at) {axis = 0 : i64, start = array<i64: 0, 0>} : (tensor<4x5xf32>, tensor<1x5xf32>, tensor<1xi64>) -> tensor<4x5xf32>
  return %0 : tensor<4x5xf32>
}

// -----

func.func @offset_float(%x: tensor<4x5xf32>, %u: tensor<1x5xf32>, %at: tensor<f32>) -> tensor<4x5xf32> {
  // expected-error @+1 {{'mlc.update_slice' op offset must be a 0-d integer tensor, got tensor<f32>}}
  %0 = "mlc.update_slice"(%x, %u, %at) {axis = 0 : i64, start = array<i64: 0, 0>} : (tensor<4x5xf32>, tensor<1x5xf32>, tensor<f32>) -> tensor<4x5xf32>
  return %0 : tensor<4x5xf32>
}

// -----

func.func @rank_differs(%x: tensor<4x5xf32>, %u: tensor<5xf32>, %at: tensor<i64>) -> tensor<4x5xf32> {
  // expected-error @+1 {{'mlc.update_slice' op update must have the input's rank 2, got tensor<5xf32>}}
  %0 = "mlc.update_slice"(%x, %u, %at) {axis = 0 : i64, start = array<i64: 0, 0>} : (tensor<4x5xf32>, tensor<5xf32>, tensor<i64>) -> tensor<4x5xf32>
  return %0 : tensor<4x5xf32>
}

// -----

func.func @block_too_large(%x: tensor<4x5xf32>, %u: tensor<5x5xf32>, %at: tensor<i64>) -> tensor<4x5xf32> {
  // expected-error @+1 {{'mlc.update_slice' op dimension 0: a block of 5 from offset does not fit in 4}}
  %0 = "mlc.update_slice"(%x, %u, %at) {axis = 0 : i64, start = array<i64: 0, 0>} : (tensor<4x5xf32>, tensor<5x5xf32>, tensor<i64>) -> tensor<4x5xf32>
  return %0 : tensor<4x5xf32>
}

// -----

func.func @start_past_end(%x: tensor<4x5xf32>, %u: tensor<1x3xf32>, %at: tensor<i64>) -> tensor<4x5xf32> {
  // expected-error @+1 {{'mlc.update_slice' op dimension 1: a block of 3 from 3 does not fit in 5}}
  %0 = "mlc.update_slice"(%x, %u, %at) {axis = 0 : i64, start = array<i64: 0, 3>} : (tensor<4x5xf32>, tensor<1x3xf32>, tensor<i64>) -> tensor<4x5xf32>
  return %0 : tensor<4x5xf32>
}

// -----

func.func @axis_out_of_range(%x: tensor<4x5xf32>, %u: tensor<1x5xf32>, %at: tensor<i64>) -> tensor<4x5xf32> {
  // expected-error @+1 {{'mlc.update_slice' op axis 2 is out of range for rank 2}}
  %0 = "mlc.update_slice"(%x, %u, %at) {axis = 2 : i64, start = array<i64: 0, 0>} : (tensor<4x5xf32>, tensor<1x5xf32>, tensor<i64>) -> tensor<4x5xf32>
  return %0 : tensor<4x5xf32>
}

// -----

func.func @element_type_differs(%x: tensor<4x5xf32>, %u: tensor<1x5xf16>, %at: tensor<i64>) -> tensor<4x5xf32> {
  // expected-error @+1 {{'mlc.update_slice' op update has element type f16, expected f32}}
  %0 = "mlc.update_slice"(%x, %u, %at) {axis = 0 : i64, start = array<i64: 0, 0>} : (tensor<4x5xf32>, tensor<1x5xf16>, tensor<i64>) -> tensor<4x5xf32>
  return %0 : tensor<4x5xf32>
}
