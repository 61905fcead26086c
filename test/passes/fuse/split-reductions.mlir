// RUN: mlc-opt %s --split-input-file --pass-pipeline='builtin.module(mlc-fuse{split-reductions-alone=true})' | FileCheck %s
// RUN: mlc-opt %s --split-input-file --pass-pipeline='builtin.module(mlc-fuse)' | FileCheck %s --check-prefix=DEFAULT

/// With split-reductions-alone (the GPU targets), a reduction over axes that are not one
/// run, such as [0, 3] of four, takes no producer into its group: fused with its
/// elementwise producer, IREE 3.13's Vulkan code for it was wrong in the first calls.
/// Without the option (the CPU), the producer fuses as usual.

// CHECK-LABEL: func.func @axes_0_and_3
// CHECK:      %[[SQ:.*]] = "mlc.fusion_group"() ({
// CHECK-NEXT:   "mlc.mul"
// CHECK:      "mlc.fusion_group"() ({
// CHECK-NEXT:   "mlc.reduce_sum"(%[[SQ]])
// DEFAULT-LABEL: func.func @axes_0_and_3
// DEFAULT:      "mlc.fusion_group"() ({
// DEFAULT-NEXT:   "mlc.mul"
// DEFAULT-NEXT:   "mlc.reduce_sum"
func.func @axes_0_and_3(%x: tensor<5x5x5x6xf32>) -> tensor<1x5x5x1xf32> {
  %sq = "mlc.mul"(%x, %x) : (tensor<5x5x5x6xf32>, tensor<5x5x5x6xf32>) -> tensor<5x5x5x6xf32>
  %s = "mlc.reduce_sum"(%sq) {axes = array<i64: 0, 3>, keepdim = true} : (tensor<5x5x5x6xf32>) -> tensor<1x5x5x1xf32>
  return %s : tensor<1x5x5x1xf32>
}

// -----

/// Axes in one run ([2, 3], or [-2, -1] as written) keep their producer in the group.

// CHECK-LABEL: func.func @axes_in_one_run
// CHECK:      "mlc.fusion_group"() ({
// CHECK-NEXT:   "mlc.mul"
// CHECK-NEXT:   "mlc.reduce_sum"
func.func @axes_in_one_run(%x: tensor<5x5x5x6xf32>) -> tensor<5x5xf32> {
  %sq = "mlc.mul"(%x, %x) : (tensor<5x5x5x6xf32>, tensor<5x5x5x6xf32>) -> tensor<5x5x5x6xf32>
  %s = "mlc.reduce_sum"(%sq) {axes = array<i64: -2, -1>, keepdim = false} : (tensor<5x5x5x6xf32>) -> tensor<5x5xf32>
  return %s : tensor<5x5xf32>
}
