// RUN: mlc-opt %s --split-input-file --verify-diagnostics

func.func @complex_mixed_parts(%re: tensor<3xf32>, %im: tensor<3xf64>) -> tensor<3xcomplex<f32>> {
  // expected-error @+1 {{'mlc.complex' op real and imaginary parts must share one element type, got f32, f64}}
  %0 = "mlc.complex"(%re, %im) : (tensor<3xf32>, tensor<3xf64>) -> tensor<3xcomplex<f32>>
  return %0 : tensor<3xcomplex<f32>>
}

// -----

func.func @complex_of_integers(%re: tensor<3xi32>, %im: tensor<3xi32>) -> tensor<3xcomplex<f32>> {
  // expected-error @+1 {{'mlc.complex' op requires floating-point parts, got i32}}
  %0 = "mlc.complex"(%re, %im) : (tensor<3xi32>, tensor<3xi32>) -> tensor<3xcomplex<f32>>
  return %0 : tensor<3xcomplex<f32>>
}

// -----

func.func @complex_shapes_do_not_broadcast(%re: tensor<3xf32>, %im: tensor<4xf32>) -> tensor<4xcomplex<f32>> {
  // expected-error @+1 {{'mlc.complex' op operand shapes [3] and [4] are not broadcast-compatible}}
  %0 = "mlc.complex"(%re, %im) : (tensor<3xf32>, tensor<4xf32>) -> tensor<4xcomplex<f32>>
  return %0 : tensor<4xcomplex<f32>>
}

// -----

func.func @complex_wrong_precision(%re: tensor<3xf32>, %im: tensor<3xf32>) -> tensor<3xcomplex<f64>> {
  // expected-error @+1 {{'mlc.complex' op result has element type complex<f64>, expected complex<f32>}}
  %0 = "mlc.complex"(%re, %im) : (tensor<3xf32>, tensor<3xf32>) -> tensor<3xcomplex<f64>>
  return %0 : tensor<3xcomplex<f64>>
}

// -----

func.func @complex_wrong_shape(%re: tensor<2x3xf32>, %im: tensor<3xf32>) -> tensor<3xcomplex<f32>> {
  // expected-error @+1 {{'mlc.complex' op result has shape [3], expected [2, 3]}}
  %0 = "mlc.complex"(%re, %im) : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<3xcomplex<f32>>
  return %0 : tensor<3xcomplex<f32>>
}

// -----

func.func @real_of_reals(%x: tensor<3xf32>) -> tensor<3xf32> {
  // expected-error @+1 {{'mlc.real' op requires a complex tensor, got tensor<3xf32>}}
  %0 = "mlc.real"(%x) : (tensor<3xf32>) -> tensor<3xf32>
  return %0 : tensor<3xf32>
}

// -----

func.func @imag_wrong_precision(%z: tensor<3xcomplex<f32>>) -> tensor<3xf64> {
  // expected-error @+1 {{'mlc.imag' op result has element type f64, expected f32}}
  %0 = "mlc.imag"(%z) : (tensor<3xcomplex<f32>>) -> tensor<3xf64>
  return %0 : tensor<3xf64>
}

// -----

func.func @real_wrong_shape(%z: tensor<2x3xcomplex<f32>>) -> tensor<3x2xf32> {
  // expected-error @+1 {{'mlc.real' op result has shape [3, 2], expected [2, 3]}}
  %0 = "mlc.real"(%z) : (tensor<2x3xcomplex<f32>>) -> tensor<3x2xf32>
  return %0 : tensor<3x2xf32>
}
