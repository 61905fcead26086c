// RUN: mlc-opt %s --split-input-file --verify-diagnostics

func.func @bincount_float_input(%x: tensor<4xf32>) -> tensor<?xi64> {
  // expected-error @+1 {{'mlc.bincount' op input must be a 1-D tensor of integers (not booleans), got tensor<4xf32>}}
  %0 = "mlc.bincount"(%x) {minlength = 0 : i64} : (tensor<4xf32>) -> tensor<?xi64>
  return %0 : tensor<?xi64>
}

// -----

func.func @bincount_2d_input(%x: tensor<2x3xi64>) -> tensor<?xi64> {
  // expected-error @+1 {{'mlc.bincount' op input must be a 1-D tensor of integers (not booleans), got tensor<2x3xi64>}}
  %0 = "mlc.bincount"(%x) {minlength = 0 : i64} : (tensor<2x3xi64>) -> tensor<?xi64>
  return %0 : tensor<?xi64>
}

// -----

func.func @bincount_negative_minlength(%x: tensor<4xi64>) -> tensor<?xi64> {
  // expected-error @+1 {{'mlc.bincount' op minlength must be >= 0, got -1}}
  %0 = "mlc.bincount"(%x) {minlength = -1 : i64} : (tensor<4xi64>) -> tensor<?xi64>
  return %0 : tensor<?xi64>
}

// -----

func.func @bincount_static_result(%x: tensor<4xi64>) -> tensor<5xi64> {
  // expected-error @+1 {{'mlc.bincount' op result must be 1-D of dynamic length (it depends on the input's values), got tensor<5xi64>}}
  %0 = "mlc.bincount"(%x) {minlength = 5 : i64} : (tensor<4xi64>) -> tensor<5xi64>
  return %0 : tensor<5xi64>
}

// -----

func.func @bincount_float_counts(%x: tensor<4xi64>) -> tensor<?xf32> {
  // expected-error @+1 {{'mlc.bincount' op result must hold integer counts when there are no weights, got f32}}
  %0 = "mlc.bincount"(%x) {minlength = 0 : i64} : (tensor<4xi64>) -> tensor<?xf32>
  return %0 : tensor<?xf32>
}

// -----

func.func @bincount_weights_shape(%x: tensor<4xi64>, %w: tensor<3xf32>) -> tensor<?xf32> {
  // expected-error @+1 {{'mlc.bincount' op weights has shape [3], expected [4]}}
  %0 = "mlc.bincount"(%x, %w) {minlength = 0 : i64} : (tensor<4xi64>, tensor<3xf32>) -> tensor<?xf32>
  return %0 : tensor<?xf32>
}

// -----

func.func @bincount_weights_type(%x: tensor<4xi64>, %w: tensor<4xf16>) -> tensor<?xf64> {
  // expected-error @+1 {{'mlc.bincount' op weights has element type f16, expected f64}}
  %0 = "mlc.bincount"(%x, %w) {minlength = 0 : i64} : (tensor<4xi64>, tensor<4xf16>) -> tensor<?xf64>
  return %0 : tensor<?xf64>
}

// -----

func.func @bincount_no_minlength(%x: tensor<4xi64>) -> tensor<?xi64> {
  // expected-error @+1 {{'mlc.bincount' op requires attribute 'minlength'}}
  %0 = "mlc.bincount"(%x) : (tensor<4xi64>) -> tensor<?xi64>
  return %0 : tensor<?xi64>
}

// -----

func.func @bincount_bool_input(%x: tensor<4xi1>) -> tensor<?xi64> {
  // expected-error @+1 {{'mlc.bincount' op input must be a 1-D tensor of integers (not booleans), got tensor<4xi1>}}
  %0 = "mlc.bincount"(%x) {minlength = 0 : i64} : (tensor<4xi1>) -> tensor<?xi64>
  return %0 : tensor<?xi64>
}
