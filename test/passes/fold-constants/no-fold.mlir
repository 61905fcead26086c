// RUN: mlc-opt %s --pass-pipeline='builtin.module(mlc-fold-constants)' --split-input-file | FileCheck %s

/// Ops that stay: an operand that is not a constant, results that are not
/// defined (integer powers with negative exponents, out-of-range gathers), a
/// dynamic result shape, bf16, which numpy cannot hold, and arithmetic on i1.

// CHECK-LABEL: func.func @no_fold_non_constant_operand
// CHECK-SAME: (%[[X:.*]]: tensor<2xf32>)
// CHECK-NEXT: %[[C:.*]] = "mlc.constant"
// CHECK-NEXT: %[[Y:.*]] = "mlc.add"(%[[X]], %[[C]])
// CHECK-NEXT: return %[[Y]]
func.func @no_fold_non_constant_operand(%x: tensor<2xf32>) -> tensor<2xf32> {
  %c = "mlc.constant"() {value = dense<[1.0, 2.0]> : tensor<2xf32>} : () -> tensor<2xf32>
  %y = "mlc.add"(%x, %c) : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>
  return %y : tensor<2xf32>
}

// -----

// CHECK-LABEL: func.func @no_fold_integer_pow_negative_exponent
// CHECK: "mlc.pow"
func.func @no_fold_integer_pow_negative_exponent() -> tensor<2xi32> {
  %a = "mlc.constant"() {value = dense<[2, 3]> : tensor<2xi32>} : () -> tensor<2xi32>
  %b = "mlc.constant"() {value = dense<[1, -1]> : tensor<2xi32>} : () -> tensor<2xi32>
  %c = "mlc.pow"(%a, %b) : (tensor<2xi32>, tensor<2xi32>) -> tensor<2xi32>
  return %c : tensor<2xi32>
}

// -----

// CHECK-LABEL: func.func @no_fold_gather_out_of_range
// CHECK: "mlc.gather"
func.func @no_fold_gather_out_of_range() -> tensor<1xf32> {
  %a = "mlc.constant"() {value = dense<[1.0, 2.0]> : tensor<2xf32>} : () -> tensor<2xf32>
  %i = "mlc.constant"() {value = dense<[2]> : tensor<1xi64>} : () -> tensor<1xi64>
  %g = "mlc.gather"(%a, %i) {axis = 0 : i64} : (tensor<2xf32>, tensor<1xi64>) -> tensor<1xf32>
  return %g : tensor<1xf32>
}

// -----

// CHECK-LABEL: func.func @no_fold_dynamic_result
// CHECK: "mlc.reshape"
func.func @no_fold_dynamic_result() -> tensor<?xf32> {
  %a = "mlc.constant"() {value = dense<[[1.0, 2.0]]> : tensor<1x2xf32>} : () -> tensor<1x2xf32>
  %r = "mlc.reshape"(%a) : (tensor<1x2xf32>) -> tensor<?xf32>
  return %r : tensor<?xf32>
}

// -----

// CHECK-LABEL: func.func @no_fold_bf16
// CHECK: "mlc.neg"
func.func @no_fold_bf16() -> tensor<2xbf16> {
  %a = "mlc.constant"() {value = dense<1.0> : tensor<2xbf16>} : () -> tensor<2xbf16>
  %r = "mlc.neg"(%a) : (tensor<2xbf16>) -> tensor<2xbf16>
  return %r : tensor<2xbf16>
}

// -----

/// On i1, + is modulo 2 in the lowering (true + true is false) but logic in
/// numpy: not folded.

// CHECK-LABEL: func.func @no_fold_bool_arithmetic
// CHECK: "mlc.add"
func.func @no_fold_bool_arithmetic() -> tensor<2xi1> {
  %a = "mlc.constant"() {value = dense<[true, false]> : tensor<2xi1>} : () -> tensor<2xi1>
  %c = "mlc.add"(%a, %a) : (tensor<2xi1>, tensor<2xi1>) -> tensor<2xi1>
  return %c : tensor<2xi1>
}

// -----

/// A check of a constant divisor with a zero stays, to fail each call as eager does.

// CHECK-LABEL: func.func @no_fold_check_of_a_zero
// CHECK: "mlc.check_nonzero"
func.func @no_fold_check_of_a_zero(%x: tensor<2xi64>) -> tensor<2xi64> {
  %c = "mlc.constant"() {value = dense<[3, 0]> : tensor<2xi64>} : () -> tensor<2xi64>
  %d = "mlc.check_nonzero"(%c) : (tensor<2xi64>) -> tensor<2xi64>
  %y = "mlc.floor_div"(%x, %d) : (tensor<2xi64>, tensor<2xi64>) -> tensor<2xi64>
  return %y : tensor<2xi64>
}
