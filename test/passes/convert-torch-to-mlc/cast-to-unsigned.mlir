// RUN: mlc-opt %s --split-input-file --pass-pipeline='builtin.module(torch-func-backend-type-conversion, mlc-convert-torch-to-mlc, func.func(torch-finalizing-backend-type-conversion))' | FileCheck %s

/// A cast into uint8 (torch's `.byte()`) keeps the low 8 bits of torch's integer:
/// a float goes through i64 first (-1.5 is 255), an integer is truncated.

// CHECK-LABEL: func.func @float_to_uint8
// CHECK-SAME: (%[[X:.*]]: tensor<4xf32>)
// CHECK: %[[WIDE:.*]] = "mlc.cast"(%[[X]]) : (tensor<4xf32>) -> tensor<4xi64>
// CHECK: %[[BYTES:.*]] = "mlc.cast"(%[[WIDE]]) : (tensor<4xi64>) -> tensor<4xi8>
// CHECK-NOT: torch.aten
func.func @float_to_uint8(%arg0: !torch.vtensor<[4],f32>) -> !torch.vtensor<[4],ui8> {
  %int0 = torch.constant.int 0
  %false = torch.constant.bool false
  %none = torch.constant.none
  %0 = torch.aten.to.dtype %arg0, %int0, %false, %false, %none : !torch.vtensor<[4],f32>, !torch.int, !torch.bool, !torch.bool, !torch.none -> !torch.vtensor<[4],ui8>
  return %0 : !torch.vtensor<[4],ui8>
}

// -----

// CHECK-LABEL: func.func @int64_to_uint8
// CHECK-SAME: (%[[X:.*]]: tensor<4xi64>)
// CHECK: "mlc.cast"(%[[X]]) : (tensor<4xi64>) -> tensor<4xi8>
// CHECK-NOT: mlc.cast
// CHECK-NOT: torch.aten
func.func @int64_to_uint8(%arg0: !torch.vtensor<[4],si64>) -> !torch.vtensor<[4],ui8> {
  %int0 = torch.constant.int 0
  %false = torch.constant.bool false
  %none = torch.constant.none
  %0 = torch.aten.to.dtype %arg0, %int0, %false, %false, %none : !torch.vtensor<[4],si64>, !torch.int, !torch.bool, !torch.bool, !torch.none -> !torch.vtensor<[4],ui8>
  return %0 : !torch.vtensor<[4],ui8>
}
