// RUN: mlc-opt %s --split-input-file --verify-diagnostics

func.func @im2col_row_length(%x: tensor<1x7x7x8xf32>) -> tensor<1x7x7x64xf32> {
  // expected-error @+1 {{'mlc.im2col' op result has shape [1, 7, 7, 64], expected [1, 7, 7, 72]}}
  %0 = "mlc.im2col"(%x) {kernel = array<i64: 3, 3>, stride = array<i64: 1, 1>, padding = array<i64: 1, 1, 1, 1>, dilation = array<i64: 1, 1>} : (tensor<1x7x7x8xf32>) -> tensor<1x7x7x64xf32>
  return %0 : tensor<1x7x7x64xf32>
}

// -----

func.func @im2col_output_pixels(%x: tensor<1x7x7x8xf32>) -> tensor<1x7x7x72xf32> {
  // expected-error @+1 {{'mlc.im2col' op result has shape [1, 7, 7, 72], expected [1, 5, 5, 72]}}
  %0 = "mlc.im2col"(%x) {kernel = array<i64: 3, 3>, stride = array<i64: 1, 1>, padding = array<i64: 0, 0, 0, 0>, dilation = array<i64: 1, 1>} : (tensor<1x7x7x8xf32>) -> tensor<1x7x7x72xf32>
  return %0 : tensor<1x7x7x72xf32>
}

// -----

func.func @im2col_rank(%x: tensor<7x7x8xf32>) -> tensor<1x7x7x72xf32> {
  // expected-error @+1 {{'mlc.im2col' op input must be NHWC (rank 4), got rank 3}}
  %0 = "mlc.im2col"(%x) {kernel = array<i64: 3, 3>, stride = array<i64: 1, 1>, padding = array<i64: 1, 1, 1, 1>, dilation = array<i64: 1, 1>} : (tensor<7x7x8xf32>) -> tensor<1x7x7x72xf32>
  return %0 : tensor<1x7x7x72xf32>
}

// -----

func.func @im2col_kernel(%x: tensor<1x7x7x8xf32>) -> tensor<1x7x7x0xf32> {
  // expected-error @+1 {{'mlc.im2col' op kernel sizes must be positive, got [0, 3]}}
  %0 = "mlc.im2col"(%x) {kernel = array<i64: 0, 3>, stride = array<i64: 1, 1>, padding = array<i64: 1, 1, 1, 1>, dilation = array<i64: 1, 1>} : (tensor<1x7x7x8xf32>) -> tensor<1x7x7x0xf32>
  return %0 : tensor<1x7x7x0xf32>
}

// -----

func.func @im2col_stride(%x: tensor<1x7x7x8xf32>) -> tensor<1x7x7x72xf32> {
  // expected-error @+1 {{'mlc.im2col' op stride and dilation must be positive}}
  %0 = "mlc.im2col"(%x) {kernel = array<i64: 3, 3>, stride = array<i64: 0, 1>, padding = array<i64: 1, 1, 1, 1>, dilation = array<i64: 1, 1>} : (tensor<1x7x7x8xf32>) -> tensor<1x7x7x72xf32>
  return %0 : tensor<1x7x7x72xf32>
}

// -----

func.func @im2col_dynamic_height(%x: tensor<1x?x7x8xf32>) -> tensor<1x7x7x72xf32> {
  // expected-error @+1 {{'mlc.im2col' op only the batch dimension may be dynamic}}
  %0 = "mlc.im2col"(%x) {kernel = array<i64: 3, 3>, stride = array<i64: 1, 1>, padding = array<i64: 1, 1, 1, 1>, dilation = array<i64: 1, 1>} : (tensor<1x?x7x8xf32>) -> tensor<1x7x7x72xf32>
  return %0 : tensor<1x7x7x72xf32>
}

// -----

func.func @im2col_element_type(%x: tensor<1x7x7x8xf32>) -> tensor<1x7x7x72xf16> {
  // expected-error @+1 {{'mlc.im2col' op result has element type f16, expected f32}}
  %0 = "mlc.im2col"(%x) {kernel = array<i64: 3, 3>, stride = array<i64: 1, 1>, padding = array<i64: 1, 1, 1, 1>, dilation = array<i64: 1, 1>} : (tensor<1x7x7x8xf32>) -> tensor<1x7x7x72xf16>
  return %0 : tensor<1x7x7x72xf16>
}

// -----

func.func @im2col_missing_kernel(%x: tensor<1x7x7x8xf32>) -> tensor<1x7x7x72xf32> {
  // expected-error @+1 {{'mlc.im2col' op requires attribute 'kernel'}}
  %0 = "mlc.im2col"(%x) {stride = array<i64: 1, 1>, padding = array<i64: 1, 1, 1, 1>, dilation = array<i64: 1, 1>} : (tensor<1x7x7x8xf32>) -> tensor<1x7x7x72xf32>
  return %0 : tensor<1x7x7x72xf32>
}
