// RUN: mlc-opt %s --pass-pipeline='builtin.module(mlc-lower-to-linalg)' --split-input-file | FileCheck %s

/// mlc.scatter is one tm_tensor.scatter (updates, indices; into the input) over all
/// dims; its region combines the update (first argument) with the element there.

// CHECK-LABEL: func.func @scatter_add_elements
// CHECK-SAME: (%[[X:.*]]: tensor<4x5xf32>, %[[I:.*]]: tensor<3x2xi64>, %[[U:.*]]: tensor<3xf32>)
// CHECK: %[[S:.*]] = tm_tensor.scatter {dimension_map = array<i64: 0, 1>} unique_indices(false) ins(%[[U]], %[[I]] : tensor<3xf32>, tensor<3x2xi64>) outs(%[[X]] : tensor<4x5xf32>)
// CHECK: ^bb0(%[[NEW:.*]]: f32, %[[OLD:.*]]: f32):
// CHECK:   %[[SUM:.*]] = arith.addf %[[NEW]], %[[OLD]] : f32
// CHECK:   tm_tensor.yield %[[SUM]] : f32
// CHECK: return %[[S]]
func.func @scatter_add_elements(%x: tensor<4x5xf32>, %i: tensor<3x2xi64>, %u: tensor<3xf32>) -> tensor<4x5xf32> {
  %0 = "mlc.scatter"(%x, %i, %u) {combine = "add"} : (tensor<4x5xf32>, tensor<3x2xi64>, tensor<3xf32>) -> tensor<4x5xf32>
  return %0 : tensor<4x5xf32>
}

// -----

// CHECK-LABEL: func.func @scatter_replace_elements
// CHECK: tm_tensor.scatter {dimension_map = array<i64: 0, 1>} unique_indices(false)
// CHECK: ^bb0(%[[NEW:.*]]: i64, %{{.*}}: i64):
// CHECK-NEXT: tm_tensor.yield %[[NEW]] : i64
func.func @scatter_replace_elements(%x: tensor<4x5xi64>, %i: tensor<6x2xi64>, %u: tensor<6xi64>) -> tensor<4x5xi64> {
  %0 = "mlc.scatter"(%x, %i, %u) {combine = "replace"} : (tensor<4x5xi64>, tensor<6x2xi64>, tensor<6xi64>) -> tensor<4x5xi64>
  return %0 : tensor<4x5xi64>
}

// -----

// CHECK-LABEL: func.func @scatter_max_min
// CHECK: arith.maximumf
// CHECK: arith.minsi
func.func @scatter_max_min(%x: tensor<4xf32>, %y: tensor<4xi32>, %i: tensor<2x1xi64>, %u: tensor<2xf32>, %v: tensor<2xi32>) -> (tensor<4xf32>, tensor<4xi32>) {
  %0 = "mlc.scatter"(%x, %i, %u) {combine = "max"} : (tensor<4xf32>, tensor<2x1xi64>, tensor<2xf32>) -> tensor<4xf32>
  %1 = "mlc.scatter"(%y, %i, %v) {combine = "min"} : (tensor<4xi32>, tensor<2x1xi64>, tensor<2xi32>) -> tensor<4xi32>
  return %0, %1 : tensor<4xf32>, tensor<4xi32>
}

// -----

/// Slice updates become element updates: a generic writes [N, T..., rank] positions
/// (the padded row positions plus the coordinates walked in T), then both collapse.

// CHECK-LABEL: func.func @scatter_slices_as_elements
// CHECK: %[[PADDED:.*]] = tensor.pad %{{.*}} low[0, 0] high[0, 1]
// CHECK: %[[POS:.*]] = linalg.generic {{.*}} ins(%[[PADDED]] : tensor<3x2xi64>) outs(%{{.*}} : tensor<3x5x2xi64>)
// CHECK-DAG: %[[FLAT_POS:.*]] = tensor.collapse_shape %[[POS]] {{\[\[}}0, 1], [2]] : tensor<3x5x2xi64> into tensor<15x2xi64>
// CHECK-DAG: %[[FLAT_U:.*]] = tensor.collapse_shape %{{.*}} {{\[\[}}0, 1]] : tensor<3x5xf32> into tensor<15xf32>
// CHECK: tm_tensor.scatter {dimension_map = array<i64: 0, 1>} unique_indices(false) ins(%[[FLAT_U]], %[[FLAT_POS]] : tensor<15xf32>, tensor<15x2xi64>)
func.func @scatter_slices_as_elements(%x: tensor<4x5xf32>, %i: tensor<3x1xi64>, %u: tensor<3x5xf32>) -> tensor<4x5xf32> {
  %0 = "mlc.scatter"(%x, %i, %u) {combine = "replace"} : (tensor<4x5xf32>, tensor<3x1xi64>, tensor<3x5xf32>) -> tensor<4x5xf32>
  return %0 : tensor<4x5xf32>
}
