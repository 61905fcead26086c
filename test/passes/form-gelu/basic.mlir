// RUN: mlc-opt %s --pass-pipeline='builtin.module(mlc-form-gelu)' --split-input-file | FileCheck %s
// RUN: mlc-opt %s --pass-pipeline='builtin.module(mlc-form-gelu)' --split-input-file --mlir-pass-statistics -o /dev/null 2>&1 | FileCheck %s --check-prefix=STATS

/// GELU's tanh approximation written out becomes one mlc.gelu: GPT-2's gelu_new as torch
/// exports it, Hugging Face's FastGELU (the cube as x * x * x, sqrt(2/pi) outside), and
/// GPT-J's (x * 0.5 first). Near misses stay: another cubic coefficient, a tanh of
/// another value, a factor that is not 1/2, and an x that broadcasts.

// STATS: 'mlc-form-gelu'
// STATS: (3) GELUs formed

// CHECK-LABEL: func.func @gelu_new
// CHECK-SAME: (%[[X:.*]]: tensor<4x64xf32>)
// CHECK-NEXT: %[[G:.*]] = "mlc.gelu"(%[[X]]) {approximate = "tanh"} : (tensor<4x64xf32>) -> tensor<4x64xf32>
// CHECK-NEXT: return %[[G]]
func.func @gelu_new(%x: tensor<4x64xf32>) -> tensor<4x64xf32> {
  %half = "mlc.constant"() {value = dense<5.000000e-01> : tensor<f32>} : () -> tensor<f32>
  %three = "mlc.constant"() {value = dense<3.000000e+00> : tensor<f32>} : () -> tensor<f32>
  %cubic = "mlc.constant"() {value = dense<4.471500e-02> : tensor<f32>} : () -> tensor<f32>
  %c = "mlc.constant"() {value = dense<0.797884583> : tensor<f32>} : () -> tensor<f32>
  %one = "mlc.constant"() {value = dense<1.000000e+00> : tensor<f32>} : () -> tensor<f32>
  %0 = "mlc.mul"(%x, %half) : (tensor<4x64xf32>, tensor<f32>) -> tensor<4x64xf32>
  %1 = "mlc.pow"(%x, %three) : (tensor<4x64xf32>, tensor<f32>) -> tensor<4x64xf32>
  %2 = "mlc.mul"(%1, %cubic) : (tensor<4x64xf32>, tensor<f32>) -> tensor<4x64xf32>
  %3 = "mlc.add"(%x, %2) : (tensor<4x64xf32>, tensor<4x64xf32>) -> tensor<4x64xf32>
  %4 = "mlc.mul"(%3, %c) : (tensor<4x64xf32>, tensor<f32>) -> tensor<4x64xf32>
  %5 = "mlc.tanh"(%4) : (tensor<4x64xf32>) -> tensor<4x64xf32>
  %6 = "mlc.add"(%5, %one) : (tensor<4x64xf32>, tensor<f32>) -> tensor<4x64xf32>
  %7 = "mlc.mul"(%0, %6) : (tensor<4x64xf32>, tensor<4x64xf32>) -> tensor<4x64xf32>
  return %7 : tensor<4x64xf32>
}

// -----

// CHECK-LABEL: func.func @fast_gelu
// CHECK-SAME: (%[[X:.*]]: tensor<8xf32>)
// CHECK-NEXT: %[[G:.*]] = "mlc.gelu"(%[[X]]) {approximate = "tanh"}
// CHECK-NEXT: return %[[G]]
func.func @fast_gelu(%x: tensor<8xf32>) -> tensor<8xf32> {
  %half = "mlc.constant"() {value = dense<5.000000e-01> : tensor<f32>} : () -> tensor<f32>
  %cubic = "mlc.constant"() {value = dense<4.471500e-02> : tensor<f32>} : () -> tensor<f32>
  %c = "mlc.constant"() {value = dense<0.797884583> : tensor<f32>} : () -> tensor<f32>
  %one = "mlc.constant"() {value = dense<1.000000e+00> : tensor<f32>} : () -> tensor<f32>
  %0 = "mlc.mul"(%x, %half) : (tensor<8xf32>, tensor<f32>) -> tensor<8xf32>
  %1 = "mlc.mul"(%x, %c) : (tensor<8xf32>, tensor<f32>) -> tensor<8xf32>
  %2 = "mlc.mul"(%x, %cubic) : (tensor<8xf32>, tensor<f32>) -> tensor<8xf32>
  %3 = "mlc.mul"(%2, %x) : (tensor<8xf32>, tensor<8xf32>) -> tensor<8xf32>
  %4 = "mlc.add"(%one, %3) : (tensor<f32>, tensor<8xf32>) -> tensor<8xf32>
  %5 = "mlc.mul"(%1, %4) : (tensor<8xf32>, tensor<8xf32>) -> tensor<8xf32>
  %6 = "mlc.tanh"(%5) : (tensor<8xf32>) -> tensor<8xf32>
  %7 = "mlc.add"(%one, %6) : (tensor<f32>, tensor<8xf32>) -> tensor<8xf32>
  %8 = "mlc.mul"(%0, %7) : (tensor<8xf32>, tensor<8xf32>) -> tensor<8xf32>
  return %8 : tensor<8xf32>
}

// -----

// CHECK-LABEL: func.func @gpt_j
// CHECK-SAME: (%[[X:.*]]: tensor<8xf32>)
// CHECK-NEXT: %[[G:.*]] = "mlc.gelu"(%[[X]]) {approximate = "tanh"}
// CHECK-NEXT: return %[[G]]
func.func @gpt_j(%x: tensor<8xf32>) -> tensor<8xf32> {
  %half = "mlc.constant"() {value = dense<5.000000e-01> : tensor<f32>} : () -> tensor<f32>
  %cubic = "mlc.constant"() {value = dense<4.471500e-02> : tensor<f32>} : () -> tensor<f32>
  %c = "mlc.constant"() {value = dense<0.797884583> : tensor<f32>} : () -> tensor<f32>
  %one = "mlc.constant"() {value = dense<1.000000e+00> : tensor<f32>} : () -> tensor<f32>
  %0 = "mlc.mul"(%x, %half) : (tensor<8xf32>, tensor<f32>) -> tensor<8xf32>
  %1 = "mlc.mul"(%x, %x) : (tensor<8xf32>, tensor<8xf32>) -> tensor<8xf32>
  %2 = "mlc.mul"(%1, %cubic) : (tensor<8xf32>, tensor<f32>) -> tensor<8xf32>
  %3 = "mlc.add"(%2, %one) : (tensor<8xf32>, tensor<f32>) -> tensor<8xf32>
  %4 = "mlc.mul"(%c, %x) : (tensor<f32>, tensor<8xf32>) -> tensor<8xf32>
  %5 = "mlc.mul"(%4, %3) : (tensor<8xf32>, tensor<8xf32>) -> tensor<8xf32>
  %6 = "mlc.tanh"(%5) : (tensor<8xf32>) -> tensor<8xf32>
  %7 = "mlc.add"(%6, %one) : (tensor<8xf32>, tensor<f32>) -> tensor<8xf32>
  %8 = "mlc.mul"(%0, %7) : (tensor<8xf32>, tensor<8xf32>) -> tensor<8xf32>
  return %8 : tensor<8xf32>
}

// -----

/// A cubic coefficient of 0.04 is another function.

// CHECK-LABEL: func.func @other_coefficient
// CHECK-NOT: mlc.gelu
// CHECK: mlc.tanh
func.func @other_coefficient(%x: tensor<8xf32>) -> tensor<8xf32> {
  %half = "mlc.constant"() {value = dense<5.000000e-01> : tensor<f32>} : () -> tensor<f32>
  %three = "mlc.constant"() {value = dense<3.000000e+00> : tensor<f32>} : () -> tensor<f32>
  %cubic = "mlc.constant"() {value = dense<4.000000e-02> : tensor<f32>} : () -> tensor<f32>
  %c = "mlc.constant"() {value = dense<0.797884583> : tensor<f32>} : () -> tensor<f32>
  %one = "mlc.constant"() {value = dense<1.000000e+00> : tensor<f32>} : () -> tensor<f32>
  %0 = "mlc.mul"(%x, %half) : (tensor<8xf32>, tensor<f32>) -> tensor<8xf32>
  %1 = "mlc.pow"(%x, %three) : (tensor<8xf32>, tensor<f32>) -> tensor<8xf32>
  %2 = "mlc.mul"(%1, %cubic) : (tensor<8xf32>, tensor<f32>) -> tensor<8xf32>
  %3 = "mlc.add"(%x, %2) : (tensor<8xf32>, tensor<8xf32>) -> tensor<8xf32>
  %4 = "mlc.mul"(%3, %c) : (tensor<8xf32>, tensor<f32>) -> tensor<8xf32>
  %5 = "mlc.tanh"(%4) : (tensor<8xf32>) -> tensor<8xf32>
  %6 = "mlc.add"(%5, %one) : (tensor<8xf32>, tensor<f32>) -> tensor<8xf32>
  %7 = "mlc.mul"(%0, %6) : (tensor<8xf32>, tensor<8xf32>) -> tensor<8xf32>
  return %7 : tensor<8xf32>
}

// -----

/// The tanh of another value than the one multiplied: x * (1 + tanh(f(y))) / 2.

// CHECK-LABEL: func.func @tanh_of_another_value
// CHECK-NOT: mlc.gelu
// CHECK: mlc.tanh
func.func @tanh_of_another_value(%x: tensor<8xf32>, %y: tensor<8xf32>) -> tensor<8xf32> {
  %half = "mlc.constant"() {value = dense<5.000000e-01> : tensor<f32>} : () -> tensor<f32>
  %three = "mlc.constant"() {value = dense<3.000000e+00> : tensor<f32>} : () -> tensor<f32>
  %cubic = "mlc.constant"() {value = dense<4.471500e-02> : tensor<f32>} : () -> tensor<f32>
  %c = "mlc.constant"() {value = dense<0.797884583> : tensor<f32>} : () -> tensor<f32>
  %one = "mlc.constant"() {value = dense<1.000000e+00> : tensor<f32>} : () -> tensor<f32>
  %0 = "mlc.mul"(%x, %half) : (tensor<8xf32>, tensor<f32>) -> tensor<8xf32>
  %1 = "mlc.pow"(%y, %three) : (tensor<8xf32>, tensor<f32>) -> tensor<8xf32>
  %2 = "mlc.mul"(%1, %cubic) : (tensor<8xf32>, tensor<f32>) -> tensor<8xf32>
  %3 = "mlc.add"(%y, %2) : (tensor<8xf32>, tensor<8xf32>) -> tensor<8xf32>
  %4 = "mlc.mul"(%3, %c) : (tensor<8xf32>, tensor<f32>) -> tensor<8xf32>
  %5 = "mlc.tanh"(%4) : (tensor<8xf32>) -> tensor<8xf32>
  %6 = "mlc.add"(%5, %one) : (tensor<8xf32>, tensor<f32>) -> tensor<8xf32>
  %7 = "mlc.mul"(%0, %6) : (tensor<8xf32>, tensor<8xf32>) -> tensor<8xf32>
  return %7 : tensor<8xf32>
}

// -----

/// Without the factor 1/2 it is twice GELU.

// CHECK-LABEL: func.func @no_half
// CHECK-NOT: mlc.gelu
// CHECK: mlc.tanh
func.func @no_half(%x: tensor<8xf32>) -> tensor<8xf32> {
  %three = "mlc.constant"() {value = dense<3.000000e+00> : tensor<f32>} : () -> tensor<f32>
  %cubic = "mlc.constant"() {value = dense<4.471500e-02> : tensor<f32>} : () -> tensor<f32>
  %c = "mlc.constant"() {value = dense<0.797884583> : tensor<f32>} : () -> tensor<f32>
  %one = "mlc.constant"() {value = dense<1.000000e+00> : tensor<f32>} : () -> tensor<f32>
  %1 = "mlc.pow"(%x, %three) : (tensor<8xf32>, tensor<f32>) -> tensor<8xf32>
  %2 = "mlc.mul"(%1, %cubic) : (tensor<8xf32>, tensor<f32>) -> tensor<8xf32>
  %3 = "mlc.add"(%x, %2) : (tensor<8xf32>, tensor<8xf32>) -> tensor<8xf32>
  %4 = "mlc.mul"(%3, %c) : (tensor<8xf32>, tensor<f32>) -> tensor<8xf32>
  %5 = "mlc.tanh"(%4) : (tensor<8xf32>) -> tensor<8xf32>
  %6 = "mlc.add"(%5, %one) : (tensor<8xf32>, tensor<f32>) -> tensor<8xf32>
  %7 = "mlc.mul"(%x, %6) : (tensor<8xf32>, tensor<8xf32>) -> tensor<8xf32>
  return %7 : tensor<8xf32>
}

// -----

/// x of [8] broadcast to [2, 8] by the factors: GELU of x would have x's shape.

// CHECK-LABEL: func.func @broadcast
// CHECK-NOT: mlc.gelu
// CHECK: mlc.tanh
func.func @broadcast(%x: tensor<8xf32>, %h: tensor<2x8xf32>) -> tensor<2x8xf32> {
  %three = "mlc.constant"() {value = dense<3.000000e+00> : tensor<f32>} : () -> tensor<f32>
  %cubic = "mlc.constant"() {value = dense<4.471500e-02> : tensor<f32>} : () -> tensor<f32>
  %c = "mlc.constant"() {value = dense<0.797884583> : tensor<f32>} : () -> tensor<f32>
  %one = "mlc.constant"() {value = dense<1.000000e+00> : tensor<2x8xf32>} : () -> tensor<2x8xf32>
  %half = "mlc.constant"() {value = dense<5.000000e-01> : tensor<f32>} : () -> tensor<f32>
  %0 = "mlc.mul"(%x, %half) : (tensor<8xf32>, tensor<f32>) -> tensor<8xf32>
  %1 = "mlc.pow"(%x, %three) : (tensor<8xf32>, tensor<f32>) -> tensor<8xf32>
  %2 = "mlc.mul"(%1, %cubic) : (tensor<8xf32>, tensor<f32>) -> tensor<8xf32>
  %3 = "mlc.add"(%x, %2) : (tensor<8xf32>, tensor<8xf32>) -> tensor<8xf32>
  %4 = "mlc.mul"(%3, %c) : (tensor<8xf32>, tensor<f32>) -> tensor<8xf32>
  %5 = "mlc.tanh"(%4) : (tensor<8xf32>) -> tensor<8xf32>
  %6 = "mlc.add"(%5, %one) : (tensor<8xf32>, tensor<2x8xf32>) -> tensor<2x8xf32>
  %7 = "mlc.mul"(%0, %6) : (tensor<8xf32>, tensor<2x8xf32>) -> tensor<2x8xf32>
  return %7 : tensor<2x8xf32>
}
