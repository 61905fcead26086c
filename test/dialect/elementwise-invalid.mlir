// RUN: mlc-opt %s --split-input-file --verify-diagnostics

func.func @unary_result_type(%x: tensor<2x3xf32>) -> tensor<3x2xf32> {
  // expected-error @+1 {{'mlc.relu' op result type tensor<3x2xf32> must equal input type tensor<2x3xf32>}}
  %0 = "mlc.relu"(%x) : (tensor<2x3xf32>) -> tensor<3x2xf32>
  return %0 : tensor<3x2xf32>
}

// -----

func.func @exp_of_integers(%x: tensor<4xi32>) -> tensor<4xi32> {
  // expected-error @+1 {{'mlc.exp' op requires a floating-point tensor, got tensor<4xi32>}}
  %0 = "mlc.exp"(%x) : (tensor<4xi32>) -> tensor<4xi32>
  return %0 : tensor<4xi32>
}

// -----

func.func @unranked(%x: tensor<*xf32>) -> tensor<*xf32> {
  // expected-error @+1 {{'mlc.relu' op input must be a ranked tensor, got tensor<*xf32>}}
  %0 = "mlc.relu"(%x) : (tensor<*xf32>) -> tensor<*xf32>
  return %0 : tensor<*xf32>
}

// -----

func.func @gelu_bad_approximation(%x: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{attribute 'approximate' must be one of 'none', 'tanh', got "fast"}}
  %0 = "mlc.gelu"(%x) {approximate = "fast"} : (tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

func.func @softplus_zero_beta(%x: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{'mlc.softplus' op beta must not be zero}}
  %0 = "mlc.softplus"(%x) {beta = 0.0 : f64, threshold = 20.0 : f64} : (tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

func.func @softplus_of_integers(%x: tensor<4xi32>) -> tensor<4xi32> {
  // expected-error @+1 {{'mlc.softplus' op requires a floating-point tensor, got tensor<4xi32>}}
  %0 = "mlc.softplus"(%x) {beta = 1.0 : f64, threshold = 20.0 : f64} : (tensor<4xi32>) -> tensor<4xi32>
  return %0 : tensor<4xi32>
}

// -----

func.func @not_broadcastable(%x: tensor<2x3xf32>, %y: tensor<2xf32>) -> tensor<2x3xf32> {
  // expected-error @+1 {{'mlc.add' op operand shapes [2, 3] and [2] are not broadcast-compatible}}
  %0 = "mlc.add"(%x, %y) : (tensor<2x3xf32>, tensor<2xf32>) -> tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}

// -----

func.func @mixed_element_types(%x: tensor<4xf32>, %y: tensor<4xf16>) -> tensor<4xf32> {
  // expected-error @+1 {{'mlc.mul' op operands must share one element type, got f32, f16}}
  %0 = "mlc.mul"(%x, %y) : (tensor<4xf32>, tensor<4xf16>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

func.func @wrong_broadcast_result(%x: tensor<2x3xf32>, %y: tensor<3xf32>) -> tensor<3x3xf32> {
  // expected-error @+1 {{'mlc.add' op result has shape [3, 3], expected [2, 3]}}
  %0 = "mlc.add"(%x, %y) : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<3x3xf32>
  return %0 : tensor<3x3xf32>
}

// -----

func.func @compare_result_not_i1(%x: tensor<4xf32>, %y: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{'mlc.compare' op result has element type f32, expected i1}}
  %0 = "mlc.compare"(%x, %y) {predicate = "lt"} : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

func.func @compare_bad_predicate(%x: tensor<4xf32>, %y: tensor<4xf32>) -> tensor<4xi1> {
  // expected-error @+1 {{attribute 'predicate' must be one of 'eq', 'ne', 'lt', 'le', 'gt', 'ge', got "lesser"}}
  %0 = "mlc.compare"(%x, %y) {predicate = "lesser"} : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xi1>
  return %0 : tensor<4xi1>
}

// -----

func.func @select_condition_not_i1(%c: tensor<4xf32>, %x: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{'mlc.select' op condition has element type f32, expected i1}}
  %0 = "mlc.select"(%c, %x, %x) : (tensor<4xf32>, tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

func.func @missing_attribute(%x: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{'mlc.gelu' op requires attribute 'approximate'}}
  %0 = "mlc.gelu"(%x) : (tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

func.func @add_one_operand(%x: tensor<2x3xf32>) -> tensor<2x3xf32> {
  // expected-error @+1 {{'mlc.add' op expects exactly 2 operands, but got 1}}
  %0 = "mlc.add"(%x) : (tensor<2x3xf32>) -> tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}
