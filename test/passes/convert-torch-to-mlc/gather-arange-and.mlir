// RUN: mlc-opt %s --split-input-file --pass-pipeline='builtin.module(torch-func-backend-type-conversion, mlc-convert-torch-to-mlc, func.func(torch-finalizing-backend-type-conversion))' | FileCheck %s

/// torch.gather, torch.arange with constant bounds and `&` on integer tensors,
/// as torch.export gives them.

// CHECK-LABEL: func.func @gather
// CHECK-SAME: (%[[X:.*]]: tensor<4x5xf32>, %[[I:.*]]: tensor<4x3xi64>)
// CHECK:      %[[R:.*]] = "mlc.take_along_axis"(%[[X]], %[[I]]) {axis = 1 : i64} : (tensor<4x5xf32>, tensor<4x3xi64>) -> tensor<4x3xf32>
// CHECK-NEXT: return %[[R]]
func.func @gather(%arg0: !torch.vtensor<[4,5],f32>, %arg1: !torch.vtensor<[4,3],si64>) -> !torch.vtensor<[4,3],f32> {
  %int1 = torch.constant.int 1
  %false = torch.constant.bool false
  %0 = torch.aten.gather %arg0, %int1, %arg1, %false : !torch.vtensor<[4,5],f32>, !torch.int, !torch.vtensor<[4,3],si64>, !torch.bool -> !torch.vtensor<[4,3],f32>
  return %0 : !torch.vtensor<[4,3],f32>
}

// -----

/// torch.arange(2, 10, 2, dtype=torch.float32): a constant (dtype 6 is float32).

// CHECK-LABEL: func.func @arange_start_step
// CHECK:      %[[C:.*]] = "mlc.constant"() {value = dense<[2.000000e+00, 4.000000e+00, 6.000000e+00, 8.000000e+00]> : tensor<4xf32>} : () -> tensor<4xf32>
// CHECK:      "mlc.add"(%{{.*}}, %[[C]])
// CHECK-NOT:  torch.aten.arange
func.func @arange_start_step(%arg0: !torch.vtensor<[4],f32>) -> !torch.vtensor<[4],f32> {
  %int1 = torch.constant.int 1
  %false = torch.constant.bool false
  %int2 = torch.constant.int 2
  %int10 = torch.constant.int 10
  %int6 = torch.constant.int 6
  %none = torch.constant.none
  %cpu = torch.constant.device "cpu"
  %0 = torch.aten.arange.start_step %int2, %int10, %int2, %int6, %none, %cpu, %false : !torch.int, !torch.int, !torch.int, !torch.int, !torch.none, !torch.Device, !torch.bool -> !torch.vtensor<[4],f32>
  %1 = torch.aten.add.Tensor %arg0, %0, %int1 : !torch.vtensor<[4],f32>, !torch.vtensor<[4],f32>, !torch.int -> !torch.vtensor<[4],f32>
  return %1 : !torch.vtensor<[4],f32>
}

// -----

// CHECK-LABEL: func.func @and_tensor
// CHECK-SAME: (%[[X:.*]]: tensor<4xi64>, %[[Y:.*]]: tensor<4xi64>)
// CHECK:      "mlc.bitwise_and"(%[[X]], %[[Y]]) : (tensor<4xi64>, tensor<4xi64>) -> tensor<4xi64>
func.func @and_tensor(%arg0: !torch.vtensor<[4],si64>, %arg1: !torch.vtensor<[4],si64>) -> !torch.vtensor<[4],si64> {
  %0 = torch.aten.__and__.Tensor %arg0, %arg1 : !torch.vtensor<[4],si64>, !torch.vtensor<[4],si64> -> !torch.vtensor<[4],si64>
  return %0 : !torch.vtensor<[4],si64>
}
