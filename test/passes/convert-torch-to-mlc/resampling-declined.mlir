// RUN: not mlc-opt %s --split-input-file --pass-pipeline='builtin.module(torch-func-backend-type-conversion, mlc-convert-torch-to-mlc)' 2>&1 | FileCheck %s

/// negative: adaptive_avg_pool2d of a dynamic height (unbatched, as torch-mlir's
/// AdaptiveAvgPool2dDynamicNoBatch): the windows move with the size, and mlc's are constants.

// CHECK: error: 1 torch op(s) of 1 kind(s) have no conversion to mlc:
// CHECK: torch.aten.adaptive_avg_pool2d  x1  at {{.*}}[adaptive_avg_pool2d of a dynamic height or width to more than 1x1: its windows depend on the size]
func.func @negative_adaptive_avg_pool2d_dynamic_height(%arg0: !torch.vtensor<[?,?,?],f32>) -> !torch.vtensor<[?,2,2],f32> {
  %int2 = torch.constant.int 2
  %0 = torch.prim.ListConstruct %int2, %int2 : (!torch.int, !torch.int) -> !torch.list<int>
  %1 = torch.aten.adaptive_avg_pool2d %arg0, %0 : !torch.vtensor<[?,?,?],f32>, !torch.list<int> -> !torch.vtensor<[?,2,2],f32>
  return %1 : !torch.vtensor<[?,2,2],f32>
}

// -----

/// negative: nearest upsampling of a dynamic height: the positions read are constants.

// CHECK: error: 1 torch op(s) of 1 kind(s) have no conversion to mlc:
// CHECK: torch.aten.upsample_nearest2d  x1  at {{.*}}[interpolation of a dynamic spatial size: the positions read depend on it]
func.func @negative_upsample_nearest2d_dynamic_height(%arg0: !torch.vtensor<[1,2,?,4],f32>) -> !torch.vtensor<[1,2,6,8],f32> {
  %float2 = torch.constant.float 2.000000e+00
  %int6 = torch.constant.int 6
  %int8 = torch.constant.int 8
  %0 = torch.prim.ListConstruct %int6, %int8 : (!torch.int, !torch.int) -> !torch.list<int>
  %1 = torch.aten.upsample_nearest2d %arg0, %0, %float2, %float2 : !torch.vtensor<[1,2,?,4],f32>, !torch.list<int>, !torch.float, !torch.float -> !torch.vtensor<[1,2,6,8],f32>
  return %1 : !torch.vtensor<[1,2,6,8],f32>
}
