// RUN: mlc-opt %s --split-input-file --verify-diagnostics

func.func @atan2_on_integers(%n: tensor<4xi32>) -> tensor<4xi32> {
  // expected-error @+1 {{'mlc.atan2' op requires floating-point operands, got i32}}
  %0 = "mlc.atan2"(%n, %n) : (tensor<4xi32>, tensor<4xi32>) -> tensor<4xi32>
  return %0 : tensor<4xi32>
}

// -----

func.func @hypot_on_integers(%n: tensor<4xi32>) -> tensor<4xi32> {
  // expected-error @+1 {{'mlc.hypot' op requires floating-point operands, got i32}}
  %0 = "mlc.hypot"(%n, %n) : (tensor<4xi32>, tensor<4xi32>) -> tensor<4xi32>
  return %0 : tensor<4xi32>
}

// -----

func.func @log1p_on_integers(%n: tensor<4xi32>) -> tensor<4xi32> {
  // expected-error @+1 {{'mlc.log1p' op requires a floating-point tensor, got tensor<4xi32>}}
  %0 = "mlc.log1p"(%n) : (tensor<4xi32>) -> tensor<4xi32>
  return %0 : tensor<4xi32>
}
