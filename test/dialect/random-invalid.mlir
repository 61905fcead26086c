// RUN: mlc-opt %s --split-input-file --verify-diagnostics

func.func @uniform_missing_seed() -> tensor<4xf32> {
  // expected-error @+1 {{'mlc.random_uniform' op requires attribute 'seed'}}
  %0 = "mlc.random_uniform"() {low = 0.0 : f64, high = 1.0 : f64} : () -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

func.func @uniform_of_integers() -> tensor<4xi64> {
  // expected-error @+1 {{'mlc.random_uniform' op result must hold floats, got i64}}
  %0 = "mlc.random_uniform"() {seed = 1 : i64, low = 0.0 : f64, high = 1.0 : f64} : () -> tensor<4xi64>
  return %0 : tensor<4xi64>
}

// -----

func.func @uniform_reversed_range() -> tensor<4xf32> {
  // expected-error @+1 {{'mlc.random_uniform' op low must not exceed high, got [2.0, 1.0)}}
  %0 = "mlc.random_uniform"() {seed = 1 : i64, low = 2.0 : f64, high = 1.0 : f64} : () -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

func.func @uniform_missing_size(%n: index) -> tensor<?x?xf32> {
  // expected-error @+1 {{'mlc.random_uniform' op expected 2 size operand(s) (one per dynamic result size), got 1}}
  %0 = "mlc.random_uniform"(%n) {seed = 1 : i64, low = 0.0 : f64, high = 1.0 : f64} : (index) -> tensor<?x?xf32>
  return %0 : tensor<?x?xf32>
}

// -----

func.func @normal_negative_std() -> tensor<4xf32> {
  // expected-error @+1 {{'mlc.random_normal' op std must not be negative, got -1.0}}
  %0 = "mlc.random_normal"() {seed = 1 : i64, mean = 0.0 : f64, std = -1.0 : f64} : () -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

func.func @int_empty_range() -> tensor<4xi64> {
  // expected-error @+1 {{'mlc.random_int' op low must be below high, got [3, 3)}}
  %0 = "mlc.random_int"() {seed = 1 : i64, low = 3 : i64, high = 3 : i64} : () -> tensor<4xi64>
  return %0 : tensor<4xi64>
}

// -----

func.func @int_seed_not_integer() -> tensor<4xi64> {
  // expected-error @+1 {{'mlc.random_int' op attribute 'seed' must be an integer, got 1.000000e+00 : f64}}
  %0 = "mlc.random_int"() {seed = 1.0 : f64, low = 0 : i64, high = 3 : i64} : () -> tensor<4xi64>
  return %0 : tensor<4xi64>
}
