// RUN: mlc-opt %s --split-input-file --pass-pipeline='builtin.module(torch-func-backend-type-conversion, mlc-convert-torch-to-mlc, func.func(torch-finalizing-backend-type-conversion))' | FileCheck %s

/// index_put: the (wrapped) index tensor becomes the [N, 1] positions of one mlc.scatter.

// CHECK-LABEL: func.func @index_put_accumulate
// CHECK-SAME: (%[[X:.*]]: tensor<4x5xf32>, %[[I:.*]]: tensor<3xi64>, %[[V:.*]]: tensor<3x5xf32>)
// CHECK: %[[WRAPPED:.*]] = "mlc.select"
// CHECK: %[[POS:.*]] = "mlc.reshape"(%[[WRAPPED]]) : (tensor<3xi64>) -> tensor<3x1xi64>
// CHECK: %[[S:.*]] = "mlc.scatter"(%[[X]], %[[POS]], %[[V]]) {combine = "add"} : (tensor<4x5xf32>, tensor<3x1xi64>, tensor<3x5xf32>) -> tensor<4x5xf32>
// CHECK: return %[[S]]
// CHECK-NOT: torch.aten
func.func @index_put_accumulate(%arg0: !torch.vtensor<[4,5],f32>, %arg1: !torch.vtensor<[3],si64>, %arg2: !torch.vtensor<[3,5],f32>) -> !torch.vtensor<[4,5],f32> {
  %true = torch.constant.bool true
  %0 = torch.prim.ListConstruct %arg1 : (!torch.vtensor<[3],si64>) -> !torch.list<vtensor>
  %1 = torch.aten.index_put.hacked_twin %arg0, %0, %arg2, %true : !torch.vtensor<[4,5],f32>, !torch.list<vtensor>, !torch.vtensor<[3,5],f32>, !torch.bool -> !torch.vtensor<[4,5],f32>
  return %1 : !torch.vtensor<[4,5],f32>
}

// -----

/// scatter_reduce along dim 1: the row coordinates are a constant column, the
/// index the other; without include_self the written positions first become -inf.

// CHECK-LABEL: func.func @scatter_reduce_amax_without_self
// CHECK-SAME: (%[[X:.*]]: tensor<3x5xf32>, %[[I:.*]]: tensor<3x2xi64>, %[[U:.*]]: tensor<3x2xf32>)
// CHECK-DAG: %[[ROWS:.*]] = "mlc.constant"() {value = dense<{{\[\[}}0], [0], [1], [1], [2], [2]]> : tensor<6x1xi64>}
// CHECK-DAG: %[[COLS:.*]] = "mlc.reshape"(%[[I]]) : (tensor<3x2xi64>) -> tensor<6x1xi64>
// CHECK-DAG: %[[POS:.*]] = "mlc.concat"(%[[ROWS]], %[[COLS]]) {axis = 1 : i64} : (tensor<6x1xi64>, tensor<6x1xi64>) -> tensor<6x2xi64>
// CHECK-DAG: %[[UPDATES:.*]] = "mlc.reshape"(%[[U]]) : (tensor<3x2xf32>) -> tensor<6xf32>
// CHECK-DAG: %[[NEG_INF:.*]] = "mlc.constant"() {value = dense<0xFF800000> : tensor<6xf32>}
// CHECK: %[[RESET:.*]] = "mlc.scatter"(%[[X]], %[[POS]], %[[NEG_INF]]) {combine = "replace"}
// CHECK: %[[S:.*]] = "mlc.scatter"(%[[RESET]], %[[POS]], %[[UPDATES]]) {combine = "max"}
// CHECK: return %[[S]]
func.func @scatter_reduce_amax_without_self(%arg0: !torch.vtensor<[3,5],f32>, %arg1: !torch.vtensor<[3,2],si64>, %arg2: !torch.vtensor<[3,2],f32>) -> !torch.vtensor<[3,5],f32> {
  %int1 = torch.constant.int 1
  %false = torch.constant.bool false
  %str = torch.constant.str "amax"
  %0 = torch.aten.scatter_reduce.two %arg0, %int1, %arg1, %arg2, %str, %false : !torch.vtensor<[3,5],f32>, !torch.int, !torch.vtensor<[3,2],si64>, !torch.vtensor<[3,2],f32>, !torch.str, !torch.bool -> !torch.vtensor<[3,5],f32>
  return %0 : !torch.vtensor<[3,5],f32>
}

// -----

/// scatter_add: a src larger than the index is sliced to it.

// CHECK-LABEL: func.func @scatter_add_larger_src
// CHECK: %[[SRC:.*]] = "mlc.slice"(%{{.*}}) {limit = array<i64: 1, 2>, start = array<i64: 0, 0>, stride = array<i64: 1, 1>} : (tensor<3x4xf32>) -> tensor<1x2xf32>
// CHECK: %[[UPDATES:.*]] = "mlc.reshape"(%[[SRC]]) : (tensor<1x2xf32>) -> tensor<2xf32>
// CHECK: "mlc.scatter"(%{{.*}}, %{{.*}}, %[[UPDATES]]) {combine = "add"} : (tensor<3x5xf32>, tensor<2x2xi64>, tensor<2xf32>) -> tensor<3x5xf32>
func.func @scatter_add_larger_src(%arg0: !torch.vtensor<[3,5],f32>, %arg1: !torch.vtensor<[1,2],si64>, %arg2: !torch.vtensor<[3,4],f32>) -> !torch.vtensor<[3,5],f32> {
  %int0 = torch.constant.int 0
  %0 = torch.aten.scatter_add %arg0, %int0, %arg1, %arg2 : !torch.vtensor<[3,5],f32>, !torch.int, !torch.vtensor<[1,2],si64>, !torch.vtensor<[3,4],f32> -> !torch.vtensor<[3,5],f32>
  return %0 : !torch.vtensor<[3,5],f32>
}
