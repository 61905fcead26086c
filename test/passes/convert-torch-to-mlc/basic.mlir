// RUN: mlc-opt %s --split-input-file --pass-pipeline='builtin.module(torch-func-backend-type-conversion, mlc-convert-torch-to-mlc, func.func(torch-finalizing-backend-type-conversion))' | FileCheck %s

/// torch ops at the backend contract become mlc ops on builtin tensors.

// CHECK-LABEL: func.func @linear_gelu
// CHECK-SAME: (%[[X:.*]]: tensor<8x4xf32>) -> tensor<8x3xf32>
// CHECK-DAG: %[[W:.*]] = "mlc.constant"() {value = dense<1.000000e+00> : tensor<3x4xf32>}
// CHECK-DAG: %[[B:.*]] = "mlc.constant"() {value = dense<5.000000e-01> : tensor<3xf32>}
// CHECK: %[[WT:.*]] = "mlc.transpose"(%[[W]]) {permutation = array<i64: 1, 0>}
// CHECK: %[[MM:.*]] = "mlc.matmul"(%[[X]], %[[WT]]) : (tensor<8x4xf32>, tensor<4x3xf32>) -> tensor<8x3xf32>
// CHECK: %[[Y:.*]] = "mlc.add"(%[[MM]], %[[B]])
// CHECK: %[[G:.*]] = "mlc.gelu"(%[[Y]]) {approximate = "tanh"}
// CHECK: return %[[G]]
// CHECK-NOT: torch
func.func @linear_gelu(%x: !torch.vtensor<[8,4],f32>) -> !torch.vtensor<[8,3],f32> {
  %w = torch.vtensor.literal(dense<1.0> : tensor<3x4xf32>) : !torch.vtensor<[3,4],f32>
  %b = torch.vtensor.literal(dense<0.5> : tensor<3xf32>) : !torch.vtensor<[3],f32>
  %0 = torch.aten.linear %x, %w, %b : !torch.vtensor<[8,4],f32>, !torch.vtensor<[3,4],f32>, !torch.vtensor<[3],f32> -> !torch.vtensor<[8,3],f32>
  %tanh = torch.constant.str "tanh"
  %1 = torch.aten.gelu %0, %tanh : !torch.vtensor<[8,3],f32>, !torch.str -> !torch.vtensor<[8,3],f32>
  return %1 : !torch.vtensor<[8,3],f32>
}

// -----

// CHECK-LABEL: func.func @conv_batch_norm_relu
// CHECK: %[[CONV:.*]] = "mlc.conv2d"(%{{.*}}, %{{.*}}) {dilation = array<i64: 1, 1>, groups = 1 : i64, layout = "NCHW", padding = array<i64: 1, 1, 1, 1>, stride = array<i64: 2, 2>}
// CHECK-SAME: (tensor<1x3x8x8xf32>, tensor<4x3x3x3xf32>) -> tensor<1x4x4x4xf32>
// CHECK: %[[BN:.*]] = "mlc.batch_norm"(%[[CONV]], %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}) {axis = 1 : i64, epsilon = 1.000000e-05 : f64}
// CHECK: "mlc.relu"(%[[BN]])
func.func @conv_batch_norm_relu(%x: !torch.vtensor<[1,3,8,8],f32>) -> !torch.vtensor<[1,4,4,4],f32> {
  %w = torch.vtensor.literal(dense<1.0> : tensor<4x3x3x3xf32>) : !torch.vtensor<[4,3,3,3],f32>
  %stat = torch.vtensor.literal(dense<1.0> : tensor<4xf32>) : !torch.vtensor<[4],f32>
  %none = torch.constant.none
  %false = torch.constant.bool false
  %int1 = torch.constant.int 1
  %int2 = torch.constant.int 2
  %stride = torch.prim.ListConstruct %int2, %int2 : (!torch.int, !torch.int) -> !torch.list<int>
  %pad = torch.prim.ListConstruct %int1, %int1 : (!torch.int, !torch.int) -> !torch.list<int>
  %dil = torch.prim.ListConstruct %int1, %int1 : (!torch.int, !torch.int) -> !torch.list<int>
  %0 = torch.aten.conv2d %x, %w, %none, %stride, %pad, %dil, %int1 : !torch.vtensor<[1,3,8,8],f32>, !torch.vtensor<[4,3,3,3],f32>, !torch.none, !torch.list<int>, !torch.list<int>, !torch.list<int>, !torch.int -> !torch.vtensor<[1,4,4,4],f32>
  %momentum = torch.constant.float 1.000000e-01
  %eps = torch.constant.float 1.000000e-05
  %1 = torch.aten.batch_norm %0, %stat, %stat, %stat, %stat, %false, %momentum, %eps, %false : !torch.vtensor<[1,4,4,4],f32>, !torch.vtensor<[4],f32>, !torch.vtensor<[4],f32>, !torch.vtensor<[4],f32>, !torch.vtensor<[4],f32>, !torch.bool, !torch.float, !torch.float, !torch.bool -> !torch.vtensor<[1,4,4,4],f32>
  %2 = torch.aten.relu %1 : !torch.vtensor<[1,4,4,4],f32> -> !torch.vtensor<[1,4,4,4],f32>
  return %2 : !torch.vtensor<[1,4,4,4],f32>
}

// -----

/// softplus keeps its beta and threshold (torch-mlir keeps it whole: `keep_whole`).

// CHECK-LABEL: func.func @softplus
// CHECK: "mlc.softplus"(%{{.*}}) {beta = 2.000000e+00 : f64, threshold = 1.000000e+01 : f64} : (tensor<4xf32>) -> tensor<4xf32>
func.func @softplus(%x: !torch.vtensor<[4],f32>) -> !torch.vtensor<[4],f32> {
  %beta = torch.constant.float 2.0
  %threshold = torch.constant.int 10
  %0 = torch.aten.softplus %x, %beta, %threshold : !torch.vtensor<[4],f32>, !torch.float, !torch.int -> !torch.vtensor<[4],f32>
  return %0 : !torch.vtensor<[4],f32>
}
