// RUN: mlc-opt %s | mlc-opt | FileCheck %s

/// acosh, asinh and atanh round-trip unchanged.

// CHECK-LABEL: func.func @inverse_hyperbolic
// CHECK: "mlc.acosh"(%{{.*}}) : (tensor<4xf32>) -> tensor<4xf32>
// CHECK: "mlc.asinh"(%{{.*}}) : (tensor<4xf32>) -> tensor<4xf32>
// CHECK: "mlc.atanh"(%{{.*}}) : (tensor<2x?xf16>) -> tensor<2x?xf16>
func.func @inverse_hyperbolic(%x: tensor<4xf32>, %h: tensor<2x?xf16>) -> (tensor<4xf32>, tensor<2x?xf16>) {
  %0 = "mlc.acosh"(%x) : (tensor<4xf32>) -> tensor<4xf32>
  %1 = "mlc.asinh"(%0) : (tensor<4xf32>) -> tensor<4xf32>
  %2 = "mlc.atanh"(%h) : (tensor<2x?xf16>) -> tensor<2x?xf16>
  return %1, %2 : tensor<4xf32>, tensor<2x?xf16>
}
