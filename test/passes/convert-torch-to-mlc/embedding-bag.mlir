// RUN: mlc-opt %s --split-input-file --pass-pipeline='builtin.module(torch-func-backend-type-conversion, mlc-convert-torch-to-mlc, func.func(torch-finalizing-backend-type-conversion))' | FileCheck %s

/// embedding_bag: the rows gathered (and scaled by per_sample_weights), a (bags,
/// indices) mask from the run-time offsets, and a masked reduction per bag.

// CHECK-LABEL: func.func @sum_per_sample_weights
// CHECK-SAME: (%[[W:.*]]: tensor<10x3xf32>, %[[I:.*]]: tensor<5xi64>, %[[O:.*]]: tensor<3xi64>, %[[P:.*]]: tensor<5xf32>)
// CHECK-DAG: %[[ROWS:.*]] = "mlc.gather"(%[[W]], %[[I]]) {axis = 0 : i64} : (tensor<10x3xf32>, tensor<5xi64>) -> tensor<5x3xf32>
// CHECK-DAG: %[[PW:.*]] = "mlc.reshape"(%[[P]]) : (tensor<5xf32>) -> tensor<5x1xf32>
// CHECK-DAG: %[[SCALED:.*]] = "mlc.mul"(%[[ROWS]], %[[PW]])
// CHECK-DAG: %[[NEXT:.*]] = "mlc.slice"(%[[O]]) {limit = array<i64: 3>, start = array<i64: 1>, stride = array<i64: 1>}
// CHECK-DAG: %[[COUNT:.*]] = "mlc.constant"() {value = dense<5> : tensor<1xi64>}
// CHECK-DAG: %[[ENDS:.*]] = "mlc.concat"(%[[NEXT]], %[[COUNT]]) {axis = 0 : i64} : (tensor<2xi64>, tensor<1xi64>) -> tensor<3xi64>
// CHECK-DAG: %[[POS:.*]] = "mlc.constant"() {value = dense<{{\[\[}}0, 1, 2, 3, 4]]> : tensor<1x5xi64>}
// CHECK-DAG: "mlc.compare"(%[[POS]], %{{.*}}) {predicate = "ge"} : (tensor<1x5xi64>, tensor<3x1xi64>) -> tensor<3x5xi1>
// CHECK-DAG: "mlc.compare"(%[[POS]], %{{.*}}) {predicate = "lt"} : (tensor<1x5xi64>, tensor<3x1xi64>) -> tensor<3x5xi1>
// CHECK: %[[PICKED:.*]] = "mlc.select"(%{{.*}}, %{{.*}}, %{{.*}}) : (tensor<3x5x1xi1>, tensor<1x5x3xf32>, tensor<f32>) -> tensor<3x5x3xf32>
// CHECK: %[[SUM:.*]] = "mlc.reduce_sum"(%[[PICKED]]) {axes = array<i64: 1>, keepdim = false} : (tensor<3x5x3xf32>) -> tensor<3x3xf32>
// CHECK: return %[[SUM]]
// CHECK-NOT: torch.aten
func.func @sum_per_sample_weights(%arg0: !torch.vtensor<[10,3],f32>, %arg1: !torch.vtensor<[5],si64>, %arg2: !torch.vtensor<[3],si64>, %arg3: !torch.vtensor<[5],f32>) -> !torch.vtensor<[3,3],f32> {
  %false = torch.constant.bool false
  %int0 = torch.constant.int 0
  %none = torch.constant.none
  %result0, %result1, %result2, %result3 = torch.aten.embedding_bag.padding_idx %arg0, %arg1, %arg2, %false, %int0, %false, %arg3, %false, %none : !torch.vtensor<[10,3],f32>, !torch.vtensor<[5],si64>, !torch.vtensor<[3],si64>, !torch.bool, !torch.int, !torch.bool, !torch.vtensor<[5],f32>, !torch.bool, !torch.none -> !torch.vtensor<[3,3],f32>, !torch.vtensor<[0],si64>, !torch.vtensor<[3],si64>, !torch.vtensor<[3],si64>
  return %result0 : !torch.vtensor<[3,3],f32>
}

// -----

/// mode max (2) with include_last_offset: the bags end at the next offset; padding_idx
/// leaves its positions out of every bag, and an empty bag is 0.

// CHECK-LABEL: func.func @max_padding_last_offset
// CHECK-SAME: (%[[W:.*]]: tensor<10x3xf32>, %[[I:.*]]: tensor<5xi64>, %[[O:.*]]: tensor<3xi64>)
// CHECK-DAG: "mlc.slice"(%[[O]]) {limit = array<i64: 2>, start = array<i64: 0>, stride = array<i64: 1>} : (tensor<3xi64>) -> tensor<2xi64>
// CHECK-DAG: "mlc.slice"(%[[O]]) {limit = array<i64: 3>, start = array<i64: 1>, stride = array<i64: 1>} : (tensor<3xi64>) -> tensor<2xi64>
// CHECK-DAG: %[[PAD:.*]] = "mlc.constant"() {value = dense<1> : tensor<i64>}
// CHECK-DAG: "mlc.compare"(%{{.*}}, %[[PAD]]) {predicate = "ne"} : (tensor<1x5xi64>, tensor<i64>) -> tensor<1x5xi1>
// CHECK-DAG: %[[NEG_INF:.*]] = "mlc.constant"() {value = dense<0xFF800000> : tensor<f32>}
// CHECK: %[[PICKED:.*]] = "mlc.select"(%[[MASK:.*]], %{{.*}}, %[[NEG_INF]]) : (tensor<2x5x1xi1>, tensor<1x5x3xf32>, tensor<f32>) -> tensor<2x5x3xf32>
// CHECK: %[[MAX:.*]] = "mlc.reduce_max"(%[[PICKED]]) {axes = array<i64: 1>, keepdim = false} : (tensor<2x5x3xf32>) -> tensor<2x3xf32>
// CHECK: %[[ROWS:.*]] = "mlc.reduce_max"(%{{.*}}) {axes = array<i64: 1>, keepdim = false} : (tensor<2x5x1xf32>) -> tensor<2x1xf32>
// CHECK: %[[NONEMPTY:.*]] = "mlc.compare"(%[[ROWS]], %{{.*}}) {predicate = "gt"}
// CHECK: "mlc.select"(%[[NONEMPTY]], %[[MAX]], %{{.*}}) : (tensor<2x1xi1>, tensor<2x3xf32>, tensor<f32>) -> tensor<2x3xf32>
// CHECK-NOT: torch.aten
func.func @max_padding_last_offset(%arg0: !torch.vtensor<[10,3],f32>, %arg1: !torch.vtensor<[5],si64>, %arg2: !torch.vtensor<[3],si64>) -> !torch.vtensor<[2,3],f32> {
  %false = torch.constant.bool false
  %int2 = torch.constant.int 2
  %none = torch.constant.none
  %true = torch.constant.bool true
  %int1 = torch.constant.int 1
  %result0, %result1, %result2, %result3 = torch.aten.embedding_bag.padding_idx %arg0, %arg1, %arg2, %false, %int2, %false, %none, %true, %int1 : !torch.vtensor<[10,3],f32>, !torch.vtensor<[5],si64>, !torch.vtensor<[3],si64>, !torch.bool, !torch.int, !torch.bool, !torch.none, !torch.bool, !torch.int -> !torch.vtensor<[2,3],f32>, !torch.vtensor<[5],si64>, !torch.vtensor<[3],si64>, !torch.vtensor<[2,3],si64>
  return %result0 : !torch.vtensor<[2,3],f32>
}

// -----

/// mode mean (1): the masked sum over the number of rows in the bag, at least 1.

// CHECK-LABEL: func.func @mean
// CHECK: %[[SUM:.*]] = "mlc.reduce_sum"(%{{.*}}) {axes = array<i64: 1>, keepdim = false} : (tensor<3x5x3xf32>) -> tensor<3x3xf32>
// CHECK: %[[SIZES:.*]] = "mlc.reduce_sum"(%{{.*}}) {axes = array<i64: 1>, keepdim = false} : (tensor<3x5x1xf32>) -> tensor<3x1xf32>
// CHECK: %[[AT_LEAST_ONE:.*]] = "mlc.maximum"(%[[SIZES]], %{{.*}})
// CHECK: "mlc.div"(%[[SUM]], %[[AT_LEAST_ONE]]) : (tensor<3x3xf32>, tensor<3x1xf32>) -> tensor<3x3xf32>
func.func @mean(%arg0: !torch.vtensor<[10,3],f32>, %arg1: !torch.vtensor<[5],si64>, %arg2: !torch.vtensor<[3],si64>) -> !torch.vtensor<[3,3],f32> {
  %false = torch.constant.bool false
  %int1 = torch.constant.int 1
  %none = torch.constant.none
  %result0, %result1, %result2, %result3 = torch.aten.embedding_bag.padding_idx %arg0, %arg1, %arg2, %false, %int1, %false, %none, %false, %none : !torch.vtensor<[10,3],f32>, !torch.vtensor<[5],si64>, !torch.vtensor<[3],si64>, !torch.bool, !torch.int, !torch.bool, !torch.none, !torch.bool, !torch.none -> !torch.vtensor<[3,3],f32>, !torch.vtensor<[5],si64>, !torch.vtensor<[3],si64>, !torch.vtensor<[3],si64>
  return %result0 : !torch.vtensor<[3,3],f32>
}

// -----

/// A 2-D input (F.embedding_bag's offsets are arange(0, 6, 3)): the bags are the rows
/// of a (2, 3) view, reduced without a (bags, indices) mask; padding_idx 0 is masked per position.

// CHECK-LABEL: func.func @two_d_input_mean
// CHECK-SAME: (%[[W:.*]]: tensor<10x3xf32>, %[[I:.*]]: tensor<2x3xi64>)
// CHECK-NOT: "mlc.slice"
// CHECK: %[[FLAT:.*]] = "mlc.reshape"(%[[I]]) : (tensor<2x3xi64>) -> tensor<6xi64>
// CHECK: %[[ROWS:.*]] = "mlc.gather"(%[[W]], %[[FLAT]]) {axis = 0 : i64} : (tensor<10x3xf32>, tensor<6xi64>) -> tensor<6x3xf32>
// CHECK: %[[BAGGED:.*]] = "mlc.reshape"(%[[FLAT]]) : (tensor<6xi64>) -> tensor<2x3x1xi64>
// CHECK: %[[KEPT:.*]] = "mlc.compare"(%[[BAGGED]], %{{.*}}) {predicate = "ne"} : (tensor<2x3x1xi64>, tensor<i64>) -> tensor<2x3x1xi1>
// CHECK: %[[VIEW:.*]] = "mlc.reshape"(%[[ROWS]]) : (tensor<6x3xf32>) -> tensor<2x3x3xf32>
// CHECK: %[[PICKED:.*]] = "mlc.select"(%[[KEPT]], %[[VIEW]], %{{.*}}) : (tensor<2x3x1xi1>, tensor<2x3x3xf32>, tensor<f32>) -> tensor<2x3x3xf32>
// CHECK: %[[SUM:.*]] = "mlc.reduce_sum"(%[[PICKED]]) {axes = array<i64: 1>, keepdim = false} : (tensor<2x3x3xf32>) -> tensor<2x3xf32>
// CHECK: "mlc.div"(%[[SUM]], %{{.*}}) : (tensor<2x3xf32>, tensor<2x1xf32>) -> tensor<2x3xf32>
func.func @two_d_input_mean(%arg0: !torch.vtensor<[10,3],f32>, %arg1: !torch.vtensor<[2,3],si64>) -> !torch.vtensor<[2,3],f32> {
  %int1 = torch.constant.int 1
  %int-1 = torch.constant.int -1
  %false = torch.constant.bool false
  %int0 = torch.constant.int 0
  %int6 = torch.constant.int 6
  %int3 = torch.constant.int 3
  %int4 = torch.constant.int 4
  %none = torch.constant.none
  %cpu = torch.constant.device "cpu"
  %0 = torch.aten.arange.start_step %int0, %int6, %int3, %int4, %none, %cpu, %false : !torch.int, !torch.int, !torch.int, !torch.int, !torch.none, !torch.Device, !torch.bool -> !torch.vtensor<[2],si64>
  %1 = torch.prim.ListConstruct %int-1 : (!torch.int) -> !torch.list<int>
  %2 = torch.aten.view %arg1, %1 : !torch.vtensor<[2,3],si64>, !torch.list<int> -> !torch.vtensor<[6],si64>
  %result0, %result1, %result2, %result3 = torch.aten.embedding_bag.padding_idx %arg0, %2, %0, %false, %int1, %false, %none, %false, %int0 : !torch.vtensor<[10,3],f32>, !torch.vtensor<[6],si64>, !torch.vtensor<[2],si64>, !torch.bool, !torch.int, !torch.bool, !torch.none, !torch.bool, !torch.int -> !torch.vtensor<[2,3],f32>, !torch.vtensor<[6],si64>, !torch.vtensor<[2],si64>, !torch.vtensor<[2],si64>
  return %result0 : !torch.vtensor<[2,3],f32>
}
