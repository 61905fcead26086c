// RUN: mlc-opt %s --split-input-file --verify-diagnostics

func.func @constant_missing_value() -> tensor<2xf32> {
  // expected-error @+1 {{'mlc.constant' op requires attribute 'value'}}
  %0 = "mlc.constant"() : () -> tensor<2xf32>
  return %0 : tensor<2xf32>
}

// -----

func.func @constant_scalar_value() -> tensor<2xf32> {
  // expected-error @+1 {{'mlc.constant' op attribute 'value' must be a tensor elements attribute, got 1.000000e+00 : f32}}
  %0 = "mlc.constant"() {value = 1.0 : f32} : () -> tensor<2xf32>
  return %0 : tensor<2xf32>
}

// -----

func.func @constant_string_value() -> tensor<2xf32> {
  // expected-error @+1 {{'mlc.constant' op attribute 'value' must be a tensor elements attribute, got "weights"}}
  %0 = "mlc.constant"() {value = "weights"} : () -> tensor<2xf32>
  return %0 : tensor<2xf32>
}

// -----

func.func @constant_vector_value() -> vector<2xf32> {
  // expected-error @+1 {{'mlc.constant' op attribute 'value' must be a tensor elements attribute, got dense<1.000000e+00> : vector<2xf32>}}
  %0 = "mlc.constant"() {value = dense<1.0> : vector<2xf32>} : () -> vector<2xf32>
  return %0 : vector<2xf32>
}

// -----

func.func @constant_shape_mismatch() -> tensor<3xf32> {
  // expected-error @+1 {{'mlc.constant' op result type tensor<3xf32> does not match value type tensor<2xf32>}}
  %0 = "mlc.constant"() {value = dense<[1.0, 2.0]> : tensor<2xf32>} : () -> tensor<3xf32>
  return %0 : tensor<3xf32>
}

// -----

func.func @constant_element_type_mismatch() -> tensor<2xf16> {
  // expected-error @+1 {{'mlc.constant' op result type tensor<2xf16> does not match value type tensor<2xf32>}}
  %0 = "mlc.constant"() {value = dense<[1.0, 2.0]> : tensor<2xf32>} : () -> tensor<2xf16>
  return %0 : tensor<2xf16>
}

// -----

func.func @constant_resource_type_mismatch() -> tensor<4xf32> {
  // expected-error @+1 {{'mlc.constant' op result type tensor<4xf32> does not match value type tensor<2xf32>}}
  %0 = "mlc.constant"() {value = dense_resource<blob> : tensor<2xf32>} : () -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

{-#
  dialect_resources: {
    builtin: {
      blob: "0x040000000000803F00000040"
    }
  }
#-}

// -----

func.func @cast_shape_mismatch(%x: tensor<2x3xf32>) -> tensor<3x2xi32> {
  // expected-error @+1 {{'mlc.cast' op result has shape [3, 2], expected [2, 3]}}
  %0 = "mlc.cast"(%x) : (tensor<2x3xf32>) -> tensor<3x2xi32>
  return %0 : tensor<3x2xi32>
}

// -----

func.func @cast_rank_mismatch(%x: tensor<6xf32>) -> tensor<2x3xi32> {
  // expected-error @+1 {{'mlc.cast' op result has shape [2, 3], expected [6]}}
  %0 = "mlc.cast"(%x) : (tensor<6xf32>) -> tensor<2x3xi32>
  return %0 : tensor<2x3xi32>
}

// -----

func.func @cast_unranked_input(%x: tensor<*xf32>) -> tensor<2xi32> {
  // expected-error @+1 {{'mlc.cast' op input must be a ranked tensor, got tensor<*xf32>}}
  %0 = "mlc.cast"(%x) : (tensor<*xf32>) -> tensor<2xi32>
  return %0 : tensor<2xi32>
}

// -----

func.func @cast_unranked_result(%x: tensor<2xf32>) -> tensor<*xi32> {
  // expected-error @+1 {{'mlc.cast' op result must be a ranked tensor, got tensor<*xi32>}}
  %0 = "mlc.cast"(%x) : (tensor<2xf32>) -> tensor<*xi32>
  return %0 : tensor<*xi32>
}

// -----

func.func @cast_scalar(%x: f32) -> tensor<1xi32> {
  // expected-error @+1 {{'mlc.cast' op input must be a ranked tensor, got f32}}
  %0 = "mlc.cast"(%x) : (f32) -> tensor<1xi32>
  return %0 : tensor<1xi32>
}
