// RUN: mlc-opt %s --pass-pipeline='builtin.module(torch-func-backend-type-conversion, mlc-convert-torch-to-mlc)' | FileCheck %s

/// Attention with a mask: a boolean mask becomes 0 / -inf added to the scores, and
/// a query whose every key is masked gets zero weights (torch's answer), not the
/// NaN of softmax over a row of -inf: the weights are 0 where the scores are -inf.

// CHECK-LABEL: func.func @main
// CHECK: %[[MASK:.*]] = "mlc.select"(%{{.*}}, %{{.*}}, %{{.*}}) : (tensor<1x1x4x6xi1>, tensor<f32>, tensor<f32>) -> tensor<1x1x4x6xf32>
// CHECK: %[[SCORES:.*]] = "mlc.add"(%{{.*}}, %[[MASK]])
// CHECK: %[[WEIGHTS:.*]] = "mlc.softmax"(%[[SCORES]]) {axis = -1 : i64}
// CHECK: %[[MINUS_INF:.*]] = "mlc.compare"(%[[SCORES]], %{{.*}}) {predicate = "eq"} : (tensor<1x2x4x6xf32>, tensor<f32>) -> tensor<1x2x4x6xi1>
// CHECK: %[[SAFE:.*]] = "mlc.select"(%[[MINUS_INF]], %{{.*}}, %[[WEIGHTS]])
// CHECK: "mlc.matmul"(%{{.*}}, %{{.*}}) : (tensor<2x4x6xf32>, tensor<2x6x8xf32>)
func.func @main(%arg0: !torch.vtensor<[1,2,4,8],f32>, %arg1: !torch.vtensor<[1,2,6,8],f32>, %arg2: !torch.vtensor<[1,2,6,8],f32>, %arg3: !torch.vtensor<[1,1,4,6],i1>) -> !torch.vtensor<[1,2,4,8],f32> {
  %float0 = torch.constant.float 0.000000e+00
  %false = torch.constant.bool false
  %none = torch.constant.none
  %0 = torch.aten.scaled_dot_product_attention %arg0, %arg1, %arg2, %arg3, %float0, %false, %none, %false : !torch.vtensor<[1,2,4,8],f32>, !torch.vtensor<[1,2,6,8],f32>, !torch.vtensor<[1,2,6,8],f32>, !torch.vtensor<[1,1,4,6],i1>, !torch.float, !torch.bool, !torch.none, !torch.bool -> !torch.vtensor<[1,2,4,8],f32>
  return %0 : !torch.vtensor<[1,2,4,8],f32>
}

// Without a mask the scores may still be -inf (an overflow): the same select, on the
// scaled scores.
// CHECK-LABEL: func.func @unmasked
// CHECK: %[[SCORES:.*]] = "mlc.mul"
// CHECK: %[[WEIGHTS:.*]] = "mlc.softmax"(%[[SCORES]]) {axis = -1 : i64}
// CHECK: %[[MINUS_INF:.*]] = "mlc.compare"(%[[SCORES]], %{{.*}}) {predicate = "eq"}
// CHECK: "mlc.select"(%[[MINUS_INF]], %{{.*}}, %[[WEIGHTS]])
// CHECK-NOT: mlc.reduce_max
// CHECK: return
func.func @unmasked(%arg0: !torch.vtensor<[1,2,4,8],f32>) -> !torch.vtensor<[1,2,4,8],f32> {
  %float0 = torch.constant.float 0.000000e+00
  %false = torch.constant.bool false
  %none = torch.constant.none
  %0 = torch.aten.scaled_dot_product_attention %arg0, %arg0, %arg0, %none, %float0, %false, %none, %false : !torch.vtensor<[1,2,4,8],f32>, !torch.vtensor<[1,2,4,8],f32>, !torch.vtensor<[1,2,4,8],f32>, !torch.none, !torch.float, !torch.bool, !torch.none, !torch.bool -> !torch.vtensor<[1,2,4,8],f32>
  return %0 : !torch.vtensor<[1,2,4,8],f32>
}
