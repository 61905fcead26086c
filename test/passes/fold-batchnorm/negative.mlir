// RUN: mlc-opt %s --pass-pipeline='builtin.module(mlc-fold-batchnorm)' --split-input-file | FileCheck %s

/// Where a fold would not be exact, the IR stays as it is.

/// The conv's result is also returned: folding would change that use.

// CHECK-LABEL: func.func @negative_conv_two_uses
// CHECK-SAME: (%[[X:.*]]: tensor<1x2x4x4xf32>)
// CHECK-NOT: mlc.rsqrt
// CHECK: %[[CONV:.*]] = "mlc.conv2d"(%[[X]], %{{.*}})
// CHECK-NOT: mlc.rsqrt
// CHECK: %[[BN:.*]] = "mlc.batch_norm"(%[[CONV]],
// CHECK: return %[[BN]], %[[CONV]]
func.func @negative_conv_two_uses(%x: tensor<1x2x4x4xf32>) -> (tensor<1x2x4x4xf32>, tensor<1x2x4x4xf32>) {
  %w = "mlc.constant"() {value = dense<1.0> : tensor<2x2x1x1xf32>} : () -> tensor<2x2x1x1xf32>
  %stat = "mlc.constant"() {value = dense<0.5> : tensor<2xf32>} : () -> tensor<2xf32>
  %c = "mlc.conv2d"(%x, %w) {dilation = array<i64: 1, 1>, groups = 1 : i64, layout = "NCHW", padding = array<i64: 0, 0, 0, 0>, stride = array<i64: 1, 1>} : (tensor<1x2x4x4xf32>, tensor<2x2x1x1xf32>) -> tensor<1x2x4x4xf32>
  %bn = "mlc.batch_norm"(%c, %stat, %stat, %stat, %stat) {axis = 1 : i64, epsilon = 1.0e-05 : f64} : (tensor<1x2x4x4xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>) -> tensor<1x2x4x4xf32>
  return %bn, %c : tensor<1x2x4x4xf32>, tensor<1x2x4x4xf32>
}

// -----

/// The running mean is a function argument, not a constant.

// CHECK-LABEL: func.func @no_fold_nonconstant_mean
// CHECK-SAME: (%[[X:.*]]: tensor<1x2x4x4xf32>, %[[MEAN:.*]]: tensor<2xf32>)
// CHECK: %[[CONV:.*]] = "mlc.conv2d"(%[[X]], %{{.*}})
// CHECK-NOT: mlc.rsqrt
// CHECK: %[[BN:.*]] = "mlc.batch_norm"(%[[CONV]], %{{.*}}, %{{.*}}, %[[MEAN]], %{{.*}})
// CHECK: return %[[BN]]
func.func @no_fold_nonconstant_mean(%x: tensor<1x2x4x4xf32>, %mean: tensor<2xf32>) -> tensor<1x2x4x4xf32> {
  %w = "mlc.constant"() {value = dense<1.0> : tensor<2x2x1x1xf32>} : () -> tensor<2x2x1x1xf32>
  %stat = "mlc.constant"() {value = dense<0.5> : tensor<2xf32>} : () -> tensor<2xf32>
  %c = "mlc.conv2d"(%x, %w) {dilation = array<i64: 1, 1>, groups = 1 : i64, layout = "NCHW", padding = array<i64: 0, 0, 0, 0>, stride = array<i64: 1, 1>} : (tensor<1x2x4x4xf32>, tensor<2x2x1x1xf32>) -> tensor<1x2x4x4xf32>
  %bn = "mlc.batch_norm"(%c, %stat, %stat, %mean, %stat) {axis = 1 : i64, epsilon = 1.0e-05 : f64} : (tensor<1x2x4x4xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>) -> tensor<1x2x4x4xf32>
  return %bn : tensor<1x2x4x4xf32>
}

// -----

/// The conv's weight is a function argument.

// CHECK-LABEL: func.func @no_fold_nonconstant_weight
// CHECK-NOT: mlc.rsqrt
// CHECK: "mlc.batch_norm"
func.func @no_fold_nonconstant_weight(%x: tensor<1x2x4x4xf32>, %w: tensor<2x2x1x1xf32>) -> tensor<1x2x4x4xf32> {
  %stat = "mlc.constant"() {value = dense<0.5> : tensor<2xf32>} : () -> tensor<2xf32>
  %c = "mlc.conv2d"(%x, %w) {dilation = array<i64: 1, 1>, groups = 1 : i64, layout = "NCHW", padding = array<i64: 0, 0, 0, 0>, stride = array<i64: 1, 1>} : (tensor<1x2x4x4xf32>, tensor<2x2x1x1xf32>) -> tensor<1x2x4x4xf32>
  %bn = "mlc.batch_norm"(%c, %stat, %stat, %stat, %stat) {axis = 1 : i64, epsilon = 1.0e-05 : f64} : (tensor<1x2x4x4xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>) -> tensor<1x2x4x4xf32>
  return %bn : tensor<1x2x4x4xf32>
}

// -----

/// The batch norm normalizes H (axis 2) of an NCHW conv, not its output channels.

// CHECK-LABEL: func.func @no_fold_axis_mismatch
// CHECK-NOT: mlc.rsqrt
// CHECK: %[[CONV:.*]] = "mlc.conv2d"
// CHECK: "mlc.batch_norm"(%[[CONV]], %{{.*}}) {axis = 2 : i64
func.func @no_fold_axis_mismatch(%x: tensor<1x4x4x4xf32>) -> tensor<1x4x4x4xf32> {
  %w = "mlc.constant"() {value = dense<1.0> : tensor<4x4x1x1xf32>} : () -> tensor<4x4x1x1xf32>
  %stat = "mlc.constant"() {value = dense<0.5> : tensor<4xf32>} : () -> tensor<4xf32>
  %c = "mlc.conv2d"(%x, %w) {dilation = array<i64: 1, 1>, groups = 1 : i64, layout = "NCHW", padding = array<i64: 0, 0, 0, 0>, stride = array<i64: 1, 1>} : (tensor<1x4x4x4xf32>, tensor<4x4x1x1xf32>) -> tensor<1x4x4x4xf32>
  %bn = "mlc.batch_norm"(%c, %stat, %stat, %stat, %stat) {axis = 2 : i64, epsilon = 1.0e-05 : f64} : (tensor<1x4x4x4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>) -> tensor<1x4x4x4xf32>
  return %bn : tensor<1x4x4x4xf32>
}

// -----

/// An NHWC conv normalized on axis 1 (H), which is not its channel axis 3.

// CHECK-LABEL: func.func @no_fold_nhwc_axis_mismatch
// CHECK-NOT: mlc.rsqrt
// CHECK: "mlc.batch_norm"(%{{.*}}) {axis = 1 : i64
func.func @no_fold_nhwc_axis_mismatch(%x: tensor<1x4x4x4xf32>) -> tensor<1x4x4x4xf32> {
  %w = "mlc.constant"() {value = dense<1.0> : tensor<1x1x4x4xf32>} : () -> tensor<1x1x4x4xf32>
  %stat = "mlc.constant"() {value = dense<0.5> : tensor<4xf32>} : () -> tensor<4xf32>
  %c = "mlc.conv2d"(%x, %w) {dilation = array<i64: 1, 1>, groups = 1 : i64, layout = "NHWC", padding = array<i64: 0, 0, 0, 0>, stride = array<i64: 1, 1>} : (tensor<1x4x4x4xf32>, tensor<1x1x4x4xf32>) -> tensor<1x4x4x4xf32>
  %bn = "mlc.batch_norm"(%c, %stat, %stat, %stat, %stat) {axis = 1 : i64, epsilon = 1.0e-05 : f64} : (tensor<1x4x4x4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>) -> tensor<1x4x4x4xf32>
  return %bn : tensor<1x4x4x4xf32>
}

// -----

/// BatchNorm1d on a 3-D matmul result normalizes axis 1, not the matmul's last axis.

// CHECK-LABEL: func.func @no_fold_matmul_axis_mismatch
// CHECK-NOT: mlc.rsqrt
// CHECK: "mlc.batch_norm"
func.func @no_fold_matmul_axis_mismatch(%x: tensor<2x3x4xf32>) -> tensor<2x3x3xf32> {
  %w = "mlc.constant"() {value = dense<1.0> : tensor<4x3xf32>} : () -> tensor<4x3xf32>
  %stat = "mlc.constant"() {value = dense<0.5> : tensor<3xf32>} : () -> tensor<3xf32>
  %mm = "mlc.matmul"(%x, %w) : (tensor<2x3x4xf32>, tensor<4x3xf32>) -> tensor<2x3x3xf32>
  %bn = "mlc.batch_norm"(%mm, %stat, %stat, %stat, %stat) {axis = 1 : i64, epsilon = 1.0e-05 : f64} : (tensor<2x3x3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>) -> tensor<2x3x3xf32>
  return %bn : tensor<2x3x3xf32>
}

// -----

/// The matmul's biased result is used twice.

// CHECK-LABEL: func.func @negative_linear_bias_two_uses
// CHECK-NOT: mlc.rsqrt
// CHECK: %[[Y:.*]] = "mlc.add"
// CHECK: %[[BN:.*]] = "mlc.batch_norm"(%[[Y]],
// CHECK: return %[[BN]], %[[Y]]
func.func @negative_linear_bias_two_uses(%x: tensor<8x4xf32>) -> (tensor<8x3xf32>, tensor<8x3xf32>) {
  %w = "mlc.constant"() {value = dense<1.0> : tensor<4x3xf32>} : () -> tensor<4x3xf32>
  %stat = "mlc.constant"() {value = dense<0.5> : tensor<3xf32>} : () -> tensor<3xf32>
  %mm = "mlc.matmul"(%x, %w) : (tensor<8x4xf32>, tensor<4x3xf32>) -> tensor<8x3xf32>
  %y = "mlc.add"(%mm, %stat) : (tensor<8x3xf32>, tensor<3xf32>) -> tensor<8x3xf32>
  %bn = "mlc.batch_norm"(%y, %stat, %stat, %stat, %stat) {axis = 1 : i64, epsilon = 1.0e-05 : f64} : (tensor<8x3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>) -> tensor<8x3xf32>
  return %bn, %y : tensor<8x3xf32>, tensor<8x3xf32>
}

// -----

/// A batch norm of anything else (here an argument, then a relu) stays.

// CHECK-LABEL: func.func @negative_not_after_conv
// CHECK-NOT: mlc.rsqrt
// CHECK-COUNT-2: "mlc.batch_norm"
func.func @negative_not_after_conv(%x: tensor<1x2x4x4xf32>) -> tensor<1x2x4x4xf32> {
  %stat = "mlc.constant"() {value = dense<0.5> : tensor<2xf32>} : () -> tensor<2xf32>
  %bn = "mlc.batch_norm"(%x, %stat, %stat, %stat, %stat) {axis = 1 : i64, epsilon = 1.0e-05 : f64} : (tensor<1x2x4x4xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>) -> tensor<1x2x4x4xf32>
  %r = "mlc.relu"(%bn) : (tensor<1x2x4x4xf32>) -> tensor<1x2x4x4xf32>
  %bn2 = "mlc.batch_norm"(%r, %stat, %stat, %stat, %stat) {axis = 1 : i64, epsilon = 1.0e-05 : f64} : (tensor<1x2x4x4xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>) -> tensor<1x2x4x4xf32>
  return %bn2 : tensor<1x2x4x4xf32>
}
