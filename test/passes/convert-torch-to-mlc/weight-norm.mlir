// RUN: mlc-opt %s --pass-pipeline='builtin.module(torch-func-backend-type-conversion, mlc-convert-torch-to-mlc, func.func(torch-finalizing-backend-type-conversion))' | FileCheck %s

/// Weight norm (torch.nn.utils.parametrizations.weight_norm, dim=2) is converted whole:
/// w = v * g / ||v||, the norm over every dim but `dim`, kept as 1s. torch-mlir's own
/// decomposition typed the norm with v's shape ([8,4,5], not [1,1,5]).

// CHECK-LABEL: func.func @weight_norm
// CHECK: %[[SQUARES:.*]] = "mlc.mul"(%arg0, %arg0) : (tensor<8x4x5xf32>, tensor<8x4x5xf32>) -> tensor<8x4x5xf32>
// CHECK: %[[SUM:.*]] = "mlc.reduce_sum"(%[[SQUARES]]) {axes = array<i64: 0, 1>, keepdim = true} : (tensor<8x4x5xf32>) -> tensor<1x1x5xf32>
// CHECK: %[[NORM:.*]] = "mlc.sqrt"(%[[SUM]]) : (tensor<1x1x5xf32>) -> tensor<1x1x5xf32>
// CHECK: %[[SCALE:.*]] = "mlc.div"(%arg1, %[[NORM]]) : (tensor<1x1x5xf32>, tensor<1x1x5xf32>) -> tensor<1x1x5xf32>
// CHECK: %[[W:.*]] = "mlc.mul"(%arg0, %[[SCALE]]) : (tensor<8x4x5xf32>, tensor<1x1x5xf32>) -> tensor<8x4x5xf32>
// CHECK: return %[[W]], %[[NORM]]
func.func @weight_norm(%v: !torch.vtensor<[8,4,5],f32>, %g: !torch.vtensor<[1,1,5],f32>) -> (!torch.vtensor<[8,4,5],f32>, !torch.vtensor<[1,1,5],f32>) {
  %int2 = torch.constant.int 2
  %w, %norm = torch.aten._weight_norm_interface %v, %g, %int2 : !torch.vtensor<[8,4,5],f32>, !torch.vtensor<[1,1,5],f32>, !torch.int -> !torch.vtensor<[8,4,5],f32>, !torch.vtensor<[1,1,5],f32>
  return %w, %norm : !torch.vtensor<[8,4,5],f32>, !torch.vtensor<[1,1,5],f32>
}
