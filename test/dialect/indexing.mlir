// RUN: mlc-opt %s --split-input-file | mlc-opt --split-input-file | FileCheck %s

/// argmax, argmin and argsort round-trip through the printer and parser unchanged.

// CHECK-LABEL: func.func @arg_reductions
func.func @arg_reductions(%x: tensor<2x3x4xf32>) -> (tensor<2x4xi64>, tensor<2x3x1xi64>) {
  // CHECK: "mlc.argmax"(%{{.*}}) {axis = 1 : i64, keepdim = false} : (tensor<2x3x4xf32>) -> tensor<2x4xi64>
  %0 = "mlc.argmax"(%x) {axis = 1 : i64, keepdim = false} : (tensor<2x3x4xf32>) -> tensor<2x4xi64>
  // CHECK: "mlc.argmin"(%{{.*}}) {axis = -1 : i64, keepdim = true} : (tensor<2x3x4xf32>) -> tensor<2x3x1xi64>
  %1 = "mlc.argmin"(%x) {axis = -1 : i64, keepdim = true} : (tensor<2x3x4xf32>) -> tensor<2x3x1xi64>
  return %0, %1 : tensor<2x4xi64>, tensor<2x3x1xi64>
}

// -----

// CHECK-LABEL: func.func @argsort
func.func @argsort(%x: tensor<3x5xi32>) -> tensor<3x5xi64> {
  // CHECK: "mlc.argsort"(%{{.*}}) {axis = 1 : i64, descending = true} : (tensor<3x5xi32>) -> tensor<3x5xi64>
  %0 = "mlc.argsort"(%x) {axis = 1 : i64, descending = true} : (tensor<3x5xi32>) -> tensor<3x5xi64>
  return %0 : tensor<3x5xi64>
}
