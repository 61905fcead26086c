// RUN: mlc-opt %s --split-input-file --pass-pipeline='builtin.module(torch-func-backend-type-conversion, mlc-convert-torch-to-mlc, func.func(torch-finalizing-backend-type-conversion))' | FileCheck %s

/// aten.convolution in 1-D (conv2d of a height-1 image), 3-D (mlc.conv3d) and
/// transposed (zeros between the input's elements, the kernel flipped).

// CHECK-LABEL: func.func @conv1d_grouped
// CHECK: %[[IMAGE:.*]] = "mlc.reshape"(%arg0) : (tensor<2x4x9xf32>) -> tensor<2x4x1x9xf32>
// CHECK: %[[KERNEL:.*]] = "mlc.reshape"(%arg1) : (tensor<6x2x3xf32>) -> tensor<6x2x1x3xf32>
// CHECK: %[[CONV:.*]] = "mlc.conv2d"(%[[IMAGE]], %[[KERNEL]], %arg2) {dilation = array<i64: 1, 2>, groups = 2 : i64, layout = "NCHW", padding = array<i64: 0, 0, 1, 1>, stride = array<i64: 1, 1>}
// CHECK: "mlc.reshape"(%[[CONV]]) : (tensor<2x6x1x7xf32>) -> tensor<2x6x7xf32>
func.func @conv1d_grouped(%x: !torch.vtensor<[2,4,9],f32>, %w: !torch.vtensor<[6,2,3],f32>, %b: !torch.vtensor<[6],f32>) -> !torch.vtensor<[2,6,7],f32> {
  %int0 = torch.constant.int 0
  %int1 = torch.constant.int 1
  %int2 = torch.constant.int 2
  %false = torch.constant.bool false
  %stride = torch.prim.ListConstruct %int1 : (!torch.int) -> !torch.list<int>
  %padding = torch.prim.ListConstruct %int1 : (!torch.int) -> !torch.list<int>
  %dilation = torch.prim.ListConstruct %int2 : (!torch.int) -> !torch.list<int>
  %output_padding = torch.prim.ListConstruct %int0 : (!torch.int) -> !torch.list<int>
  %0 = torch.aten.convolution %x, %w, %b, %stride, %padding, %dilation, %false, %output_padding, %int2 : !torch.vtensor<[2,4,9],f32>, !torch.vtensor<[6,2,3],f32>, !torch.vtensor<[6],f32>, !torch.list<int>, !torch.list<int>, !torch.list<int>, !torch.bool, !torch.list<int>, !torch.int -> !torch.vtensor<[2,6,7],f32>
  return %0 : !torch.vtensor<[2,6,7],f32>
}

// -----

// CHECK-LABEL: func.func @conv3d_depthwise
// CHECK: "mlc.conv3d"(%arg0, %arg1) {dilation = array<i64: 1, 1, 1>, groups = 3 : i64, padding = array<i64: 1, 1, 1, 1, 1, 1>, stride = array<i64: 2, 1, 1>} : (tensor<1x3x5x6x4xf32>, tensor<3x1x3x3x3xf32>) -> tensor<1x3x3x6x4xf32>
func.func @conv3d_depthwise(%x: !torch.vtensor<[1,3,5,6,4],f32>, %w: !torch.vtensor<[3,1,3,3,3],f32>) -> !torch.vtensor<[1,3,3,6,4],f32> {
  %none = torch.constant.none
  %int0 = torch.constant.int 0
  %int1 = torch.constant.int 1
  %int2 = torch.constant.int 2
  %int3 = torch.constant.int 3
  %false = torch.constant.bool false
  %stride = torch.prim.ListConstruct %int2, %int1, %int1 : (!torch.int, !torch.int, !torch.int) -> !torch.list<int>
  %padding = torch.prim.ListConstruct %int1, %int1, %int1 : (!torch.int, !torch.int, !torch.int) -> !torch.list<int>
  %dilation = torch.prim.ListConstruct %int1, %int1, %int1 : (!torch.int, !torch.int, !torch.int) -> !torch.list<int>
  %output_padding = torch.prim.ListConstruct %int0, %int0, %int0 : (!torch.int, !torch.int, !torch.int) -> !torch.list<int>
  %0 = torch.aten.convolution %x, %w, %none, %stride, %padding, %dilation, %false, %output_padding, %int3 : !torch.vtensor<[1,3,5,6,4],f32>, !torch.vtensor<[3,1,3,3,3],f32>, !torch.none, !torch.list<int>, !torch.list<int>, !torch.list<int>, !torch.bool, !torch.list<int>, !torch.int -> !torch.vtensor<[1,3,3,6,4],f32>
  return %0 : !torch.vtensor<[1,3,3,6,4],f32>
}

// -----

/// conv_transpose1d(stride 2, padding 2, output_padding 1, kernel 3): one zero
/// between elements (4 -> 7), padding 2 * 1 - 2 = 0 low and 1 high, the kernel
/// [Cin, Cout, K] swapped to [Cout, Cin, K] and reversed along K.

// CHECK-LABEL: func.func @conv_transpose1d
// CHECK: %[[SPLIT:.*]] = "mlc.reshape"(%arg0) : (tensor<1x3x4xf32>) -> tensor<1x3x4x1xf32>
// CHECK: %[[PADDED:.*]] = "mlc.pad"(%[[SPLIT]]) {high = array<i64: 0, 0, 0, 1>, low = array<i64: 0, 0, 0, 0>, value = 0.000000e+00 : f64} : (tensor<1x3x4x1xf32>) -> tensor<1x3x4x2xf32>
// CHECK: %[[MERGED:.*]] = "mlc.reshape"(%[[PADDED]]) : (tensor<1x3x4x2xf32>) -> tensor<1x3x8xf32>
// CHECK: %[[SPREAD:.*]] = "mlc.slice"(%[[MERGED]]) {limit = array<i64: 1, 3, 7>, start = array<i64: 0, 0, 0>, stride = array<i64: 1, 1, 1>}
// CHECK: "mlc.transpose"({{.*}}) {permutation = array<i64: 0, 2, 1, 3>} : (tensor<1x3x2x3xf32>) -> tensor<1x2x3x3xf32>
// CHECK: %[[REVERSED:.*]] = "mlc.constant"() {value = dense<[2, 1, 0]> : tensor<3xi32>}
// CHECK: %[[FLIPPED:.*]] = "mlc.gather"(%{{.*}}, %[[REVERSED]]) {axis = 2 : i64} : (tensor<2x3x3xf32>, tensor<3xi32>) -> tensor<2x3x3xf32>
// CHECK: "mlc.conv2d"({{.*}}) {dilation = array<i64: 1, 1>, groups = 1 : i64, layout = "NCHW", padding = array<i64: 0, 0, 0, 1>, stride = array<i64: 1, 1>} : (tensor<1x3x1x7xf32>, tensor<2x3x1x3xf32>, tensor<2xf32>) -> tensor<1x2x1x6xf32>
func.func @conv_transpose1d(%x: !torch.vtensor<[1,3,4],f32>, %w: !torch.vtensor<[3,2,3],f32>, %b: !torch.vtensor<[2],f32>) -> !torch.vtensor<[1,2,6],f32> {
  %int1 = torch.constant.int 1
  %int2 = torch.constant.int 2
  %true = torch.constant.bool true
  %stride = torch.prim.ListConstruct %int2 : (!torch.int) -> !torch.list<int>
  %padding = torch.prim.ListConstruct %int2 : (!torch.int) -> !torch.list<int>
  %dilation = torch.prim.ListConstruct %int1 : (!torch.int) -> !torch.list<int>
  %output_padding = torch.prim.ListConstruct %int1 : (!torch.int) -> !torch.list<int>
  %0 = torch.aten.convolution %x, %w, %b, %stride, %padding, %dilation, %true, %output_padding, %int1 : !torch.vtensor<[1,3,4],f32>, !torch.vtensor<[3,2,3],f32>, !torch.vtensor<[2],f32>, !torch.list<int>, !torch.list<int>, !torch.list<int>, !torch.bool, !torch.list<int>, !torch.int -> !torch.vtensor<[1,2,6],f32>
  return %0 : !torch.vtensor<[1,2,6],f32>
}
