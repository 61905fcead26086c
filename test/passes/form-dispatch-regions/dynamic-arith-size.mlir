// RUN: mlc-opt %s --split-input-file --pass-pipeline='builtin.module(mlc-form-dispatch-regions)' | FileCheck %s

/// A dynamic size computed by arith ops in the group is rebuilt before the
/// region, its operands first, so that every value dominates its use.
/// The group here is written at the linalg level, as mlc-lower-to-linalg leaves it.

// CHECK-LABEL: func.func @arith_size_hoisted
// CHECK-SAME: (%[[X:.*]]: tensor<?xf32>)
// CHECK:      %[[N:.*]] = tensor.dim %[[X]]
// CHECK:      %[[TWICE:.*]] = arith.muli %[[N]], %{{.*}} : index
// CHECK-NEXT: "flow.dispatch.region"(%[[TWICE]]) ({
// CHECK:        linalg.fill
// CHECK:      }) {mlc.fusion_group = 0 : i64, operandSegmentSizes = array<i32: 1, 0>} : (index) -> tensor<?xf32>
func.func @arith_size_hoisted(%x: tensor<?xf32>) -> tensor<?xf32> {
  %0 = "mlc.fusion_group"() ({
    %c0 = arith.constant 0 : index
    %c2 = arith.constant 2 : index
    %n = tensor.dim %x, %c0 : tensor<?xf32>
    %twice = arith.muli %n, %c2 : index
    %e = tensor.empty(%twice) : tensor<?xf32>
    %one = arith.constant 1.0 : f32
    %r = linalg.fill ins(%one : f32) outs(%e : tensor<?xf32>) -> tensor<?xf32>
    "mlc.yield"(%r) : (tensor<?xf32>) -> ()
  }) : () -> tensor<?xf32>
  return %0 : tensor<?xf32>
}
