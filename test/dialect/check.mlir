// RUN: mlc-opt %s | mlc-opt | FileCheck %s

/// A run-time check round-trips: an integer divisor, of any rank.

// CHECK-LABEL: func.func @check_nonzero
// CHECK: "mlc.check_nonzero"(%arg0) : (tensor<2x3xi64>) -> tensor<2x3xi64>
// CHECK: "mlc.check_nonzero"(%arg1) : (tensor<i32>) -> tensor<i32>
func.func @check_nonzero(%d: tensor<2x3xi64>, %s: tensor<i32>) -> (tensor<2x3xi64>, tensor<i32>) {
  %0 = "mlc.check_nonzero"(%d) : (tensor<2x3xi64>) -> tensor<2x3xi64>
  %1 = "mlc.check_nonzero"(%s) : (tensor<i32>) -> tensor<i32>
  return %0, %1 : tensor<2x3xi64>, tensor<i32>
}
