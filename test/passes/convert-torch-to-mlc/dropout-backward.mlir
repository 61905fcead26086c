// RUN: mlc-opt %s --split-input-file --pass-pipeline='builtin.module(torch-func-backend-type-conversion, mlc-convert-torch-to-mlc, func.func(torch-finalizing-backend-type-conversion))' | FileCheck %s

/// Training-mode dropout's gradient, native_dropout_backward(grad, mask, 1 / (1 - p)):
/// grad * (mask * scale), the boolean mask cast to the gradient's type.

// CHECK-LABEL: func.func @native_dropout_backward
// CHECK-SAME: (%[[G:.*]]: tensor<4x5xf32>, %[[M:.*]]: tensor<4x5xi1>)
// CHECK-DAG:  %[[SCALE:.*]] = "mlc.constant"() {value = dense<2.000000e+00> : tensor<f32>}
// CHECK-DAG:  %[[F:.*]] = "mlc.cast"(%[[M]]) : (tensor<4x5xi1>) -> tensor<4x5xf32>
// CHECK:      %[[FS:.*]] = "mlc.mul"(%[[F]], %[[SCALE]]) : (tensor<4x5xf32>, tensor<f32>) -> tensor<4x5xf32>
// CHECK-NEXT: %[[R:.*]] = "mlc.mul"(%[[G]], %[[FS]]) : (tensor<4x5xf32>, tensor<4x5xf32>) -> tensor<4x5xf32>
// CHECK-NEXT: return %[[R]]
func.func @native_dropout_backward(%arg0: !torch.vtensor<[4,5],f32>, %arg1: !torch.vtensor<[4,5],i1>) -> !torch.vtensor<[4,5],f32> {
  %float2 = torch.constant.float 2.000000e+00
  %0 = torch.aten.native_dropout_backward %arg0, %arg1, %float2 : !torch.vtensor<[4,5],f32>, !torch.vtensor<[4,5],i1>, !torch.float -> !torch.vtensor<[4,5],f32>
  return %0 : !torch.vtensor<[4,5],f32>
}

// -----

/// An integer gradient gives floats, as in torch: the gradient is cast first.

// CHECK-LABEL: func.func @integer_gradient
// CHECK-SAME: (%[[G:.*]]: tensor<5xi64>, %[[M:.*]]: tensor<5xi1>)
// CHECK-DAG:  %[[GF:.*]] = "mlc.cast"(%[[G]]) : (tensor<5xi64>) -> tensor<5xf32>
// CHECK-DAG:  %[[F:.*]] = "mlc.cast"(%[[M]]) : (tensor<5xi1>) -> tensor<5xf32>
// CHECK:      %[[FS:.*]] = "mlc.mul"(%[[F]], %{{.*}}) : (tensor<5xf32>, tensor<f32>) -> tensor<5xf32>
// CHECK-NEXT: %[[R:.*]] = "mlc.mul"(%[[GF]], %[[FS]]) : (tensor<5xf32>, tensor<5xf32>) -> tensor<5xf32>
// CHECK-NEXT: return %[[R]]
func.func @integer_gradient(%arg0: !torch.vtensor<[5],si64>, %arg1: !torch.vtensor<[5],i1>) -> !torch.vtensor<[5],f32> {
  %float2 = torch.constant.float 2.000000e+00
  %0 = torch.aten.native_dropout_backward %arg0, %arg1, %float2 : !torch.vtensor<[5],si64>, !torch.vtensor<[5],i1>, !torch.float -> !torch.vtensor<[5],f32>
  return %0 : !torch.vtensor<[5],f32>
}
