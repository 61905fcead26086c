// RUN: mlc-opt %s --split-input-file --pass-pipeline='builtin.module(torch-func-backend-type-conversion, mlc-convert-torch-to-mlc, func.func(torch-finalizing-backend-type-conversion))' | FileCheck %s

/// Grouped-query attention (enable_gqa): each of k's and v's Hkv heads serves Hq / Hkv
/// consecutive query heads (torch's repeat_interleave along dim -3): a unit group dim,
/// broadcast to Hq / Hkv and merged with the heads; then attention as without it.

// CHECK-LABEL: func.func @gqa
// CHECK: %[[K1:.*]] = "mlc.reshape"(%arg1) : (tensor<1x2x5x8xf32>) -> tensor<1x2x1x5x8xf32>
// CHECK: %[[K2:.*]] = "mlc.broadcast"(%[[K1]]) : (tensor<1x2x1x5x8xf32>) -> tensor<1x2x2x5x8xf32>
// CHECK: %[[K:.*]] = "mlc.reshape"(%[[K2]]) : (tensor<1x2x2x5x8xf32>) -> tensor<1x4x5x8xf32>
// CHECK: %[[V1:.*]] = "mlc.reshape"(%arg2) : (tensor<1x2x5x8xf32>) -> tensor<1x2x1x5x8xf32>
// CHECK: %[[V2:.*]] = "mlc.broadcast"(%[[V1]]) : (tensor<1x2x1x5x8xf32>) -> tensor<1x2x2x5x8xf32>
// CHECK: %[[V:.*]] = "mlc.reshape"(%[[V2]]) : (tensor<1x2x2x5x8xf32>) -> tensor<1x4x5x8xf32>
// CHECK: "mlc.transpose"(%[[K]]) {permutation = array<i64: 0, 1, 3, 2>}
// CHECK: "mlc.softmax"
// CHECK: "mlc.reshape"(%[[V]]) : (tensor<1x4x5x8xf32>) -> tensor<4x5x8xf32>
// CHECK: "mlc.matmul"(%{{.*}}, %{{.*}}) : (tensor<4x5x5xf32>, tensor<4x5x8xf32>) -> tensor<4x5x8xf32>
func.func @gqa(%q: !torch.vtensor<[1,4,5,8],f32>, %k: !torch.vtensor<[1,2,5,8],f32>, %v: !torch.vtensor<[1,2,5,8],f32>) -> !torch.vtensor<[1,4,5,8],f32> {
  %float0 = torch.constant.float 0.000000e+00
  %false = torch.constant.bool false
  %true = torch.constant.bool true
  %none = torch.constant.none
  %0 = torch.aten.scaled_dot_product_attention %q, %k, %v, %none, %float0, %false, %none, %true : !torch.vtensor<[1,4,5,8],f32>, !torch.vtensor<[1,2,5,8],f32>, !torch.vtensor<[1,2,5,8],f32>, !torch.none, !torch.float, !torch.bool, !torch.none, !torch.bool -> !torch.vtensor<[1,4,5,8],f32>
  return %0 : !torch.vtensor<[1,4,5,8],f32>
}

// -----

/// Unbatched ([H, S, D]) with a dynamic length: the length is carried by the views.

// CHECK-LABEL: func.func @gqa_unbatched_dynamic_length
// CHECK: %[[K1:.*]] = "mlc.reshape"(%arg1) : (tensor<1x?x8xf32>) -> tensor<1x1x?x8xf32>
// CHECK: %[[K2:.*]] = "mlc.broadcast"(%[[K1]]) : (tensor<1x1x?x8xf32>) -> tensor<1x4x?x8xf32>
// CHECK: "mlc.reshape"(%[[K2]]) : (tensor<1x4x?x8xf32>) -> tensor<4x?x8xf32>
// CHECK: "mlc.matmul"(%arg0, %{{.*}}) : (tensor<4x?x8xf32>, tensor<4x8x?xf32>) -> tensor<4x?x?xf32>
// CHECK: "mlc.matmul"(%{{.*}}, %{{.*}}) : (tensor<4x?x?xf32>, tensor<4x?x8xf32>) -> tensor<4x?x8xf32>
func.func @gqa_unbatched_dynamic_length(%q: !torch.vtensor<[4,?,8],f32>, %k: !torch.vtensor<[1,?,8],f32>, %v: !torch.vtensor<[1,?,8],f32>) -> !torch.vtensor<[4,?,8],f32> {
  %float0 = torch.constant.float 0.000000e+00
  %false = torch.constant.bool false
  %true = torch.constant.bool true
  %none = torch.constant.none
  %0 = torch.aten.scaled_dot_product_attention %q, %k, %v, %none, %float0, %false, %none, %true : !torch.vtensor<[4,?,8],f32>, !torch.vtensor<[1,?,8],f32>, !torch.vtensor<[1,?,8],f32>, !torch.none, !torch.float, !torch.bool, !torch.none, !torch.bool -> !torch.vtensor<[4,?,8],f32>
  return %0 : !torch.vtensor<[4,?,8],f32>
}

// -----

/// With a mask, which broadcasts over the query heads as it did.

// CHECK-LABEL: func.func @gqa_mask
// CHECK: "mlc.broadcast"{{.*}} -> tensor<2x3x2x5x8xf32>
// CHECK: "mlc.broadcast"{{.*}} -> tensor<2x3x2x5x8xf32>
// CHECK: %[[MASK:.*]] = "mlc.select"(%arg3, %{{.*}}, %{{.*}}) : (tensor<3x5xi1>, tensor<f32>, tensor<f32>) -> tensor<3x5xf32>
// CHECK: "mlc.add"(%{{.*}}, %[[MASK]]) : (tensor<2x6x3x5xf32>, tensor<3x5xf32>) -> tensor<2x6x3x5xf32>
// CHECK: "mlc.matmul"{{.*}} -> tensor<12x3x8xf32>
func.func @gqa_mask(%q: !torch.vtensor<[2,6,3,8],f32>, %k: !torch.vtensor<[2,3,5,8],f32>, %v: !torch.vtensor<[2,3,5,8],f32>, %m: !torch.vtensor<[3,5],i1>) -> !torch.vtensor<[2,6,3,8],f32> {
  %float0 = torch.constant.float 0.000000e+00
  %false = torch.constant.bool false
  %true = torch.constant.bool true
  %none = torch.constant.none
  %0 = torch.aten.scaled_dot_product_attention %q, %k, %v, %m, %float0, %false, %none, %true : !torch.vtensor<[2,6,3,8],f32>, !torch.vtensor<[2,3,5,8],f32>, !torch.vtensor<[2,3,5,8],f32>, !torch.vtensor<[3,5],i1>, !torch.float, !torch.bool, !torch.none, !torch.bool -> !torch.vtensor<[2,6,3,8],f32>
  return %0 : !torch.vtensor<[2,6,3,8],f32>
}

// -----

/// As many key/value heads as query heads: nothing to repeat.

// CHECK-LABEL: func.func @gqa_equal_heads
// CHECK-NOT: mlc.broadcast
// CHECK: return
func.func @gqa_equal_heads(%q: !torch.vtensor<[1,2,4,8],f32>) -> !torch.vtensor<[1,2,4,8],f32> {
  %float0 = torch.constant.float 0.000000e+00
  %false = torch.constant.bool false
  %true = torch.constant.bool true
  %none = torch.constant.none
  %0 = torch.aten.scaled_dot_product_attention %q, %q, %q, %none, %float0, %false, %none, %true : !torch.vtensor<[1,2,4,8],f32>, !torch.vtensor<[1,2,4,8],f32>, !torch.vtensor<[1,2,4,8],f32>, !torch.none, !torch.float, !torch.bool, !torch.none, !torch.bool -> !torch.vtensor<[1,2,4,8],f32>
  return %0 : !torch.vtensor<[1,2,4,8],f32>
}
