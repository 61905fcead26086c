// RUN: mlc-opt %s --split-input-file --verify-diagnostics

func.func @bitwise_on_floats(%a: tensor<3xf32>) -> tensor<3xf32> {
  // expected-error @+1 {{'mlc.bitwise_or' op requires integer operands, got f32}}
  %0 = "mlc.bitwise_or"(%a, %a) : (tensor<3xf32>, tensor<3xf32>) -> tensor<3xf32>
  return %0 : tensor<3xf32>
}

// -----

func.func @shift_mixed_types(%a: tensor<3xi32>, %b: tensor<3xi64>) -> tensor<3xi32> {
  // expected-error @+1 {{'mlc.shift_left' op operands must share one element type, got i32, i64}}
  %0 = "mlc.shift_left"(%a, %b) : (tensor<3xi32>, tensor<3xi64>) -> tensor<3xi32>
  return %0 : tensor<3xi32>
}
