// RUN: mlc-opt %s --pass-pipeline='builtin.module(mlc-convert-layout)' --split-input-file | FileCheck %s

/// Where a transpose cannot go on, it stays right before the op that stops it.

/// mlc.reshape is not layout-agnostic: the transpose out sinks through the relu and
/// stops before the reshape.

// CHECK-LABEL: func.func @negative_reshape_stops
// CHECK: %[[C:.*]] = "mlc.conv2d"
// CHECK-NEXT: %[[R:.*]] = "mlc.relu"(%[[C]]) : (tensor<1x8x8x4xf32>)
// CHECK-NEXT: %[[T:.*]] = "mlc.transpose"(%[[R]]) {permutation = array<i64: 0, 3, 1, 2>}
// CHECK-NEXT: "mlc.reshape"(%[[T]]) : (tensor<1x4x8x8xf32>) -> tensor<4x64xf32>
func.func @negative_reshape_stops(%x: tensor<1x3x8x8xf32>) -> tensor<4x64xf32> {
  %w = "mlc.constant"() {value = dense<0.1> : tensor<4x3x3x3xf32>} : () -> tensor<4x3x3x3xf32>
  %c = "mlc.conv2d"(%x, %w) {dilation = array<i64: 1, 1>, groups = 1 : i64, layout = "NCHW", padding = array<i64: 1, 1, 1, 1>, stride = array<i64: 1, 1>} : (tensor<1x3x8x8xf32>, tensor<4x3x3x3xf32>) -> tensor<1x4x8x8xf32>
  %r = "mlc.relu"(%c) : (tensor<1x4x8x8xf32>) -> tensor<1x4x8x8xf32>
  %flat = "mlc.reshape"(%r) : (tensor<1x4x8x8xf32>) -> tensor<4x64xf32>
  return %flat : tensor<4x64xf32>
}

// -----

/// mlc.matmul over the last two (spatial) dimensions needs NCHW.

// CHECK-LABEL: func.func @negative_matmul_stops
// CHECK: %[[C:.*]] = "mlc.conv2d"
// CHECK-NEXT: %[[T:.*]] = "mlc.transpose"(%[[C]]) {permutation = array<i64: 0, 3, 1, 2>}
// CHECK-NEXT: "mlc.matmul"(%[[T]], %{{.*}}) : (tensor<1x4x8x8xf32>, tensor<8x5xf32>)
func.func @negative_matmul_stops(%x: tensor<1x3x8x8xf32>) -> tensor<1x4x8x5xf32> {
  %w = "mlc.constant"() {value = dense<0.1> : tensor<4x3x3x3xf32>} : () -> tensor<4x3x3x3xf32>
  %m = "mlc.constant"() {value = dense<0.1> : tensor<8x5xf32>} : () -> tensor<8x5xf32>
  %c = "mlc.conv2d"(%x, %w) {dilation = array<i64: 1, 1>, groups = 1 : i64, layout = "NCHW", padding = array<i64: 1, 1, 1, 1>, stride = array<i64: 1, 1>} : (tensor<1x3x8x8xf32>, tensor<4x3x3x3xf32>) -> tensor<1x4x8x8xf32>
  %y = "mlc.matmul"(%c, %m) : (tensor<1x4x8x8xf32>, tensor<8x5xf32>) -> tensor<1x4x8x5xf32>
  return %y : tensor<1x4x8x5xf32>
}

// -----

/// The conv's result is also returned: sinking the transpose through the relu would
/// leave it for the return and add a second one, so the relu stays in NCHW.

// CHECK-LABEL: func.func @negative_transpose_with_other_use
// CHECK: %[[C:.*]] = "mlc.conv2d"
// CHECK-NEXT: %[[T:.*]] = "mlc.transpose"(%[[C]]) {permutation = array<i64: 0, 3, 1, 2>}
// CHECK-NEXT: %[[R:.*]] = "mlc.relu"(%[[T]]) : (tensor<1x4x8x8xf32>)
// CHECK-NEXT: return %[[R]], %[[T]]
func.func @negative_transpose_with_other_use(%x: tensor<1x3x8x8xf32>) -> (tensor<1x4x8x8xf32>, tensor<1x4x8x8xf32>) {
  %w = "mlc.constant"() {value = dense<0.1> : tensor<4x3x3x3xf32>} : () -> tensor<4x3x3x3xf32>
  %c = "mlc.conv2d"(%x, %w) {dilation = array<i64: 1, 1>, groups = 1 : i64, layout = "NCHW", padding = array<i64: 1, 1, 1, 1>, stride = array<i64: 1, 1>} : (tensor<1x3x8x8xf32>, tensor<4x3x3x3xf32>) -> tensor<1x4x8x8xf32>
  %r = "mlc.relu"(%c) : (tensor<1x4x8x8xf32>) -> tensor<1x4x8x8xf32>
  return %r, %c : tensor<1x4x8x8xf32>, tensor<1x4x8x8xf32>
}

// -----

/// The other operand of the add is a full-size NCHW argument with no transpose of its
/// own to reuse: the add stays in NCHW.

// CHECK-LABEL: func.func @negative_add_of_nchw_argument
// CHECK-SAME: (%[[X:.*]]: tensor<1x3x8x8xf32>, %[[Y:.*]]: tensor<1x4x8x8xf32>)
// CHECK: %[[C:.*]] = "mlc.conv2d"
// CHECK-NEXT: %[[T:.*]] = "mlc.transpose"(%[[C]]) {permutation = array<i64: 0, 3, 1, 2>}
// CHECK-NEXT: "mlc.add"(%[[T]], %[[Y]]) : (tensor<1x4x8x8xf32>, tensor<1x4x8x8xf32>)
func.func @negative_add_of_nchw_argument(%x: tensor<1x3x8x8xf32>, %y: tensor<1x4x8x8xf32>) -> tensor<1x4x8x8xf32> {
  %w = "mlc.constant"() {value = dense<0.1> : tensor<4x3x3x3xf32>} : () -> tensor<4x3x3x3xf32>
  %c = "mlc.conv2d"(%x, %w) {dilation = array<i64: 1, 1>, groups = 1 : i64, layout = "NCHW", padding = array<i64: 1, 1, 1, 1>, stride = array<i64: 1, 1>} : (tensor<1x3x8x8xf32>, tensor<4x3x3x3xf32>) -> tensor<1x4x8x8xf32>
  %s = "mlc.add"(%c, %y) : (tensor<1x4x8x8xf32>, tensor<1x4x8x8xf32>) -> tensor<1x4x8x8xf32>
  return %s : tensor<1x4x8x8xf32>
}

// -----

/// A reduction without keepdim drops dimensions, so it is not layout-agnostic here.

// CHECK-LABEL: func.func @negative_reduce_without_keepdim
// CHECK: %[[T:.*]] = "mlc.transpose"(%{{.*}}) {permutation = array<i64: 0, 3, 1, 2>}
// CHECK-NEXT: "mlc.reduce_mean"(%[[T]]) {axes = array<i64: 2, 3>, keepdim = false}
func.func @negative_reduce_without_keepdim(%x: tensor<1x3x8x8xf32>) -> tensor<1x4xf32> {
  %w = "mlc.constant"() {value = dense<0.1> : tensor<4x3x3x3xf32>} : () -> tensor<4x3x3x3xf32>
  %c = "mlc.conv2d"(%x, %w) {dilation = array<i64: 1, 1>, groups = 1 : i64, layout = "NCHW", padding = array<i64: 1, 1, 1, 1>, stride = array<i64: 1, 1>} : (tensor<1x3x8x8xf32>, tensor<4x3x3x3xf32>) -> tensor<1x4x8x8xf32>
  %m = "mlc.reduce_mean"(%c) {axes = array<i64: 2, 3>, keepdim = false} : (tensor<1x4x8x8xf32>) -> tensor<1x4xf32>
  return %m : tensor<1x4xf32>
}

// -----

/// An op already in NHWC is left alone.

// CHECK-LABEL: func.func @negative_already_nhwc
// CHECK-NOT: mlc.transpose
// CHECK: "mlc.conv2d"(%{{.*}}) {{.*}}layout = "NHWC"
// CHECK-NOT: mlc.transpose
func.func @negative_already_nhwc(%x: tensor<1x8x8x3xf32>) -> tensor<1x8x8x4xf32> {
  %w = "mlc.constant"() {value = dense<0.1> : tensor<3x3x3x4xf32>} : () -> tensor<3x3x3x4xf32>
  %c = "mlc.conv2d"(%x, %w) {dilation = array<i64: 1, 1>, groups = 1 : i64, layout = "NHWC", padding = array<i64: 1, 1, 1, 1>, stride = array<i64: 1, 1>} : (tensor<1x8x8x3xf32>, tensor<3x3x3x4xf32>) -> tensor<1x8x8x4xf32>
  return %c : tensor<1x8x8x4xf32>
}

// -----

/// An operand whose dimensions are all the same size is not a reshape of its NHWC
/// form: transposing [1, 4, 4, 4] moves data though the shape stays. The transpose out
/// stops before the sub with an activation of that shape (it once went through, with the
/// activation left in NCHW: random programs, seed 150026, a wrong result).

// CHECK-LABEL: func.func @negative_equal_sizes_are_not_unit_dimensions
// CHECK: %[[C:.*]] = "mlc.conv2d"
// CHECK-NEXT: %[[T:.*]] = "mlc.transpose"(%[[C]]) {permutation = array<i64: 0, 3, 1, 2>}
// CHECK-NEXT: "mlc.sub"(%arg1, %[[T]]) : (tensor<1x4x4x4xf32>, tensor<1x4x4x4xf32>)
func.func @negative_equal_sizes_are_not_unit_dimensions(%x: tensor<1x4x4x4xf32>, %y: tensor<1x4x4x4xf32>) -> tensor<1x4x4x4xf32> {
  %w = "mlc.constant"() {value = dense<0.1> : tensor<4x4x3x3xf32>} : () -> tensor<4x4x3x3xf32>
  %c = "mlc.conv2d"(%x, %w) {dilation = array<i64: 1, 1>, groups = 1 : i64, layout = "NCHW", padding = array<i64: 1, 1, 1, 1>, stride = array<i64: 1, 1>} : (tensor<1x4x4x4xf32>, tensor<4x4x3x3xf32>) -> tensor<1x4x4x4xf32>
  %s = "mlc.sub"(%y, %c) : (tensor<1x4x4x4xf32>, tensor<1x4x4x4xf32>) -> tensor<1x4x4x4xf32>
  return %s : tensor<1x4x4x4xf32>
}
