// RUN: mlc-opt %s --split-input-file --pass-pipeline='builtin.module(torch-func-backend-type-conversion, mlc-convert-torch-to-mlc, func.func(torch-finalizing-backend-type-conversion))' | FileCheck %s

/// Whole-tensor, logical and composed reductions (logsumexp, norms) become reduce_* ops with elementwise ones.

// CHECK-LABEL: func.func @sum_all
// CHECK: "mlc.reduce_sum"(%arg0) {axes = array<i64: 0, 1, 2>, keepdim = false} : (tensor<3x5x4xf32>) -> tensor<f32>
func.func @sum_all(%arg0: !torch.vtensor<[3,5,4],f32>) -> !torch.vtensor<[],f32> {
  %none = torch.constant.none
  %0 = torch.aten.sum %arg0, %none : !torch.vtensor<[3,5,4],f32>, !torch.none -> !torch.vtensor<[],f32>
  return %0 : !torch.vtensor<[],f32>
}

// -----

// CHECK-LABEL: func.func @prod_keepdim
// CHECK: "mlc.reduce_prod"(%arg0) {axes = array<i64: 2>, keepdim = true} : (tensor<3x5x4xf32>) -> tensor<3x5x1xf32>
func.func @prod_keepdim(%arg0: !torch.vtensor<[3,5,4],f32>) -> !torch.vtensor<[3,5,1],f32> {
  %int-1 = torch.constant.int -1
  %true = torch.constant.bool true
  %none = torch.constant.none
  %0 = torch.aten.prod.dim_int %arg0, %int-1, %true, %none : !torch.vtensor<[3,5,4],f32>, !torch.int, !torch.bool, !torch.none -> !torch.vtensor<[3,5,1],f32>
  return %0 : !torch.vtensor<[3,5,1],f32>
}

// -----

// CHECK-LABEL: func.func @logsumexp
// CHECK: %[[PEAK:.*]] = "mlc.reduce_max"(%arg0) {axes = array<i64: 1>, keepdim = true}
// CHECK: %[[SAFE:.*]] = "mlc.select"(%{{.*}}, %{{.*}}, %[[PEAK]])
// CHECK: %[[SHIFTED:.*]] = "mlc.sub"(%arg0, %[[SAFE]])
// CHECK: %[[EXP:.*]] = "mlc.exp"(%[[SHIFTED]])
// CHECK: %[[SUM:.*]] = "mlc.reduce_sum"(%[[EXP]]) {axes = array<i64: 1>, keepdim = false}
// CHECK: %[[FLAT_PEAK:.*]] = "mlc.reshape"(%[[SAFE]])
// CHECK: %[[LOG:.*]] = "mlc.log"(%[[SUM]])
// CHECK: "mlc.add"(%[[LOG]], %[[FLAT_PEAK]])
func.func @logsumexp(%arg0: !torch.vtensor<[3,5,4],f32>) -> !torch.vtensor<[3,4],f32> {
  %false = torch.constant.bool false
  %int1 = torch.constant.int 1
  %0 = torch.prim.ListConstruct %int1 : (!torch.int) -> !torch.list<int>
  %1 = torch.aten.logsumexp %arg0, %0, %false : !torch.vtensor<[3,5,4],f32>, !torch.list<int>, !torch.bool -> !torch.vtensor<[3,4],f32>
  return %1 : !torch.vtensor<[3,4],f32>
}

// -----

// CHECK-LABEL: func.func @norm_1
// CHECK: %[[ABS:.*]] = "mlc.abs"(%arg0)
// CHECK: "mlc.reduce_sum"(%[[ABS]]) {axes = array<i64: 1>, keepdim = true}
func.func @norm_1(%arg0: !torch.vtensor<[3,5,4],f32>) -> !torch.vtensor<[3,1,4],f32> {
  %none = torch.constant.none
  %true = torch.constant.bool true
  %int1 = torch.constant.int 1
  %0 = torch.prim.ListConstruct %int1 : (!torch.int) -> !torch.list<int>
  %1 = torch.aten.linalg_vector_norm %arg0, %int1, %0, %true, %none : !torch.vtensor<[3,5,4],f32>, !torch.int, !torch.list<int>, !torch.bool, !torch.none -> !torch.vtensor<[3,1,4],f32>
  return %1 : !torch.vtensor<[3,1,4],f32>
}

// -----

// CHECK-LABEL: func.func @any_dim
// CHECK: "mlc.reduce_max"(%arg0) {axes = array<i64: 1>, keepdim = false} : (tensor<3x5xi1>) -> tensor<3xi1>
func.func @any_dim(%arg0: !torch.vtensor<[3,5],i1>) -> !torch.vtensor<[3],i1> {
  %int1 = torch.constant.int 1
  %false = torch.constant.bool false
  %0 = torch.aten.any.dim %arg0, %int1, %false : !torch.vtensor<[3,5],i1>, !torch.int, !torch.bool -> !torch.vtensor<[3],i1>
  return %0 : !torch.vtensor<[3],i1>
}
