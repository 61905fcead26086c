// RUN: mlc-opt %s --split-input-file --pass-pipeline='builtin.module(torch-func-backend-type-conversion, mlc-convert-torch-to-mlc, func.func(torch-finalizing-backend-type-conversion))' | FileCheck %s

/// The variance in the input's type (torch-mlir's decomposition computes it in float64):
/// sum((x - mean)^2) / (n - correction). group_norm is a layer norm over each group
/// ([N, G, C/G x L]) and the per-channel affine.

// CHECK-LABEL: func.func @var_dim
// CHECK-SAME: (%[[X:.*]]: tensor<2x8x5xf32>)
// CHECK: %[[MEAN:.*]] = "mlc.reduce_mean"(%[[X]]) {axes = array<i64: 1>, keepdim = true} : (tensor<2x8x5xf32>) -> tensor<2x1x5xf32>
// CHECK: %[[CENTERED:.*]] = "mlc.sub"(%[[X]], %[[MEAN]])
// CHECK: %[[SQUARES:.*]] = "mlc.mul"(%[[CENTERED]], %[[CENTERED]])
// CHECK: %[[SUM:.*]] = "mlc.reduce_sum"(%[[SQUARES]]) {axes = array<i64: 1>, keepdim = false} : (tensor<2x8x5xf32>) -> tensor<2x5xf32>
// CHECK: %[[N:.*]] = "mlc.constant"() {value = dense<7.000000e+00> : tensor<f32>}
// CHECK: %[[VAR:.*]] = "mlc.div"(%[[SUM]], %[[N]])
// CHECK: return %[[VAR]]
// CHECK-NOT: f64
func.func @var_dim(%arg0: !torch.vtensor<[2,8,5],f32>) -> !torch.vtensor<[2,5],f32> {
  %int1 = torch.constant.int 1
  %true = torch.constant.bool true
  %false = torch.constant.bool false
  %0 = torch.prim.ListConstruct %int1 : (!torch.int) -> !torch.list<int>
  %1 = torch.aten.var.dim %arg0, %0, %true, %false : !torch.vtensor<[2,8,5],f32>, !torch.list<int>, !torch.bool, !torch.bool -> !torch.vtensor<[2,5],f32>
  return %1 : !torch.vtensor<[2,5],f32>
}

// -----

/// One value with correction 1: torch divides 0 by 0 (NaN), spelled out as a select.

// CHECK-LABEL: func.func @std_of_one_value
// CHECK: %[[ZERO:.*]] = "mlc.compare"
// CHECK: %[[NAN:.*]] = "mlc.constant"() {value = dense<0x7FC00000> : tensor<f32>}
// CHECK: %[[INF:.*]] = "mlc.constant"() {value = dense<0x7F800000> : tensor<f32>}
// CHECK: %[[VAR:.*]] = "mlc.select"(%[[ZERO]], %[[NAN]], %[[INF]])
// CHECK: "mlc.sqrt"(%[[VAR]])
func.func @std_of_one_value(%arg0: !torch.vtensor<[3,1],f32>) -> !torch.vtensor<[3],f32> {
  %int1 = torch.constant.int 1
  %none = torch.constant.none
  %false = torch.constant.bool false
  %0 = torch.prim.ListConstruct %int1 : (!torch.int) -> !torch.list<int>
  %1 = torch.aten.std.correction %arg0, %0, %none, %false : !torch.vtensor<[3,1],f32>, !torch.list<int>, !torch.none, !torch.bool -> !torch.vtensor<[3],f32>
  return %1 : !torch.vtensor<[3],f32>
}

// -----

// CHECK-LABEL: func.func @group_norm
// CHECK-SAME: (%[[X:.*]]: tensor<2x16x30xf32>, %[[W:.*]]: tensor<16xf32>, %[[B:.*]]: tensor<16xf32>)
// CHECK: %[[FLAT:.*]] = "mlc.reshape"(%[[X]]) : (tensor<2x16x30xf32>) -> tensor<2x480xf32>
// CHECK: %[[GROUPS:.*]] = "mlc.reshape"(%[[FLAT]]) : (tensor<2x480xf32>) -> tensor<2x4x120xf32>
// CHECK: %[[NORM:.*]] = "mlc.layer_norm"(%[[GROUPS]], %{{.*}}, %{{.*}}) {axis = 2 : i64, epsilon = 1.000000e-05 : f64, library = false}
// CHECK: "mlc.mul"
// CHECK: "mlc.add"
// CHECK-NOT: f64>
func.func @group_norm(%arg0: !torch.vtensor<[2,16,30],f32>, %w: !torch.vtensor<[16],f32>, %b: !torch.vtensor<[16],f32>) -> !torch.vtensor<[2,16,30],f32> {
  %int4 = torch.constant.int 4
  %eps = torch.constant.float 1.000000e-05
  %false = torch.constant.bool false
  %0 = torch.aten.group_norm %arg0, %int4, %w, %b, %eps, %false : !torch.vtensor<[2,16,30],f32>, !torch.int, !torch.vtensor<[16],f32>, !torch.vtensor<[16],f32>, !torch.float, !torch.bool -> !torch.vtensor<[2,16,30],f32>
  return %0 : !torch.vtensor<[2,16,30],f32>
}
