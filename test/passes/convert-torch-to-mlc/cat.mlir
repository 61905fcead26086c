// RUN: mlc-opt %s --split-input-file --pass-pipeline='builtin.module(torch-func-backend-type-conversion, mlc-convert-torch-to-mlc, func.func(torch-finalizing-backend-type-conversion))' | FileCheck %s

/// torch.aten.cat of n tensors becomes a chain of n - 1 binary mlc.concat ops,
/// left to right; each link has its own type, summing the sizes along the axis.

// CHECK-LABEL: func.func @cat_three
// CHECK-SAME: (%[[A:.*]]: tensor<2x3xf32>, %[[B:.*]]: tensor<4x3xf32>, %[[C:.*]]: tensor<1x3xf32>) -> tensor<7x3xf32>
// CHECK-NEXT: %[[AB:.*]] = "mlc.concat"(%[[A]], %[[B]]) {axis = 0 : i64} : (tensor<2x3xf32>, tensor<4x3xf32>) -> tensor<6x3xf32>
// CHECK-NEXT: %[[ABC:.*]] = "mlc.concat"(%[[AB]], %[[C]]) {axis = 0 : i64} : (tensor<6x3xf32>, tensor<1x3xf32>) -> tensor<7x3xf32>
// CHECK-NEXT: return %[[ABC]] : tensor<7x3xf32>
// CHECK-NOT: torch
func.func @cat_three(%a: !torch.vtensor<[2,3],f32>, %b: !torch.vtensor<[4,3],f32>, %c: !torch.vtensor<[1,3],f32>) -> !torch.vtensor<[7,3],f32> {
  %int0 = torch.constant.int 0
  %list = torch.prim.ListConstruct %a, %b, %c : (!torch.vtensor<[2,3],f32>, !torch.vtensor<[4,3],f32>, !torch.vtensor<[1,3],f32>) -> !torch.list<vtensor>
  %0 = torch.aten.cat %list, %int0 : !torch.list<vtensor>, !torch.int -> !torch.vtensor<[7,3],f32>
  return %0 : !torch.vtensor<[7,3],f32>
}

// -----

/// A negative dim counts from the end: -1 of rank 3 is axis 2.

// CHECK-LABEL: func.func @cat_negative_dim
// CHECK-SAME: (%[[A:.*]]: tensor<2x1x3xi64>, %[[B:.*]]: tensor<2x1x5xi64>, %[[C:.*]]: tensor<2x1x2xi64>)
// CHECK-NEXT: %[[AB:.*]] = "mlc.concat"(%[[A]], %[[B]]) {axis = 2 : i64} : (tensor<2x1x3xi64>, tensor<2x1x5xi64>) -> tensor<2x1x8xi64>
// CHECK-NEXT: %[[ABC:.*]] = "mlc.concat"(%[[AB]], %[[C]]) {axis = 2 : i64} : (tensor<2x1x8xi64>, tensor<2x1x2xi64>) -> tensor<2x1x10xi64>
// CHECK-NEXT: return %[[ABC]] : tensor<2x1x10xi64>
func.func @cat_negative_dim(%a: !torch.vtensor<[2,1,3],si64>, %b: !torch.vtensor<[2,1,5],si64>, %c: !torch.vtensor<[2,1,2],si64>) -> !torch.vtensor<[2,1,10],si64> {
  %int-1 = torch.constant.int -1
  %list = torch.prim.ListConstruct %a, %b, %c : (!torch.vtensor<[2,1,3],si64>, !torch.vtensor<[2,1,5],si64>, !torch.vtensor<[2,1,2],si64>) -> !torch.list<vtensor>
  %0 = torch.aten.cat %list, %int-1 : !torch.list<vtensor>, !torch.int -> !torch.vtensor<[2,1,10],si64>
  return %0 : !torch.vtensor<[2,1,10],si64>
}

// -----

/// Two tensors are one concat; one tensor is no concat at all.

// CHECK-LABEL: func.func @cat_two_and_one
// CHECK-SAME: (%[[A:.*]]: tensor<2x3xf32>, %[[B:.*]]: tensor<2x4xf32>)
// CHECK-NEXT: %[[AB:.*]] = "mlc.concat"(%[[A]], %[[B]]) {axis = 1 : i64} : (tensor<2x3xf32>, tensor<2x4xf32>) -> tensor<2x7xf32>
// CHECK-NEXT: return %[[AB]], %[[A]] : tensor<2x7xf32>, tensor<2x3xf32>
func.func @cat_two_and_one(%a: !torch.vtensor<[2,3],f32>, %b: !torch.vtensor<[2,4],f32>) -> (!torch.vtensor<[2,7],f32>, !torch.vtensor<[2,3],f32>) {
  %int0 = torch.constant.int 0
  %int1 = torch.constant.int 1
  %two = torch.prim.ListConstruct %a, %b : (!torch.vtensor<[2,3],f32>, !torch.vtensor<[2,4],f32>) -> !torch.list<vtensor>
  %0 = torch.aten.cat %two, %int1 : !torch.list<vtensor>, !torch.int -> !torch.vtensor<[2,7],f32>
  %one = torch.prim.ListConstruct %a : (!torch.vtensor<[2,3],f32>) -> !torch.list<vtensor>
  %1 = torch.aten.cat %one, %int0 : !torch.list<vtensor>, !torch.int -> !torch.vtensor<[2,3],f32>
  return %0, %1 : !torch.vtensor<[2,7],f32>, !torch.vtensor<[2,3],f32>
}

// -----

/// As torch does, an empty 1-D tensor is skipped whatever the others' rank.

// CHECK-LABEL: func.func @cat_skips_empty_1d
// CHECK-SAME: (%[[A:.*]]: tensor<2x3xf32>, %{{.*}}: tensor<0xf32>, %[[B:.*]]: tensor<1x3xf32>)
// CHECK-NEXT: %[[AB:.*]] = "mlc.concat"(%[[A]], %[[B]]) {axis = 0 : i64} : (tensor<2x3xf32>, tensor<1x3xf32>) -> tensor<3x3xf32>
// CHECK-NEXT: return %[[AB]]
func.func @cat_skips_empty_1d(%a: !torch.vtensor<[2,3],f32>, %e: !torch.vtensor<[0],f32>, %b: !torch.vtensor<[1,3],f32>) -> !torch.vtensor<[3,3],f32> {
  %int0 = torch.constant.int 0
  %list = torch.prim.ListConstruct %a, %e, %b : (!torch.vtensor<[2,3],f32>, !torch.vtensor<[0],f32>, !torch.vtensor<[1,3],f32>) -> !torch.list<vtensor>
  %0 = torch.aten.cat %list, %int0 : !torch.list<vtensor>, !torch.int -> !torch.vtensor<[3,3],f32>
  return %0 : !torch.vtensor<[3,3],f32>
}
