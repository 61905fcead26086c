// RUN: mlc-opt %s --split-input-file | mlc-opt --split-input-file | FileCheck %s

/// fusion_group and yield round-trip through the printer and parser unchanged.
/// A group has no operands and one result: its body reads the values it needs
/// from above and yields the result.

// CHECK-LABEL: func.func @fusion_group
// CHECK-SAME: (%[[X:.*]]: tensor<2x3xf32>)
func.func @fusion_group(%x: tensor<2x3xf32>) -> tensor<2x3xf32> {
  // CHECK:      %[[GROUP:.*]] = "mlc.fusion_group"() ({
  // CHECK-NEXT:   %[[RELU:.*]] = "mlc.relu"(%[[X]]) : (tensor<2x3xf32>) -> tensor<2x3xf32>
  // CHECK-NEXT:   %[[EXP:.*]] = "mlc.exp"(%[[RELU]]) : (tensor<2x3xf32>) -> tensor<2x3xf32>
  // CHECK-NEXT:   "mlc.yield"(%[[EXP]]) : (tensor<2x3xf32>) -> ()
  // CHECK-NEXT: }) : () -> tensor<2x3xf32>
  // CHECK-NEXT: return %[[GROUP]] : tensor<2x3xf32>
  %0 = "mlc.fusion_group"() ({
    %1 = "mlc.relu"(%x) : (tensor<2x3xf32>) -> tensor<2x3xf32>
    %2 = "mlc.exp"(%1) : (tensor<2x3xf32>) -> tensor<2x3xf32>
    "mlc.yield"(%2) : (tensor<2x3xf32>) -> ()
  }) : () -> tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}

// -----

/// Values from above of different types, e.g. a conv2d's input, weight and
/// bias; the result's type differs from all of them.

// CHECK-LABEL: func.func @fusion_group_mixed_types
// CHECK-SAME: (%[[X:.*]]: tensor<1x3x8x8xf32>, %[[W:.*]]: tensor<4x3x3x3xf32>, %[[B:.*]]: tensor<4xf32>)
func.func @fusion_group_mixed_types(%x: tensor<1x3x8x8xf32>, %w: tensor<4x3x3x3xf32>, %b: tensor<4xf32>) -> tensor<1x4xf32> {
  // CHECK:      %[[GROUP:.*]] = "mlc.fusion_group"() ({
  // CHECK-NEXT:   %[[CONV:.*]] = "mlc.conv2d"(%[[X]], %[[W]], %[[B]])
  // CHECK-NEXT:   %[[RELU:.*]] = "mlc.relu"(%[[CONV]])
  // CHECK-NEXT:   %[[MEAN:.*]] = "mlc.reduce_mean"(%[[RELU]])
  // CHECK-NEXT:   "mlc.yield"(%[[MEAN]]) : (tensor<1x4xf32>) -> ()
  // CHECK-NEXT: }) : () -> tensor<1x4xf32>
  // CHECK-NEXT: return %[[GROUP]] : tensor<1x4xf32>
  %0 = "mlc.fusion_group"() ({
    %c = "mlc.conv2d"(%x, %w, %b) {dilation = array<i64: 1, 1>, groups = 1 : i64, layout = "NCHW", padding = array<i64: 0, 0, 0, 0>, stride = array<i64: 1, 1>} : (tensor<1x3x8x8xf32>, tensor<4x3x3x3xf32>, tensor<4xf32>) -> tensor<1x4x6x6xf32>
    %r = "mlc.relu"(%c) : (tensor<1x4x6x6xf32>) -> tensor<1x4x6x6xf32>
    %m = "mlc.reduce_mean"(%r) {axes = array<i64: 2, 3>, keepdim = false} : (tensor<1x4x6x6xf32>) -> tensor<1x4xf32>
    "mlc.yield"(%m) : (tensor<1x4xf32>) -> ()
  }) : () -> tensor<1x4xf32>
  return %0 : tensor<1x4xf32>
}

// -----

/// Values from above of different element types, e.g. a gather's table and indices.

// CHECK-LABEL: func.func @fusion_group_mixed_element_types
// CHECK-SAME: (%[[TABLE:.*]]: tensor<10x4xf32>, %[[IDS:.*]]: tensor<3xi64>)
func.func @fusion_group_mixed_element_types(%table: tensor<10x4xf32>, %ids: tensor<3xi64>) -> tensor<3x4xf32> {
  // CHECK:      %[[GROUP:.*]] = "mlc.fusion_group"() ({
  // CHECK-NEXT:   %[[ROWS:.*]] = "mlc.gather"(%[[TABLE]], %[[IDS]]) {axis = 0 : i64} : (tensor<10x4xf32>, tensor<3xi64>) -> tensor<3x4xf32>
  // CHECK-NEXT:   %[[T:.*]] = "mlc.tanh"(%[[ROWS]])
  // CHECK-NEXT:   "mlc.yield"(%[[T]]) : (tensor<3x4xf32>) -> ()
  // CHECK-NEXT: }) : () -> tensor<3x4xf32>
  %0 = "mlc.fusion_group"() ({
    %1 = "mlc.gather"(%table, %ids) {axis = 0 : i64} : (tensor<10x4xf32>, tensor<3xi64>) -> tensor<3x4xf32>
    %2 = "mlc.tanh"(%1) : (tensor<3x4xf32>) -> tensor<3x4xf32>
    "mlc.yield"(%2) : (tensor<3x4xf32>) -> ()
  }) : () -> tensor<3x4xf32>
  return %0 : tensor<3x4xf32>
}

// -----

/// A group that reads nothing from above: constants live inside the body.

// CHECK-LABEL: func.func @fusion_group_no_values_from_above
func.func @fusion_group_no_values_from_above() -> tensor<2xf32> {
  // CHECK:      "mlc.fusion_group"() ({
  // CHECK-NEXT:   %[[C:.*]] = "mlc.constant"() {value = dense<[1.000000e+00, 2.000000e+00]> : tensor<2xf32>} : () -> tensor<2xf32>
  // CHECK-NEXT:   %[[N:.*]] = "mlc.neg"(%[[C]])
  // CHECK-NEXT:   "mlc.yield"(%[[N]]) : (tensor<2xf32>) -> ()
  // CHECK-NEXT: }) : () -> tensor<2xf32>
  %0 = "mlc.fusion_group"() ({
    %c = "mlc.constant"() {value = dense<[1.0, 2.0]> : tensor<2xf32>} : () -> tensor<2xf32>
    %n = "mlc.neg"(%c) : (tensor<2xf32>) -> tensor<2xf32>
    "mlc.yield"(%n) : (tensor<2xf32>) -> ()
  }) : () -> tensor<2xf32>
  return %0 : tensor<2xf32>
}

// -----

/// The body may yield a value from above as it is.

// CHECK-LABEL: func.func @fusion_group_yields_value_from_above
// CHECK-SAME: (%[[X:.*]]: tensor<4xf32>)
func.func @fusion_group_yields_value_from_above(%x: tensor<4xf32>) -> tensor<4xf32> {
  // CHECK:      %[[GROUP:.*]] = "mlc.fusion_group"() ({
  // CHECK-NEXT:   "mlc.yield"(%[[X]]) : (tensor<4xf32>) -> ()
  // CHECK-NEXT: }) : () -> tensor<4xf32>
  %0 = "mlc.fusion_group"() ({
    "mlc.yield"(%x) : (tensor<4xf32>) -> ()
  }) : () -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

/// A nested group reads values of the function and of the group around it;
/// its result is used by the outer body.

// CHECK-LABEL: func.func @nested_fusion_group
// CHECK-SAME: (%[[X:.*]]: tensor<4xf32>, %[[Y:.*]]: tensor<4xi32>)
func.func @nested_fusion_group(%x: tensor<4xf32>, %y: tensor<4xi32>) -> tensor<4xf32> {
  // CHECK:      %[[OUTER:.*]] = "mlc.fusion_group"() ({
  // CHECK-NEXT:   %[[E:.*]] = "mlc.exp"(%[[X]]) : (tensor<4xf32>) -> tensor<4xf32>
  // CHECK-NEXT:   %[[INNER:.*]] = "mlc.fusion_group"() ({
  // CHECK-NEXT:     %[[F:.*]] = "mlc.cast"(%[[Y]]) : (tensor<4xi32>) -> tensor<4xf32>
  // CHECK-NEXT:     %[[S:.*]] = "mlc.add"(%[[E]], %[[F]]) : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  // CHECK-NEXT:     "mlc.yield"(%[[S]]) : (tensor<4xf32>) -> ()
  // CHECK-NEXT:   }) : () -> tensor<4xf32>
  // CHECK-NEXT:   %[[N:.*]] = "mlc.neg"(%[[INNER]]) : (tensor<4xf32>) -> tensor<4xf32>
  // CHECK-NEXT:   "mlc.yield"(%[[N]]) : (tensor<4xf32>) -> ()
  // CHECK-NEXT: }) : () -> tensor<4xf32>
  // CHECK-NEXT: return %[[OUTER]] : tensor<4xf32>
  %0 = "mlc.fusion_group"() ({
    %e = "mlc.exp"(%x) : (tensor<4xf32>) -> tensor<4xf32>
    %1 = "mlc.fusion_group"() ({
      %f = "mlc.cast"(%y) : (tensor<4xi32>) -> tensor<4xf32>
      %s = "mlc.add"(%e, %f) : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
      "mlc.yield"(%s) : (tensor<4xf32>) -> ()
    }) : () -> tensor<4xf32>
    %n = "mlc.neg"(%1) : (tensor<4xf32>) -> tensor<4xf32>
    "mlc.yield"(%n) : (tensor<4xf32>) -> ()
  }) : () -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

/// Groups in sequence: the second reads the first's result.

// CHECK-LABEL: func.func @fusion_groups_in_sequence
// CHECK-SAME: (%[[X:.*]]: tensor<4xf32>)
func.func @fusion_groups_in_sequence(%x: tensor<4xf32>) -> tensor<4xf32> {
  // CHECK:      %[[FIRST:.*]] = "mlc.fusion_group"() ({
  // CHECK:      "mlc.fusion_group"() ({
  // CHECK-NEXT:   "mlc.relu"(%[[FIRST]])
  %0 = "mlc.fusion_group"() ({
    %1 = "mlc.exp"(%x) : (tensor<4xf32>) -> tensor<4xf32>
    "mlc.yield"(%1) : (tensor<4xf32>) -> ()
  }) : () -> tensor<4xf32>
  %2 = "mlc.fusion_group"() ({
    %3 = "mlc.relu"(%0) : (tensor<4xf32>) -> tensor<4xf32>
    "mlc.yield"(%3) : (tensor<4xf32>) -> ()
  }) : () -> tensor<4xf32>
  return %2 : tensor<4xf32>
}
