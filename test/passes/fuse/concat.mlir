// RUN: mlc-opt %s --split-input-file --pass-pipeline='builtin.module(mlc-fuse{isolate=concat,im2col})' | FileCheck %s
// RUN: mlc-opt %s --split-input-file --pass-pipeline='builtin.module(mlc-fuse)' | FileCheck %s --check-prefix=FUSED

/// IREE's targets run mlc.concat alone (`isolate`, from `Target.runs_alone`): it is
/// lowered to slices inserted into one buffer, which IREE's CPU code generation cannot
/// vectorize together with other ops. Neither its elementwise producer nor its
/// elementwise consumer joins it. Without `isolate` it is injective, as TVM has it, and
/// fuses with both.

// FUSED-LABEL: func.func @negative_concat_alone
// FUSED:      "mlc.fusion_group"() ({
// FUSED-NEXT:   "mlc.exp"
// FUSED-NEXT:   "mlc.concat"
// FUSED-NEXT:   "mlc.relu"

// CHECK-LABEL: func.func @negative_concat_alone
// CHECK:      %[[E:.*]] = "mlc.fusion_group"() ({
// CHECK-NEXT:   %[[EXP:.*]] = "mlc.exp"
// CHECK-NEXT:   "mlc.yield"(%[[EXP]])
// CHECK:      %[[CAT:.*]] = "mlc.fusion_group"() ({
// CHECK-NEXT:   %[[C:.*]] = "mlc.concat"(%[[E]], %{{.*}}) {axis = 0 : i64}
// CHECK-NEXT:   "mlc.yield"(%[[C]])
// CHECK:      %[[R:.*]] = "mlc.fusion_group"() ({
// CHECK-NEXT:   %[[RELU:.*]] = "mlc.relu"(%[[CAT]])
// CHECK-NEXT:   "mlc.yield"(%[[RELU]])
// CHECK:      return %[[R]]
func.func @negative_concat_alone(%x: tensor<2x4xf32>, %y: tensor<2x4xf32>) -> tensor<4x4xf32> {
  %a = "mlc.exp"(%x) : (tensor<2x4xf32>) -> tensor<2x4xf32>
  %c = "mlc.concat"(%a, %y) {axis = 0 : i64} : (tensor<2x4xf32>, tensor<2x4xf32>) -> tensor<4x4xf32>
  %r = "mlc.relu"(%c) : (tensor<4x4xf32>) -> tensor<4x4xf32>
  return %r : tensor<4x4xf32>
}

// -----

/// negative: ViT's class token, concat of a broadcast constant and a matmul's
/// result: the matmul keeps its group and the concat has its own.

// CHECK-LABEL: func.func @negative_concat_after_matmul
// CHECK:      %[[MM:.*]] = "mlc.fusion_group"() ({
// CHECK-NEXT:   %[[M:.*]] = "mlc.matmul"
// CHECK-NEXT:   "mlc.yield"(%[[M]])
// CHECK:      "mlc.fusion_group"() ({
// CHECK-NEXT:   %[[C:.*]] = "mlc.concat"(%{{.*}}, %[[MM]]) {axis = 0 : i64}
// CHECK-NEXT:   "mlc.yield"(%[[C]])
func.func @negative_concat_after_matmul(%x: tensor<4x6xf32>, %w: tensor<6x8xf32>, %token: tensor<1x8xf32>) -> tensor<5x8xf32> {
  %mm = "mlc.matmul"(%x, %w) : (tensor<4x6xf32>, tensor<6x8xf32>) -> tensor<4x8xf32>
  %c = "mlc.concat"(%token, %mm) {axis = 0 : i64} : (tensor<1x8xf32>, tensor<4x8xf32>) -> tensor<5x8xf32>
  return %c : tensor<5x8xf32>
}
