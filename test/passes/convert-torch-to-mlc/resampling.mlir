// RUN: mlc-opt %s --split-input-file --pass-pipeline='builtin.module(torch-func-backend-type-conversion, mlc-convert-torch-to-mlc, func.func(torch-finalizing-backend-type-conversion))' | FileCheck %s

/// 1-D pooling is 2-D pooling of a height-1 image; interpolation and uneven adaptive pooling are gathers at constant positions, weighted.

// CHECK-LABEL: func.func @adaptive_avg_pool2d_uneven
// CHECK: %[[COLS:.*]] = "mlc.constant"() {value = dense<{{\[\[}}0, 1, 2, 2], [2, 3, 4, 5], [5, 6, 7, 7]]> : tensor<3x4xi32>}
// CHECK: %[[WINDOWS:.*]] = "mlc.gather"(%arg0, %[[COLS]]) {axis = 3 : i64} : (tensor<2x3x9x8xf32>, tensor<3x4xi32>) -> tensor<2x3x9x3x4xf32>
// CHECK: %[[WEIGHTED:.*]] = "mlc.mul"(%[[WINDOWS]], %{{.*}})
// CHECK: "mlc.reduce_sum"(%[[WEIGHTED]]) {axes = array<i64: 4>, keepdim = false}
// CHECK: "mlc.reduce_sum"{{.*}} -> tensor<2x3x4x3xf32>
func.func @adaptive_avg_pool2d_uneven(%arg0: !torch.vtensor<[2,3,9,8],f32>) -> !torch.vtensor<[2,3,4,3],f32> {
  %int4 = torch.constant.int 4
  %int3 = torch.constant.int 3
  %0 = torch.prim.ListConstruct %int4, %int3 : (!torch.int, !torch.int) -> !torch.list<int>
  %1 = torch.aten.adaptive_avg_pool2d %arg0, %0 : !torch.vtensor<[2,3,9,8],f32>, !torch.list<int> -> !torch.vtensor<[2,3,4,3],f32>
  return %1 : !torch.vtensor<[2,3,4,3],f32>
}

// -----

// CHECK-LABEL: func.func @max_pool1d
// CHECK: %[[IMAGE:.*]] = "mlc.reshape"(%arg0) : (tensor<2x3x11xf32>) -> tensor<2x3x1x11xf32>
// CHECK: %[[POOLED:.*]] = "mlc.max_pool2d"(%[[IMAGE]]) {ceil_mode = false, dilation = array<i64: 1, 1>, kernel = array<i64: 1, 3>, layout = "NCHW", padding = array<i64: 0, 0, 1, 1>, stride = array<i64: 1, 2>}
// CHECK: "mlc.reshape"(%[[POOLED]]) : (tensor<2x3x1x6xf32>) -> tensor<2x3x6xf32>
func.func @max_pool1d(%arg0: !torch.vtensor<[2,3,11],f32>) -> !torch.vtensor<[2,3,6],f32> {
  %false = torch.constant.bool false
  %int1 = torch.constant.int 1
  %int2 = torch.constant.int 2
  %int3 = torch.constant.int 3
  %0 = torch.prim.ListConstruct %int3 : (!torch.int) -> !torch.list<int>
  %1 = torch.prim.ListConstruct %int2 : (!torch.int) -> !torch.list<int>
  %2 = torch.prim.ListConstruct %int1 : (!torch.int) -> !torch.list<int>
  %3 = torch.prim.ListConstruct %int1 : (!torch.int) -> !torch.list<int>
  %4 = torch.aten.max_pool1d %arg0, %0, %1, %2, %3, %false : !torch.vtensor<[2,3,11],f32>, !torch.list<int>, !torch.list<int>, !torch.list<int>, !torch.list<int>, !torch.bool -> !torch.vtensor<[2,3,6],f32>
  return %4 : !torch.vtensor<[2,3,6],f32>
}

// -----

// CHECK-LABEL: func.func @nearest_size
// CHECK: %[[COLS:.*]] = "mlc.constant"() {value = dense<[0, 0, 1, 2, 2, 3, 4]> : tensor<7xi32>}
// CHECK: %[[WIDE:.*]] = "mlc.gather"(%arg0, %[[COLS]]) {axis = 3 : i64}
// CHECK: %[[ROWS:.*]] = "mlc.constant"() {value = dense<[0, 0, 1, 2, 2, 3]> : tensor<6xi32>}
// CHECK: "mlc.gather"(%[[WIDE]], %[[ROWS]]) {axis = 2 : i64} : (tensor<1x2x4x7xf32>, tensor<6xi32>) -> tensor<1x2x6x7xf32>
func.func @nearest_size(%arg0: !torch.vtensor<[1,2,4,5],f32>) -> !torch.vtensor<[1,2,6,7],f32> {
  %false = torch.constant.bool false
  %str = torch.constant.str "nearest"
  %none = torch.constant.none
  %int6 = torch.constant.int 6
  %int7 = torch.constant.int 7
  %0 = torch.prim.ListConstruct %int6, %int7 : (!torch.int, !torch.int) -> !torch.list<int>
  %1 = torch.aten.__interpolate.size_list_scale_list %arg0, %0, %none, %str, %none, %none, %false : !torch.vtensor<[1,2,4,5],f32>, !torch.list<int>, !torch.none, !torch.str, !torch.none, !torch.none, !torch.bool -> !torch.vtensor<[1,2,6,7],f32>
  return %1 : !torch.vtensor<[1,2,6,7],f32>
}

// -----

// CHECK-LABEL: func.func @bilinear_align_corners
// CHECK: %[[LEFT:.*]] = "mlc.gather"(%arg0, %{{.*}}) {axis = 3 : i64}
// CHECK: %[[RIGHT:.*]] = "mlc.gather"(%arg0, %{{.*}}) {axis = 3 : i64}
// CHECK: %[[WIDE:.*]] = "mlc.add"
// CHECK: "mlc.gather"(%[[WIDE]], %{{.*}}) {axis = 2 : i64}
// CHECK: "mlc.gather"(%[[WIDE]], %{{.*}}) {axis = 2 : i64}
// CHECK: "mlc.add"{{.*}} -> tensor<1x2x7x9xf32>
func.func @bilinear_align_corners(%arg0: !torch.vtensor<[1,2,4,5],f32>) -> !torch.vtensor<[1,2,7,9],f32> {
  %none = torch.constant.none
  %true = torch.constant.bool true
  %int7 = torch.constant.int 7
  %int9 = torch.constant.int 9
  %0 = torch.prim.ListConstruct %int7, %int9 : (!torch.int, !torch.int) -> !torch.list<int>
  %1 = torch.aten.upsample_bilinear2d.vec %arg0, %0, %true, %none : !torch.vtensor<[1,2,4,5],f32>, !torch.list<int>, !torch.bool, !torch.none -> !torch.vtensor<[1,2,7,9],f32>
  return %1 : !torch.vtensor<[1,2,7,9],f32>
}

// -----

/// An unbatched [C, H, W] input is pooled as C planes of one channel, [C, 1, H, W].

// CHECK-LABEL: func.func @adaptive_avg_pool2d_unbatched
// CHECK: %[[PLANES:.*]] = "mlc.reshape"(%arg0) : (tensor<3x6x8xf32>) -> tensor<3x1x6x8xf32>
// CHECK: %[[POOLED:.*]] = "mlc.avg_pool2d"(%[[PLANES]]) {{{.*}}kernel = array<i64: 3, 4>{{.*}}stride = array<i64: 3, 4>} : (tensor<3x1x6x8xf32>) -> tensor<3x1x2x2xf32>
// CHECK: "mlc.reshape"(%[[POOLED]]) : (tensor<3x1x2x2xf32>) -> tensor<3x2x2xf32>
func.func @adaptive_avg_pool2d_unbatched(%arg0: !torch.vtensor<[3,6,8],f32>) -> !torch.vtensor<[3,2,2],f32> {
  %int2 = torch.constant.int 2
  %0 = torch.prim.ListConstruct %int2, %int2 : (!torch.int, !torch.int) -> !torch.list<int>
  %1 = torch.aten.adaptive_avg_pool2d %arg0, %0 : !torch.vtensor<[3,6,8],f32>, !torch.list<int> -> !torch.vtensor<[3,2,2],f32>
  return %1 : !torch.vtensor<[3,2,2],f32>
}

// -----

/// ... so that a dynamic channel count is the batch; uneven windows are gathers as batched.

// CHECK-LABEL: func.func @adaptive_avg_pool2d_unbatched_uneven_dynamic_channels
// CHECK: %[[PLANES:.*]] = "mlc.reshape"(%arg0) : (tensor<?x7x5xf32>) -> tensor<?x1x7x5xf32>
// CHECK: "mlc.gather"(%[[PLANES]], %{{.*}}) {axis = 3 : i64} : (tensor<?x1x7x5xf32>, tensor<2x3xi32>) -> tensor<?x1x7x2x3xf32>
// CHECK: %[[POOLED:.*]] = "mlc.reduce_sum"{{.*}} -> tensor<?x1x3x2xf32>
// CHECK: "mlc.reshape"(%[[POOLED]]) : (tensor<?x1x3x2xf32>) -> tensor<?x3x2xf32>
func.func @adaptive_avg_pool2d_unbatched_uneven_dynamic_channels(%arg0: !torch.vtensor<[?,7,5],f32>) -> !torch.vtensor<[?,3,2],f32> {
  %int2 = torch.constant.int 2
  %int3 = torch.constant.int 3
  %0 = torch.prim.ListConstruct %int3, %int2 : (!torch.int, !torch.int) -> !torch.list<int>
  %1 = torch.aten.adaptive_avg_pool2d %arg0, %0 : !torch.vtensor<[?,7,5],f32>, !torch.list<int> -> !torch.vtensor<[?,3,2],f32>
  return %1 : !torch.vtensor<[?,3,2],f32>
}

// -----

/// The explicit upsample_nearest2d (an output size, a scale per axis): eager's 2-D kernel
/// reads i // 2 for twice the size whatever the scale (rows: 3 -> 6 at scale 3), and
/// floor(i / scale) otherwise (columns: 4 -> 7 at scale 1.5).

// CHECK-LABEL: func.func @upsample_nearest2d_scales
// CHECK: %[[COLS:.*]] = "mlc.constant"() {value = dense<[0, 0, 1, 2, 2, 3, 3]> : tensor<7xi32>}
// CHECK: %[[WIDE:.*]] = "mlc.gather"(%arg0, %[[COLS]]) {axis = 3 : i64}
// CHECK: %[[ROWS:.*]] = "mlc.constant"() {value = dense<[0, 0, 1, 1, 2, 2]> : tensor<6xi32>}
// CHECK: "mlc.gather"(%[[WIDE]], %[[ROWS]]) {axis = 2 : i64} : (tensor<1x2x3x7xf32>, tensor<6xi32>) -> tensor<1x2x6x7xf32>
func.func @upsample_nearest2d_scales(%arg0: !torch.vtensor<[1,2,3,4],f32>) -> !torch.vtensor<[1,2,6,7],f32> {
  %float3 = torch.constant.float 3.000000e+00
  %float1.5 = torch.constant.float 1.500000e+00
  %int6 = torch.constant.int 6
  %int7 = torch.constant.int 7
  %0 = torch.prim.ListConstruct %int6, %int7 : (!torch.int, !torch.int) -> !torch.list<int>
  %1 = torch.aten.upsample_nearest2d %arg0, %0, %float3, %float1.5 : !torch.vtensor<[1,2,3,4],f32>, !torch.list<int>, !torch.float, !torch.float -> !torch.vtensor<[1,2,6,7],f32>
  return %1 : !torch.vtensor<[1,2,6,7],f32>
}

// -----

/// The explicit upsample_nearest1d: eager's 1-D kernel has no such shortcut, floor(i / 3).

// CHECK-LABEL: func.func @upsample_nearest1d_scale
// CHECK: %[[COLS:.*]] = "mlc.constant"() {value = dense<[0, 0, 0, 1, 1, 1, 2, 2, 2, 3]> : tensor<10xi32>}
// CHECK: "mlc.gather"(%arg0, %[[COLS]]) {axis = 2 : i64} : (tensor<1x2x5xf32>, tensor<10xi32>) -> tensor<1x2x10xf32>
func.func @upsample_nearest1d_scale(%arg0: !torch.vtensor<[1,2,5],f32>) -> !torch.vtensor<[1,2,10],f32> {
  %float3 = torch.constant.float 3.000000e+00
  %int10 = torch.constant.int 10
  %0 = torch.prim.ListConstruct %int10 : (!torch.int) -> !torch.list<int>
  %1 = torch.aten.upsample_nearest1d %arg0, %0, %float3 : !torch.vtensor<[1,2,5],f32>, !torch.list<int>, !torch.float -> !torch.vtensor<[1,2,10],f32>
  return %1 : !torch.vtensor<[1,2,10],f32>
}
