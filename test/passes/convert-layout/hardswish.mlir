// RUN: mlc-opt %s --pass-pipeline='builtin.module(mlc-convert-layout)' --split-input-file | FileCheck %s

/// hardswish as torch-mlir decomposes it, `x * min(relu(x + 3), 6) / 6`, uses the
/// transposed x twice (the add and the mul): neither use can sink the transpose
/// alone, but both will once the other has, so the whole chain goes NHWC.

// CHECK-LABEL: func.func @hardswish_between_convs
// CHECK-SAME: (%[[X:.*]]: tensor<1x3x8x8xf32>)
// CHECK:      %[[IN:.*]] = "mlc.transpose"(%[[X]]) {permutation = array<i64: 0, 2, 3, 1>}
// CHECK:      %[[C1:.*]] = "mlc.conv2d"(%[[IN]], {{.*}}layout = "NHWC"
// CHECK-NEXT: %[[A:.*]] = "mlc.add"(%[[C1]], %{{.*}}) : (tensor<1x8x8x4xf32>, tensor<f32>)
// CHECK-NEXT: %[[R:.*]] = "mlc.relu"(%[[A]]) : (tensor<1x8x8x4xf32>)
// CHECK-NEXT: %[[M:.*]] = "mlc.minimum"(%[[R]], %{{.*}}) : (tensor<1x8x8x4xf32>, tensor<f32>)
// CHECK-NEXT: %[[D:.*]] = "mlc.div"(%[[M]], %{{.*}}) : (tensor<1x8x8x4xf32>, tensor<f32>)
// CHECK-NEXT: %[[HS:.*]] = "mlc.mul"(%[[D]], %[[C1]]) : (tensor<1x8x8x4xf32>, tensor<1x8x8x4xf32>)
// CHECK-NOT:  array<i64: 0, 3, 1, 2>
// CHECK:      %[[C2:.*]] = "mlc.conv2d"(%[[HS]], {{.*}}layout = "NHWC"
// CHECK-NEXT: %[[OUT:.*]] = "mlc.transpose"(%[[C2]]) {permutation = array<i64: 0, 3, 1, 2>}
// CHECK-NEXT: return %[[OUT]]
func.func @hardswish_between_convs(%x: tensor<1x3x8x8xf32>) -> tensor<1x5x8x8xf32> {
  %w1 = "mlc.constant"() {value = dense<0.1> : tensor<4x3x3x3xf32>} : () -> tensor<4x3x3x3xf32>
  %w2 = "mlc.constant"() {value = dense<0.2> : tensor<5x4x1x1xf32>} : () -> tensor<5x4x1x1xf32>
  %three = "mlc.constant"() {value = dense<3.0> : tensor<f32>} : () -> tensor<f32>
  %six = "mlc.constant"() {value = dense<6.0> : tensor<f32>} : () -> tensor<f32>
  %c = "mlc.conv2d"(%x, %w1) {dilation = array<i64: 1, 1>, groups = 1 : i64, layout = "NCHW", padding = array<i64: 1, 1, 1, 1>, stride = array<i64: 1, 1>} : (tensor<1x3x8x8xf32>, tensor<4x3x3x3xf32>) -> tensor<1x4x8x8xf32>
  %a = "mlc.add"(%c, %three) : (tensor<1x4x8x8xf32>, tensor<f32>) -> tensor<1x4x8x8xf32>
  %r = "mlc.relu"(%a) : (tensor<1x4x8x8xf32>) -> tensor<1x4x8x8xf32>
  %m = "mlc.minimum"(%r, %six) : (tensor<1x4x8x8xf32>, tensor<f32>) -> tensor<1x4x8x8xf32>
  %d = "mlc.div"(%m, %six) : (tensor<1x4x8x8xf32>, tensor<f32>) -> tensor<1x4x8x8xf32>
  %hs = "mlc.mul"(%d, %c) : (tensor<1x4x8x8xf32>, tensor<1x4x8x8xf32>) -> tensor<1x4x8x8xf32>
  %c2 = "mlc.conv2d"(%hs, %w2) {dilation = array<i64: 1, 1>, groups = 1 : i64, layout = "NCHW", padding = array<i64: 0, 0, 0, 0>, stride = array<i64: 1, 1>} : (tensor<1x4x8x8xf32>, tensor<5x4x1x1xf32>) -> tensor<1x5x8x8xf32>
  return %c2 : tensor<1x5x8x8xf32>
}

// -----

/// negative: the hardswish ends in a reshape (not layout-agnostic). The chain still
/// sinks as a whole and the one transpose out stops right before the reshape: no
/// transpose is added.

// CHECK-LABEL: func.func @negative_hardswish_then_reshape
// CHECK:      %[[C:.*]] = "mlc.conv2d"
// CHECK-NOT:  "mlc.transpose"
// CHECK:      %[[HS:.*]] = "mlc.mul"(%{{.*}}, %[[C]]) : (tensor<1x8x8x4xf32>, tensor<1x8x8x4xf32>)
// CHECK-NEXT: %[[T:.*]] = "mlc.transpose"(%[[HS]]) {permutation = array<i64: 0, 3, 1, 2>}
// CHECK-NEXT: "mlc.reshape"(%[[T]]) : (tensor<1x4x8x8xf32>) -> tensor<4x64xf32>
// CHECK-NOT:  "mlc.transpose"
func.func @negative_hardswish_then_reshape(%x: tensor<1x3x8x8xf32>) -> tensor<4x64xf32> {
  %w1 = "mlc.constant"() {value = dense<0.1> : tensor<4x3x3x3xf32>} : () -> tensor<4x3x3x3xf32>
  %three = "mlc.constant"() {value = dense<3.0> : tensor<f32>} : () -> tensor<f32>
  %six = "mlc.constant"() {value = dense<6.0> : tensor<f32>} : () -> tensor<f32>
  %c = "mlc.conv2d"(%x, %w1) {dilation = array<i64: 1, 1>, groups = 1 : i64, layout = "NCHW", padding = array<i64: 1, 1, 1, 1>, stride = array<i64: 1, 1>} : (tensor<1x3x8x8xf32>, tensor<4x3x3x3xf32>) -> tensor<1x4x8x8xf32>
  %a = "mlc.add"(%c, %three) : (tensor<1x4x8x8xf32>, tensor<f32>) -> tensor<1x4x8x8xf32>
  %r = "mlc.relu"(%a) : (tensor<1x4x8x8xf32>) -> tensor<1x4x8x8xf32>
  %m = "mlc.minimum"(%r, %six) : (tensor<1x4x8x8xf32>, tensor<f32>) -> tensor<1x4x8x8xf32>
  %d = "mlc.div"(%m, %six) : (tensor<1x4x8x8xf32>, tensor<f32>) -> tensor<1x4x8x8xf32>
  %hs = "mlc.mul"(%d, %c) : (tensor<1x4x8x8xf32>, tensor<1x4x8x8xf32>) -> tensor<1x4x8x8xf32>
  %flat = "mlc.reshape"(%hs) : (tensor<1x4x8x8xf32>) -> tensor<4x64xf32>
  return %flat : tensor<4x64xf32>
}

// -----

/// negative: an inner value of the hardswish (the relu) also feeds a reshape.
/// Sinking into the chain would need a transpose back for that reshape as well as
/// one for the mul's other operand, so the transpose out of the conv stays where it is
/// and the chain stays NCHW: still exactly one transpose out.

// CHECK-LABEL: func.func @negative_inner_value_reaches_reshape
// CHECK:      %[[C:.*]] = "mlc.conv2d"
// CHECK-NEXT: %[[T:.*]] = "mlc.transpose"(%[[C]]) {permutation = array<i64: 0, 3, 1, 2>}
// CHECK-NOT:  "mlc.transpose"
// CHECK:      %[[HS:.*]] = "mlc.mul"(%{{.*}}, %[[T]]) : (tensor<1x4x8x8xf32>, tensor<1x4x8x8xf32>)
// CHECK-NOT:  "mlc.transpose"
// CHECK:      return
func.func @negative_inner_value_reaches_reshape(%x: tensor<1x3x8x8xf32>) -> (tensor<1x4x8x8xf32>, tensor<4x64xf32>) {
  %w1 = "mlc.constant"() {value = dense<0.1> : tensor<4x3x3x3xf32>} : () -> tensor<4x3x3x3xf32>
  %three = "mlc.constant"() {value = dense<3.0> : tensor<f32>} : () -> tensor<f32>
  %six = "mlc.constant"() {value = dense<6.0> : tensor<f32>} : () -> tensor<f32>
  %c = "mlc.conv2d"(%x, %w1) {dilation = array<i64: 1, 1>, groups = 1 : i64, layout = "NCHW", padding = array<i64: 1, 1, 1, 1>, stride = array<i64: 1, 1>} : (tensor<1x3x8x8xf32>, tensor<4x3x3x3xf32>) -> tensor<1x4x8x8xf32>
  %a = "mlc.add"(%c, %three) : (tensor<1x4x8x8xf32>, tensor<f32>) -> tensor<1x4x8x8xf32>
  %r = "mlc.relu"(%a) : (tensor<1x4x8x8xf32>) -> tensor<1x4x8x8xf32>
  %m = "mlc.minimum"(%r, %six) : (tensor<1x4x8x8xf32>, tensor<f32>) -> tensor<1x4x8x8xf32>
  %d = "mlc.div"(%m, %six) : (tensor<1x4x8x8xf32>, tensor<f32>) -> tensor<1x4x8x8xf32>
  %hs = "mlc.mul"(%d, %c) : (tensor<1x4x8x8xf32>, tensor<1x4x8x8xf32>) -> tensor<1x4x8x8xf32>
  %flat = "mlc.reshape"(%r) : (tensor<1x4x8x8xf32>) -> tensor<4x64xf32>
  return %hs, %flat : tensor<1x4x8x8xf32>, tensor<4x64xf32>
}
