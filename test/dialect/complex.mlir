// RUN: mlc-opt %s | mlc-opt | FileCheck %s

/// Complex ops round-trip: parts broadcast into complex<f32>, and come back out as f64
/// from complex<f64>; shapes may be dynamic.

// CHECK-LABEL: func.func @complex
func.func @complex(%re: tensor<2x3xf32>, %im: tensor<3xf32>) -> tensor<2x3xcomplex<f32>> {
  // CHECK: "mlc.complex"(%{{.*}}, %{{.*}}) : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xcomplex<f32>>
  %0 = "mlc.complex"(%re, %im) : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xcomplex<f32>>
  return %0 : tensor<2x3xcomplex<f32>>
}

// CHECK-LABEL: func.func @parts
func.func @parts(%z: tensor<?x4xcomplex<f64>>) -> (tensor<?x4xf64>, tensor<?x4xf64>) {
  // CHECK: "mlc.real"(%{{.*}}) : (tensor<?x4xcomplex<f64>>) -> tensor<?x4xf64>
  %0 = "mlc.real"(%z) : (tensor<?x4xcomplex<f64>>) -> tensor<?x4xf64>
  // CHECK: "mlc.imag"(%{{.*}}) : (tensor<?x4xcomplex<f64>>) -> tensor<?x4xf64>
  %1 = "mlc.imag"(%z) : (tensor<?x4xcomplex<f64>>) -> tensor<?x4xf64>
  return %0, %1 : tensor<?x4xf64>, tensor<?x4xf64>
}
