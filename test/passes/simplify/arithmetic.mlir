// RUN: mlc-opt %s --pass-pipeline='builtin.module(mlc-simplify)' --split-input-file | FileCheck %s

/// x + 0, x - 0, x * 1 and x / 1 are x, when the constant (a `dense<>` splat of
/// any shape) does not broadcast x to a larger shape.

// CHECK-LABEL: func.func @add_zero
// CHECK-SAME: (%[[X:.*]]: tensor<2x3xf32>)
// CHECK-NEXT: return %[[X]], %[[X]]
func.func @add_zero(%x: tensor<2x3xf32>) -> (tensor<2x3xf32>, tensor<2x3xf32>) {
  %zero = "mlc.constant"() {value = dense<0.0> : tensor<f32>} : () -> tensor<f32>
  %0 = "mlc.add"(%x, %zero) : (tensor<2x3xf32>, tensor<f32>) -> tensor<2x3xf32>
  %1 = "mlc.add"(%zero, %x) : (tensor<f32>, tensor<2x3xf32>) -> tensor<2x3xf32>
  return %0, %1 : tensor<2x3xf32>, tensor<2x3xf32>
}

// -----

// CHECK-LABEL: func.func @sub_zero
// CHECK-SAME: (%[[X:.*]]: tensor<2x3xi64>)
// CHECK-NEXT: return %[[X]]
func.func @sub_zero(%x: tensor<2x3xi64>) -> tensor<2x3xi64> {
  %zero = "mlc.constant"() {value = dense<0> : tensor<1x3xi64>} : () -> tensor<1x3xi64>
  %0 = "mlc.sub"(%x, %zero) : (tensor<2x3xi64>, tensor<1x3xi64>) -> tensor<2x3xi64>
  return %0 : tensor<2x3xi64>
}

// -----

// CHECK-LABEL: func.func @mul_one_div_one
// CHECK-SAME: (%[[X:.*]]: tensor<4xf32>)
// CHECK-NEXT: return %[[X]], %[[X]], %[[X]]
func.func @mul_one_div_one(%x: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>, tensor<4xf32>) {
  %one = "mlc.constant"() {value = dense<1.0> : tensor<4xf32>} : () -> tensor<4xf32>
  %0 = "mlc.mul"(%x, %one) : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  %1 = "mlc.mul"(%one, %x) : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  %2 = "mlc.div"(%x, %one) : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  return %0, %1, %2 : tensor<4xf32>, tensor<4xf32>, tensor<4xf32>
}

// -----

/// For integers x * 0 is 0, of the result's shape.

// CHECK-LABEL: func.func @mul_zero_integer
// CHECK-NEXT: %[[Z:.*]] = "mlc.constant"() {value = dense<0> : tensor<2x4xi32>}
// CHECK-NEXT: return %[[Z]]
func.func @mul_zero_integer(%x: tensor<4xi32>) -> tensor<2x4xi32> {
  %zero = "mlc.constant"() {value = dense<0> : tensor<2x1xi32>} : () -> tensor<2x1xi32>
  %0 = "mlc.mul"(%zero, %x) : (tensor<2x1xi32>, tensor<4xi32>) -> tensor<2x4xi32>
  return %0 : tensor<2x4xi32>
}

// -----

/// For floats x * 0 is NaN when x is NaN or inf.

// CHECK-LABEL: func.func @negative_float_mul_zero
// CHECK: %[[Y:.*]] = "mlc.mul"
// CHECK-NEXT: return %[[Y]]
func.func @negative_float_mul_zero(%x: tensor<4xf32>) -> tensor<4xf32> {
  %zero = "mlc.constant"() {value = dense<0.0> : tensor<f32>} : () -> tensor<f32>
  %0 = "mlc.mul"(%x, %zero) : (tensor<4xf32>, tensor<f32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

/// The zero broadcasts x to a larger shape: the add is that broadcast.

// CHECK-LABEL: func.func @negative_add_zero_broadcasting
// CHECK: %[[Y:.*]] = "mlc.add"
// CHECK-NEXT: return %[[Y]]
func.func @negative_add_zero_broadcasting(%x: tensor<3xf32>) -> tensor<2x3xf32> {
  %zero = "mlc.constant"() {value = dense<0.0> : tensor<2x3xf32>} : () -> tensor<2x3xf32>
  %0 = "mlc.add"(%x, %zero) : (tensor<3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}

// -----

/// 0 - x is -x, not x; a constant that is not one splat is not a zero.

// CHECK-LABEL: func.func @negative_zero_minus_x
// CHECK: "mlc.sub"
// CHECK: "mlc.add"
func.func @negative_zero_minus_x(%x: tensor<2xf32>) -> (tensor<2xf32>, tensor<2xf32>) {
  %zero = "mlc.constant"() {value = dense<0.0> : tensor<2xf32>} : () -> tensor<2xf32>
  %mixed = "mlc.constant"() {value = dense<[0.0, 1.0]> : tensor<2xf32>} : () -> tensor<2xf32>
  %0 = "mlc.sub"(%zero, %x) : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>
  %1 = "mlc.add"(%x, %mixed) : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>
  return %0, %1 : tensor<2xf32>, tensor<2xf32>
}

// -----

/// max(x, x) and min(x, x) are x (IREE's SPIR-V code generation refused the copy it
/// folds them to; found by test/fuzz). Of two different values, both stay.

// CHECK-LABEL: func.func @max_and_min_of_itself
// CHECK-SAME: (%[[X:.*]]: tensor<4x2xf32>, %[[Y:.*]]: tensor<4x2xf32>)
// CHECK-NEXT: %[[M:.*]] = "mlc.maximum"(%[[X]], %[[Y]])
// CHECK-NEXT: return %[[X]], %[[X]], %[[M]]
func.func @max_and_min_of_itself(%x: tensor<4x2xf32>, %y: tensor<4x2xf32>) -> (tensor<4x2xf32>, tensor<4x2xf32>, tensor<4x2xf32>) {
  %0 = "mlc.maximum"(%x, %x) : (tensor<4x2xf32>, tensor<4x2xf32>) -> tensor<4x2xf32>
  %1 = "mlc.minimum"(%x, %x) : (tensor<4x2xf32>, tensor<4x2xf32>) -> tensor<4x2xf32>
  %2 = "mlc.maximum"(%x, %y) : (tensor<4x2xf32>, tensor<4x2xf32>) -> tensor<4x2xf32>
  return %0, %1, %2 : tensor<4x2xf32>, tensor<4x2xf32>, tensor<4x2xf32>
}

// -----

/// select(c, x, x) is x, for the same reason (seed 140026). It stays where the condition
/// stretches x, and where the two values differ.

// CHECK-LABEL: func.func @select_of_one_value
// CHECK-SAME: (%[[C:.*]]: tensor<4x2xi1>, %[[X:.*]]: tensor<4x2xf32>, %[[Y:.*]]: tensor<4x2xf32>, %[[C3:.*]]: tensor<3x4x2xi1>)
// CHECK-NEXT: %[[S:.*]] = "mlc.select"(%[[C]], %[[X]], %[[Y]])
// CHECK-NEXT: %[[B:.*]] = "mlc.select"(%[[C3]], %[[X]], %[[X]])
// CHECK-NEXT: return %[[X]], %[[S]], %[[B]]
func.func @select_of_one_value(%c: tensor<4x2xi1>, %x: tensor<4x2xf32>, %y: tensor<4x2xf32>, %c3: tensor<3x4x2xi1>) -> (tensor<4x2xf32>, tensor<4x2xf32>, tensor<3x4x2xf32>) {
  %0 = "mlc.select"(%c, %x, %x) : (tensor<4x2xi1>, tensor<4x2xf32>, tensor<4x2xf32>) -> tensor<4x2xf32>
  %1 = "mlc.select"(%c, %x, %y) : (tensor<4x2xi1>, tensor<4x2xf32>, tensor<4x2xf32>) -> tensor<4x2xf32>
  %2 = "mlc.select"(%c3, %x, %x) : (tensor<3x4x2xi1>, tensor<4x2xf32>, tensor<4x2xf32>) -> tensor<3x4x2xf32>
  return %0, %1, %2 : tensor<4x2xf32>, tensor<4x2xf32>, tensor<3x4x2xf32>
}
