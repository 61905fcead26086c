// RUN: mlc-opt %s --pass-pipeline='builtin.module(mlc-lower-to-linalg)' --split-input-file | FileCheck %s

/// Shape ops over dynamic sizes: a reshape whose sizes are operands goes through
/// 1-D (collapse, then expand with `output_shape` from the operands); a slice to the
/// end of a dynamic dimension computes its size with arith.ceildivsi; a reshape
/// whose unit dimensions join a dynamic group is one collapse_shape.

// CHECK-LABEL: func.func @reshape_with_sizes
// CHECK-SAME: (%[[X:.*]]: tensor<?x?x128xf32>, %[[S:.*]]: index, %[[B4:.*]]: index)
// CHECK:      %[[FLAT:.*]] = tensor.collapse_shape %[[X]] {{\[\[}}0, 1, 2]] : tensor<?x?x128xf32> into tensor<?xf32>
// CHECK-NEXT: %[[R:.*]] = tensor.expand_shape %[[FLAT]] {{\[\[}}0, 1, 2]] output_shape [%[[S]], %[[B4]], 32] : tensor<?xf32> into tensor<?x?x32xf32>
// CHECK-NEXT: return %[[R]]
// CHECK-NOT:  mlc.reshape
func.func @reshape_with_sizes(%x: tensor<?x?x128xf32>, %s: index, %b4: index) -> tensor<?x?x32xf32> {
  %0 = "mlc.reshape"(%x, %s, %b4) : (tensor<?x?x128xf32>, index, index) -> tensor<?x?x32xf32>
  return %0 : tensor<?x?x32xf32>
}

// -----

/// [1, s, b, 128] -> [s, b, 128]: the unit dimension joins the first dynamic group.

// CHECK-LABEL: func.func @reshape_drops_unit_dim_into_dynamic_group
// CHECK-SAME: (%[[X:.*]]: tensor<1x?x?x128xf32>)
// CHECK-NEXT: %[[R:.*]] = tensor.collapse_shape %[[X]] {{\[\[}}0, 1], [2], [3]] : tensor<1x?x?x128xf32> into tensor<?x?x128xf32>
// CHECK-NEXT: return %[[R]]
// CHECK-NOT:  tensor.expand_shape
func.func @reshape_drops_unit_dim_into_dynamic_group(%x: tensor<1x?x?x128xf32>) -> tensor<?x?x128xf32> {
  %0 = "mlc.reshape"(%x) : (tensor<1x?x?x128xf32>) -> tensor<?x?x128xf32>
  return %0 : tensor<?x?x128xf32>
}

// -----

/// x[1::2, ::2] of [n, 8]: ceil((n - 1) / 2) rows.

// CHECK-LABEL: func.func @slice_to_end_of_dynamic_dim
// CHECK-SAME: (%[[X:.*]]: tensor<?x8xf32>)
// CHECK:      %[[N:.*]] = tensor.dim %[[X]], %{{.*}} : tensor<?x8xf32>
// CHECK:      %[[C1:.*]] = arith.constant 1 : index
// CHECK-NEXT: %[[LEFT:.*]] = arith.subi %[[N]], %[[C1]] : index
// CHECK-NEXT: %[[C2:.*]] = arith.constant 2 : index
// CHECK-NEXT: %[[ROWS:.*]] = arith.ceildivsi %[[LEFT]], %[[C2]] : index
// CHECK-NEXT: %[[R:.*]] = tensor.extract_slice %[[X]][1, 0] [%[[ROWS]], 4] [2, 2] : tensor<?x8xf32> to tensor<?x4xf32>
// CHECK-NEXT: return %[[R]]
func.func @slice_to_end_of_dynamic_dim(%x: tensor<?x8xf32>) -> tensor<?x4xf32> {
  %0 = "mlc.slice"(%x) {start = array<i64: 1, 0>, limit = array<i64: -9223372036854775808, 8>, stride = array<i64: 2, 2>} : (tensor<?x8xf32>) -> tensor<?x4xf32>
  return %0 : tensor<?x4xf32>
}

// -----

/// iota of a computed length: a generic writing linalg.index into an empty of that size.

// CHECK-LABEL: func.func @iota_of_computed_length
// CHECK-SAME: (%[[N:.*]]: index)
// CHECK: %[[EMPTY:.*]] = tensor.empty(%[[N]]) : tensor<?xi64>
// CHECK: linalg.generic
// CHECK-SAME: outs(%[[EMPTY]] : tensor<?xi64>)
// CHECK: %[[I:.*]] = linalg.index 0 : index
// CHECK: arith.index_cast %[[I]] : index to i64
// CHECK-NOT: mlc.iota
func.func @iota_of_computed_length(%n: index) -> tensor<?xi64> {
  %0 = "mlc.iota"(%n) : (index) -> tensor<?xi64>
  return %0 : tensor<?xi64>
}
