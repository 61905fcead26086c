// RUN: mlc-opt %s --pass-pipeline='builtin.module(mlc-lower-to-linalg)' --split-input-file | FileCheck %s

/// Complex ops are elementwise generics on upstream complex ops; mlc.complex
/// broadcasts its parts by the indexing maps.

// CHECK-DAG: #[[ROW:.*]] = affine_map<(d0, d1) -> (d1)>
// CHECK-DAG: #[[ID:.*]] = affine_map<(d0, d1) -> (d0, d1)>
// CHECK-LABEL: func.func @complex
// CHECK-SAME: (%[[RE:.*]]: tensor<2x3xf32>, %[[IM:.*]]: tensor<3xf32>)
// CHECK: linalg.generic {indexing_maps = [#[[ID]], #[[ROW]], #[[ID]]], iterator_types = ["parallel", "parallel"]}
// CHECK-SAME: ins(%[[RE]], %[[IM]] : tensor<2x3xf32>, tensor<3xf32>) outs(%{{.*}} : tensor<2x3xcomplex<f32>>)
// CHECK: ^bb0(%[[A:.*]]: f32, %[[B:.*]]: f32, %{{.*}}: complex<f32>):
// CHECK: %[[Z:.*]] = complex.create %[[A]], %[[B]] : complex<f32>
// CHECK: linalg.yield %[[Z]] : complex<f32>
func.func @complex(%re: tensor<2x3xf32>, %im: tensor<3xf32>) -> tensor<2x3xcomplex<f32>> {
  %0 = "mlc.complex"(%re, %im) : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xcomplex<f32>>
  return %0 : tensor<2x3xcomplex<f32>>
}

// -----

// CHECK-LABEL: func.func @real
// CHECK: ins(%{{.*}} : tensor<?x4xcomplex<f64>>) outs(%{{.*}} : tensor<?x4xf64>)
// CHECK: ^bb0(%[[Z:.*]]: complex<f64>, %{{.*}}: f64):
// CHECK: %[[RE:.*]] = complex.re %[[Z]] : complex<f64>
// CHECK: linalg.yield %[[RE]] : f64
func.func @real(%z: tensor<?x4xcomplex<f64>>) -> tensor<?x4xf64> {
  %0 = "mlc.real"(%z) : (tensor<?x4xcomplex<f64>>) -> tensor<?x4xf64>
  return %0 : tensor<?x4xf64>
}

// -----

// CHECK-LABEL: func.func @imag
// CHECK: ^bb0(%[[Z:.*]]: complex<f32>, %{{.*}}: f32):
// CHECK: %[[IM:.*]] = complex.im %[[Z]] : complex<f32>
// CHECK: linalg.yield %[[IM]] : f32
func.func @imag(%z: tensor<3xcomplex<f32>>) -> tensor<3xf32> {
  %0 = "mlc.imag"(%z) : (tensor<3xcomplex<f32>>) -> tensor<3xf32>
  return %0 : tensor<3xf32>
}
