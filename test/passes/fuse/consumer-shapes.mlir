// RUN: mlc-opt %s --split-input-file --pass-pipeline='builtin.module(mlc-fuse)' | FileCheck %s

/// A conv/matmul group absorbs only consumers over its own result shape: a consumer
/// that stretches the result by broadcasting (a squeeze-excite scale) would make
/// IREE recompute the conv for every element of the larger output.

/// Squeeze-excite: the 1x1 conv on the pooled [1,1,1,C] tensor keeps its
/// same-shape sigmoid, but the mul that broadcasts it over [1,H,W,C] gets its own group.

// CHECK-LABEL: func.func @negative_squeeze_excite_scale
// CHECK-SAME: (%[[X:.*]]: tensor<1x8x8x4xf32>,
// CHECK:      %[[SE:.*]] = "mlc.fusion_group"() ({
// CHECK-NEXT:   %[[C:.*]] = "mlc.conv2d"
// CHECK-NEXT:   %[[S:.*]] = "mlc.sigmoid"(%[[C]]) : (tensor<1x1x1x4xf32>)
// CHECK-NEXT:   "mlc.yield"(%[[S]]) : (tensor<1x1x1x4xf32>) -> ()
// CHECK:      %[[SCALED:.*]] = "mlc.fusion_group"() ({
// CHECK-NEXT:   %[[M:.*]] = "mlc.mul"(%[[SE]], %[[X]]) : (tensor<1x1x1x4xf32>, tensor<1x8x8x4xf32>)
// CHECK-NEXT:   "mlc.yield"(%[[M]])
// CHECK:      return %[[SCALED]]
func.func @negative_squeeze_excite_scale(%x: tensor<1x8x8x4xf32>, %pooled: tensor<1x1x1x4xf32>, %w: tensor<1x1x4x4xf32>) -> tensor<1x8x8x4xf32> {
  %c = "mlc.conv2d"(%pooled, %w) {dilation = array<i64: 1, 1>, groups = 1 : i64, layout = "NHWC", padding = array<i64: 0, 0, 0, 0>, stride = array<i64: 1, 1>} : (tensor<1x1x1x4xf32>, tensor<1x1x4x4xf32>) -> tensor<1x1x1x4xf32>
  %s = "mlc.sigmoid"(%c) : (tensor<1x1x1x4xf32>) -> tensor<1x1x1x4xf32>
  %m = "mlc.mul"(%s, %x) : (tensor<1x1x1x4xf32>, tensor<1x8x8x4xf32>) -> tensor<1x8x8x4xf32>
  return %m : tensor<1x8x8x4xf32>
}

// -----

/// negative: the broadcasting mul directly after the conv is not absorbed either.

// CHECK-LABEL: func.func @negative_conv_then_broadcasting_mul
// CHECK:      %[[G:.*]] = "mlc.fusion_group"() ({
// CHECK-NEXT:   %[[C:.*]] = "mlc.conv2d"
// CHECK-NEXT:   "mlc.yield"(%[[C]]) : (tensor<1x1x1x4xf32>) -> ()
// CHECK:      "mlc.fusion_group"() ({
// CHECK-NEXT:   "mlc.mul"(%[[G]], %{{.*}}) : (tensor<1x1x1x4xf32>, tensor<1x8x8x4xf32>)
func.func @negative_conv_then_broadcasting_mul(%x: tensor<1x8x8x4xf32>, %pooled: tensor<1x1x1x4xf32>, %w: tensor<1x1x4x4xf32>) -> tensor<1x8x8x4xf32> {
  %c = "mlc.conv2d"(%pooled, %w) {dilation = array<i64: 1, 1>, groups = 1 : i64, layout = "NHWC", padding = array<i64: 0, 0, 0, 0>, stride = array<i64: 1, 1>} : (tensor<1x1x1x4xf32>, tensor<1x1x4x4xf32>) -> tensor<1x1x1x4xf32>
  %m = "mlc.mul"(%c, %x) : (tensor<1x1x1x4xf32>, tensor<1x8x8x4xf32>) -> tensor<1x8x8x4xf32>
  return %m : tensor<1x8x8x4xf32>
}

// -----

/// A matmul absorbs same-shape consumers, including one that broadcasts its *other*
/// operand (the bias) up to the matmul's shape: one group.

// CHECK-LABEL: func.func @matmul_bias_relu
// CHECK:      %[[G:.*]] = "mlc.fusion_group"() ({
// CHECK-NEXT:   %[[MM:.*]] = "mlc.matmul"
// CHECK-NEXT:   %[[A:.*]] = "mlc.add"(%[[MM]], %{{.*}}) : (tensor<4x8xf32>, tensor<8xf32>)
// CHECK-NEXT:   %[[R:.*]] = "mlc.relu"(%[[A]])
// CHECK-NEXT:   "mlc.yield"(%[[R]])
// CHECK-NEXT: }) : () -> tensor<4x8xf32>
// CHECK-NEXT: return %[[G]]
func.func @matmul_bias_relu(%x: tensor<4x6xf32>, %w: tensor<6x8xf32>, %b: tensor<8xf32>) -> tensor<4x8xf32> {
  %mm = "mlc.matmul"(%x, %w) : (tensor<4x6xf32>, tensor<6x8xf32>) -> tensor<4x8xf32>
  %a = "mlc.add"(%mm, %b) : (tensor<4x8xf32>, tensor<8xf32>) -> tensor<4x8xf32>
  %r = "mlc.relu"(%a) : (tensor<4x8xf32>) -> tensor<4x8xf32>
  return %r : tensor<4x8xf32>
}

// -----

/// negative: a matmul's [4,1] result broadcast over [4,8] stays out of its group.

// CHECK-LABEL: func.func @negative_matmul_column_broadcast
// CHECK:      %[[G:.*]] = "mlc.fusion_group"() ({
// CHECK-NEXT:   %[[MM:.*]] = "mlc.matmul"
// CHECK-NEXT:   %[[T:.*]] = "mlc.tanh"(%[[MM]]) : (tensor<4x1xf32>)
// CHECK-NEXT:   "mlc.yield"(%[[T]])
// CHECK:      "mlc.fusion_group"() ({
// CHECK-NEXT:   "mlc.mul"(%[[G]], %{{.*}}) : (tensor<4x1xf32>, tensor<4x8xf32>)
func.func @negative_matmul_column_broadcast(%x: tensor<4x6xf32>, %w: tensor<6x1xf32>, %y: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %mm = "mlc.matmul"(%x, %w) : (tensor<4x6xf32>, tensor<6x1xf32>) -> tensor<4x1xf32>
  %t = "mlc.tanh"(%mm) : (tensor<4x1xf32>) -> tensor<4x1xf32>
  %m = "mlc.mul"(%t, %y) : (tensor<4x1xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
  return %m : tensor<4x8xf32>
}
