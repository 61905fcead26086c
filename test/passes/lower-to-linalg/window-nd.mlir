// RUN: mlc-opt %s --split-input-file --pass-pipeline='builtin.module(mlc-lower-to-linalg)' | FileCheck %s

/// conv3d: linalg's named NCDHW op for groups 1; a grouped one is a linalg.generic
/// over (n, g, f, od, oh, ow, c, kd, kh, kw).

// CHECK-LABEL: func.func @conv3d
// CHECK: linalg.conv_3d_ncdhw_fcdhw
func.func @conv3d(%x: tensor<1x2x4x4x4xf32>, %w: tensor<3x2x3x3x3xf32>) -> tensor<1x3x2x2x2xf32> {
  %0 = "mlc.conv3d"(%x, %w) {stride = array<i64: 1, 1, 1>, padding = array<i64: 0, 0, 0, 0, 0, 0>, dilation = array<i64: 1, 1, 1>, groups = 1 : i64} : (tensor<1x2x4x4x4xf32>, tensor<3x2x3x3x3xf32>) -> tensor<1x3x2x2x2xf32>
  return %0 : tensor<1x3x2x2x2xf32>
}

// -----

// CHECK-LABEL: func.func @conv3d_grouped
// CHECK: linalg.generic {{.*}}iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel", "parallel", "reduction", "reduction", "reduction", "reduction"]
// CHECK: tensor.collapse_shape {{.*}} tensor<1x2x3x2x2x2xf32> into tensor<1x6x2x2x2xf32>
func.func @conv3d_grouped(%x: tensor<1x4x4x4x4xf32>, %w: tensor<6x2x3x3x3xf32>, %b: tensor<6xf32>) -> tensor<1x6x2x2x2xf32> {
  %0 = "mlc.conv3d"(%x, %w, %b) {stride = array<i64: 1, 1, 1>, padding = array<i64: 0, 0, 0, 0, 0, 0>, dilation = array<i64: 1, 1, 1>, groups = 2 : i64} : (tensor<1x4x4x4x4xf32>, tensor<6x2x3x3x3xf32>, tensor<6xf32>) -> tensor<1x6x2x2x2xf32>
  return %0 : tensor<1x6x2x2x2xf32>
}

// -----

/// An integer average divides with truncation (arith.divsi), as torch.

// CHECK-LABEL: func.func @avg_pool_nd_integer
// CHECK: linalg.generic
// CHECK: arith.addi
// CHECK: linalg.generic
// CHECK: arith.divsi
func.func @avg_pool_nd_integer(%x: tensor<2x3x9xi64>) -> tensor<2x3x3xi64> {
  %0 = "mlc.avg_pool_nd"(%x) {kernel = array<i64: 3>, stride = array<i64: 3>, padding = array<i64: 0, 0>, ceil_mode = false, count_include_pad = true, divisor = 0 : i64} : (tensor<2x3x9xi64>) -> tensor<2x3x3xi64>
  return %0 : tensor<2x3x3xi64>
}

// -----

/// A pool of any rank reads its input through the same cut: the tenth element,
/// which no window of 3 with stride 3 reaches, goes before the loops.

// CHECK-LABEL: func.func @max_pool_nd_unread_tail
// CHECK: %[[READ:.*]] = tensor.extract_slice %{{.*}}[0, 0, 0] [2, 3, 9] [1, 1, 1] : tensor<2x3x10xf32> to tensor<2x3x9xf32>
// CHECK: linalg.generic {{.*}} ins(%[[READ]], %{{.*}} : tensor<2x3x9xf32>, tensor<3xf32>)
func.func @max_pool_nd_unread_tail(%x: tensor<2x3x10xf32>) -> tensor<2x3x3xf32> {
  %0 = "mlc.max_pool_nd"(%x) {kernel = array<i64: 3>, stride = array<i64: 3>, padding = array<i64: 0, 0>, dilation = array<i64: 1>, ceil_mode = false} : (tensor<2x3x10xf32>) -> tensor<2x3x3xf32>
  return %0 : tensor<2x3x3xf32>
}
