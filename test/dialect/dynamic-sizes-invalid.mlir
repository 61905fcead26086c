// RUN: mlc-opt %s --split-input-file --verify-diagnostics

func.func @slice_negative_start_to_end(%x: tensor<?x4xf32>) -> tensor<?x4xf32> {
  // expected-error @+1 {{'mlc.slice' op dimension 0: slice -1:?:1 is out of bounds for size ?}}
  %0 = "mlc.slice"(%x) {start = array<i64: -1, 0>, limit = array<i64: -9223372036854775808, 4>, stride = array<i64: 1, 1>} : (tensor<?x4xf32>) -> tensor<?x4xf32>
  return %0 : tensor<?x4xf32>
}

// -----

func.func @slice_past_static_end_beside_dynamic(%x: tensor<?x4xf32>) -> tensor<?x4xf32> {
  // expected-error @+1 {{'mlc.slice' op dimension 1: slice 0:5:1 is out of bounds for size 4}}
  %0 = "mlc.slice"(%x) {start = array<i64: 0, 0>, limit = array<i64: -9223372036854775808, 5>, stride = array<i64: 1, 1>} : (tensor<?x4xf32>) -> tensor<?x4xf32>
  return %0 : tensor<?x4xf32>
}

// -----

/// A `?` limit on a static dimension stands for its size: starting past it is out of bounds.

func.func @slice_to_end_start_past_static_size(%x: tensor<6x4xf32>) -> tensor<?x4xf32> {
  // expected-error @+1 {{'mlc.slice' op dimension 0: slice 7:6:1 is out of bounds for size 6}}
  %0 = "mlc.slice"(%x) {start = array<i64: 7, 0>, limit = array<i64: -9223372036854775808, 4>, stride = array<i64: 1, 1>} : (tensor<6x4xf32>) -> tensor<?x4xf32>
  return %0 : tensor<?x4xf32>
}

// -----

func.func @reshape_too_few_sizes(%x: tensor<?x?x128xf32>, %s: index) -> tensor<?x?x32xf32> {
  // expected-error @+1 {{'mlc.reshape' op expected 0 or 2 sizes (one per dynamic result size), got 1}}
  %0 = "mlc.reshape"(%x, %s) : (tensor<?x?x128xf32>, index) -> tensor<?x?x32xf32>
  return %0 : tensor<?x?x32xf32>
}

// -----

func.func @reshape_sizes_for_static_result(%x: tensor<2x4xf32>, %s: index) -> tensor<8xf32> {
  // expected-error @+1 {{'mlc.reshape' op a static result takes no sizes, got 1}}
  %0 = "mlc.reshape"(%x, %s) : (tensor<2x4xf32>, index) -> tensor<8xf32>
  return %0 : tensor<8xf32>
}

// -----

func.func @select_scalars_wrong_result(%c: tensor<2x2xi1>, %a: tensor<f32>, %b: tensor<f32>) -> tensor<f32> {
  // expected-error @+1 {{'mlc.select' op result has shape [], expected [2, 2]}}
  %0 = "mlc.select"(%c, %a, %b) : (tensor<2x2xi1>, tensor<f32>, tensor<f32>) -> tensor<f32>
  return %0 : tensor<f32>
}

// -----

func.func @slice_wrong_number_of_limits(%x: tensor<?x4xf32>, %n: index) -> tensor<?x?xf32> {
  // expected-error @+1 {{'mlc.slice' op expected 0 or 1 limits (one per '?' limit), got 2}}
  %0 = "mlc.slice"(%x, %n, %n) {start = array<i64: 0, 0>, limit = array<i64: -9223372036854775808, 4>, stride = array<i64: 1, 1>} : (tensor<?x4xf32>, index, index) -> tensor<?x?xf32>
  return %0 : tensor<?x?xf32>
}

// -----

func.func @broadcast_wrong_number_of_sizes(%x: tensor<1x4xf32>, %n: index) -> tensor<?x?x4xf32> {
  // expected-error @+1 {{'mlc.broadcast' op expected 0 or 2 sizes (one per dynamic result size), got 1}}
  %0 = "mlc.broadcast"(%x, %n) : (tensor<1x4xf32>, index) -> tensor<?x?x4xf32>
  return %0 : tensor<?x?x4xf32>
}

// -----

func.func @iota_without_its_size(%n: index) -> tensor<?xi64> {
  // expected-error @+1 {{'mlc.iota' op expected 1 size operand(s) for result tensor<?xi64>, got 0}}
  %0 = "mlc.iota"() : () -> tensor<?xi64>
  return %0 : tensor<?xi64>
}

// -----

func.func @iota_of_rank_two(%n: index) -> tensor<2x3xi64> {
  // expected-error @+1 {{'mlc.iota' op result must be 1-D, got tensor<2x3xi64>}}
  %0 = "mlc.iota"() : () -> tensor<2x3xi64>
  return %0 : tensor<2x3xi64>
}
