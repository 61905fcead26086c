// RUN: mlc-opt %s --split-input-file --verify-diagnostics

func.func @float_divisor(%d: tensor<3xf32>) -> tensor<3xf32> {
  // expected-error @+1 {{'mlc.check_nonzero' op divisor must be integers (a float divides by zero into inf or NaN), got tensor<3xf32>}}
  %0 = "mlc.check_nonzero"(%d) : (tensor<3xf32>) -> tensor<3xf32>
  return %0 : tensor<3xf32>
}

// -----

func.func @bool_divisor(%d: tensor<3xi1>) -> tensor<3xi1> {
  // expected-error @+1 {{'mlc.check_nonzero' op divisor must be integers}}
  %0 = "mlc.check_nonzero"(%d) : (tensor<3xi1>) -> tensor<3xi1>
  return %0 : tensor<3xi1>
}

// -----

func.func @other_result_type(%d: tensor<3xi64>) -> tensor<3xi32> {
  // expected-error @+1 {{'mlc.check_nonzero' op result type tensor<3xi32> must equal divisor type tensor<3xi64>}}
  %0 = "mlc.check_nonzero"(%d) : (tensor<3xi64>) -> tensor<3xi32>
  return %0 : tensor<3xi32>
}
