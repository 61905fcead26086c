// RUN: mlc-opt %s --split-input-file --pass-pipeline='builtin.module(torch-func-backend-type-conversion, mlc-convert-torch-to-mlc, func.func(torch-finalizing-backend-type-conversion))' | FileCheck %s

/// torch.norm's p-norm (torch.dist is norm(x - y, p)) as linalg_vector_norm's:
/// sum(|x|^p)^(1/p) over every dim, or over `dim` (norm.ScalarOpt_dim).

// CHECK-LABEL: func.func @norm_p3
// CHECK-SAME: (%[[X:.*]]: tensor<2x3xf32>)
// CHECK: %[[ABS:.*]] = "mlc.abs"(%[[X]])
// CHECK: %[[POW:.*]] = "mlc.pow"(%[[ABS]], %{{.*}}) : (tensor<2x3xf32>, tensor<f32>) -> tensor<2x3xf32>
// CHECK: %[[SUM:.*]] = "mlc.reduce_sum"(%[[POW]]) {axes = array<i64: 0, 1>, keepdim = false} : (tensor<2x3xf32>) -> tensor<f32>
// CHECK: %[[ROOT:.*]] = "mlc.pow"(%[[SUM]], %{{.*}}) : (tensor<f32>, tensor<f32>) -> tensor<f32>
// CHECK: return %[[ROOT]]
// CHECK-NOT: torch.aten
func.func @norm_p3(%arg0: !torch.vtensor<[2,3],f32>) -> !torch.vtensor<[],f32> {
  %int3 = torch.constant.int 3
  %0 = torch.aten.norm.Scalar %arg0, %int3 : !torch.vtensor<[2,3],f32>, !torch.int -> !torch.vtensor<[],f32>
  return %0 : !torch.vtensor<[],f32>
}

// -----

// CHECK-LABEL: func.func @norm_dim_keepdim_p2
// CHECK-SAME: (%[[X:.*]]: tensor<2x3xf32>)
// CHECK: %[[SQ:.*]] = "mlc.mul"(%[[X]], %[[X]])
// CHECK: %[[SUM:.*]] = "mlc.reduce_sum"(%[[SQ]]) {axes = array<i64: 1>, keepdim = true} : (tensor<2x3xf32>) -> tensor<2x1xf32>
// CHECK: "mlc.sqrt"(%[[SUM]])
// CHECK-NOT: torch.aten
func.func @norm_dim_keepdim_p2(%arg0: !torch.vtensor<[2,3],f32>) -> !torch.vtensor<[2,1],f32> {
  %int1 = torch.constant.int 1
  %true = torch.constant.bool true
  %none = torch.constant.none
  %dims = torch.prim.ListConstruct %int1 : (!torch.int) -> !torch.list<int>
  %0 = torch.aten.norm.ScalarOpt_dim %arg0, %none, %dims, %true : !torch.vtensor<[2,3],f32>, !torch.none, !torch.list<int>, !torch.bool -> !torch.vtensor<[2,1],f32>
  return %0 : !torch.vtensor<[2,1],f32>
}
