// RUN: mlc-opt %s --pass-pipeline='builtin.module(mlc-fold-batchnorm)' --split-input-file | FileCheck %s

/// A batch norm after an NCHW conv without bias: s = scale * rsqrt(variance + epsilon)
/// scales the weight's output channels (dim 0, through a reshape to Fx1x1x1), and the
/// bias becomes (0 - mean) * s + offset. The batch norm is gone.

// CHECK-LABEL: func.func @conv_nchw
// CHECK-SAME: (%[[X:.*]]: tensor<1x2x4x4xf32>)
// CHECK-DAG: %[[W:.*]] = "mlc.constant"() {value = dense<1.000000e+00> : tensor<3x2x3x3xf32>}
// CHECK-DAG: %[[SCALE:.*]] = "mlc.constant"() {value = dense<[1.000000e+00, 2.000000e+00, 3.000000e+00]>
// CHECK-DAG: %[[OFFSET:.*]] = "mlc.constant"() {value = dense<[5.000000e-01, 0.000000e+00, -5.000000e-01]>
// CHECK-DAG: %[[MEAN:.*]] = "mlc.constant"() {value = dense<[1.000000e-01, 2.000000e-01, 3.000000e-01]>
// CHECK-DAG: %[[VAR:.*]] = "mlc.constant"() {value = dense<[1.000000e+00, 4.000000e+00, 9.000000e+00]>
// CHECK-DAG: %[[EPS:.*]] = "mlc.constant"() {value = dense<9.99999974E-6> : tensor<f32>}
// CHECK: %[[SHIFTED:.*]] = "mlc.add"(%[[VAR]], %[[EPS]])
// CHECK: %[[INV:.*]] = "mlc.rsqrt"(%[[SHIFTED]])
// CHECK: %[[S:.*]] = "mlc.mul"(%[[SCALE]], %[[INV]])
// CHECK: %[[S4:.*]] = "mlc.reshape"(%[[S]]) : (tensor<3xf32>) -> tensor<3x1x1x1xf32>
// CHECK: %[[W2:.*]] = "mlc.mul"(%[[W]], %[[S4]]) : (tensor<3x2x3x3xf32>, tensor<3x1x1x1xf32>) -> tensor<3x2x3x3xf32>
// CHECK: %[[ZERO:.*]] = "mlc.constant"() {value = dense<0.000000e+00> : tensor<3xf32>}
// CHECK: %[[CENTERED:.*]] = "mlc.sub"(%[[ZERO]], %[[MEAN]])
// CHECK: %[[SCALED:.*]] = "mlc.mul"(%[[CENTERED]], %[[S]])
// CHECK: %[[B2:.*]] = "mlc.add"(%[[SCALED]], %[[OFFSET]])
// CHECK: %[[CONV:.*]] = "mlc.conv2d"(%[[X]], %[[W2]], %[[B2]]) {dilation = array<i64: 1, 1>, groups = 1 : i64, layout = "NCHW", padding = array<i64: 1, 1, 1, 1>, stride = array<i64: 1, 1>}
// CHECK-NOT: mlc.batch_norm
// CHECK: return %[[CONV]]
func.func @conv_nchw(%x: tensor<1x2x4x4xf32>) -> tensor<1x3x4x4xf32> {
  %w = "mlc.constant"() {value = dense<1.0> : tensor<3x2x3x3xf32>} : () -> tensor<3x2x3x3xf32>
  %scale = "mlc.constant"() {value = dense<[1.0, 2.0, 3.0]> : tensor<3xf32>} : () -> tensor<3xf32>
  %offset = "mlc.constant"() {value = dense<[0.5, 0.0, -0.5]> : tensor<3xf32>} : () -> tensor<3xf32>
  %mean = "mlc.constant"() {value = dense<[0.1, 0.2, 0.3]> : tensor<3xf32>} : () -> tensor<3xf32>
  %var = "mlc.constant"() {value = dense<[1.0, 4.0, 9.0]> : tensor<3xf32>} : () -> tensor<3xf32>
  %c = "mlc.conv2d"(%x, %w) {dilation = array<i64: 1, 1>, groups = 1 : i64, layout = "NCHW", padding = array<i64: 1, 1, 1, 1>, stride = array<i64: 1, 1>} : (tensor<1x2x4x4xf32>, tensor<3x2x3x3xf32>) -> tensor<1x3x4x4xf32>
  %bn = "mlc.batch_norm"(%c, %scale, %offset, %mean, %var) {axis = 1 : i64, epsilon = 1.0e-05 : f64} : (tensor<1x3x4x4xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>) -> tensor<1x3x4x4xf32>
  return %bn : tensor<1x3x4x4xf32>
}

// -----

/// NHWC: the weight is KHxKWxCxF, so s broadcasts along its last dimension as is;
/// the conv's own bias is folded in: (bias - mean) * s + offset.

// CHECK-LABEL: func.func @conv_nhwc_with_bias
// CHECK-SAME: (%[[X:.*]]: tensor<1x4x4x2xf32>)
// CHECK-DAG: %[[W:.*]] = "mlc.constant"() {value = dense<1.000000e+00> : tensor<3x3x2x3xf32>}
// CHECK-DAG: %[[B:.*]] = "mlc.constant"() {value = dense<2.500000e-01> : tensor<3xf32>}
// CHECK-DAG: %[[STAT:.*]] = "mlc.constant"() {value = dense<5.000000e-01> : tensor<3xf32>}
// CHECK: %[[S:.*]] = "mlc.mul"(%[[STAT]], %{{.*}}) : (tensor<3xf32>, tensor<3xf32>) -> tensor<3xf32>
// CHECK: %[[W2:.*]] = "mlc.mul"(%[[W]], %[[S]]) : (tensor<3x3x2x3xf32>, tensor<3xf32>) -> tensor<3x3x2x3xf32>
// CHECK: %[[CENTERED:.*]] = "mlc.sub"(%[[B]], %[[STAT]])
// CHECK: %[[SCALED:.*]] = "mlc.mul"(%[[CENTERED]], %[[S]])
// CHECK: %[[B2:.*]] = "mlc.add"(%[[SCALED]], %[[STAT]])
// CHECK: %[[CONV:.*]] = "mlc.conv2d"(%[[X]], %[[W2]], %[[B2]]) {{.*}}layout = "NHWC"
// CHECK: return %[[CONV]]
func.func @conv_nhwc_with_bias(%x: tensor<1x4x4x2xf32>) -> tensor<1x4x4x3xf32> {
  %w = "mlc.constant"() {value = dense<1.0> : tensor<3x3x2x3xf32>} : () -> tensor<3x3x2x3xf32>
  %b = "mlc.constant"() {value = dense<0.25> : tensor<3xf32>} : () -> tensor<3xf32>
  %stat = "mlc.constant"() {value = dense<0.5> : tensor<3xf32>} : () -> tensor<3xf32>
  %c = "mlc.conv2d"(%x, %w, %b) {dilation = array<i64: 1, 1>, groups = 1 : i64, layout = "NHWC", padding = array<i64: 1, 1, 1, 1>, stride = array<i64: 1, 1>} : (tensor<1x4x4x2xf32>, tensor<3x3x2x3xf32>, tensor<3xf32>) -> tensor<1x4x4x3xf32>
  %bn = "mlc.batch_norm"(%c, %stat, %stat, %stat, %stat) {axis = 3 : i64, epsilon = 1.0e-03 : f64} : (tensor<1x4x4x3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>) -> tensor<1x4x4x3xf32>
  return %bn : tensor<1x4x4x3xf32>
}

// -----

/// A depthwise conv (groups = channels) folds the same way: its weight's dim 0 is still
/// the output channel.

// CHECK-LABEL: func.func @depthwise
// CHECK: %[[S4:.*]] = "mlc.reshape"(%{{.*}}) : (tensor<4xf32>) -> tensor<4x1x1x1xf32>
// CHECK: %[[W2:.*]] = "mlc.mul"(%{{.*}}, %[[S4]]) : (tensor<4x1x3x3xf32>, tensor<4x1x1x1xf32>) -> tensor<4x1x3x3xf32>
// CHECK: "mlc.conv2d"(%{{.*}}, %[[W2]], %{{.*}}) {{.*}}groups = 4 : i64
// CHECK-NOT: mlc.batch_norm
func.func @depthwise(%x: tensor<1x4x6x6xf32>) -> tensor<1x4x6x6xf32> {
  %w = "mlc.constant"() {value = dense<1.0> : tensor<4x1x3x3xf32>} : () -> tensor<4x1x3x3xf32>
  %stat = "mlc.constant"() {value = dense<0.5> : tensor<4xf32>} : () -> tensor<4xf32>
  %c = "mlc.conv2d"(%x, %w) {dilation = array<i64: 1, 1>, groups = 4 : i64, layout = "NCHW", padding = array<i64: 1, 1, 1, 1>, stride = array<i64: 1, 1>} : (tensor<1x4x6x6xf32>, tensor<4x1x3x3xf32>) -> tensor<1x4x6x6xf32>
  %bn = "mlc.batch_norm"(%c, %stat, %stat, %stat, %stat) {axis = 1 : i64, epsilon = 1.0e-05 : f64} : (tensor<1x4x6x6xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>) -> tensor<1x4x6x6xf32>
  return %bn : tensor<1x4x6x6xf32>
}

// -----

/// Two batch norms in a row fold one after the other: the second sees a conv whose
/// weight is mlc ops on constants, which is still a compile-time constant.

// CHECK-LABEL: func.func @two_batch_norms
// CHECK-COUNT-2: "mlc.rsqrt"
// CHECK: "mlc.conv2d"
// CHECK-NOT: mlc.batch_norm
func.func @two_batch_norms(%x: tensor<1x2x4x4xf32>) -> tensor<1x2x4x4xf32> {
  %w = "mlc.constant"() {value = dense<1.0> : tensor<2x2x1x1xf32>} : () -> tensor<2x2x1x1xf32>
  %stat = "mlc.constant"() {value = dense<0.5> : tensor<2xf32>} : () -> tensor<2xf32>
  %c = "mlc.conv2d"(%x, %w) {dilation = array<i64: 1, 1>, groups = 1 : i64, layout = "NCHW", padding = array<i64: 0, 0, 0, 0>, stride = array<i64: 1, 1>} : (tensor<1x2x4x4xf32>, tensor<2x2x1x1xf32>) -> tensor<1x2x4x4xf32>
  %bn1 = "mlc.batch_norm"(%c, %stat, %stat, %stat, %stat) {axis = 1 : i64, epsilon = 1.0e-05 : f64} : (tensor<1x2x4x4xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>) -> tensor<1x2x4x4xf32>
  %bn2 = "mlc.batch_norm"(%bn1, %stat, %stat, %stat, %stat) {axis = 1 : i64, epsilon = 1.0e-05 : f64} : (tensor<1x2x4x4xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>) -> tensor<1x2x4x4xf32>
  return %bn2 : tensor<1x2x4x4xf32>
}

// -----

/// BatchNorm1d after Linear: the batch norm normalizes the last axis of matmul(x, W^T) + b,
/// so W^T's columns are scaled (the transposed weight is a constant too) and so is the bias.

// CHECK-LABEL: func.func @linear_batch_norm1d
// CHECK-SAME: (%[[X:.*]]: tensor<8x4xf32>)
// CHECK-DAG: %[[W:.*]] = "mlc.constant"() {value = dense<1.000000e+00> : tensor<3x4xf32>}
// CHECK-DAG: %[[B:.*]] = "mlc.constant"() {value = dense<2.500000e-01> : tensor<3xf32>}
// CHECK: %[[WT:.*]] = "mlc.transpose"(%[[W]])
// CHECK: %[[S:.*]] = "mlc.mul"(%{{.*}}, %{{.*}}) : (tensor<3xf32>, tensor<3xf32>) -> tensor<3xf32>
// CHECK: %[[W2:.*]] = "mlc.mul"(%[[WT]], %[[S]]) : (tensor<4x3xf32>, tensor<3xf32>) -> tensor<4x3xf32>
// CHECK: %[[CENTERED:.*]] = "mlc.sub"(%[[B]], %{{.*}})
// CHECK: %[[B2:.*]] = "mlc.add"(%{{.*}}, %{{.*}}) : (tensor<3xf32>, tensor<3xf32>) -> tensor<3xf32>
// CHECK: %[[MM:.*]] = "mlc.matmul"(%[[X]], %[[W2]])
// CHECK: %[[Y:.*]] = "mlc.add"(%[[MM]], %[[B2]])
// CHECK-NOT: mlc.batch_norm
// CHECK: return %[[Y]]
func.func @linear_batch_norm1d(%x: tensor<8x4xf32>) -> tensor<8x3xf32> {
  %w = "mlc.constant"() {value = dense<1.0> : tensor<3x4xf32>} : () -> tensor<3x4xf32>
  %b = "mlc.constant"() {value = dense<0.25> : tensor<3xf32>} : () -> tensor<3xf32>
  %stat = "mlc.constant"() {value = dense<0.5> : tensor<3xf32>} : () -> tensor<3xf32>
  %wt = "mlc.transpose"(%w) {permutation = array<i64: 1, 0>} : (tensor<3x4xf32>) -> tensor<4x3xf32>
  %mm = "mlc.matmul"(%x, %wt) : (tensor<8x4xf32>, tensor<4x3xf32>) -> tensor<8x3xf32>
  %y = "mlc.add"(%b, %mm) : (tensor<3xf32>, tensor<8x3xf32>) -> tensor<8x3xf32>
  %bn = "mlc.batch_norm"(%y, %stat, %stat, %stat, %stat) {axis = 1 : i64, epsilon = 1.0e-05 : f64} : (tensor<8x3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>) -> tensor<8x3xf32>
  return %bn : tensor<8x3xf32>
}

// -----

/// A matmul without bias, normalized on its last axis written as -1.

// CHECK-LABEL: func.func @matmul_negative_axis
// CHECK: %[[W2:.*]] = "mlc.mul"(%{{.*}}, %{{.*}}) : (tensor<4x3xf32>, tensor<3xf32>) -> tensor<4x3xf32>
// CHECK: %[[MM:.*]] = "mlc.matmul"(%{{.*}}, %[[W2]])
// CHECK: "mlc.add"(%[[MM]], %{{.*}}) : (tensor<2x8x3xf32>, tensor<3xf32>) -> tensor<2x8x3xf32>
// CHECK-NOT: mlc.batch_norm
func.func @matmul_negative_axis(%x: tensor<2x8x4xf32>) -> tensor<2x8x3xf32> {
  %w = "mlc.constant"() {value = dense<1.0> : tensor<4x3xf32>} : () -> tensor<4x3xf32>
  %stat = "mlc.constant"() {value = dense<0.5> : tensor<3xf32>} : () -> tensor<3xf32>
  %mm = "mlc.matmul"(%x, %w) : (tensor<2x8x4xf32>, tensor<4x3xf32>) -> tensor<2x8x3xf32>
  %bn = "mlc.batch_norm"(%mm, %stat, %stat, %stat, %stat) {axis = -1 : i64, epsilon = 1.0e-05 : f64} : (tensor<2x8x3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>) -> tensor<2x8x3xf32>
  return %bn : tensor<2x8x3xf32>
}
