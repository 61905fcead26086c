// RUN: mlc-opt %s --split-input-file --pass-pipeline='builtin.module(torch-func-backend-type-conversion, mlc-convert-torch-to-mlc, func.func(torch-finalizing-backend-type-conversion))' | FileCheck %s

/// The backward ops of training graphs. threshold_backward: grad where x > threshold, else 0.

// CHECK-LABEL: func.func @threshold_backward
// CHECK-SAME: (%[[G:.*]]: tensor<2x3xf32>, %[[X:.*]]: tensor<2x3xf32>)
// CHECK: %[[T:.*]] = "mlc.constant"() {value = dense<5.000000e-01> : tensor<f32>}
// CHECK: %[[BELOW:.*]] = "mlc.compare"(%[[X]], %[[T]]) {predicate = "le"}
// CHECK: %[[R:.*]] = "mlc.select"(%[[BELOW]], %{{.*}}, %[[G]])
// CHECK: return %[[R]]
func.func @threshold_backward(%arg0: !torch.vtensor<[2,3],f32>, %arg1: !torch.vtensor<[2,3],f32>) -> !torch.vtensor<[2,3],f32> {
  %float5.000000e-01 = torch.constant.float 5.000000e-01
  %0 = torch.aten.threshold_backward %arg0, %arg1, %float5.000000e-01 : !torch.vtensor<[2,3],f32>, !torch.vtensor<[2,3],f32>, !torch.float -> !torch.vtensor<[2,3],f32>
  return %0 : !torch.vtensor<[2,3],f32>
}

// -----

/// Integers compare with the threshold truncated toward zero, as torch converts it (-0.5 is 0).

// CHECK-LABEL: func.func @threshold_backward_int64
// CHECK-SAME: (%[[G:.*]]: tensor<2x3xi64>, %[[X:.*]]: tensor<2x3xi64>)
// CHECK: %[[T:.*]] = "mlc.constant"() {value = dense<0> : tensor<i64>}
// CHECK: %[[BELOW:.*]] = "mlc.compare"(%[[X]], %[[T]]) {predicate = "le"}
// CHECK: %[[R:.*]] = "mlc.select"(%[[BELOW]], %{{.*}}, %[[G]])
// CHECK: return %[[R]]
func.func @threshold_backward_int64(%arg0: !torch.vtensor<[2,3],si64>, %arg1: !torch.vtensor<[2,3],si64>) -> !torch.vtensor<[2,3],si64> {
  %float-5.000000e-01 = torch.constant.float -5.000000e-01
  %0 = torch.aten.threshold_backward %arg0, %arg1, %float-5.000000e-01 : !torch.vtensor<[2,3],si64>, !torch.vtensor<[2,3],si64>, !torch.float -> !torch.vtensor<[2,3],si64>
  return %0 : !torch.vtensor<[2,3],si64>
}

// -----

/// Mixed types: x is compared in torch's promotion of the two types (here as float32,
/// 0.75 > 0.5), the result has torch.export's type, the gradient's.

// CHECK-LABEL: func.func @threshold_backward_int_gradient_float_input
// CHECK-SAME: (%[[G:.*]]: tensor<2x3xi64>, %[[X:.*]]: tensor<2x3xf32>)
// CHECK: %[[T:.*]] = "mlc.constant"() {value = dense<5.000000e-01> : tensor<f32>}
// CHECK: %[[BELOW:.*]] = "mlc.compare"(%[[X]], %[[T]]) {predicate = "le"}
// CHECK: %[[ZERO:.*]] = "mlc.constant"() {value = dense<0> : tensor<i64>}
// CHECK: "mlc.select"(%[[BELOW]], %[[ZERO]], %[[G]]) : (tensor<2x3xi1>, tensor<i64>, tensor<2x3xi64>) -> tensor<2x3xi64>
func.func @threshold_backward_int_gradient_float_input(%arg0: !torch.vtensor<[2,3],si64>, %arg1: !torch.vtensor<[2,3],f32>) -> !torch.vtensor<[2,3],si64> {
  %float5.000000e-01 = torch.constant.float 5.000000e-01
  %0 = torch.aten.threshold_backward %arg0, %arg1, %float5.000000e-01 : !torch.vtensor<[2,3],si64>, !torch.vtensor<[2,3],f32>, !torch.float -> !torch.vtensor<[2,3],si64>
  return %0 : !torch.vtensor<[2,3],si64>
}

// -----

/// gelu_backward with approximate "tanh": grad times torch's derivative of the tanh form.

// CHECK-LABEL: func.func @gelu_backward_tanh
// CHECK-SAME: (%[[G:.*]]: tensor<2x3xf32>, %[[X:.*]]: tensor<2x3xf32>)
// CHECK: "mlc.tanh"
// CHECK-NOT: "mlc.erf"
// CHECK: %[[R:.*]] = "mlc.mul"(%[[G]], %{{.*}})
// CHECK-NEXT: return %[[R]]
func.func @gelu_backward_tanh(%arg0: !torch.vtensor<[2,3],f32>, %arg1: !torch.vtensor<[2,3],f32>) -> !torch.vtensor<[2,3],f32> {
  %str = torch.constant.str "tanh"
  %0 = torch.aten.gelu_backward %arg0, %arg1, %str : !torch.vtensor<[2,3],f32>, !torch.vtensor<[2,3],f32>, !torch.str -> !torch.vtensor<[2,3],f32>
  return %0 : !torch.vtensor<[2,3],f32>
}

// -----

/// gelu_backward, exact: Phi(x) + x phi(x), through erf and exp.

// CHECK-LABEL: func.func @gelu_backward_none
// CHECK: "mlc.erf"
// CHECK: "mlc.exp"
// CHECK-NOT: "mlc.tanh"
func.func @gelu_backward_none(%arg0: !torch.vtensor<[2,3],f32>, %arg1: !torch.vtensor<[2,3],f32>) -> !torch.vtensor<[2,3],f32> {
  %str = torch.constant.str "none"
  %0 = torch.aten.gelu_backward %arg0, %arg1, %str : !torch.vtensor<[2,3],f32>, !torch.vtensor<[2,3],f32>, !torch.str -> !torch.vtensor<[2,3],f32>
  return %0 : !torch.vtensor<[2,3],f32>
}

// -----

/// elu_backward from the result (is_result): no exp, grad * (r + alpha * scale) below 0.

// CHECK-LABEL: func.func @elu_backward_result
// CHECK-SAME: (%[[G:.*]]: tensor<2x3xf32>, %[[R:.*]]: tensor<2x3xf32>)
// CHECK-NOT: "mlc.exp"
// CHECK: %[[SHIFTED:.*]] = "mlc.add"(%[[R]], %{{.*}})
// CHECK: %[[NEG:.*]] = "mlc.mul"(%{{.*}}, %[[SHIFTED]])
// CHECK: %[[BELOW:.*]] = "mlc.compare"(%[[R]], %{{.*}}) {predicate = "le"}
// CHECK: %[[OUT:.*]] = "mlc.select"(%[[BELOW]], %[[NEG]], %{{.*}})
// CHECK: return %[[OUT]]
func.func @elu_backward_result(%arg0: !torch.vtensor<[2,3],f32>, %arg1: !torch.vtensor<[2,3],f32>) -> !torch.vtensor<[2,3],f32> {
  %float1.000000e00 = torch.constant.float 1.000000e+00
  %true = torch.constant.bool true
  %0 = torch.aten.elu_backward %arg0, %float1.000000e00, %float1.000000e00, %float1.000000e00, %true, %arg1 : !torch.vtensor<[2,3],f32>, !torch.float, !torch.float, !torch.float, !torch.bool, !torch.vtensor<[2,3],f32> -> !torch.vtensor<[2,3],f32>
  return %0 : !torch.vtensor<[2,3],f32>
}

// -----

/// upsample_nearest2d_backward (4x3 -> 2x2): per axis a matmul with the 0/1 matrix of
/// which input each output read (width: outputs 0, 1 read input 0, output 2 input 1).

// CHECK-LABEL: func.func @upsample_nearest2d_backward
// CHECK: %[[ROWS:.*]] = "mlc.constant"() {value = dense<{{\[\[}}1.000000e+00, 0.000000e+00], [1.000000e+00, 0.000000e+00], [0.000000e+00, 1.000000e+00], [0.000000e+00, 1.000000e+00]]> : tensor<4x2xf32>}
// CHECK: "mlc.transpose"(%{{.*}}) {permutation = array<i64: 0, 1, 3, 2>}
// CHECK: "mlc.matmul"(%{{.*}}, %[[ROWS]]) : (tensor<6x4xf32>, tensor<4x2xf32>) -> tensor<6x2xf32>
// CHECK: %[[COLS:.*]] = "mlc.constant"() {value = dense<{{\[\[}}1.000000e+00, 0.000000e+00], [1.000000e+00, 0.000000e+00], [0.000000e+00, 1.000000e+00]]> : tensor<3x2xf32>}
// CHECK: "mlc.matmul"(%{{.*}}, %[[COLS]]) : (tensor<4x3xf32>, tensor<3x2xf32>) -> tensor<4x2xf32>
// CHECK: return {{.*}} : tensor<1x2x2x2xf32>
func.func @upsample_nearest2d_backward(%arg0: !torch.vtensor<[1,2,4,3],f32>) -> !torch.vtensor<[1,2,2,2],f32> {
  %none = torch.constant.none
  %int2 = torch.constant.int 2
  %int1 = torch.constant.int 1
  %int4 = torch.constant.int 4
  %int3 = torch.constant.int 3
  %0 = torch.prim.ListConstruct %int4, %int3 : (!torch.int, !torch.int) -> !torch.list<int>
  %1 = torch.prim.ListConstruct %int1, %int2, %int2, %int2 : (!torch.int, !torch.int, !torch.int, !torch.int) -> !torch.list<int>
  %2 = torch.aten.upsample_nearest2d_backward %arg0, %0, %1, %none, %none : !torch.vtensor<[1,2,4,3],f32>, !torch.list<int>, !torch.list<int>, !torch.none, !torch.none -> !torch.vtensor<[1,2,2,2],f32>
  return %2 : !torch.vtensor<[1,2,2,2],f32>
}
