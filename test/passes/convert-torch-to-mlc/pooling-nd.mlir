// RUN: mlc-opt %s --split-input-file --pass-pipeline='builtin.module(torch-func-backend-type-conversion, mlc-convert-torch-to-mlc, func.func(torch-finalizing-backend-type-conversion))' | FileCheck %s

/// Pooling beyond 2-D floats: the N-D ops, and adaptive pooling in 1-D and 3-D.

// CHECK-LABEL: func.func @max_pool3d_with_indices
// CHECK-DAG: "mlc.max_pool_nd"(%arg0) {ceil_mode = true, dilation = array<i64: 1, 1, 1>, kernel = array<i64: 3, 3, 3>, padding = array<i64: 0, 0, 0, 0, 0, 0>, stride = array<i64: 2, 2, 2>} : (tensor<1x2x3x6x5xf32>) -> tensor<1x2x1x3x2xf32>
// CHECK-DAG: "mlc.max_pool_indices"(%arg0) {{.*}} : (tensor<1x2x3x6x5xf32>) -> tensor<1x2x1x3x2xi64>
func.func @max_pool3d_with_indices(%x: !torch.vtensor<[1,2,3,6,5],f32>) -> (!torch.vtensor<[1,2,1,3,2],f32>, !torch.vtensor<[1,2,1,3,2],si64>) {
  %int0 = torch.constant.int 0
  %int1 = torch.constant.int 1
  %int2 = torch.constant.int 2
  %int3 = torch.constant.int 3
  %true = torch.constant.bool true
  %kernel = torch.prim.ListConstruct %int3, %int3, %int3 : (!torch.int, !torch.int, !torch.int) -> !torch.list<int>
  %stride = torch.prim.ListConstruct %int2, %int2, %int2 : (!torch.int, !torch.int, !torch.int) -> !torch.list<int>
  %padding = torch.prim.ListConstruct %int0, %int0, %int0 : (!torch.int, !torch.int, !torch.int) -> !torch.list<int>
  %dilation = torch.prim.ListConstruct %int1, %int1, %int1 : (!torch.int, !torch.int, !torch.int) -> !torch.list<int>
  %0:2 = torch.aten.max_pool3d_with_indices %x, %kernel, %stride, %padding, %dilation, %true : !torch.vtensor<[1,2,3,6,5],f32>, !torch.list<int>, !torch.list<int>, !torch.list<int>, !torch.list<int>, !torch.bool -> !torch.vtensor<[1,2,1,3,2],f32>, !torch.vtensor<[1,2,1,3,2],si64>
  return %0#0, %0#1 : !torch.vtensor<[1,2,1,3,2],f32>, !torch.vtensor<[1,2,1,3,2],si64>
}

// -----

// CHECK-LABEL: func.func @avg_pool2d_divisor_override
// CHECK: "mlc.avg_pool_nd"(%arg0) {ceil_mode = true, count_include_pad = false, divisor = 2 : i64, kernel = array<i64: 3, 3>, padding = array<i64: 1, 1, 1, 1>, stride = array<i64: 1, 1>}
func.func @avg_pool2d_divisor_override(%x: !torch.vtensor<[1,3,9,9],f32>) -> !torch.vtensor<[1,3,9,9],f32> {
  %int1 = torch.constant.int 1
  %int2 = torch.constant.int 2
  %int3 = torch.constant.int 3
  %true = torch.constant.bool true
  %false = torch.constant.bool false
  %kernel = torch.prim.ListConstruct %int3, %int3 : (!torch.int, !torch.int) -> !torch.list<int>
  %stride = torch.prim.ListConstruct %int1, %int1 : (!torch.int, !torch.int) -> !torch.list<int>
  %padding = torch.prim.ListConstruct %int1, %int1 : (!torch.int, !torch.int) -> !torch.list<int>
  %0 = torch.aten.avg_pool2d %x, %kernel, %stride, %padding, %true, %false, %int2 : !torch.vtensor<[1,3,9,9],f32>, !torch.list<int>, !torch.list<int>, !torch.list<int>, !torch.bool, !torch.bool, !torch.int -> !torch.vtensor<[1,3,9,9],f32>
  return %0 : !torch.vtensor<[1,3,9,9],f32>
}

// -----

/// adaptive_avg_pool1d 8 -> 5: uneven windows, a weighted gather along the length.

// CHECK-LABEL: func.func @adaptive_avg_pool1d_uneven
// CHECK: %[[WINDOWS:.*]] = "mlc.gather"(%arg0, %{{.*}}) {axis = 2 : i64} : (tensor<2x8x8xf32>, tensor<5x3xi32>) -> tensor<2x8x5x3xf32>
// CHECK: "mlc.reduce_sum"({{.*}}) {axes = array<i64: 3>, keepdim = false} : (tensor<2x8x5x3xf32>) -> tensor<2x8x5xf32>
func.func @adaptive_avg_pool1d_uneven(%x: !torch.vtensor<[2,8,8],f32>) -> !torch.vtensor<[2,8,5],f32> {
  %int5 = torch.constant.int 5
  %size = torch.prim.ListConstruct %int5 : (!torch.int) -> !torch.list<int>
  %0 = torch.aten.adaptive_avg_pool1d %x, %size : !torch.vtensor<[2,8,8],f32>, !torch.list<int> -> !torch.vtensor<[2,8,5],f32>
  return %0 : !torch.vtensor<[2,8,5],f32>
}

// -----

// CHECK-LABEL: func.func @adaptive_avg_pool3d_even
// CHECK: "mlc.avg_pool_nd"(%arg0) {ceil_mode = false, count_include_pad = true, divisor = 0 : i64, kernel = array<i64: 2, 2, 8>, padding = array<i64: 0, 0, 0, 0, 0, 0>, stride = array<i64: 2, 2, 8>} : (tensor<?x3x4x8x8xf32>) -> tensor<?x3x2x4x1xf32>
func.func @adaptive_avg_pool3d_even(%x: !torch.vtensor<[?,3,4,8,8],f32>) -> !torch.vtensor<[?,3,2,4,1],f32> {
  %int1 = torch.constant.int 1
  %int2 = torch.constant.int 2
  %int4 = torch.constant.int 4
  %size = torch.prim.ListConstruct %int2, %int4, %int1 : (!torch.int, !torch.int, !torch.int) -> !torch.list<int>
  %0 = torch.aten.adaptive_avg_pool3d %x, %size : !torch.vtensor<[?,3,4,8,8],f32>, !torch.list<int> -> !torch.vtensor<[?,3,2,4,1],f32>
  return %0 : !torch.vtensor<[?,3,2,4,1],f32>
}
