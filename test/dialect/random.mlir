// RUN: mlc-opt %s --split-input-file | mlc-opt --split-input-file | FileCheck %s

/// Random ops round-trip through the printer and parser unchanged.

// CHECK-LABEL: func.func @random_uniform
func.func @random_uniform() -> (tensor<3x4xf32>, tensor<8xf64>) {
  // CHECK: "mlc.random_uniform"() {high = 1.000000e+00 : f64, low = 0.000000e+00 : f64, seed = 42 : i64} : () -> tensor<3x4xf32>
  %0 = "mlc.random_uniform"() {seed = 42 : i64, low = 0.0 : f64, high = 1.0 : f64} : () -> tensor<3x4xf32>
  /// bernoulli's and dropout's uniforms are f64; a seed may be negative (any 64 bits).
  // CHECK: "mlc.random_uniform"() {high = 5.000000e+00 : f64, low = -2.000000e+00 : f64, seed = -7 : i64} : () -> tensor<8xf64>
  %1 = "mlc.random_uniform"() {seed = -7 : i64, low = -2.0 : f64, high = 5.0 : f64} : () -> tensor<8xf64>
  return %0, %1 : tensor<3x4xf32>, tensor<8xf64>
}

// -----

// CHECK-LABEL: func.func @random_normal_dynamic
// CHECK-SAME: (%[[N:.*]]: index)
func.func @random_normal_dynamic(%n: index) -> tensor<?x16xbf16> {
  // CHECK: "mlc.random_normal"(%[[N]]) {mean = 1.000000e+00 : f64, seed = 3 : i64, std = 2.000000e+00 : f64} : (index) -> tensor<?x16xbf16>
  %0 = "mlc.random_normal"(%n) {seed = 3 : i64, mean = 1.0 : f64, std = 2.0 : f64} : (index) -> tensor<?x16xbf16>
  return %0 : tensor<?x16xbf16>
}

// -----

// CHECK-LABEL: func.func @random_int
func.func @random_int() -> (tensor<5xi64>, tensor<f32>) {
  // CHECK: "mlc.random_int"() {high = 10 : i64, low = -3 : i64, seed = 1 : i64} : () -> tensor<5xi64>
  %0 = "mlc.random_int"() {seed = 1 : i64, low = -3 : i64, high = 10 : i64} : () -> tensor<5xi64>
  /// randint(10, (), dtype=torch.float32): integers held as floats.
  // CHECK: "mlc.random_int"() {high = 10 : i64, low = 0 : i64, seed = 2 : i64} : () -> tensor<f32>
  %1 = "mlc.random_int"() {seed = 2 : i64, low = 0 : i64, high = 10 : i64} : () -> tensor<f32>
  return %0, %1 : tensor<5xi64>, tensor<f32>
}
