// RUN: not mlc-opt %s --split-input-file --pass-pipeline='builtin.module(torch-func-backend-type-conversion, mlc-convert-torch-to-mlc)' 2>&1 | FileCheck %s

/// negative: the diagonal of a matrix with a dynamic size.

// CHECK: error: 1 torch op(s) of 1 kind(s) have no conversion to mlc:
// CHECK: torch.aten.diagonal  x1  at {{.*}}[diagonal of a tensor with dynamic sizes]
func.func @negative_diagonal_dynamic(%arg0: !torch.vtensor<[?,3],f32>) -> !torch.vtensor<[?],f32> {
  %int0 = torch.constant.int 0
  %int1 = torch.constant.int 1
  %0 = torch.aten.diagonal %arg0, %int0, %int0, %int1 : !torch.vtensor<[?,3],f32>, !torch.int, !torch.int, !torch.int -> !torch.vtensor<[?],f32>
  return %0 : !torch.vtensor<[?],f32>
}

// -----

/// negative: diag_embed of a vector with a dynamic length.

// CHECK: error: 1 torch op(s) of 1 kind(s) have no conversion to mlc:
// CHECK: torch.aten.diag_embed  x1  at {{.*}}[diag_embed of a tensor with dynamic sizes]
func.func @negative_diag_embed_dynamic(%arg0: !torch.vtensor<[?],f32>) -> !torch.vtensor<[?,?],f32> {
  %int0 = torch.constant.int 0
  %int1 = torch.constant.int 1
  %0 = torch.aten.diag_embed %arg0, %int0, %int0, %int1 : !torch.vtensor<[?],f32>, !torch.int, !torch.int, !torch.int -> !torch.vtensor<[?,?],f32>
  return %0 : !torch.vtensor<[?,?],f32>
}

// -----

/// negative: outer of a vector with a dynamic length.

// CHECK: error: 1 torch op(s) of 1 kind(s) have no conversion to mlc:
// CHECK: torch.aten.outer  x1  at {{.*}}[outer of vectors with dynamic lengths]
func.func @negative_outer_dynamic(%arg0: !torch.vtensor<[?],f32>, %arg1: !torch.vtensor<[2],f32>) -> !torch.vtensor<[?,2],f32> {
  %0 = torch.aten.outer %arg0, %arg1 : !torch.vtensor<[?],f32>, !torch.vtensor<[2],f32> -> !torch.vtensor<[?,2],f32>
  return %0 : !torch.vtensor<[?,2],f32>
}

// -----

/// negative: collapsing dims of dynamic size.

// CHECK: error: 1 torch op(s) of 1 kind(s) have no conversion to mlc:
// CHECK: torch.prims.collapse  x1  at {{.*}}[prims.collapse with dynamic sizes]
func.func @negative_collapse_dynamic(%arg0: !torch.vtensor<[?,3],f32>) -> !torch.vtensor<[?],f32> {
  %int0 = torch.constant.int 0
  %int1 = torch.constant.int 1
  %0 = torch.prims.collapse %arg0, %int0, %int1 : !torch.vtensor<[?,3],f32>, !torch.int, !torch.int -> !torch.vtensor<[?],f32>
  return %0 : !torch.vtensor<[?],f32>
}

// -----

/// negative: slice_scatter into a tensor with a dynamic size.

// CHECK: error: 1 torch op(s) of 1 kind(s) have no conversion to mlc:
// CHECK: torch.aten.slice_scatter  x1  at {{.*}}[slice_scatter with dynamic sizes]
func.func @negative_slice_scatter_dynamic(%arg0: !torch.vtensor<[?,5],f32>, %arg1: !torch.vtensor<[?,2],f32>) -> !torch.vtensor<[?,5],f32> {
  %int0 = torch.constant.int 0
  %int1 = torch.constant.int 1
  %int2 = torch.constant.int 2
  %0 = torch.aten.slice_scatter %arg0, %arg1, %int1, %int0, %int2, %int1 : !torch.vtensor<[?,5],f32>, !torch.vtensor<[?,2],f32>, !torch.int, !torch.int, !torch.int, !torch.int -> !torch.vtensor<[?,5],f32>
  return %0 : !torch.vtensor<[?,5],f32>
}

// -----

/// negative: reflection padding needs the pad narrower than the dim.

// CHECK: error: 1 torch op(s) of 1 kind(s) have no conversion to mlc:
// CHECK: torch.aten.reflection_pad1d  x1  at {{.*}}[reflection padding as wide as the dimension]
func.func @negative_reflection_pad_too_wide(%arg0: !torch.vtensor<[2,3],f32>) -> !torch.vtensor<[2,9],f32> {
  %int3 = torch.constant.int 3
  %0 = torch.prim.ListConstruct %int3, %int3 : (!torch.int, !torch.int) -> !torch.list<int>
  %1 = torch.aten.reflection_pad1d %arg0, %0 : !torch.vtensor<[2,3],f32>, !torch.list<int> -> !torch.vtensor<[2,9],f32>
  return %1 : !torch.vtensor<[2,9],f32>
}

// -----

/// negative: replication padding of a dynamic dim.

// CHECK: error: 1 torch op(s) of 1 kind(s) have no conversion to mlc:
// CHECK: torch.aten.replication_pad1d  x1  at {{.*}}[replication padding of a dynamic dimension]
func.func @negative_replication_pad_dynamic(%arg0: !torch.vtensor<[2,?],f32>) -> !torch.vtensor<[2,?],f32> {
  %int1 = torch.constant.int 1
  %0 = torch.prim.ListConstruct %int1, %int1 : (!torch.int, !torch.int) -> !torch.list<int>
  %1 = torch.aten.replication_pad1d %arg0, %0 : !torch.vtensor<[2,?],f32>, !torch.list<int> -> !torch.vtensor<[2,?],f32>
  return %1 : !torch.vtensor<[2,?],f32>
}

// -----

/// negative: unfold along a dynamic dim.

// CHECK: error: 1 torch op(s) of 1 kind(s) have no conversion to mlc:
// CHECK: torch.aten.unfold  x1  at {{.*}}[unfold of a dynamic dimension]
func.func @negative_unfold_dynamic(%arg0: !torch.vtensor<[?,2],f32>) -> !torch.vtensor<[?,2,3],f32> {
  %int0 = torch.constant.int 0
  %int3 = torch.constant.int 3
  %0 = torch.aten.unfold %arg0, %int0, %int3, %int3 : !torch.vtensor<[?,2],f32>, !torch.int, !torch.int, !torch.int -> !torch.vtensor<[?,2,3],f32>
  return %0 : !torch.vtensor<[?,2,3],f32>
}
