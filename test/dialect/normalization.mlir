// RUN: mlc-opt %s --split-input-file | mlc-opt --split-input-file | FileCheck %s

/// Normalization ops round-trip through the printer and parser unchanged.

// CHECK-LABEL: func.func @softmax
func.func @softmax(%x: tensor<2x8xf32>, %y: tensor<?x4x16xf16>) -> (tensor<2x8xf32>, tensor<2x8xf32>, tensor<?x4x16xf16>) {
  // CHECK: "mlc.softmax"(%{{.*}}) {axis = 1 : i64} : (tensor<2x8xf32>) -> tensor<2x8xf32>
  %0 = "mlc.softmax"(%x) {axis = 1 : i64} : (tensor<2x8xf32>) -> tensor<2x8xf32>
  // CHECK: "mlc.softmax"(%{{.*}}) {axis = 0 : i64} : (tensor<2x8xf32>) -> tensor<2x8xf32>
  %1 = "mlc.softmax"(%x) {axis = 0 : i64} : (tensor<2x8xf32>) -> tensor<2x8xf32>
  // CHECK: "mlc.softmax"(%{{.*}}) {axis = -1 : i64} : (tensor<?x4x16xf16>) -> tensor<?x4x16xf16>
  %2 = "mlc.softmax"(%y) {axis = -1 : i64} : (tensor<?x4x16xf16>) -> tensor<?x4x16xf16>
  return %0, %1, %2 : tensor<2x8xf32>, tensor<2x8xf32>, tensor<?x4x16xf16>
}

// -----

/// weight and bias have the normalized shape, `input.shape[axis:]`.

// CHECK-LABEL: func.func @layer_norm
// CHECK-SAME: (%[[X:.*]]: tensor<2x5x8xf32>, %[[W:.*]]: tensor<8xf32>, %[[B:.*]]: tensor<8xf32>, %[[W2:.*]]: tensor<5x8xf32>, %[[B2:.*]]: tensor<5x8xf32>)
func.func @layer_norm(%x: tensor<2x5x8xf32>, %w: tensor<8xf32>, %b: tensor<8xf32>, %w2: tensor<5x8xf32>, %b2: tensor<5x8xf32>) -> (tensor<2x5x8xf32>, tensor<2x5x8xf32>) {
  // CHECK: "mlc.layer_norm"(%[[X]], %[[W]], %[[B]]) {axis = 2 : i64, epsilon = 1.000000e-05 : f64, library = false} : (tensor<2x5x8xf32>, tensor<8xf32>, tensor<8xf32>) -> tensor<2x5x8xf32>
  %0 = "mlc.layer_norm"(%x, %w, %b) {axis = 2 : i64, epsilon = 1.0e-5 : f64, library = false} : (tensor<2x5x8xf32>, tensor<8xf32>, tensor<8xf32>) -> tensor<2x5x8xf32>
  // CHECK: "mlc.layer_norm"(%[[X]], %[[W2]], %[[B2]]) {axis = -2 : i64, epsilon = 1.000000e-03 : f32, library = false} : (tensor<2x5x8xf32>, tensor<5x8xf32>, tensor<5x8xf32>) -> tensor<2x5x8xf32>
  %1 = "mlc.layer_norm"(%x, %w2, %b2) {axis = -2 : i64, epsilon = 1.0e-3 : f32, library = false} : (tensor<2x5x8xf32>, tensor<5x8xf32>, tensor<5x8xf32>) -> tensor<2x5x8xf32>
  return %0, %1 : tensor<2x5x8xf32>, tensor<2x5x8xf32>
}

// -----

// CHECK-LABEL: func.func @layer_norm_dynamic
func.func @layer_norm_dynamic(%x: tensor<?x?x768xbf16>, %w: tensor<768xbf16>, %b: tensor<768xbf16>) -> tensor<?x?x768xbf16> {
  // CHECK: "mlc.layer_norm"(%{{.*}}, %{{.*}}, %{{.*}}) {axis = -1 : i64, epsilon = 9.9999999999999998E-13 : f64, library = false} : (tensor<?x?x768xbf16>, tensor<768xbf16>, tensor<768xbf16>) -> tensor<?x?x768xbf16>
  %0 = "mlc.layer_norm"(%x, %w, %b) {axis = -1 : i64, epsilon = 1.0e-12 : f64, library = false} : (tensor<?x?x768xbf16>, tensor<768xbf16>, tensor<768xbf16>) -> tensor<?x?x768xbf16>
  return %0 : tensor<?x?x768xbf16>
}

// -----

/// Operands in order: input, scale, offset, mean, variance.

// CHECK-LABEL: func.func @batch_norm_nchw
// CHECK-SAME: (%[[X:.*]]: tensor<2x3x4x4xf32>, %[[SCALE:.*]]: tensor<3xf32>, %[[OFFSET:.*]]: tensor<3xf32>, %[[MEAN:.*]]: tensor<3xf32>, %[[VAR:.*]]: tensor<3xf32>)
func.func @batch_norm_nchw(%x: tensor<2x3x4x4xf32>, %scale: tensor<3xf32>, %offset: tensor<3xf32>, %mean: tensor<3xf32>, %var: tensor<3xf32>) -> tensor<2x3x4x4xf32> {
  // CHECK: "mlc.batch_norm"(%[[X]], %[[SCALE]], %[[OFFSET]], %[[MEAN]], %[[VAR]]) {axis = 1 : i64, epsilon = 1.000000e-05 : f64} : (tensor<2x3x4x4xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>) -> tensor<2x3x4x4xf32>
  %0 = "mlc.batch_norm"(%x, %scale, %offset, %mean, %var) {axis = 1 : i64, epsilon = 1.0e-5 : f64} : (tensor<2x3x4x4xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>) -> tensor<2x3x4x4xf32>
  return %0 : tensor<2x3x4x4xf32>
}

// -----

// CHECK-LABEL: func.func @batch_norm_nhwc
func.func @batch_norm_nhwc(%x: tensor<?x4x4x3xf16>, %s: tensor<3xf16>) -> (tensor<?x4x4x3xf16>, tensor<?x4x4x3xf16>) {
  // CHECK: "mlc.batch_norm"(%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}) {axis = 3 : i64, epsilon = 1.000000e-03 : f64} : (tensor<?x4x4x3xf16>, tensor<3xf16>, tensor<3xf16>, tensor<3xf16>, tensor<3xf16>) -> tensor<?x4x4x3xf16>
  %0 = "mlc.batch_norm"(%x, %s, %s, %s, %s) {axis = 3 : i64, epsilon = 1.0e-3 : f64} : (tensor<?x4x4x3xf16>, tensor<3xf16>, tensor<3xf16>, tensor<3xf16>, tensor<3xf16>) -> tensor<?x4x4x3xf16>
  // CHECK: "mlc.batch_norm"(%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}) {axis = -1 : i64, epsilon = 1.000000e-03 : f64} : (tensor<?x4x4x3xf16>, tensor<3xf16>, tensor<3xf16>, tensor<3xf16>, tensor<3xf16>) -> tensor<?x4x4x3xf16>
  %1 = "mlc.batch_norm"(%x, %s, %s, %s, %s) {axis = -1 : i64, epsilon = 1.0e-3 : f64} : (tensor<?x4x4x3xf16>, tensor<3xf16>, tensor<3xf16>, tensor<3xf16>, tensor<3xf16>) -> tensor<?x4x4x3xf16>
  return %0, %1 : tensor<?x4x4x3xf16>, tensor<?x4x4x3xf16>
}
