// RUN: mlc-opt %s --split-input-file --pass-pipeline='builtin.module(mlc-fuse)' | FileCheck %s

/// conv absorbs its elementwise consumers (batch_norm, relu). The relu output has
/// two consumers (the second conv and the residual add): a materialization point,
/// so it is the first group's result; the second conv absorbs the add and relu.

// CHECK-LABEL: func.func @residual_block
// CHECK:      %[[FIRST:.*]] = "mlc.fusion_group"() ({
// CHECK-NEXT:   "mlc.conv2d"
// CHECK-NEXT:   "mlc.batch_norm"
// CHECK-NEXT:   %[[R:.*]] = "mlc.relu"
// CHECK-NEXT:   "mlc.yield"(%[[R]])
// CHECK:      %[[SECOND:.*]] = "mlc.fusion_group"() ({
// CHECK-NEXT:   %[[C:.*]] = "mlc.conv2d"(%[[FIRST]]
// CHECK-NEXT:   %[[A:.*]] = "mlc.add"(%[[C]], %[[FIRST]])
// CHECK-NEXT:   %[[R2:.*]] = "mlc.relu"(%[[A]])
// CHECK-NEXT:   "mlc.yield"(%[[R2]])
// CHECK:      return %[[SECOND]]
func.func @residual_block(%x: tensor<1x4x8x8xf32>, %w: tensor<4x4x3x3xf32>, %c: tensor<4xf32>) -> tensor<1x4x8x8xf32> {
  %0 = "mlc.conv2d"(%x, %w) {dilation = array<i64: 1, 1>, groups = 1 : i64, layout = "NCHW", padding = array<i64: 1, 1, 1, 1>, stride = array<i64: 1, 1>} : (tensor<1x4x8x8xf32>, tensor<4x4x3x3xf32>) -> tensor<1x4x8x8xf32>
  %1 = "mlc.batch_norm"(%0, %c, %c, %c, %c) {axis = 1 : i64, epsilon = 1.0e-05 : f64} : (tensor<1x4x8x8xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>) -> tensor<1x4x8x8xf32>
  %2 = "mlc.relu"(%1) : (tensor<1x4x8x8xf32>) -> tensor<1x4x8x8xf32>
  %3 = "mlc.conv2d"(%2, %w) {dilation = array<i64: 1, 1>, groups = 1 : i64, layout = "NCHW", padding = array<i64: 1, 1, 1, 1>, stride = array<i64: 1, 1>} : (tensor<1x4x8x8xf32>, tensor<4x4x3x3xf32>) -> tensor<1x4x8x8xf32>
  %4 = "mlc.add"(%3, %2) : (tensor<1x4x8x8xf32>, tensor<1x4x8x8xf32>) -> tensor<1x4x8x8xf32>
  %5 = "mlc.relu"(%4) : (tensor<1x4x8x8xf32>) -> tensor<1x4x8x8xf32>
  return %5 : tensor<1x4x8x8xf32>
}

// -----

/// An elementwise chain fuses into the reduction that consumes it; the reduction
/// ends its group, so the op after it starts a new one.

// CHECK-LABEL: func.func @elementwise_into_reduction
// CHECK:      %[[G:.*]] = "mlc.fusion_group"() ({
// CHECK-NEXT:   "mlc.mul"
// CHECK-NEXT:   "mlc.exp"
// CHECK-NEXT:   %[[S:.*]] = "mlc.reduce_sum"
// CHECK-NEXT:   "mlc.yield"(%[[S]])
// CHECK:      "mlc.fusion_group"() ({
// CHECK-NEXT:   "mlc.sqrt"(%[[G]])
func.func @elementwise_into_reduction(%x: tensor<4x8xf32>) -> tensor<4xf32> {
  %0 = "mlc.mul"(%x, %x) : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
  %1 = "mlc.exp"(%0) : (tensor<4x8xf32>) -> tensor<4x8xf32>
  %2 = "mlc.reduce_sum"(%1) {axes = array<i64: 1>, keepdim = false} : (tensor<4x8xf32>) -> tensor<4xf32>
  %3 = "mlc.sqrt"(%2) : (tensor<4xf32>) -> tensor<4xf32>
  return %3 : tensor<4xf32>
}

// -----

/// Stay outside groups: constants, ops on constants only (IREE evaluates them
/// at compile time) and reshapes (metadata for IREE). A lone op, like the slice,
/// still gets its group: one group, one dispatch.

// CHECK-LABEL: func.func @negative_outside_groups
// CHECK:      %[[W:.*]] = "mlc.constant"
// CHECK-NEXT: %[[WT:.*]] = "mlc.transpose"(%[[W]])
// CHECK-NEXT: %[[G:.*]] = "mlc.fusion_group"() ({
// CHECK-NEXT:   %[[M:.*]] = "mlc.matmul"(%{{.*}}, %[[WT]])
// CHECK-NEXT:   "mlc.yield"(%[[M]])
// CHECK:      %[[R:.*]] = "mlc.reshape"(%[[G]])
// CHECK-NEXT: %[[S:.*]] = "mlc.fusion_group"() ({
// CHECK-NEXT:   "mlc.slice"(%[[R]])
// CHECK:      return %[[S]]
func.func @negative_outside_groups(%x: tensor<2x4xf32>) -> tensor<1x3x2xf32> {
  %w = "mlc.constant"() {value = dense<1.0> : tensor<6x4xf32>} : () -> tensor<6x4xf32>
  %wt = "mlc.transpose"(%w) {permutation = array<i64: 1, 0>} : (tensor<6x4xf32>) -> tensor<4x6xf32>
  %0 = "mlc.matmul"(%x, %wt) : (tensor<2x4xf32>, tensor<4x6xf32>) -> tensor<2x6xf32>
  %1 = "mlc.reshape"(%0) : (tensor<2x6xf32>) -> tensor<2x3x2xf32>
  %2 = "mlc.slice"(%1) {start = array<i64: 1, 0, 0>, limit = array<i64: 2, 3, 2>, stride = array<i64: 1, 1, 1>} : (tensor<2x3x2xf32>) -> tensor<1x3x2xf32>
  return %2 : tensor<1x3x2xf32>
}

// -----

/// A matmul does not absorb an injective consumer (the transpose), and the
/// reduction-kind softmax does not fuse forward: three groups.

// CHECK-LABEL: func.func @negative_no_fusion_across_kinds
// CHECK-COUNT-3: "mlc.fusion_group"
// CHECK-NOT: "mlc.fusion_group"
func.func @negative_no_fusion_across_kinds(%x: tensor<4x4xf32>) -> tensor<4x4xf32> {
  %0 = "mlc.matmul"(%x, %x) : (tensor<4x4xf32>, tensor<4x4xf32>) -> tensor<4x4xf32>
  %1 = "mlc.softmax"(%0) {axis = 1 : i64} : (tensor<4x4xf32>) -> tensor<4x4xf32>
  %2 = "mlc.transpose"(%1) {permutation = array<i64: 1, 0>} : (tensor<4x4xf32>) -> tensor<4x4xf32>
  return %2 : tensor<4x4xf32>
}

// -----

/// A layer_norm on the library runs in the plugin's call, in no group: the residual add
/// before it, which would otherwise fuse into the reduction, is a group of its own (an
/// epilogue the matmul's library call can take), and the op after it starts another.
/// The same layer_norm without `library` takes the add into its group.

// CHECK-LABEL: func.func @layer_norm_on_library_in_no_group
// CHECK:      %[[SUM:.*]] = "mlc.fusion_group"() ({
// CHECK-NEXT:   %[[A:.*]] = "mlc.add"
// CHECK-NEXT:   "mlc.yield"(%[[A]])
// CHECK:      %[[N:.*]] = "mlc.layer_norm"(%[[SUM]], %{{.*}}, %{{.*}}) {{.*}}library = true
// CHECK:      "mlc.fusion_group"() ({
// CHECK-NEXT:   "mlc.relu"(%[[N]])
func.func @layer_norm_on_library_in_no_group(%x: tensor<4x16xf32>, %r: tensor<4x16xf32>, %w: tensor<16xf32>) -> tensor<4x16xf32> {
  %0 = "mlc.add"(%x, %r) : (tensor<4x16xf32>, tensor<4x16xf32>) -> tensor<4x16xf32>
  %1 = "mlc.layer_norm"(%0, %w, %w) {axis = 1 : i64, epsilon = 1.0e-5 : f64, library = true} : (tensor<4x16xf32>, tensor<16xf32>, tensor<16xf32>) -> tensor<4x16xf32>
  %2 = "mlc.relu"(%1) : (tensor<4x16xf32>) -> tensor<4x16xf32>
  return %2 : tensor<4x16xf32>
}

// -----

// CHECK-LABEL: func.func @layer_norm_in_a_group
// CHECK:      "mlc.fusion_group"() ({
// CHECK-NEXT:   "mlc.add"
// CHECK-NEXT:   %[[N:.*]] = "mlc.layer_norm"
// CHECK-NEXT:   "mlc.yield"(%[[N]])
func.func @layer_norm_in_a_group(%x: tensor<4x16xf32>, %r: tensor<4x16xf32>, %w: tensor<16xf32>) -> tensor<4x16xf32> {
  %0 = "mlc.add"(%x, %r) : (tensor<4x16xf32>, tensor<4x16xf32>) -> tensor<4x16xf32>
  %1 = "mlc.layer_norm"(%0, %w, %w) {axis = 1 : i64, epsilon = 1.0e-5 : f64, library = false} : (tensor<4x16xf32>, tensor<16xf32>, tensor<16xf32>) -> tensor<4x16xf32>
  return %1 : tensor<4x16xf32>
}
