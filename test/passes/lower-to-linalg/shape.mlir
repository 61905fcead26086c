// RUN: mlc-opt %s --pass-pipeline='builtin.module(mlc-lower-to-linalg)' --split-input-file | FileCheck %s

/// Shape ops become tensor ops (collapse/expand_shape, insert/extract_slice,
/// pad), linalg.transpose, or a copying linalg.generic (broadcast, gather).

/// A reshape that merges neighbouring dimensions is one collapse_shape.

// CHECK-LABEL: func.func @reshape_collapse
// CHECK-SAME: (%[[X:.*]]: tensor<2x3x4xf32>)
// CHECK-NEXT: %[[Y:.*]] = tensor.collapse_shape %[[X]] {{\[}}[0, 1], [2]] : tensor<2x3x4xf32> into tensor<6x4xf32>
// CHECK-NEXT: return %[[Y]]
func.func @reshape_collapse(%x: tensor<2x3x4xf32>) -> tensor<6x4xf32> {
  %0 = "mlc.reshape"(%x) : (tensor<2x3x4xf32>) -> tensor<6x4xf32>
  return %0 : tensor<6x4xf32>
}

// -----

/// One that splits dimensions is one expand_shape; unit dimensions join a group.

// CHECK-LABEL: func.func @reshape_expand
// CHECK-SAME: (%[[X:.*]]: tensor<6x4xf32>)
// CHECK-NEXT: %[[Y:.*]] = tensor.expand_shape %[[X]] {{\[}}[0, 1], [2, 3]] output_shape [2, 3, 4, 1] : tensor<6x4xf32> into tensor<2x3x4x1xf32>
// CHECK-NEXT: return %[[Y]]
func.func @reshape_expand(%x: tensor<6x4xf32>) -> tensor<2x3x4x1xf32> {
  %0 = "mlc.reshape"(%x) : (tensor<6x4xf32>) -> tensor<2x3x4x1xf32>
  return %0 : tensor<2x3x4x1xf32>
}

// -----

/// Any other reshape goes through one dimension.

// CHECK-LABEL: func.func @reshape_general
// CHECK-SAME: (%[[X:.*]]: tensor<2x3x4xf32>)
// CHECK-NEXT: %[[FLAT:.*]] = tensor.collapse_shape %[[X]] {{\[}}[0, 1, 2]] : tensor<2x3x4xf32> into tensor<24xf32>
// CHECK-NEXT: %[[Y:.*]] = tensor.expand_shape %[[FLAT]] {{\[}}[0, 1]] output_shape [4, 6] : tensor<24xf32> into tensor<4x6xf32>
// CHECK-NEXT: return %[[Y]]
func.func @reshape_general(%x: tensor<2x3x4xf32>) -> tensor<4x6xf32> {
  %0 = "mlc.reshape"(%x) : (tensor<2x3x4xf32>) -> tensor<4x6xf32>
  return %0 : tensor<4x6xf32>
}

// -----

/// A dynamic dimension that maps onto one dynamic dimension takes its size.

// CHECK-LABEL: func.func @reshape_dynamic
// CHECK-SAME: (%[[X:.*]]: tensor<?x12xf32>)
// CHECK: %[[N:.*]] = tensor.dim %[[X]], %{{.*}} : tensor<?x12xf32>
// CHECK-NEXT: tensor.expand_shape %[[X]] {{\[}}[0], [1, 2]] output_shape [%[[N]], 3, 4] : tensor<?x12xf32> into tensor<?x3x4xf32>
func.func @reshape_dynamic(%x: tensor<?x12xf32>) -> tensor<?x3x4xf32> {
  %0 = "mlc.reshape"(%x) : (tensor<?x12xf32>) -> tensor<?x3x4xf32>
  return %0 : tensor<?x3x4xf32>
}

// -----

// CHECK-LABEL: func.func @reshape_to_scalar
// CHECK: tensor.collapse_shape %{{.*}} [] : tensor<1x1xf32> into tensor<f32>
func.func @reshape_to_scalar(%x: tensor<1x1xf32>) -> tensor<f32> {
  %0 = "mlc.reshape"(%x) : (tensor<1x1xf32>) -> tensor<f32>
  return %0 : tensor<f32>
}

// -----

// CHECK-LABEL: func.func @transpose
// CHECK-SAME: (%[[X:.*]]: tensor<2x3x4xf32>)
// CHECK: %[[INIT:.*]] = tensor.empty() : tensor<4x2x3xf32>
// CHECK-NEXT: %[[Y:.*]] = linalg.transpose ins(%[[X]] : tensor<2x3x4xf32>) outs(%[[INIT]] : tensor<4x2x3xf32>) permutation = [2, 0, 1]
// CHECK-NEXT: return %[[Y]]
func.func @transpose(%x: tensor<2x3x4xf32>) -> tensor<4x2x3xf32> {
  %0 = "mlc.transpose"(%x) {permutation = array<i64: 2, 0, 1>} : (tensor<2x3x4xf32>) -> tensor<4x2x3xf32>
  return %0 : tensor<4x2x3xf32>
}

// -----

/// Attention's keys: the input's last dimension fills whole vectors (64) and the
/// output's does not (197), so the copy loops in the input's order and writes through
/// the permuted map. The reverse ([12, 64, 197] -> [12, 197, 64]) and a transpose
/// whose last dimensions are both whole vectors stay linalg.transpose.

// CHECK-DAG: #[[IN:.*]] = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
// CHECK-DAG: #[[OUT:.*]] = affine_map<(d0, d1, d2) -> (d0, d2, d1)>
// CHECK-LABEL: func.func @keys_transposed
// CHECK: %[[INIT:.*]] = tensor.empty() : tensor<12x64x197xf32>
// CHECK: linalg.generic {indexing_maps = [#[[IN]], #[[OUT]]], iterator_types = ["parallel", "parallel", "parallel"]} ins(%{{.*}} : tensor<12x197x64xf32>) outs(%[[INIT]] : tensor<12x64x197xf32>)
// CHECK-NOT: linalg.transpose
func.func @keys_transposed(%x: tensor<12x197x64xf32>) -> tensor<12x64x197xf32> {
  %0 = "mlc.transpose"(%x) {permutation = array<i64: 0, 2, 1>} : (tensor<12x197x64xf32>) -> tensor<12x64x197xf32>
  return %0 : tensor<12x64x197xf32>
}

// CHECK-LABEL: func.func @keys_back
// CHECK: linalg.transpose
func.func @keys_back(%x: tensor<12x64x197xf32>) -> tensor<12x197x64xf32> {
  %0 = "mlc.transpose"(%x) {permutation = array<i64: 0, 2, 1>} : (tensor<12x64x197xf32>) -> tensor<12x197x64xf32>
  return %0 : tensor<12x197x64xf32>
}

// CHECK-LABEL: func.func @whole_vectors_both_ways
// CHECK: linalg.transpose
func.func @whole_vectors_both_ways(%x: tensor<12x128x64xf32>) -> tensor<12x64x128xf32> {
  %0 = "mlc.transpose"(%x) {permutation = array<i64: 0, 2, 1>} : (tensor<12x128x64xf32>) -> tensor<12x64x128xf32>
  return %0 : tensor<12x64x128xf32>
}

// -----

/// broadcast copies through a NumPy-broadcast indexing map: new leading
/// dimensions are not read, a stretched size-1 dimension reads index 0.

// CHECK-DAG: #[[$SOURCE:.*]] = affine_map<(d0, d1, d2) -> (d1, 0)>
// CHECK-DAG: #[[$ID:.*]] = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
// CHECK-LABEL: func.func @broadcast
// CHECK-SAME: (%[[X:.*]]: tensor<2x1xf32>)
// CHECK: %[[INIT:.*]] = tensor.empty() : tensor<4x2x3xf32>
// CHECK-NEXT: linalg.generic {indexing_maps = [#[[$SOURCE]], #[[$ID]]], iterator_types = ["parallel", "parallel", "parallel"]}
// CHECK-SAME: ins(%[[X]] : tensor<2x1xf32>) outs(%[[INIT]] : tensor<4x2x3xf32>)
// CHECK-NEXT: ^bb0(%[[IN:.*]]: f32, %{{.*}}: f32):
// CHECK-NEXT: linalg.yield %[[IN]] : f32
func.func @broadcast(%x: tensor<2x1xf32>) -> tensor<4x2x3xf32> {
  %0 = "mlc.broadcast"(%x) : (tensor<2x1xf32>) -> tensor<4x2x3xf32>
  return %0 : tensor<4x2x3xf32>
}

// -----

/// concat inserts lhs and rhs at their offsets along the axis into one tensor.

// CHECK-LABEL: func.func @concat
// CHECK-SAME: (%[[A:.*]]: tensor<2x3xf32>, %[[B:.*]]: tensor<4x3xf32>)
// CHECK-NEXT: %[[EMPTY:.*]] = tensor.empty() : tensor<6x3xf32>
// CHECK-NEXT: %[[R1:.*]] = tensor.insert_slice %[[A]] into %[[EMPTY]][0, 0] [2, 3] [1, 1] : tensor<2x3xf32> into tensor<6x3xf32>
// CHECK-NEXT: %[[R2:.*]] = tensor.insert_slice %[[B]] into %[[R1]][2, 0] [4, 3] [1, 1] : tensor<4x3xf32> into tensor<6x3xf32>
// CHECK-NEXT: return %[[R2]]
func.func @concat(%a: tensor<2x3xf32>, %b: tensor<4x3xf32>) -> tensor<6x3xf32> {
  %0 = "mlc.concat"(%a, %b) {axis = 0 : i64} : (tensor<2x3xf32>, tensor<4x3xf32>) -> tensor<6x3xf32>
  return %0 : tensor<6x3xf32>
}

// -----

/// A chain of concats along one axis (torch.cat of three, here of 3, 5 and 1
/// columns; -1 and 1 are the same axis) fills one tensor: each input is inserted
/// at its running offset, and the inner link is not materialized.

// CHECK-LABEL: func.func @concat_chain
// CHECK-SAME: (%[[A:.*]]: tensor<2x3xf32>, %[[B:.*]]: tensor<2x5xf32>, %[[C:.*]]: tensor<2x1xf32>)
// CHECK-NEXT: %[[EMPTY:.*]] = tensor.empty() : tensor<2x9xf32>
// CHECK-NEXT: %[[R1:.*]] = tensor.insert_slice %[[A]] into %[[EMPTY]][0, 0] [2, 3] [1, 1] : tensor<2x3xf32> into tensor<2x9xf32>
// CHECK-NEXT: %[[R2:.*]] = tensor.insert_slice %[[B]] into %[[R1]][0, 3] [2, 5] [1, 1] : tensor<2x5xf32> into tensor<2x9xf32>
// CHECK-NEXT: %[[R3:.*]] = tensor.insert_slice %[[C]] into %[[R2]][0, 8] [2, 1] [1, 1] : tensor<2x1xf32> into tensor<2x9xf32>
// CHECK-NEXT: return %[[R3]]
func.func @concat_chain(%a: tensor<2x3xf32>, %b: tensor<2x5xf32>, %c: tensor<2x1xf32>) -> tensor<2x9xf32> {
  %0 = "mlc.concat"(%a, %b) {axis = -1 : i64} : (tensor<2x3xf32>, tensor<2x5xf32>) -> tensor<2x8xf32>
  %1 = "mlc.concat"(%0, %c) {axis = 1 : i64} : (tensor<2x8xf32>, tensor<2x1xf32>) -> tensor<2x9xf32>
  return %1 : tensor<2x9xf32>
}

// -----

/// Links on both sides are absorbed, in order: [2 | 4] then [1 | 3] rows.

// CHECK-LABEL: func.func @concat_tree
// CHECK-SAME: (%[[A:.*]]: tensor<2x3xf32>, %[[B:.*]]: tensor<4x3xf32>, %[[C:.*]]: tensor<1x3xf32>, %[[D:.*]]: tensor<3x3xf32>)
// CHECK-NEXT: %[[EMPTY:.*]] = tensor.empty() : tensor<10x3xf32>
// CHECK-NEXT: %[[R1:.*]] = tensor.insert_slice %[[A]] into %[[EMPTY]][0, 0] [2, 3] [1, 1]
// CHECK-NEXT: %[[R2:.*]] = tensor.insert_slice %[[B]] into %[[R1]][2, 0] [4, 3] [1, 1]
// CHECK-NEXT: %[[R3:.*]] = tensor.insert_slice %[[C]] into %[[R2]][6, 0] [1, 3] [1, 1]
// CHECK-NEXT: %[[R4:.*]] = tensor.insert_slice %[[D]] into %[[R3]][7, 0] [3, 3] [1, 1]
// CHECK-NEXT: return %[[R4]]
func.func @concat_tree(%a: tensor<2x3xf32>, %b: tensor<4x3xf32>, %c: tensor<1x3xf32>, %d: tensor<3x3xf32>) -> tensor<10x3xf32> {
  %0 = "mlc.concat"(%a, %b) {axis = 0 : i64} : (tensor<2x3xf32>, tensor<4x3xf32>) -> tensor<6x3xf32>
  %1 = "mlc.concat"(%c, %d) {axis = 0 : i64} : (tensor<1x3xf32>, tensor<3x3xf32>) -> tensor<4x3xf32>
  %2 = "mlc.concat"(%0, %1) {axis = 0 : i64} : (tensor<6x3xf32>, tensor<4x3xf32>) -> tensor<10x3xf32>
  return %2 : tensor<10x3xf32>
}

// -----

/// A dynamic size off the axis is read with tensor.dim.

// CHECK-LABEL: func.func @concat_dynamic
// CHECK-SAME: (%[[A:.*]]: tensor<?x3xf32>, %[[B:.*]]: tensor<?x5xf32>)
// CHECK: %[[N:.*]] = tensor.dim %[[A]], %{{.*}} : tensor<?x3xf32>
// CHECK-NEXT: %[[EMPTY:.*]] = tensor.empty(%[[N]]) : tensor<?x8xf32>
// CHECK: %[[NA:.*]] = tensor.dim %[[A]], %{{.*}} : tensor<?x3xf32>
// CHECK-NEXT: %[[R1:.*]] = tensor.insert_slice %[[A]] into %[[EMPTY]][0, 0] [%[[NA]], 3] [1, 1]
// CHECK: %[[NB:.*]] = tensor.dim %[[B]], %{{.*}} : tensor<?x5xf32>
// CHECK-NEXT: %[[R2:.*]] = tensor.insert_slice %[[B]] into %[[R1]][0, 3] [%[[NB]], 5] [1, 1]
// CHECK-NEXT: return %[[R2]]
func.func @concat_dynamic(%a: tensor<?x3xf32>, %b: tensor<?x5xf32>) -> tensor<?x8xf32> {
  %0 = "mlc.concat"(%a, %b) {axis = 1 : i64} : (tensor<?x3xf32>, tensor<?x5xf32>) -> tensor<?x8xf32>
  return %0 : tensor<?x8xf32>
}

// -----

/// Concats along different axes are not merged: the rows [2 | 4] are joined
/// first, then the columns [3 | 2], each into a tensor of its own.

// CHECK-LABEL: func.func @negative_concat_different_axes
// CHECK-SAME: (%[[A:.*]]: tensor<2x3xf32>, %[[B:.*]]: tensor<4x3xf32>, %[[C:.*]]: tensor<6x2xf32>)
// CHECK-NEXT: %[[ROWS:.*]] = tensor.empty() : tensor<6x3xf32>
// CHECK-NEXT: %[[R1:.*]] = tensor.insert_slice %[[A]] into %[[ROWS]][0, 0] [2, 3] [1, 1] : tensor<2x3xf32> into tensor<6x3xf32>
// CHECK-NEXT: %[[R2:.*]] = tensor.insert_slice %[[B]] into %[[R1]][2, 0] [4, 3] [1, 1] : tensor<4x3xf32> into tensor<6x3xf32>
// CHECK-NEXT: %[[COLUMNS:.*]] = tensor.empty() : tensor<6x5xf32>
// CHECK-NEXT: %[[R3:.*]] = tensor.insert_slice %[[R2]] into %[[COLUMNS]][0, 0] [6, 3] [1, 1] : tensor<6x3xf32> into tensor<6x5xf32>
// CHECK-NEXT: %[[R4:.*]] = tensor.insert_slice %[[C]] into %[[R3]][0, 3] [6, 2] [1, 1] : tensor<6x2xf32> into tensor<6x5xf32>
// CHECK-NEXT: return %[[R4]]
func.func @negative_concat_different_axes(%a: tensor<2x3xf32>, %b: tensor<4x3xf32>, %c: tensor<6x2xf32>) -> tensor<6x5xf32> {
  %0 = "mlc.concat"(%a, %b) {axis = 0 : i64} : (tensor<2x3xf32>, tensor<4x3xf32>) -> tensor<6x3xf32>
  %1 = "mlc.concat"(%0, %c) {axis = 1 : i64} : (tensor<6x3xf32>, tensor<6x2xf32>) -> tensor<6x5xf32>
  return %1 : tensor<6x5xf32>
}

// -----

/// A link with another use is not merged either: its value is needed on its own.

// CHECK-LABEL: func.func @negative_concat_shared_link
// CHECK-SAME: (%[[A:.*]]: tensor<2x3xf32>, %[[B:.*]]: tensor<4x3xf32>)
// CHECK-NEXT: %[[INNER:.*]] = tensor.empty() : tensor<6x3xf32>
// CHECK-NEXT: %[[R1:.*]] = tensor.insert_slice %[[A]] into %[[INNER]][0, 0] [2, 3] [1, 1]
// CHECK-NEXT: %[[R2:.*]] = tensor.insert_slice %[[B]] into %[[R1]][2, 0] [4, 3] [1, 1]
// CHECK-NEXT: %[[OUTER:.*]] = tensor.empty() : tensor<8x3xf32>
// CHECK-NEXT: %[[R3:.*]] = tensor.insert_slice %[[A]] into %[[OUTER]][0, 0] [2, 3] [1, 1]
// CHECK-NEXT: %[[R4:.*]] = tensor.insert_slice %[[R2]] into %[[R3]][2, 0] [6, 3] [1, 1]
// CHECK-NEXT: return %[[R2]], %[[R4]]
func.func @negative_concat_shared_link(%a: tensor<2x3xf32>, %b: tensor<4x3xf32>) -> (tensor<6x3xf32>, tensor<8x3xf32>) {
  %0 = "mlc.concat"(%a, %b) {axis = 0 : i64} : (tensor<2x3xf32>, tensor<4x3xf32>) -> tensor<6x3xf32>
  %1 = "mlc.concat"(%a, %0) {axis = 0 : i64} : (tensor<2x3xf32>, tensor<6x3xf32>) -> tensor<8x3xf32>
  return %0, %1 : tensor<6x3xf32>, tensor<8x3xf32>
}

// -----

// CHECK-LABEL: func.func @slice
// CHECK-SAME: (%[[X:.*]]: tensor<5x6xf32>)
// CHECK-NEXT: %[[Y:.*]] = tensor.extract_slice %[[X]][1, 0] [2, 2] [2, 3] : tensor<5x6xf32> to tensor<2x2xf32>
// CHECK-NEXT: return %[[Y]]
func.func @slice(%x: tensor<5x6xf32>) -> tensor<2x2xf32> {
  %0 = "mlc.slice"(%x) {start = array<i64: 1, 0>, limit = array<i64: 5, 6>, stride = array<i64: 2, 3>} : (tensor<5x6xf32>) -> tensor<2x2xf32>
  return %0 : tensor<2x2xf32>
}

// -----

/// gather iterates over the result, loads the index and extracts from the input.

// CHECK-DAG: #[[$INDICES:.*]] = affine_map<(d0, d1, d2) -> (d0, d1)>
// CHECK-LABEL: func.func @gather_embedding
// CHECK-SAME: (%[[TABLE:.*]]: tensor<10x4xf32>, %[[I:.*]]: tensor<2x3xi64>)
// CHECK: linalg.generic {indexing_maps = [#[[$INDICES]], #{{.*}}]{{.*}} ins(%[[I]] : tensor<2x3xi64>) outs(%{{.*}} : tensor<2x3x4xf32>)
// CHECK-NEXT: ^bb0(%[[ROW:.*]]: i64, %{{.*}}: f32):
// CHECK-NEXT: %[[R:.*]] = arith.index_cast %[[ROW]] : i64 to index
// CHECK-NEXT: %[[COL:.*]] = linalg.index 2 : index
// CHECK-NEXT: %[[V:.*]] = tensor.extract %[[TABLE]][%[[R]], %[[COL]]] : tensor<10x4xf32>
// CHECK-NEXT: linalg.yield %[[V]] : f32
func.func @gather_embedding(%x: tensor<10x4xf32>, %i: tensor<2x3xi64>) -> tensor<2x3x4xf32> {
  %0 = "mlc.gather"(%x, %i) {axis = 0 : i64} : (tensor<10x4xf32>, tensor<2x3xi64>) -> tensor<2x3x4xf32>
  return %0 : tensor<2x3x4xf32>
}

// -----

// CHECK-DAG: #[[$INDICES:.*]] = affine_map<(d0, d1, d2) -> (d1)>
// CHECK-LABEL: func.func @gather_middle_axis
// CHECK: linalg.generic {indexing_maps = [#[[$INDICES]], #{{.*}}]
// CHECK-NEXT: ^bb0(%[[POS:.*]]: i32, %{{.*}}: f32):
// CHECK-NEXT: %[[P:.*]] = arith.index_cast %[[POS]] : i32 to index
// CHECK-NEXT: %[[D0:.*]] = linalg.index 0 : index
// CHECK-NEXT: %[[D2:.*]] = linalg.index 2 : index
// CHECK-NEXT: tensor.extract %{{.*}}[%[[D0]], %[[P]], %[[D2]]] : tensor<2x5x3xf32>
func.func @gather_middle_axis(%x: tensor<2x5x3xf32>, %i: tensor<4xi32>) -> tensor<2x4x3xf32> {
  %0 = "mlc.gather"(%x, %i) {axis = 1 : i64} : (tensor<2x5x3xf32>, tensor<4xi32>) -> tensor<2x4x3xf32>
  return %0 : tensor<2x4x3xf32>
}

// -----

/// pad: the constant takes the tensor's element type.

// CHECK-LABEL: func.func @pad
// CHECK-SAME: (%[[X:.*]]: tensor<2x3xi32>)
// CHECK: %[[SEVEN:.*]] = arith.constant 7 : i32
// CHECK-NEXT: %[[Y:.*]] = tensor.pad %[[X]] low[1, 2] high[1, 0]
// CHECK: tensor.yield %[[SEVEN]] : i32
// CHECK-NEXT: } : tensor<2x3xi32> to tensor<4x5xi32>
func.func @pad(%x: tensor<2x3xi32>) -> tensor<4x5xi32> {
  %0 = "mlc.pad"(%x) {low = array<i64: 1, 2>, high = array<i64: 1, 0>, value = 7.0 : f64} : (tensor<2x3xi32>) -> tensor<4x5xi32>
  return %0 : tensor<4x5xi32>
}

// -----

/// Tensor ops already there are left alone.

// CHECK-LABEL: func.func @negative_tensor_ops
// CHECK-NEXT: %[[Y:.*]] = tensor.collapse_shape
// CHECK-NEXT: return %[[Y]]
func.func @negative_tensor_ops(%x: tensor<2x3xf32>) -> tensor<6xf32> {
  %0 = tensor.collapse_shape %x [[0, 1]] : tensor<2x3xf32> into tensor<6xf32>
  return %0 : tensor<6xf32>
}

// -----

/// im2col: the padded input copied into [N, OH, OW, KH, KW, C] by a generic that reads
/// it at (n, oh * stride + kh * dilation, ow * stride + kw * dilation, c), then the
/// window dimensions collapsed into one row.

// CHECK-DAG: #[[READ:.*]] = affine_map<(d0, d1, d2, d3, d4, d5) -> (d0, d1 * 2 + d3, d2 * 2 + d4, d5)>
// CHECK-DAG: #[[ID:.*]] = affine_map<(d0, d1, d2, d3, d4, d5) -> (d0, d1, d2, d3, d4, d5)>
// CHECK-LABEL: func.func @im2col
// CHECK-SAME: (%[[X:.*]]: tensor<1x7x7x4xf32>)
// CHECK:      %[[P:.*]] = tensor.pad %[[X]] low[0, 1, 1, 0] high[0, 1, 1, 0]
// CHECK:      %[[E:.*]] = tensor.empty() : tensor<1x4x4x3x3x4xf32>
// CHECK-NEXT: %[[W:.*]] = linalg.generic {indexing_maps = [#[[READ]], #[[ID]]], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel", "parallel"]} ins(%[[P]] : tensor<1x9x9x4xf32>) outs(%[[E]] : tensor<1x4x4x3x3x4xf32>)
// CHECK:      %[[R:.*]] = tensor.collapse_shape %[[W]] {{\[}}[0], [1], [2], [3, 4, 5]] : tensor<1x4x4x3x3x4xf32> into tensor<1x4x4x36xf32>
// CHECK-NEXT: return %[[R]]
func.func @im2col(%x: tensor<1x7x7x4xf32>) -> tensor<1x4x4x36xf32> {
  %0 = "mlc.im2col"(%x) {kernel = array<i64: 3, 3>, stride = array<i64: 2, 2>, padding = array<i64: 1, 1, 1, 1>, dilation = array<i64: 1, 1>} : (tensor<1x7x7x4xf32>) -> tensor<1x4x4x36xf32>
  return %0 : tensor<1x4x4x36xf32>
}
