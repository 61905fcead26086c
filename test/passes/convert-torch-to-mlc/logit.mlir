// RUN: mlc-opt %s --split-input-file --pass-pipeline='builtin.module(torch-func-backend-type-conversion, mlc-convert-torch-to-mlc, func.func(torch-finalizing-backend-type-conversion))' | FileCheck %s

/// logit: log(x / (1 - x)), x first clamped to [eps, 1 - eps] when eps is given;
/// an integer input is cast to the float result first.

// CHECK-LABEL: func.func @logit_eps
// CHECK-SAME: (%[[X:.*]]: tensor<4xf32>)
// CHECK: %[[C:.*]] = "mlc.clamp"(%[[X]]) {max = 7.500000e-01 : f64, min = 2.500000e-01 : f64}
// CHECK: %[[ONE:.*]] = "mlc.constant"() {value = dense<1.000000e+00> : tensor<f32>}
// CHECK: %[[D:.*]] = "mlc.sub"(%[[ONE]], %[[C]])
// CHECK: %[[Q:.*]] = "mlc.div"(%[[C]], %[[D]])
// CHECK: %[[L:.*]] = "mlc.log"(%[[Q]]) : (tensor<4xf32>) -> tensor<4xf32>
// CHECK: return %[[L]]
// CHECK-NOT: torch.aten
func.func @logit_eps(%arg0: !torch.vtensor<[4],f32>) -> !torch.vtensor<[4],f32> {
  %eps = torch.constant.float 2.500000e-01
  %0 = torch.aten.logit %arg0, %eps : !torch.vtensor<[4],f32>, !torch.float -> !torch.vtensor<[4],f32>
  return %0 : !torch.vtensor<[4],f32>
}

// -----

// CHECK-LABEL: func.func @logit_int_no_eps
// CHECK-SAME: (%[[X:.*]]: tensor<4xi64>)
// CHECK-NOT: mlc.clamp
// CHECK: %[[F:.*]] = "mlc.cast"(%[[X]]) : (tensor<4xi64>) -> tensor<4xf32>
// CHECK: %[[D:.*]] = "mlc.sub"(%{{.*}}, %[[F]])
// CHECK: %[[Q:.*]] = "mlc.div"(%[[F]], %[[D]])
// CHECK: "mlc.log"(%[[Q]])
// CHECK-NOT: torch.aten
func.func @logit_int_no_eps(%arg0: !torch.vtensor<[4],si64>) -> !torch.vtensor<[4],f32> {
  %none = torch.constant.none
  %0 = torch.aten.logit %arg0, %none : !torch.vtensor<[4],si64>, !torch.none -> !torch.vtensor<[4],f32>
  return %0 : !torch.vtensor<[4],f32>
}

// -----

/// log_sigmoid: min(x, 0) - log1p(exp(-|x|)), finite where sigmoid underflows
/// (torch-mlir's own log(sigmoid(x)) gave -inf below about -104).

// CHECK-LABEL: func.func @log_sigmoid
// CHECK-SAME: (%[[X:.*]]: tensor<4xf32>)
// CHECK: %[[LOW:.*]] = "mlc.minimum"(%[[X]], %{{.*}})
// CHECK: %[[A:.*]] = "mlc.abs"(%[[X]])
// CHECK: %[[N:.*]] = "mlc.neg"(%[[A]])
// CHECK: %[[E:.*]] = "mlc.exp"(%[[N]])
// CHECK: %[[L:.*]] = "mlc.log1p"(%[[E]])
// CHECK: %[[R:.*]] = "mlc.sub"(%[[LOW]], %[[L]])
// CHECK: return %[[R]]
// CHECK-NOT: mlc.sigmoid
func.func @log_sigmoid(%arg0: !torch.vtensor<[4],f32>) -> !torch.vtensor<[4],f32> {
  %0 = torch.aten.log_sigmoid %arg0 : !torch.vtensor<[4],f32> -> !torch.vtensor<[4],f32>
  return %0 : !torch.vtensor<[4],f32>
}
