// RUN: mlc-opt %s --split-input-file | mlc-opt --split-input-file | FileCheck %s

/// Ops over dynamic sizes round-trip: a slice "to the end" of a dynamic dimension
/// (limit `?`, ShapedType's dynamic size), a reshape whose dynamic result sizes are
/// given as index operands, and a select of two rank-0 values by a [2, 2] condition.

// CHECK-LABEL: func.func @slice_to_end_of_dynamic_dim
func.func @slice_to_end_of_dynamic_dim(%x: tensor<?x4xf32>) -> tensor<?x2xf32> {
  // CHECK: "mlc.slice"(%{{.*}}) {limit = array<i64: -9223372036854775808, 4>, start = array<i64: 1, 0>, stride = array<i64: 1, 2>} : (tensor<?x4xf32>) -> tensor<?x2xf32>
  %0 = "mlc.slice"(%x) {start = array<i64: 1, 0>, limit = array<i64: -9223372036854775808, 4>, stride = array<i64: 1, 2>} : (tensor<?x4xf32>) -> tensor<?x2xf32>
  return %0 : tensor<?x2xf32>
}

// -----

/// A `?` limit on a static dimension means its size: [6] from 2 gives 4.

// CHECK-LABEL: func.func @slice_to_end_of_static_dim
func.func @slice_to_end_of_static_dim(%x: tensor<6xf32>) -> tensor<4xf32> {
  // CHECK: "mlc.slice"(%{{.*}}) {{.*}} : (tensor<6xf32>) -> tensor<4xf32>
  %0 = "mlc.slice"(%x) {start = array<i64: 2>, limit = array<i64: -9223372036854775808>, stride = array<i64: 1>} : (tensor<6xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

/// [s, b, 128] -> [s, b * 4, 32]: the dynamic result sizes cannot be told from the
/// input's, so they come as operands, one per `?`.

// CHECK-LABEL: func.func @reshape_with_sizes
// CHECK-SAME: (%[[X:.*]]: tensor<?x?x128xf32>, %[[S:.*]]: index, %[[B4:.*]]: index)
func.func @reshape_with_sizes(%x: tensor<?x?x128xf32>, %s: index, %b4: index) -> tensor<?x?x32xf32> {
  // CHECK: "mlc.reshape"(%[[X]], %[[S]], %[[B4]]) : (tensor<?x?x128xf32>, index, index) -> tensor<?x?x32xf32>
  %0 = "mlc.reshape"(%x, %s, %b4) : (tensor<?x?x128xf32>, index, index) -> tensor<?x?x32xf32>
  return %0 : tensor<?x?x32xf32>
}

// -----

/// Two rank-0 values broadcast to the condition's shape (`[]` is a shape too).

// CHECK-LABEL: func.func @select_two_scalars
func.func @select_two_scalars(%c: tensor<2x2xi1>, %a: tensor<f32>, %b: tensor<f32>) -> tensor<2x2xf32> {
  // CHECK: "mlc.select"(%{{.*}}, %{{.*}}, %{{.*}}) : (tensor<2x2xi1>, tensor<f32>, tensor<f32>) -> tensor<2x2xf32>
  %0 = "mlc.select"(%c, %a, %b) : (tensor<2x2xi1>, tensor<f32>, tensor<f32>) -> tensor<2x2xf32>
  return %0 : tensor<2x2xf32>
}

// -----

// CHECK-LABEL: func.func @iota_of_computed_length
// CHECK: "mlc.iota"(%{{.*}}) : (index) -> tensor<?xi64>
// CHECK: "mlc.iota"() : () -> tensor<5xf32>
func.func @iota_of_computed_length(%n: index) -> (tensor<?xi64>, tensor<5xf32>) {
  %0 = "mlc.iota"(%n) : (index) -> tensor<?xi64>
  %1 = "mlc.iota"() : () -> tensor<5xf32>
  return %0, %1 : tensor<?xi64>, tensor<5xf32>
}
