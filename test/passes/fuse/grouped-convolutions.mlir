// RUN: mlc-opt %s --split-input-file --pass-pipeline='builtin.module(mlc-fuse)' | FileCheck %s
// RUN: mlc-opt %s --split-input-file --pass-pipeline='builtin.module(mlc-fuse{grouped-convolutions-alone=true})' | FileCheck %s --check-prefix=ALONE

/// A grouped convolution (several groups, not depthwise) takes its elementwise consumers
/// but no broadcast one: IREE 3.13 could not tile the grouped convolution reshaped back
/// to channels beside a broadcast ("write affecting operations on global resources are
/// restricted to workgroup distributed contexts"; random programs, seed 130036).

// CHECK-LABEL: func.func @grouped_then_broadcast_add
// CHECK:      %[[G:.*]] = "mlc.fusion_group"() ({
// CHECK-NEXT:   %[[C:.*]] = "mlc.conv2d"
// CHECK-NEXT:   "mlc.yield"(%[[C]])
// CHECK:      "mlc.fusion_group"() ({
// CHECK-NEXT:   "mlc.add"(%[[G]], %{{.*}}) : (tensor<1x8x8x12xf32>, tensor<1x1x1x12xf32>)
func.func @grouped_then_broadcast_add(%x: tensor<1x8x8x6xf32>, %w: tensor<3x3x2x12xf32>, %y: tensor<1x1x1x12xf32>) -> tensor<1x8x8x12xf32> {
  %c = "mlc.conv2d"(%x, %w) {dilation = array<i64: 1, 1>, groups = 3 : i64, layout = "NHWC", padding = array<i64: 1, 1, 1, 1>, stride = array<i64: 1, 1>} : (tensor<1x8x8x6xf32>, tensor<3x3x2x12xf32>) -> tensor<1x8x8x12xf32>
  %a = "mlc.add"(%c, %y) : (tensor<1x8x8x12xf32>, tensor<1x1x1x12xf32>) -> tensor<1x8x8x12xf32>
  return %a : tensor<1x8x8x12xf32>
}

// -----

/// Its elementwise consumers join it (a ReLU, an add of its own shape).

// CHECK-LABEL: func.func @grouped_then_elementwise
// CHECK:      "mlc.fusion_group"() ({
// CHECK-NEXT:   %[[C:.*]] = "mlc.conv2d"
// CHECK-NEXT:   %[[R:.*]] = "mlc.relu"(%[[C]])
// CHECK-NEXT:   %[[A:.*]] = "mlc.add"(%[[R]], %arg2)
// CHECK-NEXT:   "mlc.yield"(%[[A]])
// CHECK-NOT:  "mlc.fusion_group"
func.func @grouped_then_elementwise(%x: tensor<1x8x8x6xf32>, %w: tensor<3x3x2x12xf32>, %z: tensor<1x8x8x12xf32>) -> tensor<1x8x8x12xf32> {
  %c = "mlc.conv2d"(%x, %w) {dilation = array<i64: 1, 1>, groups = 3 : i64, layout = "NHWC", padding = array<i64: 1, 1, 1, 1>, stride = array<i64: 1, 1>} : (tensor<1x8x8x6xf32>, tensor<3x3x2x12xf32>) -> tensor<1x8x8x12xf32>
  %r = "mlc.relu"(%c) : (tensor<1x8x8x12xf32>) -> tensor<1x8x8x12xf32>
  %a = "mlc.add"(%r, %z) : (tensor<1x8x8x12xf32>, tensor<1x8x8x12xf32>) -> tensor<1x8x8x12xf32>
  return %a : tensor<1x8x8x12xf32>
}

// -----

/// A depthwise convolution (one channel per group, its own linalg op) keeps a broadcast
/// consumer, as every other convolution does.

// CHECK-LABEL: func.func @depthwise_then_broadcast_add
// CHECK:      "mlc.fusion_group"() ({
// CHECK-NEXT:   %[[C:.*]] = "mlc.conv2d"
// CHECK-NEXT:   %[[A:.*]] = "mlc.add"(%[[C]], %arg2)
// CHECK-NEXT:   "mlc.yield"(%[[A]])
// CHECK-NOT:  "mlc.fusion_group"
func.func @depthwise_then_broadcast_add(%x: tensor<1x8x8x6xf32>, %w: tensor<3x3x1x6xf32>, %y: tensor<1x1x1x6xf32>) -> tensor<1x8x8x6xf32> {
  %c = "mlc.conv2d"(%x, %w) {dilation = array<i64: 1, 1>, groups = 6 : i64, layout = "NHWC", padding = array<i64: 1, 1, 1, 1>, stride = array<i64: 1, 1>} : (tensor<1x8x8x6xf32>, tensor<3x3x1x6xf32>) -> tensor<1x8x8x6xf32>
  %a = "mlc.add"(%c, %y) : (tensor<1x8x8x6xf32>, tensor<1x1x1x6xf32>) -> tensor<1x8x8x6xf32>
  return %a : tensor<1x8x8x6xf32>
}

// -----

/// With grouped-convolutions-alone (the GPU targets), a grouped convolution that is not
/// depthwise is a group of its own: with its ReLU in the group, IREE refused the Vulkan
/// dispatch (random programs, seed 150005). A depthwise one keeps its consumers.

// CHECK-LABEL: func.func @grouped_then_relu_on_a_gpu
// CHECK:      "mlc.fusion_group"() ({
// CHECK-NEXT:   %[[C:.*]] = "mlc.conv2d"
// CHECK-NEXT:   %[[R:.*]] = "mlc.relu"(%[[C]])
// CHECK-NEXT:   "mlc.yield"(%[[R]])

// ALONE-LABEL: func.func @grouped_then_relu_on_a_gpu
// ALONE:      %[[G:.*]] = "mlc.fusion_group"() ({
// ALONE-NEXT:   %[[C:.*]] = "mlc.conv2d"{{.*}}groups = 3
// ALONE-NEXT:   "mlc.yield"(%[[C]])
// ALONE:      "mlc.fusion_group"() ({
// ALONE-NEXT:   "mlc.relu"(%[[G]])
// ALONE:      "mlc.fusion_group"() ({
// ALONE-NEXT:   %[[D:.*]] = "mlc.conv2d"{{.*}}groups = 6
// ALONE-NEXT:   %[[S:.*]] = "mlc.relu"(%[[D]])
// ALONE-NEXT:   "mlc.yield"(%[[S]])
func.func @grouped_then_relu_on_a_gpu(%x: tensor<3x5x6x3xf32>, %w: tensor<1x1x1x6xf32>, %y: tensor<1x8x8x6xf32>, %v: tensor<3x3x1x6xf32>)
    -> (tensor<3x3x3x6xf32>, tensor<1x8x8x6xf32>) {
  %c = "mlc.conv2d"(%x, %w) {dilation = array<i64: 1, 1>, groups = 3 : i64, layout = "NHWC", padding = array<i64: 0, 0, 0, 0>, stride = array<i64: 2, 2>} : (tensor<3x5x6x3xf32>, tensor<1x1x1x6xf32>) -> tensor<3x3x3x6xf32>
  %r = "mlc.relu"(%c) : (tensor<3x3x3x6xf32>) -> tensor<3x3x3x6xf32>
  %d = "mlc.conv2d"(%y, %v) {dilation = array<i64: 1, 1>, groups = 6 : i64, layout = "NHWC", padding = array<i64: 1, 1, 1, 1>, stride = array<i64: 1, 1>} : (tensor<1x8x8x6xf32>, tensor<3x3x1x6xf32>) -> tensor<1x8x8x6xf32>
  %s = "mlc.relu"(%d) : (tensor<1x8x8x6xf32>) -> tensor<1x8x8x6xf32>
  return %r, %s : tensor<3x3x3x6xf32>, tensor<1x8x8x6xf32>
}
