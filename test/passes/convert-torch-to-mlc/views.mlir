// RUN: mlc-opt %s --split-input-file --pass-pipeline='builtin.module(torch-func-backend-type-conversion, mlc-convert-torch-to-mlc, func.func(torch-finalizing-backend-type-conversion))' | FileCheck %s

/// diagonal(offset 1, dim1 0, dim2 -1): the two dims move last and flatten, and one
/// gather reads the diagonal at the constant positions i * (cols + 1) + offset.

// CHECK-LABEL: func.func @diagonal_offset
// CHECK-SAME: (%[[X:.*]]: tensor<2x3x4xf32>)
// CHECK: %[[MOVED:.*]] = "mlc.transpose"(%[[X]]) {permutation = array<i64: 1, 0, 2>} : (tensor<2x3x4xf32>) -> tensor<3x2x4xf32>
// CHECK: %[[FLAT:.*]] = "mlc.reshape"(%[[MOVED]]) : (tensor<3x2x4xf32>) -> tensor<3x8xf32>
// CHECK: %[[POS:.*]] = "mlc.constant"() {value = dense<[1, 6]> : tensor<2xi32>}
// CHECK: %[[DIAG:.*]] = "mlc.gather"(%[[FLAT]], %[[POS]]) {axis = 1 : i64} : (tensor<3x8xf32>, tensor<2xi32>) -> tensor<3x2xf32>
// CHECK: return %[[DIAG]]
// CHECK-NOT: torch.aten
func.func @diagonal_offset(%arg0: !torch.vtensor<[2,3,4],f32>) -> !torch.vtensor<[3,2],f32> {
  %int1 = torch.constant.int 1
  %int0 = torch.constant.int 0
  %int-1 = torch.constant.int -1
  %0 = torch.aten.diagonal %arg0, %int1, %int0, %int-1 : !torch.vtensor<[2,3,4],f32>, !torch.int, !torch.int, !torch.int -> !torch.vtensor<[3,2],f32>
  return %0 : !torch.vtensor<[3,2],f32>
}

// -----

/// A negative offset starts below the main diagonal: rows 1.. of a 3x3 matrix.

// CHECK-LABEL: func.func @diagonal_below
// CHECK-NOT: mlc.transpose
// CHECK: "mlc.reshape"(%{{.*}}) : (tensor<3x3xi64>) -> tensor<9xi64>
// CHECK: "mlc.constant"() {value = dense<[3, 7]> : tensor<2xi32>}
// CHECK: "mlc.gather"
// CHECK-SAME: -> tensor<2xi64>
func.func @diagonal_below(%arg0: !torch.vtensor<[3,3],si64>) -> !torch.vtensor<[2],si64> {
  %int-1 = torch.constant.int -1
  %int0 = torch.constant.int 0
  %int1 = torch.constant.int 1
  %0 = torch.aten.diagonal %arg0, %int-1, %int0, %int1 : !torch.vtensor<[3,3],si64>, !torch.int, !torch.int, !torch.int -> !torch.vtensor<[2],si64>
  return %0 : !torch.vtensor<[2],si64>
}

// -----

/// diag_embed(offset -1, dim1 0, dim2 2): a gather spreads the last dim over a 4x4
/// matrix, a constant mask keeps its subdiagonal, and a transpose puts the matrix
/// at dims 0 and 2.

// CHECK-LABEL: func.func @diag_embed_offset
// CHECK-SAME: (%[[X:.*]]: tensor<2x3xf32>)
// CHECK-DAG: %[[MASK:.*]] = "mlc.constant"() {value = dense<{{\[\[}}false, false, false, false], [true, false, false, false], [false, true, false, false], [false, false, true, false]]> : tensor<4x4xi1>}
// CHECK-DAG: %[[POS:.*]] = "mlc.constant"() {value = dense<{{\[\[}}0, 0, 0, 0], [0, 1, 1, 1], [0, 1, 2, 2], [0, 1, 2, 2]]> : tensor<4x4xi32>}
// CHECK-DAG: %[[ZERO:.*]] = "mlc.constant"() {value = dense<0.000000e+00> : tensor<f32>}
// CHECK-DAG: %[[SPREAD:.*]] = "mlc.gather"(%[[X]], %[[POS]]) {axis = 1 : i64} : (tensor<2x3xf32>, tensor<4x4xi32>) -> tensor<2x4x4xf32>
// CHECK: %[[MATRIX:.*]] = "mlc.select"(%[[MASK]], %[[SPREAD]], %[[ZERO]]) : (tensor<4x4xi1>, tensor<2x4x4xf32>, tensor<f32>) -> tensor<2x4x4xf32>
// CHECK: %[[MOVED:.*]] = "mlc.transpose"(%[[MATRIX]]) {permutation = array<i64: 1, 0, 2>} : (tensor<2x4x4xf32>) -> tensor<4x2x4xf32>
// CHECK: return %[[MOVED]]
func.func @diag_embed_offset(%arg0: !torch.vtensor<[2,3],f32>) -> !torch.vtensor<[4,2,4],f32> {
  %int-1 = torch.constant.int -1
  %int0 = torch.constant.int 0
  %int2 = torch.constant.int 2
  %0 = torch.aten.diag_embed %arg0, %int-1, %int0, %int2 : !torch.vtensor<[2,3],f32>, !torch.int, !torch.int, !torch.int -> !torch.vtensor<[4,2,4],f32>
  return %0 : !torch.vtensor<[4,2,4],f32>
}

// -----

/// outer(a, b): a column times a row, broadcast to (3, 2).

// CHECK-LABEL: func.func @outer
// CHECK-SAME: (%[[A:.*]]: tensor<3xf32>, %[[B:.*]]: tensor<2xf32>)
// CHECK-DAG: %[[COLUMN:.*]] = "mlc.reshape"(%[[A]]) : (tensor<3xf32>) -> tensor<3x1xf32>
// CHECK-DAG: %[[ROW:.*]] = "mlc.reshape"(%[[B]]) : (tensor<2xf32>) -> tensor<1x2xf32>
// CHECK: %[[PRODUCT:.*]] = "mlc.mul"(%[[COLUMN]], %[[ROW]]) : (tensor<3x1xf32>, tensor<1x2xf32>) -> tensor<3x2xf32>
// CHECK: return %[[PRODUCT]]
func.func @outer(%arg0: !torch.vtensor<[3],f32>, %arg1: !torch.vtensor<[2],f32>) -> !torch.vtensor<[3,2],f32> {
  %0 = torch.aten.outer %arg0, %arg1 : !torch.vtensor<[3],f32>, !torch.vtensor<[2],f32> -> !torch.vtensor<[3,2],f32>
  return %0 : !torch.vtensor<[3,2],f32>
}

// -----

/// prims.collapse and prims.split_dim (pixel_shuffle's) are reshapes.

// CHECK-LABEL: func.func @collapse_split_dim
// CHECK-SAME: (%[[X:.*]]: tensor<2x3x4xf32>)
// CHECK: %[[MERGED:.*]] = "mlc.reshape"(%[[X]]) : (tensor<2x3x4xf32>) -> tensor<2x12xf32>
// CHECK: %[[SPLIT:.*]] = "mlc.reshape"(%[[MERGED]]) : (tensor<2x12xf32>) -> tensor<2x2x6xf32>
// CHECK: return %[[SPLIT]]
func.func @collapse_split_dim(%arg0: !torch.vtensor<[2,3,4],f32>) -> !torch.vtensor<[2,2,6],f32> {
  %int1 = torch.constant.int 1
  %int2 = torch.constant.int 2
  %0 = torch.prims.collapse %arg0, %int1, %int2 : !torch.vtensor<[2,3,4],f32>, !torch.int, !torch.int -> !torch.vtensor<[2,12],f32>
  %1 = torch.prims.split_dim %0, %int1, %int2 : !torch.vtensor<[2,12],f32>, !torch.int, !torch.int -> !torch.vtensor<[2,2,6],f32>
  return %1 : !torch.vtensor<[2,2,6],f32>
}

// -----

/// slice_scatter(dim 1, 1:-1:2): src gathered to self's shape at the constant positions
/// (p - 1) / 2, and a select of the slice's positions between it and self.

// CHECK-LABEL: func.func @slice_scatter_step
// CHECK-SAME: (%[[X:.*]]: tensor<2x5xf32>, %[[SRC:.*]]: tensor<2x2xf32>)
// CHECK-DAG: %[[POS:.*]] = "mlc.constant"() {value = dense<[0, 0, 0, 1, 0]> : tensor<5xi32>}
// CHECK-DAG: %[[MASK:.*]] = "mlc.constant"() {value = dense<{{\[\[}}false, true, false, true, false]]> : tensor<1x5xi1>}
// CHECK-DAG: %[[SPREAD:.*]] = "mlc.gather"(%[[SRC]], %[[POS]]) {axis = 1 : i64} : (tensor<2x2xf32>, tensor<5xi32>) -> tensor<2x5xf32>
// CHECK: %[[OUT:.*]] = "mlc.select"(%[[MASK]], %[[SPREAD]], %[[X]]) : (tensor<1x5xi1>, tensor<2x5xf32>, tensor<2x5xf32>) -> tensor<2x5xf32>
// CHECK: return %[[OUT]]
func.func @slice_scatter_step(%arg0: !torch.vtensor<[2,5],f32>, %arg1: !torch.vtensor<[2,2],f32>) -> !torch.vtensor<[2,5],f32> {
  %int1 = torch.constant.int 1
  %int-1 = torch.constant.int -1
  %int2 = torch.constant.int 2
  %0 = torch.aten.slice_scatter %arg0, %arg1, %int1, %int1, %int-1, %int2 : !torch.vtensor<[2,5],f32>, !torch.vtensor<[2,2],f32>, !torch.int, !torch.int, !torch.int, !torch.int -> !torch.vtensor<[2,5],f32>
  return %0 : !torch.vtensor<[2,5],f32>
}

// -----

/// select_scatter(x, s, 0, -1) as torch-mlir decomposes it: start -1 and end 0. The
/// slice's length is src's, from the start: the last row.

// CHECK-LABEL: func.func @select_scatter_last
// CHECK-DAG: "mlc.constant"() {value = dense<0> : tensor<3xi32>}
// CHECK-DAG: "mlc.constant"() {value = dense<{{\[\[}}false], [false], [true]]> : tensor<3x1xi1>}
// CHECK: "mlc.select"
// CHECK-SAME: -> tensor<3x4xf32>
func.func @select_scatter_last(%arg0: !torch.vtensor<[3,4],f32>, %arg1: !torch.vtensor<[1,4],f32>) -> !torch.vtensor<[3,4],f32> {
  %int0 = torch.constant.int 0
  %int-1 = torch.constant.int -1
  %int1 = torch.constant.int 1
  %0 = torch.aten.slice_scatter %arg0, %arg1, %int0, %int-1, %int0, %int1 : !torch.vtensor<[3,4],f32>, !torch.vtensor<[1,4],f32>, !torch.int, !torch.int, !torch.int, !torch.int -> !torch.vtensor<[3,4],f32>
  return %0 : !torch.vtensor<[3,4],f32>
}

// -----

/// reflection_pad1d (2, 1) and replication_pad1d (1, 2): one gather along the padded
/// dim at the constant positions -left .. size + right, reflected or clamped.

// CHECK-LABEL: func.func @reflection_pad1d
// CHECK-SAME: (%[[X:.*]]: tensor<2x4xf32>)
// CHECK: %[[POS:.*]] = "mlc.constant"() {value = dense<[2, 1, 0, 1, 2, 3, 2]> : tensor<7xi32>}
// CHECK: %[[PADDED:.*]] = "mlc.gather"(%[[X]], %[[POS]]) {axis = 1 : i64} : (tensor<2x4xf32>, tensor<7xi32>) -> tensor<2x7xf32>
// CHECK: return %[[PADDED]]
func.func @reflection_pad1d(%arg0: !torch.vtensor<[2,4],f32>) -> !torch.vtensor<[2,7],f32> {
  %int2 = torch.constant.int 2
  %int1 = torch.constant.int 1
  %0 = torch.prim.ListConstruct %int2, %int1 : (!torch.int, !torch.int) -> !torch.list<int>
  %1 = torch.aten.reflection_pad1d %arg0, %0 : !torch.vtensor<[2,4],f32>, !torch.list<int> -> !torch.vtensor<[2,7],f32>
  return %1 : !torch.vtensor<[2,7],f32>
}

// CHECK-LABEL: func.func @replication_pad1d
// CHECK-SAME: (%[[X:.*]]: tensor<3xi64>)
// CHECK: %[[POS:.*]] = "mlc.constant"() {value = dense<[0, 0, 1, 2, 2, 2]> : tensor<6xi32>}
// CHECK: %[[PADDED:.*]] = "mlc.gather"(%[[X]], %[[POS]]) {axis = 0 : i64} : (tensor<3xi64>, tensor<6xi32>) -> tensor<6xi64>
// CHECK: return %[[PADDED]]
func.func @replication_pad1d(%arg0: !torch.vtensor<[3],si64>) -> !torch.vtensor<[6],si64> {
  %int2 = torch.constant.int 2
  %int1 = torch.constant.int 1
  %0 = torch.prim.ListConstruct %int1, %int2 : (!torch.int, !torch.int) -> !torch.list<int>
  %1 = torch.aten.replication_pad1d %arg0, %0 : !torch.vtensor<[3],si64>, !torch.list<int> -> !torch.vtensor<[6],si64>
  return %1 : !torch.vtensor<[6],si64>
}

// -----

/// unfold(dim 0, size 3, step 2): a gather at the constant window positions
/// i * 2 + j, shaped (2, 3), and a transpose that moves the window axis last.

// CHECK-LABEL: func.func @unfold
// CHECK-SAME: (%[[X:.*]]: tensor<5x2xf32>)
// CHECK: %[[POS:.*]] = "mlc.constant"() {value = dense<{{\[\[}}0, 1, 2], [2, 3, 4]]> : tensor<2x3xi32>}
// CHECK: %[[WINDOWS:.*]] = "mlc.gather"(%[[X]], %[[POS]]) {axis = 0 : i64} : (tensor<5x2xf32>, tensor<2x3xi32>) -> tensor<2x3x2xf32>
// CHECK: %[[MOVED:.*]] = "mlc.transpose"(%[[WINDOWS]]) {permutation = array<i64: 0, 2, 1>} : (tensor<2x3x2xf32>) -> tensor<2x2x3xf32>
// CHECK: return %[[MOVED]]
func.func @unfold(%arg0: !torch.vtensor<[5,2],f32>) -> !torch.vtensor<[2,2,3],f32> {
  %int0 = torch.constant.int 0
  %int3 = torch.constant.int 3
  %int2 = torch.constant.int 2
  %0 = torch.aten.unfold %arg0, %int0, %int3, %int2 : !torch.vtensor<[5,2],f32>, !torch.int, !torch.int, !torch.int -> !torch.vtensor<[2,2,3],f32>
  return %0 : !torch.vtensor<[2,2,3],f32>
}
