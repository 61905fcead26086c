// RUN: mlc-opt %s --split-input-file | mlc-opt --split-input-file | FileCheck %s

/// Shape ops round-trip through the printer and parser unchanged.

// CHECK-LABEL: func.func @reshape
func.func @reshape(%x: tensor<2x3x4xf32>, %d: tensor<?x4xi32>, %s: tensor<f32>) -> (tensor<6x4xf32>, tensor<24xf32>, tensor<?x2x2xi32>, tensor<1x1xf32>) {
  // CHECK: "mlc.reshape"(%{{.*}}) : (tensor<2x3x4xf32>) -> tensor<6x4xf32>
  %0 = "mlc.reshape"(%x) : (tensor<2x3x4xf32>) -> tensor<6x4xf32>
  // CHECK: "mlc.reshape"(%{{.*}}) : (tensor<2x3x4xf32>) -> tensor<24xf32>
  %1 = "mlc.reshape"(%x) : (tensor<2x3x4xf32>) -> tensor<24xf32>
  // CHECK: "mlc.reshape"(%{{.*}}) : (tensor<?x4xi32>) -> tensor<?x2x2xi32>
  %2 = "mlc.reshape"(%d) : (tensor<?x4xi32>) -> tensor<?x2x2xi32>
  /// A rank-0 tensor holds one element.
  // CHECK: "mlc.reshape"(%{{.*}}) : (tensor<f32>) -> tensor<1x1xf32>
  %3 = "mlc.reshape"(%s) : (tensor<f32>) -> tensor<1x1xf32>
  return %0, %1, %2, %3 : tensor<6x4xf32>, tensor<24xf32>, tensor<?x2x2xi32>, tensor<1x1xf32>
}

// -----

/// result.shape[i] == input.shape[permutation[i]].

// CHECK-LABEL: func.func @transpose
func.func @transpose(%x: tensor<2x3x4xf32>, %y: tensor<?x5xf16>) -> (tensor<4x2x3xf32>, tensor<5x?xf16>, tensor<2x3x4xf32>) {
  // CHECK: "mlc.transpose"(%{{.*}}) {permutation = array<i64: 2, 0, 1>} : (tensor<2x3x4xf32>) -> tensor<4x2x3xf32>
  %0 = "mlc.transpose"(%x) {permutation = array<i64: 2, 0, 1>} : (tensor<2x3x4xf32>) -> tensor<4x2x3xf32>
  // CHECK: "mlc.transpose"(%{{.*}}) {permutation = array<i64: 1, 0>} : (tensor<?x5xf16>) -> tensor<5x?xf16>
  %1 = "mlc.transpose"(%y) {permutation = array<i64: 1, 0>} : (tensor<?x5xf16>) -> tensor<5x?xf16>
  // CHECK: "mlc.transpose"(%{{.*}}) {permutation = array<i64: 0, 1, 2>} : (tensor<2x3x4xf32>) -> tensor<2x3x4xf32>
  %2 = "mlc.transpose"(%x) {permutation = array<i64: 0, 1, 2>} : (tensor<2x3x4xf32>) -> tensor<2x3x4xf32>
  return %0, %1, %2 : tensor<4x2x3xf32>, tensor<5x?xf16>, tensor<2x3x4xf32>
}

// -----

/// Dimensions align from the right; size-1 dimensions stretch, new ones lead.

// CHECK-LABEL: func.func @broadcast
func.func @broadcast(%v: tensor<3xf32>, %r: tensor<1x3xf32>, %s: tensor<i1>, %d: tensor<?x1xf32>) -> (tensor<2x3xf32>, tensor<4x5x3xf32>, tensor<2x3xi1>, tensor<?x6xf32>) {
  // CHECK: "mlc.broadcast"(%{{.*}}) : (tensor<3xf32>) -> tensor<2x3xf32>
  %0 = "mlc.broadcast"(%v) : (tensor<3xf32>) -> tensor<2x3xf32>
  // CHECK: "mlc.broadcast"(%{{.*}}) : (tensor<1x3xf32>) -> tensor<4x5x3xf32>
  %1 = "mlc.broadcast"(%r) : (tensor<1x3xf32>) -> tensor<4x5x3xf32>
  // CHECK: "mlc.broadcast"(%{{.*}}) : (tensor<i1>) -> tensor<2x3xi1>
  %2 = "mlc.broadcast"(%s) : (tensor<i1>) -> tensor<2x3xi1>
  // CHECK: "mlc.broadcast"(%{{.*}}) : (tensor<?x1xf32>) -> tensor<?x6xf32>
  %3 = "mlc.broadcast"(%d) : (tensor<?x1xf32>) -> tensor<?x6xf32>
  return %0, %1, %2, %3 : tensor<2x3xf32>, tensor<4x5x3xf32>, tensor<2x3xi1>, tensor<?x6xf32>
}

// -----

/// Binary: lhs, then rhs, along the axis.

// CHECK-LABEL: func.func @concat
// CHECK-SAME: (%[[A:.*]]: tensor<2x3xf32>, %[[B:.*]]: tensor<?x3xi64>)
func.func @concat(%a: tensor<2x3xf32>, %b: tensor<?x3xi64>) -> (tensor<4x3xf32>, tensor<2x6xf32>, tensor<?x3xi64>) {
  // CHECK: "mlc.concat"(%[[A]], %[[A]]) {axis = 0 : i64} : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<4x3xf32>
  %0 = "mlc.concat"(%a, %a) {axis = 0 : i64} : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<4x3xf32>
  // CHECK: "mlc.concat"(%[[A]], %[[A]]) {axis = -1 : i64} : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x6xf32>
  %1 = "mlc.concat"(%a, %a) {axis = -1 : i64} : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x6xf32>
  /// A dynamic size along the axis makes the result's dynamic.
  // CHECK: "mlc.concat"(%[[B]], %[[B]]) {axis = 0 : i64} : (tensor<?x3xi64>, tensor<?x3xi64>) -> tensor<?x3xi64>
  %2 = "mlc.concat"(%b, %b) {axis = 0 : i64} : (tensor<?x3xi64>, tensor<?x3xi64>) -> tensor<?x3xi64>
  return %0, %1, %2 : tensor<4x3xf32>, tensor<2x6xf32>, tensor<?x3xi64>
}

// -----

/// Operands of different sizes along the axis (each operand has its own type);
/// off the axis a dynamic size matches a static one.

// CHECK-LABEL: func.func @concat_different_shapes
// CHECK-SAME: (%[[A:.*]]: tensor<2x3xf32>, %[[B:.*]]: tensor<4x3xf32>, %[[C:.*]]: tensor<2x5xf32>, %[[D:.*]]: tensor<?x3xf32>, %[[E:.*]]: tensor<2x?xf32>, %[[F:.*]]: tensor<1x2x4xf16>, %[[G:.*]]: tensor<1x5x4xf16>)
func.func @concat_different_shapes(%a: tensor<2x3xf32>, %b: tensor<4x3xf32>, %c: tensor<2x5xf32>, %d: tensor<?x3xf32>, %e: tensor<2x?xf32>, %f: tensor<1x2x4xf16>, %g: tensor<1x5x4xf16>) -> (tensor<6x3xf32>, tensor<2x8xf32>, tensor<?x3xf32>, tensor<2x?xf32>, tensor<?x6xf32>, tensor<1x7x4xf16>) {
  // CHECK: "mlc.concat"(%[[A]], %[[B]]) {axis = 0 : i64} : (tensor<2x3xf32>, tensor<4x3xf32>) -> tensor<6x3xf32>
  %0 = "mlc.concat"(%a, %b) {axis = 0 : i64} : (tensor<2x3xf32>, tensor<4x3xf32>) -> tensor<6x3xf32>
  // CHECK: "mlc.concat"(%[[A]], %[[C]]) {axis = -1 : i64} : (tensor<2x3xf32>, tensor<2x5xf32>) -> tensor<2x8xf32>
  %1 = "mlc.concat"(%a, %c) {axis = -1 : i64} : (tensor<2x3xf32>, tensor<2x5xf32>) -> tensor<2x8xf32>
  // CHECK: "mlc.concat"(%[[D]], %[[E]]) {axis = 0 : i64} : (tensor<?x3xf32>, tensor<2x?xf32>) -> tensor<?x3xf32>
  %2 = "mlc.concat"(%d, %e) {axis = 0 : i64} : (tensor<?x3xf32>, tensor<2x?xf32>) -> tensor<?x3xf32>
  // CHECK: "mlc.concat"(%[[E]], %[[C]]) {axis = 1 : i64} : (tensor<2x?xf32>, tensor<2x5xf32>) -> tensor<2x?xf32>
  %3 = "mlc.concat"(%e, %c) {axis = 1 : i64} : (tensor<2x?xf32>, tensor<2x5xf32>) -> tensor<2x?xf32>
  // CHECK: "mlc.concat"(%[[D]], %[[A]]) {axis = 1 : i64} : (tensor<?x3xf32>, tensor<2x3xf32>) -> tensor<?x6xf32>
  %4 = "mlc.concat"(%d, %a) {axis = 1 : i64} : (tensor<?x3xf32>, tensor<2x3xf32>) -> tensor<?x6xf32>
  /// A middle axis of a rank-3 tensor.
  // CHECK: "mlc.concat"(%[[F]], %[[G]]) {axis = 1 : i64} : (tensor<1x2x4xf16>, tensor<1x5x4xf16>) -> tensor<1x7x4xf16>
  %5 = "mlc.concat"(%f, %g) {axis = 1 : i64} : (tensor<1x2x4xf16>, tensor<1x5x4xf16>) -> tensor<1x7x4xf16>
  return %0, %1, %2, %3, %4, %5 : tensor<6x3xf32>, tensor<2x8xf32>, tensor<?x3xf32>, tensor<2x?xf32>, tensor<?x6xf32>, tensor<1x7x4xf16>
}

// -----

/// torch.cat of n tensors is a chain of n - 1 concats: [2 | 4 | 1] rows.

// CHECK-LABEL: func.func @concat_chain
// CHECK-SAME: (%[[A:.*]]: tensor<2x3xf32>, %[[B:.*]]: tensor<4x3xf32>, %[[C:.*]]: tensor<1x3xf32>)
func.func @concat_chain(%a: tensor<2x3xf32>, %b: tensor<4x3xf32>, %c: tensor<1x3xf32>) -> tensor<7x3xf32> {
  // CHECK: %[[AB:.*]] = "mlc.concat"(%[[A]], %[[B]]) {axis = 0 : i64} : (tensor<2x3xf32>, tensor<4x3xf32>) -> tensor<6x3xf32>
  // CHECK-NEXT: %[[ABC:.*]] = "mlc.concat"(%[[AB]], %[[C]]) {axis = 0 : i64} : (tensor<6x3xf32>, tensor<1x3xf32>) -> tensor<7x3xf32>
  // CHECK-NEXT: return %[[ABC]]
  %0 = "mlc.concat"(%a, %b) {axis = 0 : i64} : (tensor<2x3xf32>, tensor<4x3xf32>) -> tensor<6x3xf32>
  %1 = "mlc.concat"(%0, %c) {axis = 0 : i64} : (tensor<6x3xf32>, tensor<1x3xf32>) -> tensor<7x3xf32>
  return %1 : tensor<7x3xf32>
}

// -----

/// Size along d is ceil((limit - start) / stride): 8 / 2 = 4, ceil(4 / 3) = 2.

// CHECK-LABEL: func.func @slice
func.func @slice(%x: tensor<8x6xf32>, %d: tensor<?x6xf32>) -> (tensor<4x2xf32>, tensor<0x6xf32>, tensor<3x6xf32>) {
  // CHECK: "mlc.slice"(%{{.*}}) {limit = array<i64: 8, 5>, start = array<i64: 0, 1>, stride = array<i64: 2, 3>} : (tensor<8x6xf32>) -> tensor<4x2xf32>
  %0 = "mlc.slice"(%x) {start = array<i64: 0, 1>, limit = array<i64: 8, 5>, stride = array<i64: 2, 3>} : (tensor<8x6xf32>) -> tensor<4x2xf32>
  /// An empty slice.
  // CHECK: "mlc.slice"(%{{.*}}) {limit = array<i64: 3, 6>, start = array<i64: 3, 0>, stride = array<i64: 1, 1>} : (tensor<8x6xf32>) -> tensor<0x6xf32>
  %1 = "mlc.slice"(%x) {start = array<i64: 3, 0>, limit = array<i64: 3, 6>, stride = array<i64: 1, 1>} : (tensor<8x6xf32>) -> tensor<0x6xf32>
  /// A dynamic dimension can be sliced to a static size.
  // CHECK: "mlc.slice"(%{{.*}}) {limit = array<i64: 4, 6>, start = array<i64: 1, 0>, stride = array<i64: 1, 1>} : (tensor<?x6xf32>) -> tensor<3x6xf32>
  %2 = "mlc.slice"(%d) {start = array<i64: 1, 0>, limit = array<i64: 4, 6>, stride = array<i64: 1, 1>} : (tensor<?x6xf32>) -> tensor<3x6xf32>
  return %0, %1, %2 : tensor<4x2xf32>, tensor<0x6xf32>, tensor<3x6xf32>
}

// -----

/// result.shape = input.shape[:axis] + indices.shape + input.shape[axis+1:].

// CHECK-LABEL: func.func @gather
// CHECK-SAME: (%[[TABLE:.*]]: tensor<100x16xf32>, %[[IDS:.*]]: tensor<2x5xi64>, %[[X:.*]]: tensor<4x10x3xf16>, %[[IDX:.*]]: tensor<6xi32>)
func.func @gather(%table: tensor<100x16xf32>, %ids: tensor<2x5xi64>, %x: tensor<4x10x3xf16>, %idx: tensor<6xi32>) -> (tensor<2x5x16xf32>, tensor<4x6x3xf16>, tensor<4x10x6xf16>) {
  /// An embedding lookup.
  // CHECK: "mlc.gather"(%[[TABLE]], %[[IDS]]) {axis = 0 : i64} : (tensor<100x16xf32>, tensor<2x5xi64>) -> tensor<2x5x16xf32>
  %0 = "mlc.gather"(%table, %ids) {axis = 0 : i64} : (tensor<100x16xf32>, tensor<2x5xi64>) -> tensor<2x5x16xf32>
  /// index_select along a middle and the last axis.
  // CHECK: "mlc.gather"(%[[X]], %[[IDX]]) {axis = 1 : i64} : (tensor<4x10x3xf16>, tensor<6xi32>) -> tensor<4x6x3xf16>
  %1 = "mlc.gather"(%x, %idx) {axis = 1 : i64} : (tensor<4x10x3xf16>, tensor<6xi32>) -> tensor<4x6x3xf16>
  // CHECK: "mlc.gather"(%[[X]], %[[IDX]]) {axis = -1 : i64} : (tensor<4x10x3xf16>, tensor<6xi32>) -> tensor<4x10x6xf16>
  %2 = "mlc.gather"(%x, %idx) {axis = -1 : i64} : (tensor<4x10x3xf16>, tensor<6xi32>) -> tensor<4x10x6xf16>
  return %0, %1, %2 : tensor<2x5x16xf32>, tensor<4x6x3xf16>, tensor<4x10x6xf16>
}

// -----

// CHECK-LABEL: func.func @gather_dynamic
func.func @gather_dynamic(%table: tensor<?x16xf32>, %ids: tensor<?x?xi64>) -> tensor<?x?x16xf32> {
  // CHECK: "mlc.gather"(%{{.*}}, %{{.*}}) {axis = 0 : i64} : (tensor<?x16xf32>, tensor<?x?xi64>) -> tensor<?x?x16xf32>
  %0 = "mlc.gather"(%table, %ids) {axis = 0 : i64} : (tensor<?x16xf32>, tensor<?x?xi64>) -> tensor<?x?x16xf32>
  return %0 : tensor<?x?x16xf32>
}

// -----

/// Each dimension grows by low + high.

// CHECK-LABEL: func.func @pad
func.func @pad(%x: tensor<2x3xf32>, %d: tensor<?x3xi32>) -> (tensor<5x6xf32>, tensor<?x5xi32>) {
  // CHECK: "mlc.pad"(%{{.*}}) {high = array<i64: 2, 3>, low = array<i64: 1, 0>, value = 0.000000e+00 : f64} : (tensor<2x3xf32>) -> tensor<5x6xf32>
  %0 = "mlc.pad"(%x) {low = array<i64: 1, 0>, high = array<i64: 2, 3>, value = 0.0 : f64} : (tensor<2x3xf32>) -> tensor<5x6xf32>
  // CHECK: "mlc.pad"(%{{.*}}) {high = array<i64: 0, 1>, low = array<i64: 0, 1>, value = -1.000000e+00 : f64} : (tensor<?x3xi32>) -> tensor<?x5xi32>
  %1 = "mlc.pad"(%d) {low = array<i64: 0, 1>, high = array<i64: 0, 1>, value = -1.0 : f64} : (tensor<?x3xi32>) -> tensor<?x5xi32>
  return %0, %1 : tensor<5x6xf32>, tensor<?x5xi32>
}
