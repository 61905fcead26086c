// RUN: mlc-opt %s --split-input-file | mlc-opt --split-input-file | FileCheck %s

/// conv3d and the N-D pooling ops round-trip through the printer and parser unchanged.

// CHECK-LABEL: func.func @conv3d_grouped_bias
func.func @conv3d_grouped_bias(%x: tensor<2x4x5x6x7xf32>, %w: tensor<6x2x3x3x3xf32>, %b: tensor<6xf32>) -> tensor<2x6x5x3x5xf32> {
  // CHECK: "mlc.conv3d"(%{{.*}}, %{{.*}}, %{{.*}}) {dilation = array<i64: 1, 1, 1>, groups = 2 : i64, padding = array<i64: 1, 1, 0, 1, 0, 0>, stride = array<i64: 1, 2, 1>}
  %0 = "mlc.conv3d"(%x, %w, %b) {stride = array<i64: 1, 2, 1>, padding = array<i64: 1, 1, 0, 1, 0, 0>, dilation = array<i64: 1, 1, 1>, groups = 2 : i64} : (tensor<2x4x5x6x7xf32>, tensor<6x2x3x3x3xf32>, tensor<6xf32>) -> tensor<2x6x5x3x5xf32>
  return %0 : tensor<2x6x5x3x5xf32>
}

// -----

// CHECK-LABEL: func.func @max_pool_nd_and_indices
func.func @max_pool_nd_and_indices(%x: tensor<1x2x3x6x5xf32>) -> (tensor<1x2x1x3x2xf32>, tensor<1x2x1x3x2xi64>) {
  // CHECK: "mlc.max_pool_nd"(%{{.*}}) {{.*}} -> tensor<1x2x1x3x2xf32>
  %0 = "mlc.max_pool_nd"(%x) {kernel = array<i64: 3, 3, 3>, stride = array<i64: 2, 2, 2>, padding = array<i64: 0, 0, 0, 0, 0, 0>, dilation = array<i64: 1, 1, 1>, ceil_mode = true} : (tensor<1x2x3x6x5xf32>) -> tensor<1x2x1x3x2xf32>
  // CHECK: "mlc.max_pool_indices"(%{{.*}}) {{.*}} -> tensor<1x2x1x3x2xi64>
  %1 = "mlc.max_pool_indices"(%x) {kernel = array<i64: 3, 3, 3>, stride = array<i64: 2, 2, 2>, padding = array<i64: 0, 0, 0, 0, 0, 0>, dilation = array<i64: 1, 1, 1>, ceil_mode = true} : (tensor<1x2x3x6x5xf32>) -> tensor<1x2x1x3x2xi64>
  return %0, %1 : tensor<1x2x1x3x2xf32>, tensor<1x2x1x3x2xi64>
}

// -----

// CHECK-LABEL: func.func @avg_pool_nd_1d_integer
func.func @avg_pool_nd_1d_integer(%x: tensor<?x3x9xi64>) -> tensor<?x3x5xi64> {
  // CHECK: "mlc.avg_pool_nd"(%{{.*}}) {ceil_mode = false, count_include_pad = true, divisor = 0 : i64, kernel = array<i64: 3>, padding = array<i64: 1, 1>, stride = array<i64: 2>}
  %0 = "mlc.avg_pool_nd"(%x) {kernel = array<i64: 3>, stride = array<i64: 2>, padding = array<i64: 1, 1>, ceil_mode = false, count_include_pad = true, divisor = 0 : i64} : (tensor<?x3x9xi64>) -> tensor<?x3x5xi64>
  return %0 : tensor<?x3x5xi64>
}
