// RUN: mlc-opt %s --split-input-file --pass-pipeline='builtin.module(torch-func-backend-type-conversion, mlc-convert-torch-to-mlc, func.func(torch-finalizing-backend-type-conversion))' | FileCheck %s

/// max/min along a dim, argmax, sort, advanced indexing, flip and tril become argmax/argsort and gathers or selects.

// CHECK-LABEL: func.func @max_dim
// CHECK: %[[V:.*]] = "mlc.reduce_max"(%arg0) {axes = array<i64: 1>, keepdim = false}
// CHECK: %[[I:.*]] = "mlc.argmax"(%arg0) {axis = 1 : i64, keepdim = false} : (tensor<3x5x4xf32>) -> tensor<3x4xi64>
// CHECK: return %[[V]], %[[I]]
func.func @max_dim(%arg0: !torch.vtensor<[3,5,4],f32>) -> (!torch.vtensor<[3,4],f32>, !torch.vtensor<[3,4],si64>) {
  %int1 = torch.constant.int 1
  %false = torch.constant.bool false
  %values, %indices = torch.aten.max.dim %arg0, %int1, %false : !torch.vtensor<[3,5,4],f32>, !torch.int, !torch.bool -> !torch.vtensor<[3,4],f32>, !torch.vtensor<[3,4],si64>
  return %values, %indices : !torch.vtensor<[3,4],f32>, !torch.vtensor<[3,4],si64>
}

// -----

// CHECK-LABEL: func.func @argmax_flat
// CHECK: %[[FLAT:.*]] = "mlc.reshape"(%arg0) : (tensor<3x5x4xf32>) -> tensor<60xf32>
// CHECK: "mlc.argmax"(%[[FLAT]]) {axis = 0 : i64, keepdim = false} : (tensor<60xf32>) -> tensor<i64>
func.func @argmax_flat(%arg0: !torch.vtensor<[3,5,4],f32>) -> !torch.vtensor<[],si64> {
  %int0 = torch.constant.int 0
  %false = torch.constant.bool false
  %int2 = torch.constant.int 2
  %0 = torch.aten.flatten.using_ints %arg0, %int0, %int2 : !torch.vtensor<[3,5,4],f32>, !torch.int, !torch.int -> !torch.vtensor<[60],f32>
  %values, %indices = torch.aten.max.dim %0, %int0, %false : !torch.vtensor<[60],f32>, !torch.int, !torch.bool -> !torch.vtensor<[],f32>, !torch.vtensor<[],si64>
  return %indices : !torch.vtensor<[],si64>
}

// -----

// CHECK-LABEL: func.func @index_tensor_two
// CHECK: %[[NEG0:.*]] = "mlc.compare"(%arg1, %{{.*}}) {predicate = "lt"}
// CHECK: %[[I0:.*]] = "mlc.select"(%[[NEG0]], %{{.*}}, %arg1)
// CHECK: %[[ROW:.*]] = "mlc.mul"(%[[I0]], %{{.*}})
// CHECK: %[[I1:.*]] = "mlc.select"(%{{.*}}, %{{.*}}, %arg2)
// CHECK: %[[LINEAR:.*]] = "mlc.add"(%[[ROW]], %[[I1]])
// CHECK: %[[FLAT:.*]] = "mlc.reshape"(%arg0) : (tensor<4x5xf32>) -> tensor<20xf32>
// CHECK: "mlc.gather"(%[[FLAT]], %[[LINEAR]]) {axis = 0 : i64} : (tensor<20xf32>, tensor<3xi64>) -> tensor<3xf32>
func.func @index_tensor_two(%arg0: !torch.vtensor<[4,5],f32>, %arg1: !torch.vtensor<[3],si64>, %arg2: !torch.vtensor<[3],si64>) -> !torch.vtensor<[3],f32> {
  %0 = torch.prim.ListConstruct %arg1, %arg2 : (!torch.vtensor<[3],si64>, !torch.vtensor<[3],si64>) -> !torch.list<vtensor>
  %1 = torch.aten.index.Tensor_hacked_twin %arg0, %0 : !torch.vtensor<[4,5],f32>, !torch.list<vtensor> -> !torch.vtensor<[3],f32>
  return %1 : !torch.vtensor<[3],f32>
}

// -----

// CHECK-LABEL: func.func @flip
// CHECK: %[[R0:.*]] = "mlc.constant"() {value = dense<[1, 0]> : tensor<2xi32>}
// CHECK: %[[G0:.*]] = "mlc.gather"(%arg0, %[[R0]]) {axis = 0 : i64}
// CHECK: %[[R2:.*]] = "mlc.constant"() {value = dense<[3, 2, 1, 0]> : tensor<4xi32>}
// CHECK: "mlc.gather"(%[[G0]], %[[R2]]) {axis = 2 : i64}
func.func @flip(%arg0: !torch.vtensor<[2,3,4],f32>) -> !torch.vtensor<[2,3,4],f32> {
  %int0 = torch.constant.int 0
  %int2 = torch.constant.int 2
  %0 = torch.prim.ListConstruct %int0, %int2 : (!torch.int, !torch.int) -> !torch.list<int>
  %1 = torch.aten.flip %arg0, %0 : !torch.vtensor<[2,3,4],f32>, !torch.list<int> -> !torch.vtensor<[2,3,4],f32>
  return %1 : !torch.vtensor<[2,3,4],f32>
}

// -----

// CHECK-LABEL: func.func @tril
// CHECK: %[[MASK:.*]] = "mlc.constant"() {value = dense<{{\[\[}}true, false, false, false, false], [true, true, false
// CHECK: "mlc.select"(%[[MASK]], %arg0, %{{.*}}) : (tensor<4x5xi1>, tensor<4x5xf32>, tensor<f32>) -> tensor<4x5xf32>
func.func @tril(%arg0: !torch.vtensor<[4,5],f32>) -> !torch.vtensor<[4,5],f32> {
  %int0 = torch.constant.int 0
  %0 = torch.aten.tril %arg0, %int0 : !torch.vtensor<[4,5],f32>, !torch.int -> !torch.vtensor<[4,5],f32>
  return %0 : !torch.vtensor<[4,5],f32>
}

// -----

// CHECK-LABEL: func.func @sort
// CHECK: %[[I:.*]] = "mlc.argsort"(%arg0) {axis = 1 : i64, descending = false} : (tensor<3x6xf32>) -> tensor<3x6xi64>
// CHECK: %[[V:.*]] = "mlc.take_along_axis"(%arg0, %[[I]]) {axis = 1 : i64}
// CHECK: return %[[V]], %[[I]]
func.func @sort(%arg0: !torch.vtensor<[3,6],f32>) -> (!torch.vtensor<[3,6],f32>, !torch.vtensor<[3,6],si64>) {
  %int1 = torch.constant.int 1
  %false = torch.constant.bool false
  %values, %indices = torch.aten.sort %arg0, %int1, %false : !torch.vtensor<[3,6],f32>, !torch.int, !torch.bool -> !torch.vtensor<[3,6],f32>, !torch.vtensor<[3,6],si64>
  return %values, %indices : !torch.vtensor<[3,6],f32>, !torch.vtensor<[3,6],si64>
}
