// RUN: mlc-opt %s --split-input-file --pass-pipeline='builtin.module(mlc-fuse, mlc-lower-to-linalg{keep-fusion-groups=true}, mlc-form-dispatch-regions)' | FileCheck %s
// RUN: mlc-opt %s --pass-pipeline='builtin.module(mlc-fuse, mlc-lower-to-linalg{keep-fusion-groups=true}, mlc-form-dispatch-regions)' --split-input-file --mlir-pass-statistics -o /dev/null 2>&1 | FileCheck %s --check-prefix=STATS
// STATS: 'mlc-form-dispatch-regions'
// STATS: (1) input pads computed before their region

/// A convolution's padded input is computed before its region (IREE runs a convolution
/// whose padding is made in the same dispatch 1.3-2x slower); the region keeps the
/// convolution and its fused ReLU. The pad's constant is copied out with it.

// CHECK-LABEL: func.func @conv_relu
// CHECK-SAME: (%[[X:.*]]: tensor<1x8x8x3xf32>)
// CHECK:      %[[ZERO:.*]] = arith.constant 0.000000e+00 : f32
// CHECK-NEXT: %[[P:.*]] = tensor.pad %[[X]] low[0, 1, 1, 0] high[0, 1, 1, 0]
// CHECK-NEXT: ^bb0
// CHECK-NEXT:   tensor.yield %[[ZERO]]
// CHECK:      "flow.dispatch.region"() ({
// CHECK-NOT:    tensor.pad
// CHECK:        linalg.conv_2d_nhwc_hwcf {{.*}} ins(%[[P]],
// CHECK:        arith.maximumf
// CHECK:        "flow.return"
func.func @conv_relu(%x: tensor<1x8x8x3xf32>) -> tensor<1x8x8x4xf32> {
  %w = "mlc.constant"() {value = dense<0.1> : tensor<3x3x3x4xf32>} : () -> tensor<3x3x3x4xf32>
  %c = "mlc.conv2d"(%x, %w) {dilation = array<i64: 1, 1>, groups = 1 : i64, layout = "NHWC", padding = array<i64: 1, 1, 1, 1>, stride = array<i64: 1, 1>} : (tensor<1x8x8x3xf32>, tensor<3x3x3x4xf32>) -> tensor<1x8x8x4xf32>
  %r = "mlc.relu"(%c) : (tensor<1x8x8x4xf32>) -> tensor<1x8x8x4xf32>
  return %r : tensor<1x8x8x4xf32>
}

// -----

/// A pad of a value made in the group stays in it.

// CHECK-LABEL: func.func @negative_inner_pad
// CHECK:      "flow.dispatch.region"() ({
// CHECK:        arith.maximumf
// CHECK:        tensor.pad
// CHECK:        "flow.return"
func.func @negative_inner_pad(%x: tensor<4x4xf32>) -> tensor<6x6xf32> {
  %r = "mlc.relu"(%x) : (tensor<4x4xf32>) -> tensor<4x4xf32>
  %p = "mlc.pad"(%r) {low = array<i64: 1, 1>, high = array<i64: 1, 1>, value = 0.0 : f64} : (tensor<4x4xf32>) -> tensor<6x6xf32>
  return %p : tensor<6x6xf32>
}
