// RUN: mlc-opt %s --pass-pipeline='builtin.module(mlc-convert-layout{layout=nchw})' | FileCheck %s
// RUN: mlc-opt %s --pass-pipeline='builtin.module(mlc-convert-layout{layout=nchw}, mlc-convert-layout{layout=nhwc})' | FileCheck %s --check-prefix=ROUND-TRIP

/// `layout=nchw` converts back: activations NHWC -> NCHW ([0, 3, 1, 2]) and weights
/// HWCF -> FCHW ([3, 2, 0, 1]), with one transpose at each end of the chain.

// CHECK-LABEL: func.func @nhwc_chain
// CHECK-SAME: (%[[X:.*]]: tensor<1x8x8x3xf32>)
// CHECK: %[[IN:.*]] = "mlc.transpose"(%[[X]]) {permutation = array<i64: 0, 3, 1, 2>} : (tensor<1x8x8x3xf32>) -> tensor<1x3x8x8xf32>
// CHECK: %[[W:.*]] = "mlc.transpose"(%{{.*}}) {permutation = array<i64: 3, 2, 0, 1>} : (tensor<3x3x3x4xf32>) -> tensor<4x3x3x3xf32>
// CHECK: %[[C:.*]] = "mlc.conv2d"(%[[IN]], %[[W]]) {{.*}}layout = "NCHW"{{.*}} -> tensor<1x4x8x8xf32>
// CHECK-NEXT: %[[R:.*]] = "mlc.relu"(%[[C]])
// CHECK-NEXT: %[[P:.*]] = "mlc.max_pool2d"(%[[R]]) {{.*}}layout = "NCHW"{{.*}} -> tensor<1x4x4x4xf32>
// CHECK-NEXT: %[[OUT:.*]] = "mlc.transpose"(%[[P]]) {permutation = array<i64: 0, 2, 3, 1>}
// CHECK-NEXT: return %[[OUT]]

/// Converting back and forth cancels every transpose, the weights' included.

// ROUND-TRIP-LABEL: func.func @nhwc_chain
// ROUND-TRIP-NOT: mlc.transpose
// ROUND-TRIP: "mlc.conv2d"(%{{.*}}) {{.*}}layout = "NHWC"
// ROUND-TRIP-NOT: mlc.transpose
func.func @nhwc_chain(%x: tensor<1x8x8x3xf32>) -> tensor<1x4x4x4xf32> {
  %w = "mlc.constant"() {value = dense<0.1> : tensor<3x3x3x4xf32>} : () -> tensor<3x3x3x4xf32>
  %c = "mlc.conv2d"(%x, %w) {dilation = array<i64: 1, 1>, groups = 1 : i64, layout = "NHWC", padding = array<i64: 1, 1, 1, 1>, stride = array<i64: 1, 1>} : (tensor<1x8x8x3xf32>, tensor<3x3x3x4xf32>) -> tensor<1x8x8x4xf32>
  %r = "mlc.relu"(%c) : (tensor<1x8x8x4xf32>) -> tensor<1x8x8x4xf32>
  %p = "mlc.max_pool2d"(%r) {kernel = array<i64: 2, 2>, stride = array<i64: 2, 2>, padding = array<i64: 0, 0, 0, 0>, dilation = array<i64: 1, 1>, ceil_mode = false, layout = "NHWC"} : (tensor<1x8x8x4xf32>) -> tensor<1x4x4x4xf32>
  return %p : tensor<1x4x4x4xf32>
}
