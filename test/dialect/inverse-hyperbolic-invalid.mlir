// RUN: mlc-opt %s --split-input-file --verify-diagnostics

func.func @acosh_on_integers(%n: tensor<4xi64>) -> tensor<4xi64> {
  // expected-error @+1 {{'mlc.acosh' op requires a floating-point tensor, got tensor<4xi64>}}
  %0 = "mlc.acosh"(%n) : (tensor<4xi64>) -> tensor<4xi64>
  return %0 : tensor<4xi64>
}

// -----

func.func @atanh_changes_type(%x: tensor<4xf32>) -> tensor<4xf16> {
  // expected-error @+1 {{'mlc.atanh' op result type tensor<4xf16> must equal input type tensor<4xf32>}}
  %0 = "mlc.atanh"(%x) : (tensor<4xf32>) -> tensor<4xf16>
  return %0 : tensor<4xf16>
}
