// RUN: mlc-opt %s --split-input-file --pass-pipeline='builtin.module(torch-func-backend-type-conversion, mlc-convert-torch-to-mlc, func.func(torch-finalizing-backend-type-conversion))' | FileCheck %s

/// linalg_det of a batch of 2x2 matrices: LU with partial pivoting, unrolled. Step 0
/// picks the row of the largest |A[i, 0]|, swaps it with row 0 (flipping the sign
/// when it moves), and takes its multiple off the rows below; the determinant is
/// the signed product of the pivots.

// CHECK-LABEL: func.func @det_2x2
// CHECK-SAME: (%[[A:.*]]: tensor<3x2x2xf32>) -> tensor<3xf32>
// CHECK: %[[COL:.*]] = "mlc.slice"(%[[A]]) {limit = array<i64: 3, 2, 1>, start = array<i64: 0, 0, 0>
// CHECK: %[[ABS:.*]] = "mlc.abs"(%[[COL]])
// CHECK: %[[P:.*]] = "mlc.argmax"(%{{.*}}) {axis = 1 : i64, keepdim = true} : (tensor<3x2x1xf32>) -> tensor<3x1x1xi64>
// CHECK: %[[AT_P:.*]] = "mlc.compare"(%{{.*}}, %[[P]]) {predicate = "eq"} : (tensor<2x1xi64>, tensor<3x1x1xi64>) -> tensor<3x2x1xi1>
// CHECK: %[[ROW_P:.*]] = "mlc.reduce_sum"(%{{.*}}) {axes = array<i64: 1>, keepdim = true} : (tensor<3x2x2xf32>) -> tensor<3x1x2xf32>
// CHECK: %[[ROW_0:.*]] = "mlc.slice"(%[[A]]) {limit = array<i64: 3, 1, 2>
// CHECK: %[[MOVED:.*]] = "mlc.select"(%[[AT_P]], %[[ROW_0]], %[[A]])
// CHECK: %[[SWAPPED:.*]] = "mlc.select"(%{{.*}}, %[[ROW_P]], %[[MOVED]])
// CHECK: %[[PIVOT0:.*]] = "mlc.slice"(%[[ROW_P]]) {limit = array<i64: 3, 1, 1>
// CHECK: "mlc.div"
// CHECK: %[[REDUCED:.*]] = "mlc.sub"(%[[SWAPPED]], %{{.*}}) : (tensor<3x2x2xf32>, tensor<3x2x2xf32>) -> tensor<3x2x2xf32>
// CHECK: "mlc.argmax"
// CHECK: %[[SIGN:.*]] = "mlc.select"(%{{.*}}, %{{.*}}, %{{.*}}) : (tensor<3x1x1xi1>, tensor<3x1x1xf32>, tensor<3x1x1xf32>) -> tensor<3x1x1xf32>
// CHECK: %[[PIVOT1:.*]] = "mlc.slice"
// CHECK: %[[D0:.*]] = "mlc.mul"(%[[SIGN]], %[[PIVOT0]])
// CHECK: %[[D1:.*]] = "mlc.mul"(%[[D0]], %[[PIVOT1]])
// CHECK: %[[DET:.*]] = "mlc.reshape"(%[[D1]]) : (tensor<3x1x1xf32>) -> tensor<3xf32>
// CHECK: return %[[DET]]
func.func @det_2x2(%arg0: !torch.vtensor<[3,2,2],f32>) -> !torch.vtensor<[3],f32> {
  %0 = torch.aten.linalg_det %arg0 : !torch.vtensor<[3,2,2],f32> -> !torch.vtensor<[3],f32>
  return %0 : !torch.vtensor<[3],f32>
}

// -----

/// The determinant of a 0x0 matrix is 1.

// CHECK-LABEL: func.func @det_empty
// CHECK: %[[ONE:.*]] = "mlc.constant"() {value = dense<1.000000e+00> : tensor<f32>}
// CHECK: return %[[ONE]]
func.func @det_empty(%arg0: !torch.vtensor<[0,0],f32>) -> !torch.vtensor<[],f32> {
  %0 = torch.aten.linalg_det %arg0 : !torch.vtensor<[0,0],f32> -> !torch.vtensor<[],f32>
  return %0 : !torch.vtensor<[],f32>
}

// -----

/// linalg_slogdet: the sign from the pivots' signs and the permutation's, log|det|
/// the sum of the pivots' log magnitudes.

// CHECK-LABEL: func.func @slogdet
// CHECK: "mlc.argmax"
// CHECK: "mlc.sign"
// CHECK: "mlc.abs"
// CHECK: "mlc.log"
// CHECK: "mlc.add"
// CHECK: return %{{.*}}, %{{.*}} : tensor<f32>, tensor<f32>
// CHECK-NOT: torch.aten
func.func @slogdet(%arg0: !torch.vtensor<[3,3],f32>) -> (!torch.vtensor<[],f32>, !torch.vtensor<[],f32>) {
  %sign, %logabsdet = torch.aten.linalg_slogdet %arg0 : !torch.vtensor<[3,3],f32> -> !torch.vtensor<[],f32>, !torch.vtensor<[],f32>
  return %sign, %logabsdet : !torch.vtensor<[],f32>, !torch.vtensor<[],f32>
}
