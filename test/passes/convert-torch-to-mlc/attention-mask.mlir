// RUN: mlc-opt %s --pass-pipeline='builtin.module(torch-func-backend-type-conversion, mlc-convert-torch-to-mlc)' | FileCheck %s

/// Attention with a mask: a boolean mask becomes 0 / -inf added to the scores, and
/// a query whose every key is masked gets zero weights (torch's answer), not the
/// NaN of softmax over a row of -inf: the max of the mask's row is compared with -inf.

// CHECK-LABEL: func.func @main
// CHECK: %[[MASK:.*]] = "mlc.select"(%{{.*}}, %{{.*}}, %{{.*}}) : (tensor<1x1x4x6xi1>, tensor<f32>, tensor<f32>) -> tensor<1x1x4x6xf32>
// CHECK: %[[SCORES:.*]] = "mlc.add"(%{{.*}}, %[[MASK]])
// CHECK: %[[WEIGHTS:.*]] = "mlc.softmax"(%[[SCORES]]) {axis = -1 : i64}
// CHECK: %[[PEAK:.*]] = "mlc.reduce_max"(%[[MASK]]) {axes = array<i64: -1>, keepdim = true} : (tensor<1x1x4x6xf32>) -> tensor<1x1x4x1xf32>
// CHECK: %[[MASKED:.*]] = "mlc.compare"(%[[PEAK]], %{{.*}}) {predicate = "eq"}
// CHECK: %[[SAFE:.*]] = "mlc.select"(%[[MASKED]], %{{.*}}, %[[WEIGHTS]])
// CHECK: "mlc.matmul"(%{{.*}}, %{{.*}}) : (tensor<2x4x6xf32>, tensor<2x6x8xf32>)
func.func @main(%arg0: !torch.vtensor<[1,2,4,8],f32>, %arg1: !torch.vtensor<[1,2,6,8],f32>, %arg2: !torch.vtensor<[1,2,6,8],f32>, %arg3: !torch.vtensor<[1,1,4,6],i1>) -> !torch.vtensor<[1,2,4,8],f32> {
  %float0 = torch.constant.float 0.000000e+00
  %false = torch.constant.bool false
  %none = torch.constant.none
  %0 = torch.aten.scaled_dot_product_attention %arg0, %arg1, %arg2, %arg3, %float0, %false, %none, %false : !torch.vtensor<[1,2,4,8],f32>, !torch.vtensor<[1,2,6,8],f32>, !torch.vtensor<[1,2,6,8],f32>, !torch.vtensor<[1,1,4,6],i1>, !torch.float, !torch.bool, !torch.none, !torch.bool -> !torch.vtensor<[1,2,4,8],f32>
  return %0 : !torch.vtensor<[1,2,4,8],f32>
}

// Without a mask, no query can be fully masked: no reduce_max.
// CHECK-LABEL: func.func @unmasked
// CHECK-NOT: mlc.reduce_max
// CHECK: return
func.func @unmasked(%arg0: !torch.vtensor<[1,2,4,8],f32>) -> !torch.vtensor<[1,2,4,8],f32> {
  %float0 = torch.constant.float 0.000000e+00
  %false = torch.constant.bool false
  %none = torch.constant.none
  %0 = torch.aten.scaled_dot_product_attention %arg0, %arg0, %arg0, %none, %float0, %false, %none, %false : !torch.vtensor<[1,2,4,8],f32>, !torch.vtensor<[1,2,4,8],f32>, !torch.vtensor<[1,2,4,8],f32>, !torch.none, !torch.float, !torch.bool, !torch.none, !torch.bool -> !torch.vtensor<[1,2,4,8],f32>
  return %0 : !torch.vtensor<[1,2,4,8],f32>
}
