// RUN: mlc-opt %s --pass-pipeline='builtin.module(mlc-lower-to-linalg{keep-fusion-groups=true})' --split-input-file | FileCheck %s

/// A grouped NHWC convolution reads its weight as G x F/G x KH x KW x C/G
/// (conv_2d_nhwgc_gfhwc), and the reordering never runs in the convolution's own
/// dispatch: IREE 3.13's SPIR-V code computed garbage when it did (random programs,
/// seed 70012). A constant weight is reordered at compile time; another one before
/// the fusion group, when the group reads it from outside.

// Weight [kh, kw, 0, f] = (3 kh + kw) 4 + f; reordered, [g, fg, kh, kw, 0] = (3 kh + kw) 4 + 2 g + fg.
// CHECK-LABEL: func.func @constant_weight
// CHECK-NOT: linalg.transpose
// CHECK: %[[W:.*]] = arith.constant dense<{{\[\[\[\[\[}}0.000000e+00], [4.000000e+00], [8.000000e+00]], [{{\[}}1.200000e+01], [1.600000e+01], [2.000000e+01]], [{{\[}}2.400000e+01], [2.800000e+01], [3.200000e+01]]], [{{\[\[}}1.000000e+00], [5.000000e+00], [9.000000e+00]]
// CHECK-SAME: : tensor<2x2x3x3x1xf32>
// CHECK-NOT: linalg.transpose
// CHECK: linalg.conv_2d_nhwgc_gfhwc {{.*}} ins(%{{.*}}, %[[W]] : tensor<1x5x5x2x1xf32>, tensor<2x2x3x3x1xf32>)
func.func @constant_weight(%x: tensor<1x5x5x2xf32>) -> tensor<1x3x3x4xf32> {
  %w = "mlc.constant"() {value = dense<[[[[ 0.0,  1.0,  2.0,  3.0]],  [[ 4.0,  5.0,  6.0,  7.0]],  [[ 8.0,  9.0, 10.0, 11.0]]], [[[12.0, 13.0, 14.0, 15.0]],  [[16.0, 17.0, 18.0, 19.0]],  [[20.0, 21.0, 22.0, 23.0]]], [[[24.0, 25.0, 26.0, 27.0]],  [[28.0, 29.0, 30.0, 31.0]],  [[32.0, 33.0, 34.0, 35.0]]]]> : tensor<3x3x1x4xf32>} : () -> tensor<3x3x1x4xf32>
  %0 = "mlc.fusion_group"() ({
    %1 = "mlc.conv2d"(%x, %w) {stride = array<i64: 1, 1>, padding = array<i64: 0, 0, 0, 0>, dilation = array<i64: 1, 1>, groups = 2 : i64, layout = "NHWC"} : (tensor<1x5x5x2xf32>, tensor<3x3x1x4xf32>) -> tensor<1x3x3x4xf32>
    "mlc.yield"(%1) : (tensor<1x3x3x4xf32>) -> ()
  }) : () -> tensor<1x3x3x4xf32>
  return %0 : tensor<1x3x3x4xf32>
}

// -----

// CHECK-LABEL: func.func @weight_from_outside
// CHECK-SAME: (%{{.*}}: tensor<1x5x5x2xf32>, %[[W:.*]]: tensor<3x3x1x4xf32>)
// CHECK: %[[SPLIT:.*]] = tensor.expand_shape %[[W]] {{\[}}[0], [1], [2], [3, 4]] output_shape [3, 3, 1, 2, 2]
// CHECK: %[[BY_GROUP:.*]] = linalg.transpose ins(%[[SPLIT]] : tensor<3x3x1x2x2xf32>) outs(%{{.*}} : tensor<2x2x3x3x1xf32>) permutation = [3, 4, 0, 1, 2]
// CHECK-NEXT: "mlc.fusion_group"
// CHECK-NOT: linalg.transpose
// CHECK: linalg.conv_2d_nhwgc_gfhwc {{.*}} ins(%{{.*}}, %[[BY_GROUP]] :
func.func @weight_from_outside(%x: tensor<1x5x5x2xf32>, %w: tensor<3x3x1x4xf32>) -> tensor<1x3x3x4xf32> {
  %0 = "mlc.fusion_group"() ({
    %1 = "mlc.conv2d"(%x, %w) {stride = array<i64: 1, 1>, padding = array<i64: 0, 0, 0, 0>, dilation = array<i64: 1, 1>, groups = 2 : i64, layout = "NHWC"} : (tensor<1x5x5x2xf32>, tensor<3x3x1x4xf32>) -> tensor<1x3x3x4xf32>
    "mlc.yield"(%1) : (tensor<1x3x3x4xf32>) -> ()
  }) : () -> tensor<1x3x3x4xf32>
  return %0 : tensor<1x3x3x4xf32>
}

// -----

/// Negative: a weight computed in the group is reordered there, after it is computed.

// CHECK-LABEL: func.func @weight_from_inside
// CHECK: "mlc.fusion_group"
// CHECK: %[[NEGATED:.*]] = linalg.generic
// CHECK: %[[SPLIT:.*]] = tensor.expand_shape %[[NEGATED]]
// CHECK: %[[BY_GROUP:.*]] = linalg.transpose ins(%[[SPLIT]]
// CHECK: linalg.conv_2d_nhwgc_gfhwc {{.*}} ins(%{{.*}}, %[[BY_GROUP]] :
func.func @weight_from_inside(%x: tensor<1x5x5x2xf32>, %w: tensor<3x3x1x4xf32>) -> tensor<1x3x3x4xf32> {
  %0 = "mlc.fusion_group"() ({
    %n = "mlc.neg"(%w) : (tensor<3x3x1x4xf32>) -> tensor<3x3x1x4xf32>
    %1 = "mlc.conv2d"(%x, %n) {stride = array<i64: 1, 1>, padding = array<i64: 0, 0, 0, 0>, dilation = array<i64: 1, 1>, groups = 2 : i64, layout = "NHWC"} : (tensor<1x5x5x2xf32>, tensor<3x3x1x4xf32>) -> tensor<1x3x3x4xf32>
    "mlc.yield"(%1) : (tensor<1x3x3x4xf32>) -> ()
  }) : () -> tensor<1x3x3x4xf32>
  return %0 : tensor<1x3x3x4xf32>
}

// -----

/// Negative: a grouped NCHW convolution reads its weight as it is (split, never transposed).

// CHECK-LABEL: func.func @nchw_weight
// CHECK-NOT: linalg.transpose
// CHECK: linalg.conv_2d_ngchw_gfchw
func.func @nchw_weight(%x: tensor<1x2x5x5xf32>, %w: tensor<4x1x3x3xf32>) -> tensor<1x4x3x3xf32> {
  %0 = "mlc.fusion_group"() ({
    %1 = "mlc.conv2d"(%x, %w) {stride = array<i64: 1, 1>, padding = array<i64: 0, 0, 0, 0>, dilation = array<i64: 1, 1>, groups = 2 : i64, layout = "NCHW"} : (tensor<1x2x5x5xf32>, tensor<4x1x3x3xf32>) -> tensor<1x4x3x3xf32>
    "mlc.yield"(%1) : (tensor<1x4x3x3xf32>) -> ()
  }) : () -> tensor<1x4x3x3xf32>
  return %0 : tensor<1x4x3x3xf32>
}
