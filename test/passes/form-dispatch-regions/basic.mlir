// RUN: mlc-opt %s --split-input-file --pass-pipeline='builtin.module(mlc-fuse, mlc-lower-to-linalg{keep-fusion-groups=true}, mlc-form-dispatch-regions)' | FileCheck %s
// RUN: mlc-opt %s --split-input-file --pass-pipeline='builtin.module(mlc-lower-to-linalg, mlc-form-dispatch-regions)' | FileCheck %s --check-prefix=NONE

/// Each fusion group becomes one flow.dispatch.region holding its lowered ops, marked
/// with the group's index (mlc.fusion_group, read by the profile),
/// closed by flow.return; without groups there are no regions.

// CHECK-LABEL: func.func @matmul_relu_then_exp
// CHECK:      %[[FIRST:.*]] = "flow.dispatch.region"() ({
// CHECK:        linalg.matmul
// CHECK:        %[[RELU:.*]] = linalg.generic
// CHECK:        arith.maximumf
// CHECK:        "flow.return"(%[[RELU]]) : (tensor<4x4xf32>) -> ()
// CHECK-NEXT: }, {
// CHECK-NEXT: }) {mlc.fusion_group = 0 : i64, operandSegmentSizes = array<i32: 0, 0>} : () -> tensor<4x4xf32>
// CHECK:      "flow.dispatch.region"() ({
// CHECK:        math.exp
// CHECK-NOT: "mlc.
// NONE-LABEL: func.func @matmul_relu_then_exp
// NONE-NOT: flow.dispatch.region
func.func @matmul_relu_then_exp(%x: tensor<4x4xf32>) -> tensor<4x4xf32> {
  %0 = "mlc.matmul"(%x, %x) : (tensor<4x4xf32>, tensor<4x4xf32>) -> tensor<4x4xf32>
  %1 = "mlc.relu"(%0) : (tensor<4x4xf32>) -> tensor<4x4xf32>
  %2 = "mlc.softmax"(%1) {axis = 1 : i64} : (tensor<4x4xf32>) -> tensor<4x4xf32>
  %3 = "mlc.exp"(%2) : (tensor<4x4xf32>) -> tensor<4x4xf32>
  return %3 : tensor<4x4xf32>
}
