// RUN: mlc-opt %s --split-input-file | mlc-opt --split-input-file | FileCheck %s

/// mlc.im2col round-trips; its rows hold KH * KW * C elements.

// CHECK-LABEL: func.func @im2col
func.func @im2col(%x: tensor<2x9x9x3xf32>, %d: tensor<?x8x8x4xf32>) -> (tensor<2x5x5x27xf32>, tensor<?x4x4x4xf32>) {
  // CHECK: "mlc.im2col"(%{{.*}}) {dilation = array<i64: 1, 1>, kernel = array<i64: 3, 3>, padding = array<i64: 1, 1, 1, 1>, stride = array<i64: 2, 2>} : (tensor<2x9x9x3xf32>) -> tensor<2x5x5x27xf32>
  %0 = "mlc.im2col"(%x) {kernel = array<i64: 3, 3>, stride = array<i64: 2, 2>, padding = array<i64: 1, 1, 1, 1>, dilation = array<i64: 1, 1>} : (tensor<2x9x9x3xf32>) -> tensor<2x5x5x27xf32>
  /// A dynamic batch; a 1x1 window at stride 2.
  // CHECK: "mlc.im2col"(%{{.*}}) {{.*}} : (tensor<?x8x8x4xf32>) -> tensor<?x4x4x4xf32>
  %1 = "mlc.im2col"(%d) {kernel = array<i64: 1, 1>, stride = array<i64: 2, 2>, padding = array<i64: 0, 0, 0, 0>, dilation = array<i64: 1, 1>} : (tensor<?x8x8x4xf32>) -> tensor<?x4x4x4xf32>
  return %0, %1 : tensor<2x5x5x27xf32>, tensor<?x4x4x4xf32>
}
