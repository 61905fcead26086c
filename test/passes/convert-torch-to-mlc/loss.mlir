// RUN: mlc-opt %s --split-input-file --pass-pipeline='builtin.module(torch-func-backend-type-conversion, mlc-convert-torch-to-mlc, func.func(torch-finalizing-backend-type-conversion))' | FileCheck %s

/// nll_loss_forward (reduction mean, a weight, ignore_index 3): the target's
/// log-probability taken along the classes, weighted, 0 where ignored, summed and
/// divided by the total weight of the targets not ignored.

// CHECK-LABEL: func.func @nll_loss_weight_ignore_mean
// CHECK-SAME: (%[[X:.*]]: tensor<5x4xf32>, %[[T:.*]]: tensor<5xi64>, %[[W:.*]]: tensor<4xf32>)
// CHECK: %[[COUNTS:.*]] = "mlc.compare"(%[[T]], %{{.*}}) {predicate = "ne"}
// CHECK: %[[SAFE:.*]] = "mlc.select"(%[[COUNTS]], %[[T]], %{{.*}}) : (tensor<5xi1>, tensor<5xi64>, tensor<i64>) -> tensor<5xi64>
// CHECK: %[[TW:.*]] = "mlc.gather"(%[[W]], %[[SAFE]]) {axis = 0 : i64}
// CHECK: %[[WEIGHT:.*]] = "mlc.select"(%[[COUNTS]], %[[TW]], %{{.*}}) : (tensor<5xi1>, tensor<5xf32>, tensor<f32>) -> tensor<5xf32>
// CHECK: %[[PICKED:.*]] = "mlc.take_along_axis"(%[[X]], %{{.*}}) {axis = 1 : i64} : (tensor<5x4xf32>, tensor<5x1xi64>) -> tensor<5x1xf32>
// CHECK: %[[LOSS:.*]] = "mlc.neg"
// CHECK-DAG: %[[TOTAL:.*]] = "mlc.reduce_sum"(%[[WEIGHT]])
// CHECK-DAG: %[[SUM:.*]] = "mlc.reduce_sum"(%[[LOSS]])
// CHECK: %[[MEAN:.*]] = "mlc.div"(%[[SUM]], %[[TOTAL]])
// CHECK: return %[[MEAN]]
func.func @nll_loss_weight_ignore_mean(%arg0: !torch.vtensor<[5,4],f32>, %arg1: !torch.vtensor<[5],si64>, %arg2: !torch.vtensor<[4],f32>) -> !torch.vtensor<[],f32> {
  %int1 = torch.constant.int 1
  %int3 = torch.constant.int 3
  %output, %total_weight = torch.aten.nll_loss_forward %arg0, %arg1, %arg2, %int1, %int3 : !torch.vtensor<[5,4],f32>, !torch.vtensor<[5],si64>, !torch.vtensor<[4],f32>, !torch.int, !torch.int -> !torch.vtensor<[],f32>, !torch.vtensor<[],f32>
  return %output : !torch.vtensor<[],f32>
}

// -----

/// nll_loss2d_forward (N-D input, reduction none): the classes moved last.

// CHECK-LABEL: func.func @nll_loss2d_none
// CHECK: %[[LAST:.*]] = "mlc.transpose"(%{{.*}}) {permutation = array<i64: 0, 2, 3, 1>} : (tensor<2x4x1x3xf32>) -> tensor<2x1x3x4xf32>
// CHECK: "mlc.take_along_axis"(%[[LAST]], %{{.*}}) {axis = 3 : i64} : (tensor<2x1x3x4xf32>, tensor<2x1x3x1xi64>) -> tensor<2x1x3x1xf32>
// CHECK: %[[LOSS:.*]] = "mlc.neg"(%{{.*}}) : (tensor<2x1x3xf32>) -> tensor<2x1x3xf32>
// CHECK-NEXT: return %[[LOSS]]
func.func @nll_loss2d_none(%arg0: !torch.vtensor<[2,4,1,3],f32>, %arg1: !torch.vtensor<[2,1,3],si64>) -> !torch.vtensor<[2,1,3],f32> {
  %int-100 = torch.constant.int -100
  %int0 = torch.constant.int 0
  %none = torch.constant.none
  %output, %total_weight = torch.aten.nll_loss2d_forward %arg0, %arg1, %none, %int0, %int-100 : !torch.vtensor<[2,4,1,3],f32>, !torch.vtensor<[2,1,3],si64>, !torch.none, !torch.int, !torch.int -> !torch.vtensor<[2,1,3],f32>, !torch.vtensor<[],f32>
  return %output : !torch.vtensor<[2,1,3],f32>
}

// -----

/// nll_loss_backward (reduction sum): -weight * grad at each target's class, 0 elsewhere.

// CHECK-LABEL: func.func @nll_loss_backward_sum
// CHECK-SAME: (%[[G:.*]]: tensor<f32>, %{{.*}}: tensor<5x4xf32>, %[[T:.*]]: tensor<5xi64>, %{{.*}}: tensor<f32>)
// CHECK: %[[SCALED:.*]] = "mlc.mul"(%{{.*}}, %[[G]]) : (tensor<5xf32>, tensor<f32>) -> tensor<5xf32>
// CHECK: %[[COEF:.*]] = "mlc.neg"(%[[SCALED]])
// CHECK: %[[CLASSES:.*]] = "mlc.constant"() {value = dense<[0, 1, 2, 3]> : tensor<4xi64>}
// CHECK: %[[AT:.*]] = "mlc.compare"(%{{.*}}, %[[CLASSES]]) {predicate = "eq"} : (tensor<5x1xi64>, tensor<4xi64>) -> tensor<5x4xi1>
// CHECK: %[[COEF2:.*]] = "mlc.reshape"(%[[COEF]]) : (tensor<5xf32>) -> tensor<5x1xf32>
// CHECK: %[[GRAD:.*]] = "mlc.select"(%[[AT]], %[[COEF2]], %{{.*}}) : (tensor<5x4xi1>, tensor<5x1xf32>, tensor<f32>) -> tensor<5x4xf32>
// CHECK: return %[[GRAD]]
func.func @nll_loss_backward_sum(%arg0: !torch.vtensor<[],f32>, %arg1: !torch.vtensor<[5,4],f32>, %arg2: !torch.vtensor<[5],si64>, %arg3: !torch.vtensor<[],f32>) -> !torch.vtensor<[5,4],f32> {
  %none = torch.constant.none
  %int2 = torch.constant.int 2
  %int-100 = torch.constant.int -100
  %0 = torch.aten.nll_loss_backward %arg0, %arg1, %arg2, %none, %int2, %int-100, %arg3 : !torch.vtensor<[],f32>, !torch.vtensor<[5,4],f32>, !torch.vtensor<[5],si64>, !torch.none, !torch.int, !torch.int, !torch.vtensor<[],f32> -> !torch.vtensor<[5,4],f32>
  return %0 : !torch.vtensor<[5,4],f32>
}

// -----

/// cross_entropy_loss with label smoothing 0.25 over 4 classes: log_softmax, then
/// 0.75 * nll + 0.0625 * the masked -sum of the log-probabilities, both over the total weight.

// CHECK-LABEL: func.func @cross_entropy_label_smoothing
// CHECK: "mlc.reduce_max"(%{{.*}}) {axes = array<i64: 1>, keepdim = true}
// CHECK: "mlc.log"
// CHECK: %[[LP:.*]] = "mlc.sub"(%{{.*}}, %{{.*}}) : (tensor<5x4xf32>, tensor<5x1xf32>) -> tensor<5x4xf32>
// CHECK: "mlc.take_along_axis"(%[[LP]], %{{.*}}) {axis = 1 : i64}
// CHECK: %[[NLL:.*]] = "mlc.div"
// CHECK: "mlc.reduce_sum"(%[[LP]]) {axes = array<i64: 1>, keepdim = false} : (tensor<5x4xf32>) -> tensor<5xf32>
// CHECK: %[[SMOOTH:.*]] = "mlc.div"
// CHECK-DAG: %[[KEEP:.*]] = "mlc.constant"() {value = dense<7.500000e-01> : tensor<f32>}
// CHECK-DAG: %[[SPREAD:.*]] = "mlc.constant"() {value = dense<6.250000e-02> : tensor<f32>}
// CHECK-DAG: %[[A:.*]] = "mlc.mul"(%[[NLL]], %[[KEEP]])
// CHECK-DAG: %[[B:.*]] = "mlc.mul"(%[[SMOOTH]], %[[SPREAD]])
// CHECK: %[[R:.*]] = "mlc.add"(%[[A]], %[[B]])
// CHECK: return %[[R]]
func.func @cross_entropy_label_smoothing(%arg0: !torch.vtensor<[5,4],f32>, %arg1: !torch.vtensor<[5],si64>) -> !torch.vtensor<[],f32> {
  %none = torch.constant.none
  %int1 = torch.constant.int 1
  %int-100 = torch.constant.int -100
  %float2.500000e-01 = torch.constant.float 2.500000e-01
  %0 = torch.aten.cross_entropy_loss %arg0, %arg1, %none, %int1, %int-100, %float2.500000e-01 : !torch.vtensor<[5,4],f32>, !torch.vtensor<[5],si64>, !torch.none, !torch.int, !torch.int, !torch.float -> !torch.vtensor<[],f32>
  return %0 : !torch.vtensor<[],f32>
}

// -----

/// cross_entropy_loss of probability targets (reduction sum): -sum(p * log_softmax).

// CHECK-LABEL: func.func @cross_entropy_probabilities_sum
// CHECK-SAME: (%{{.*}}: tensor<5x4xf32>, %[[P:.*]]: tensor<5x4xf32>)
// CHECK: "mlc.log"
// CHECK: %[[LP:.*]] = "mlc.sub"(%{{.*}}, %{{.*}}) : (tensor<5x4xf32>, tensor<5x1xf32>) -> tensor<5x4xf32>
// CHECK: %[[PROD:.*]] = "mlc.mul"(%[[LP]], %[[P]])
// CHECK: %[[ROW:.*]] = "mlc.reduce_sum"(%[[PROD]]) {axes = array<i64: 1>, keepdim = false}
// CHECK: %[[NEG:.*]] = "mlc.neg"(%[[ROW]])
// CHECK: %[[SUM:.*]] = "mlc.reduce_sum"(%[[NEG]]) {axes = array<i64: 0>, keepdim = false} : (tensor<5xf32>) -> tensor<f32>
// CHECK: return %[[SUM]]
// CHECK-NOT: torch.aten
func.func @cross_entropy_probabilities_sum(%arg0: !torch.vtensor<[5,4],f32>, %arg1: !torch.vtensor<[5,4],f32>) -> !torch.vtensor<[],f32> {
  %none = torch.constant.none
  %int2 = torch.constant.int 2
  %int-100 = torch.constant.int -100
  %float0.000000e00 = torch.constant.float 0.000000e+00
  %0 = torch.aten.cross_entropy_loss %arg0, %arg1, %none, %int2, %int-100, %float0.000000e00 : !torch.vtensor<[5,4],f32>, !torch.vtensor<[5,4],f32>, !torch.none, !torch.int, !torch.int, !torch.float -> !torch.vtensor<[],f32>
  return %0 : !torch.vtensor<[],f32>
}
