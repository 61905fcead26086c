// RUN: mlc-opt %s --pass-pipeline='builtin.module(mlc-convert-layout)' --split-input-file | FileCheck %s

/// A conv-relu-conv chain in NCHW becomes NHWC with one transpose before the chain and
/// one after it: the transpose out of the first conv sinks through the relu and cancels
/// against the transpose into the second. Weights are permuted FCHW -> HWCF.

// CHECK-LABEL: func.func @conv_relu_conv
// CHECK-SAME: (%[[X:.*]]: tensor<1x3x8x8xf32>)
// CHECK-NOT: array<i64: 0, 3, 1, 2>
// CHECK: %[[IN:.*]] = "mlc.transpose"(%[[X]]) {permutation = array<i64: 0, 2, 3, 1>} : (tensor<1x3x8x8xf32>) -> tensor<1x8x8x3xf32>
// CHECK: %[[W1:.*]] = "mlc.transpose"(%{{.*}}) {permutation = array<i64: 2, 3, 1, 0>} : (tensor<4x3x3x3xf32>) -> tensor<3x3x3x4xf32>
// CHECK: %[[C1:.*]] = "mlc.conv2d"(%[[IN]], %[[W1]], %{{.*}}) {{.*}}layout = "NHWC"{{.*}} -> tensor<1x8x8x4xf32>
// CHECK: %[[R:.*]] = "mlc.relu"(%[[C1]]) : (tensor<1x8x8x4xf32>) -> tensor<1x8x8x4xf32>
// CHECK: %[[W2:.*]] = "mlc.transpose"(%{{.*}}) {permutation = array<i64: 2, 3, 1, 0>} : (tensor<5x4x1x1xf32>) -> tensor<1x1x4x5xf32>
// CHECK: %[[C2:.*]] = "mlc.conv2d"(%[[R]], %[[W2]]) {{.*}}layout = "NHWC"{{.*}} -> tensor<1x8x8x5xf32>
// CHECK: %[[OUT:.*]] = "mlc.transpose"(%[[C2]]) {permutation = array<i64: 0, 3, 1, 2>} : (tensor<1x8x8x5xf32>) -> tensor<1x5x8x8xf32>
// CHECK-NEXT: return %[[OUT]]
func.func @conv_relu_conv(%x: tensor<1x3x8x8xf32>) -> tensor<1x5x8x8xf32> {
  %w1 = "mlc.constant"() {value = dense<0.1> : tensor<4x3x3x3xf32>} : () -> tensor<4x3x3x3xf32>
  %b1 = "mlc.constant"() {value = dense<0.5> : tensor<4xf32>} : () -> tensor<4xf32>
  %w2 = "mlc.constant"() {value = dense<0.2> : tensor<5x4x1x1xf32>} : () -> tensor<5x4x1x1xf32>
  %c1 = "mlc.conv2d"(%x, %w1, %b1) {dilation = array<i64: 1, 1>, groups = 1 : i64, layout = "NCHW", padding = array<i64: 1, 1, 1, 1>, stride = array<i64: 1, 1>} : (tensor<1x3x8x8xf32>, tensor<4x3x3x3xf32>, tensor<4xf32>) -> tensor<1x4x8x8xf32>
  %r = "mlc.relu"(%c1) : (tensor<1x4x8x8xf32>) -> tensor<1x4x8x8xf32>
  %c2 = "mlc.conv2d"(%r, %w2) {dilation = array<i64: 1, 1>, groups = 1 : i64, layout = "NCHW", padding = array<i64: 0, 0, 0, 0>, stride = array<i64: 1, 1>} : (tensor<1x4x8x8xf32>, tensor<5x4x1x1xf32>) -> tensor<1x5x8x8xf32>
  return %c2 : tensor<1x5x8x8xf32>
}

// -----

/// A ResNet basic block, relu(x + relu(bn(conv(relu(conv(x)))))): the add takes the
/// block input through the transpose that already feeds the first conv (moved up to
/// the input), so no transpose is left between or after the convs but the last one.
/// The batch norm keeps working on the channels: axis 1 becomes 3.

// CHECK-LABEL: func.func @residual_block
// CHECK-SAME: (%[[X:.*]]: tensor<1x4x8x8xf32>)
// CHECK-NEXT: %[[IN:.*]] = "mlc.transpose"(%[[X]]) {permutation = array<i64: 0, 2, 3, 1>}
// CHECK: %[[C1:.*]] = "mlc.conv2d"(%[[IN]],
// CHECK-NEXT: %[[R1:.*]] = "mlc.relu"(%[[C1]])
// CHECK: %[[C2:.*]] = "mlc.conv2d"(%[[R1]],
// CHECK-NEXT: %[[BN:.*]] = "mlc.batch_norm"(%[[C2]], %{{.*}}) {axis = 3 : i64
// CHECK-NEXT: %[[R2:.*]] = "mlc.relu"(%[[BN]])
// CHECK-NEXT: %[[SUM:.*]] = "mlc.add"(%[[IN]], %[[R2]]) : (tensor<1x8x8x4xf32>, tensor<1x8x8x4xf32>) -> tensor<1x8x8x4xf32>
// CHECK-NEXT: %[[R3:.*]] = "mlc.relu"(%[[SUM]])
// CHECK-NEXT: %[[OUT:.*]] = "mlc.transpose"(%[[R3]]) {permutation = array<i64: 0, 3, 1, 2>}
// CHECK-NEXT: return %[[OUT]]
func.func @residual_block(%x: tensor<1x4x8x8xf32>) -> tensor<1x4x8x8xf32> {
  %w1 = "mlc.constant"() {value = dense<0.1> : tensor<4x4x3x3xf32>} : () -> tensor<4x4x3x3xf32>
  %w2 = "mlc.constant"() {value = dense<0.2> : tensor<4x4x3x3xf32>} : () -> tensor<4x4x3x3xf32>
  %stat = "mlc.constant"() {value = dense<0.5> : tensor<4xf32>} : () -> tensor<4xf32>
  %c1 = "mlc.conv2d"(%x, %w1) {dilation = array<i64: 1, 1>, groups = 1 : i64, layout = "NCHW", padding = array<i64: 1, 1, 1, 1>, stride = array<i64: 1, 1>} : (tensor<1x4x8x8xf32>, tensor<4x4x3x3xf32>) -> tensor<1x4x8x8xf32>
  %r1 = "mlc.relu"(%c1) : (tensor<1x4x8x8xf32>) -> tensor<1x4x8x8xf32>
  %c2 = "mlc.conv2d"(%r1, %w2) {dilation = array<i64: 1, 1>, groups = 1 : i64, layout = "NCHW", padding = array<i64: 1, 1, 1, 1>, stride = array<i64: 1, 1>} : (tensor<1x4x8x8xf32>, tensor<4x4x3x3xf32>) -> tensor<1x4x8x8xf32>
  %bn = "mlc.batch_norm"(%c2, %stat, %stat, %stat, %stat) {axis = 1 : i64, epsilon = 1.0e-05 : f64} : (tensor<1x4x8x8xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>) -> tensor<1x4x8x8xf32>
  %r2 = "mlc.relu"(%bn) : (tensor<1x4x8x8xf32>) -> tensor<1x4x8x8xf32>
  %sum = "mlc.add"(%x, %r2) : (tensor<1x4x8x8xf32>, tensor<1x4x8x8xf32>) -> tensor<1x4x8x8xf32>
  %out = "mlc.relu"(%sum) : (tensor<1x4x8x8xf32>) -> tensor<1x4x8x8xf32>
  return %out : tensor<1x4x8x8xf32>
}

// -----

/// Per-channel constants are re-expressed in NHWC: a bias of shape [C,1,1] is reshaped
/// to [1,1,1,C] (only unit dimensions move), a [C,H,1] scale is reshaped to rank 4 and
/// transposed (fold-constants folds both); a clamp and a 0-d constant need nothing.

// CHECK-LABEL: func.func @per_channel_constants
// CHECK-DAG: %[[BIAS:.*]] = "mlc.constant"() {value = dense<5.000000e-01> : tensor<4x1x1xf32>}
// CHECK-DAG: %[[SCALE:.*]] = "mlc.constant"() {value = dense<2.000000e+00> : tensor<4x8x1xf32>}
// CHECK-DAG: %[[HALF:.*]] = "mlc.constant"() {value = dense<5.000000e-01> : tensor<f32>}
// CHECK: %[[C1:.*]] = "mlc.conv2d"
// CHECK: %[[B:.*]] = "mlc.reshape"(%[[BIAS]]) : (tensor<4x1x1xf32>) -> tensor<1x1x1x4xf32>
// CHECK: %[[A:.*]] = "mlc.add"(%[[C1]], %[[B]]) : (tensor<1x8x8x4xf32>, tensor<1x1x1x4xf32>) -> tensor<1x8x8x4xf32>
// CHECK: %[[S4:.*]] = "mlc.reshape"(%[[SCALE]]) : (tensor<4x8x1xf32>) -> tensor<1x4x8x1xf32>
// CHECK: %[[S:.*]] = "mlc.transpose"(%[[S4]]) {permutation = array<i64: 0, 2, 3, 1>} : (tensor<1x4x8x1xf32>) -> tensor<1x8x1x4xf32>
// CHECK: %[[M:.*]] = "mlc.mul"(%[[S]], %[[A]])
// CHECK: %[[CL:.*]] = "mlc.clamp"(%[[M]]) {max = 6.000000e+00 : f64, min = 0.000000e+00 : f64} : (tensor<1x8x8x4xf32>)
// CHECK: %[[H:.*]] = "mlc.mul"(%[[CL]], %[[HALF]]) : (tensor<1x8x8x4xf32>, tensor<f32>) -> tensor<1x8x8x4xf32>
// CHECK: "mlc.conv2d"(%[[H]],
func.func @per_channel_constants(%x: tensor<1x3x8x8xf32>) -> tensor<1x4x8x8xf32> {
  %w1 = "mlc.constant"() {value = dense<0.1> : tensor<4x3x3x3xf32>} : () -> tensor<4x3x3x3xf32>
  %w2 = "mlc.constant"() {value = dense<0.2> : tensor<4x4x1x1xf32>} : () -> tensor<4x4x1x1xf32>
  %bias = "mlc.constant"() {value = dense<0.5> : tensor<4x1x1xf32>} : () -> tensor<4x1x1xf32>
  %scale = "mlc.constant"() {value = dense<2.0> : tensor<4x8x1xf32>} : () -> tensor<4x8x1xf32>
  %half = "mlc.constant"() {value = dense<0.5> : tensor<f32>} : () -> tensor<f32>
  %c1 = "mlc.conv2d"(%x, %w1) {dilation = array<i64: 1, 1>, groups = 1 : i64, layout = "NCHW", padding = array<i64: 1, 1, 1, 1>, stride = array<i64: 1, 1>} : (tensor<1x3x8x8xf32>, tensor<4x3x3x3xf32>) -> tensor<1x4x8x8xf32>
  %a = "mlc.add"(%c1, %bias) : (tensor<1x4x8x8xf32>, tensor<4x1x1xf32>) -> tensor<1x4x8x8xf32>
  %m = "mlc.mul"(%scale, %a) : (tensor<4x8x1xf32>, tensor<1x4x8x8xf32>) -> tensor<1x4x8x8xf32>
  %cl = "mlc.clamp"(%m) {min = 0.0 : f64, max = 6.0 : f64} : (tensor<1x4x8x8xf32>) -> tensor<1x4x8x8xf32>
  %h = "mlc.mul"(%cl, %half) : (tensor<1x4x8x8xf32>, tensor<f32>) -> tensor<1x4x8x8xf32>
  %c2 = "mlc.conv2d"(%h, %w2) {dilation = array<i64: 1, 1>, groups = 1 : i64, layout = "NCHW", padding = array<i64: 0, 0, 0, 0>, stride = array<i64: 1, 1>} : (tensor<1x4x8x8xf32>, tensor<4x4x1x1xf32>) -> tensor<1x4x8x8xf32>
  return %c2 : tensor<1x4x8x8xf32>
}

// -----

/// Pooling converts too; conv -> relu -> max pool -> avg pool is one chain.

// CHECK-LABEL: func.func @conv_pool_chain
// CHECK-SAME: (%[[X:.*]]: tensor<1x3x8x8xf32>)
// CHECK: %[[IN:.*]] = "mlc.transpose"(%[[X]]) {permutation = array<i64: 0, 2, 3, 1>}
// CHECK: %[[C:.*]] = "mlc.conv2d"(%[[IN]],
// CHECK-NEXT: %[[R:.*]] = "mlc.relu"(%[[C]])
// CHECK-NEXT: %[[MAX:.*]] = "mlc.max_pool2d"(%[[R]]) {{.*}}layout = "NHWC"{{.*}} : (tensor<1x8x8x4xf32>) -> tensor<1x4x4x4xf32>
// CHECK-NEXT: %[[AVG:.*]] = "mlc.avg_pool2d"(%[[MAX]]) {{.*}}layout = "NHWC"{{.*}} : (tensor<1x4x4x4xf32>) -> tensor<1x2x2x4xf32>
// CHECK-NEXT: %[[OUT:.*]] = "mlc.transpose"(%[[AVG]]) {permutation = array<i64: 0, 3, 1, 2>}
// CHECK-NEXT: return %[[OUT]]
func.func @conv_pool_chain(%x: tensor<1x3x8x8xf32>) -> tensor<1x4x2x2xf32> {
  %w = "mlc.constant"() {value = dense<0.1> : tensor<4x3x3x3xf32>} : () -> tensor<4x3x3x3xf32>
  %c = "mlc.conv2d"(%x, %w) {dilation = array<i64: 1, 1>, groups = 1 : i64, layout = "NCHW", padding = array<i64: 1, 1, 1, 1>, stride = array<i64: 1, 1>} : (tensor<1x3x8x8xf32>, tensor<4x3x3x3xf32>) -> tensor<1x4x8x8xf32>
  %r = "mlc.relu"(%c) : (tensor<1x4x8x8xf32>) -> tensor<1x4x8x8xf32>
  %max = "mlc.max_pool2d"(%r) {kernel = array<i64: 2, 2>, stride = array<i64: 2, 2>, padding = array<i64: 0, 0, 0, 0>, dilation = array<i64: 1, 1>, ceil_mode = false, layout = "NCHW"} : (tensor<1x4x8x8xf32>) -> tensor<1x4x4x4xf32>
  %avg = "mlc.avg_pool2d"(%max) {kernel = array<i64: 2, 2>, stride = array<i64: 2, 2>, padding = array<i64: 0, 0, 0, 0>, ceil_mode = false, count_include_pad = true, layout = "NCHW"} : (tensor<1x4x4x4xf32>) -> tensor<1x4x2x2xf32>
  return %avg : tensor<1x4x2x2xf32>
}

// -----

/// Global average pooling, a mean over [2, 3] with keepdim, is a mean over [1, 2] in
/// NHWC; one tiny transpose of its [N,1,1,C] result stays, before the reshape (which is
/// not layout-agnostic) and the classifier.

// CHECK-LABEL: func.func @global_mean
// CHECK: %[[C:.*]] = "mlc.conv2d"
// CHECK-NEXT: %[[R:.*]] = "mlc.relu"(%[[C]])
// CHECK-NEXT: %[[MEAN:.*]] = "mlc.reduce_mean"(%[[R]]) {axes = array<i64: 1, 2>, keepdim = true} : (tensor<2x8x8x4xf32>) -> tensor<2x1x1x4xf32>
// CHECK-NEXT: %[[T:.*]] = "mlc.transpose"(%[[MEAN]]) {permutation = array<i64: 0, 3, 1, 2>} : (tensor<2x1x1x4xf32>) -> tensor<2x4x1x1xf32>
// CHECK-NEXT: %[[FLAT:.*]] = "mlc.reshape"(%[[T]]) : (tensor<2x4x1x1xf32>) -> tensor<2x4xf32>
// CHECK-NEXT: "mlc.matmul"(%[[FLAT]],
func.func @global_mean(%x: tensor<2x3x8x8xf32>) -> tensor<2x10xf32> {
  %w = "mlc.constant"() {value = dense<0.1> : tensor<4x3x3x3xf32>} : () -> tensor<4x3x3x3xf32>
  %fc = "mlc.constant"() {value = dense<0.1> : tensor<4x10xf32>} : () -> tensor<4x10xf32>
  %c = "mlc.conv2d"(%x, %w) {dilation = array<i64: 1, 1>, groups = 1 : i64, layout = "NCHW", padding = array<i64: 1, 1, 1, 1>, stride = array<i64: 1, 1>} : (tensor<2x3x8x8xf32>, tensor<4x3x3x3xf32>) -> tensor<2x4x8x8xf32>
  %r = "mlc.relu"(%c) : (tensor<2x4x8x8xf32>) -> tensor<2x4x8x8xf32>
  %mean = "mlc.reduce_mean"(%r) {axes = array<i64: 2, 3>, keepdim = true} : (tensor<2x4x8x8xf32>) -> tensor<2x4x1x1xf32>
  %flat = "mlc.reshape"(%mean) : (tensor<2x4x1x1xf32>) -> tensor<2x4xf32>
  %y = "mlc.matmul"(%flat, %fc) : (tensor<2x4xf32>, tensor<4x10xf32>) -> tensor<2x10xf32>
  return %y : tensor<2x10xf32>
}

// -----

/// Depthwise (grouped) convs convert like any other: the weight C x 1 x KH x KW becomes
/// KH x KW x 1 x C.

// CHECK-LABEL: func.func @depthwise
// CHECK: %[[W:.*]] = "mlc.transpose"(%{{.*}}) {permutation = array<i64: 2, 3, 1, 0>} : (tensor<4x1x3x3xf32>) -> tensor<3x3x1x4xf32>
// CHECK: "mlc.conv2d"(%{{.*}}, %[[W]]) {{.*}}groups = 4 : i64, layout = "NHWC"
func.func @depthwise(%x: tensor<1x4x8x8xf32>) -> tensor<1x4x8x8xf32> {
  %w = "mlc.constant"() {value = dense<0.1> : tensor<4x1x3x3xf32>} : () -> tensor<4x1x3x3xf32>
  %c = "mlc.conv2d"(%x, %w) {dilation = array<i64: 1, 1>, groups = 4 : i64, layout = "NCHW", padding = array<i64: 1, 1, 1, 1>, stride = array<i64: 1, 1>} : (tensor<1x4x8x8xf32>, tensor<4x1x3x3xf32>) -> tensor<1x4x8x8xf32>
  return %c : tensor<1x4x8x8xf32>
}

// -----

/// A dynamic batch dimension permutes like any other.

// CHECK-LABEL: func.func @dynamic_batch
// CHECK-SAME: (%[[X:.*]]: tensor<?x3x8x8xf32>)
// CHECK: %[[IN:.*]] = "mlc.transpose"(%[[X]]) {permutation = array<i64: 0, 2, 3, 1>} : (tensor<?x3x8x8xf32>) -> tensor<?x8x8x3xf32>
// CHECK: %[[C:.*]] = "mlc.conv2d"(%[[IN]], %{{.*}}) {{.*}} -> tensor<?x8x8x4xf32>
// CHECK-NEXT: %[[R:.*]] = "mlc.relu"(%[[C]])
// CHECK-NEXT: %[[OUT:.*]] = "mlc.transpose"(%[[R]]) {permutation = array<i64: 0, 3, 1, 2>} : (tensor<?x8x8x4xf32>) -> tensor<?x4x8x8xf32>
// CHECK-NEXT: return %[[OUT]]
func.func @dynamic_batch(%x: tensor<?x3x8x8xf32>) -> tensor<?x4x8x8xf32> {
  %w = "mlc.constant"() {value = dense<0.1> : tensor<4x3x3x3xf32>} : () -> tensor<4x3x3x3xf32>
  %c = "mlc.conv2d"(%x, %w) {dilation = array<i64: 1, 1>, groups = 1 : i64, layout = "NCHW", padding = array<i64: 1, 1, 1, 1>, stride = array<i64: 1, 1>} : (tensor<?x3x8x8xf32>, tensor<4x3x3x3xf32>) -> tensor<?x4x8x8xf32>
  %r = "mlc.relu"(%c) : (tensor<?x4x8x8xf32>) -> tensor<?x4x8x8xf32>
  return %r : tensor<?x4x8x8xf32>
}
