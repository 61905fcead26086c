// RUN: mlc-opt %s --split-input-file --pass-pipeline='builtin.module(torch-func-backend-type-conversion, mlc-convert-torch-to-mlc, func.func(torch-finalizing-backend-type-conversion))' | FileCheck %s

/// Dynamic sizes, as torch.export with `dynamic_shapes` gives them (the inputs are its
/// real output): the size arithmetic on `!torch.int`s becomes index arithmetic
/// (`tensor.dim`, `arith.muli`) feeding mlc.reshape's `sizes`, and a slice to the
/// end of a dynamic dimension keeps a `?` limit.

/// x.view(s, b * 4, 96) of a [s, b, 384] tensor.

// CHECK-LABEL: func.func @view_with_size_arithmetic
// CHECK-SAME: (%[[X:.*]]: tensor<?x?x384xf32>)
// CHECK-NOT:  torch.aten.size.int
// CHECK-DAG:  %[[C0:.*]] = arith.constant 0 : index
// CHECK-DAG:  %[[C1:.*]] = arith.constant 1 : index
// CHECK-DAG:  %[[C4:.*]] = arith.constant 4 : index
// CHECK-DAG:  %[[S:.*]] = tensor.dim %[[X]], %[[C0]] : tensor<?x?x384xf32>
// CHECK-DAG:  %[[B:.*]] = tensor.dim %[[X]], %[[C1]] : tensor<?x?x384xf32>
// CHECK:      %[[B4:.*]] = arith.muli %[[B]], %[[C4]] : index
// CHECK:      %[[R:.*]] = "mlc.reshape"(%[[X]], %[[S]], %[[B4]]) : (tensor<?x?x384xf32>, index, index) -> tensor<?x?x96xf32>
// CHECK-NEXT: return %[[R]]
func.func @view_with_size_arithmetic(%arg0: !torch.vtensor<[?,?,384],f32>) -> !torch.vtensor<[?,?,96],f32> {
  %int96 = torch.constant.int 96
  %int4 = torch.constant.int 4
  %int1 = torch.constant.int 1
  %int0 = torch.constant.int 0
  %0 = torch.aten.size.int %arg0, %int0 : !torch.vtensor<[?,?,384],f32>, !torch.int -> !torch.int
  %1 = torch.aten.size.int %arg0, %int1 : !torch.vtensor<[?,?,384],f32>, !torch.int -> !torch.int
  %2 = torch.aten.mul.int %1, %int4 : !torch.int, !torch.int -> !torch.int
  %3 = torch.prim.ListConstruct %0, %2, %int96 : (!torch.int, !torch.int, !torch.int) -> !torch.list<int>
  %4 = torch.aten.view %arg0, %3 : !torch.vtensor<[?,?,384],f32>, !torch.list<int> -> !torch.vtensor<[?,?,96],f32>
  return %4 : !torch.vtensor<[?,?,96],f32>
}

// -----

/// torch.flatten(x, 0, 1) of [s, b, 8]: the joined size is s * b.

// CHECK-LABEL: func.func @flatten_dynamic_dims
// CHECK-SAME: (%[[X:.*]]: tensor<?x?x8xf32>)
// CHECK-DAG:  %[[S:.*]] = tensor.dim %[[X]], %{{.*}} : tensor<?x?x8xf32>
// CHECK-DAG:  %[[B:.*]] = tensor.dim %[[X]], %{{.*}} : tensor<?x?x8xf32>
// CHECK:      %[[SB:.*]] = arith.muli %{{.*}}, %{{.*}} : index
// CHECK:      "mlc.reshape"(%[[X]], %[[SB]]) : (tensor<?x?x8xf32>, index) -> tensor<?x8xf32>
func.func @flatten_dynamic_dims(%arg0: !torch.vtensor<[?,?,8],f32>) -> !torch.vtensor<[?,8],f32> {
  %int0 = torch.constant.int 0
  %int1 = torch.constant.int 1
  %0 = torch.aten.flatten.using_ints %arg0, %int0, %int1 : !torch.vtensor<[?,?,8],f32>, !torch.int, !torch.int -> !torch.vtensor<[?,8],f32>
  return %0 : !torch.vtensor<[?,8],f32>
}

// -----

/// torch.flatten(x, 1, 2) of [s, b, 8]: s is kept, b and 8 join into b * 8.

// CHECK-LABEL: func.func @flatten_dynamic_with_static
// CHECK-SAME: (%[[X:.*]]: tensor<?x?x8xf32>)
// CHECK-DAG:  %[[C0:.*]] = arith.constant 0 : index
// CHECK-DAG:  %[[C1:.*]] = arith.constant 1 : index
// CHECK-DAG:  %[[C8:.*]] = arith.constant 8 : index
// CHECK-DAG:  %[[S:.*]] = tensor.dim %[[X]], %[[C0]]
// CHECK-DAG:  %[[B:.*]] = tensor.dim %[[X]], %[[C1]]
// CHECK:      %[[B8:.*]] = arith.muli %[[B]], %[[C8]] : index
// CHECK:      "mlc.reshape"(%[[X]], %[[S]], %[[B8]]) : (tensor<?x?x8xf32>, index, index) -> tensor<?x?xf32>
func.func @flatten_dynamic_with_static(%arg0: !torch.vtensor<[?,?,8],f32>) -> !torch.vtensor<[?,?],f32> {
  %int1 = torch.constant.int 1
  %int2 = torch.constant.int 2
  %0 = torch.aten.flatten.using_ints %arg0, %int1, %int2 : !torch.vtensor<[?,?,8],f32>, !torch.int, !torch.int -> !torch.vtensor<[?,?],f32>
  return %0 : !torch.vtensor<[?,?],f32>
}

// -----

/// x[1:, ::2] of [s, 8]: torch's end 9223372036854775807 ("to the end") becomes
/// the `?` limit on the dynamic dimension, and the static size on the static one.

// CHECK-LABEL: func.func @slice_to_end_of_dynamic_dim
// CHECK-SAME: (%[[X:.*]]: tensor<?x8xf32>)
// CHECK:      %[[ROWS:.*]] = "mlc.slice"(%[[X]]) {limit = array<i64: -9223372036854775808, 8>, start = array<i64: 1, 0>, stride = array<i64: 1, 1>} : (tensor<?x8xf32>) -> tensor<?x8xf32>
// CHECK-NEXT: "mlc.slice"(%[[ROWS]]) {limit = array<i64: -9223372036854775808, 8>, start = array<i64: 0, 0>, stride = array<i64: 1, 2>} : (tensor<?x8xf32>) -> tensor<?x4xf32>
func.func @slice_to_end_of_dynamic_dim(%arg0: !torch.vtensor<[?,8],f32>) -> !torch.vtensor<[?,4],f32> {
  %int2 = torch.constant.int 2
  %int0 = torch.constant.int 0
  %int1 = torch.constant.int 1
  %int9223372036854775807 = torch.constant.int 9223372036854775807
  %0 = torch.aten.slice.Tensor %arg0, %int0, %int1, %int9223372036854775807, %int1 : !torch.vtensor<[?,8],f32>, !torch.int, !torch.int, !torch.int, !torch.int -> !torch.vtensor<[?,8],f32>
  %1 = torch.aten.slice.Tensor %0, %int1, %int0, %int9223372036854775807, %int2 : !torch.vtensor<[?,8],f32>, !torch.int, !torch.int, !torch.int, !torch.int -> !torch.vtensor<[?,4],f32>
  return %1 : !torch.vtensor<[?,4],f32>
}
