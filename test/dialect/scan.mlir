// RUN: mlc-opt %s | mlc-opt | FileCheck %s

/// Scans round-trip through the printer and parser unchanged.

// CHECK-LABEL: func.func @scans
func.func @scans(%x: tensor<2x5xf32>, %n: tensor<4xi64>) -> (tensor<2x5xf32>, tensor<4xi64>) {
  // CHECK: "mlc.cumsum"(%{{.*}}) {axis = -1 : i64} : (tensor<2x5xf32>) -> tensor<2x5xf32>
  %0 = "mlc.cumsum"(%x) {axis = -1 : i64} : (tensor<2x5xf32>) -> tensor<2x5xf32>
  // CHECK: "mlc.cumprod"(%{{.*}}) {axis = 0 : i64} : (tensor<4xi64>) -> tensor<4xi64>
  %1 = "mlc.cumprod"(%n) {axis = 0 : i64} : (tensor<4xi64>) -> tensor<4xi64>
  // CHECK: "mlc.logcumsumexp"(%{{.*}}) {axis = 1 : i64} : (tensor<2x5xf32>) -> tensor<2x5xf32>
  %2 = "mlc.logcumsumexp"(%0) {axis = 1 : i64} : (tensor<2x5xf32>) -> tensor<2x5xf32>
  return %2, %1 : tensor<2x5xf32>, tensor<4xi64>
}
