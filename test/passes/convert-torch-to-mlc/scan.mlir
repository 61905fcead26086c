// RUN: mlc-opt %s --split-input-file --pass-pipeline='builtin.module(torch-func-backend-type-conversion, mlc-convert-torch-to-mlc, func.func(torch-finalizing-backend-type-conversion))' | FileCheck %s

/// cumsum and cumprod become mlc.cumsum and mlc.cumprod.

// CHECK-LABEL: func.func @cumsum_int
// CHECK: "mlc.cumsum"(%arg0) {axis = 0 : i64} : (tensor<5x3xi64>) -> tensor<5x3xi64>
func.func @cumsum_int(%arg0: !torch.vtensor<[5,3],si64>) -> !torch.vtensor<[5,3],si64> {
  %int0 = torch.constant.int 0
  %none = torch.constant.none
  %0 = torch.aten.cumsum %arg0, %int0, %none : !torch.vtensor<[5,3],si64>, !torch.int, !torch.none -> !torch.vtensor<[5,3],si64>
  return %0 : !torch.vtensor<[5,3],si64>
}

// -----

// CHECK-LABEL: func.func @cumprod
// CHECK: "mlc.cumprod"(%arg0) {axis = 1 : i64} : (tensor<3x6xf32>) -> tensor<3x6xf32>
func.func @cumprod(%arg0: !torch.vtensor<[3,6],f32>) -> !torch.vtensor<[3,6],f32> {
  %int1 = torch.constant.int 1
  %none = torch.constant.none
  %0 = torch.aten.cumprod %arg0, %int1, %none : !torch.vtensor<[3,6],f32>, !torch.int, !torch.none -> !torch.vtensor<[3,6],f32>
  return %0 : !torch.vtensor<[3,6],f32>
}

// -----

/// logcumsumexp is kept whole (torch-mlir's log(cumsum(exp(x))) overflows).
// CHECK-LABEL: func.func @logcumsumexp
// CHECK: "mlc.logcumsumexp"(%arg0) {axis = 1 : i64} : (tensor<3x6xf32>) -> tensor<3x6xf32>
func.func @logcumsumexp(%arg0: !torch.vtensor<[3,6],f32>) -> !torch.vtensor<[3,6],f32> {
  %int-1 = torch.constant.int -1
  %0 = torch.aten.logcumsumexp %arg0, %int-1 : !torch.vtensor<[3,6],f32>, !torch.int -> !torch.vtensor<[3,6],f32>
  return %0 : !torch.vtensor<[3,6],f32>
}
