// RUN: mlc-opt %s --split-input-file --pass-pipeline='builtin.module(torch-func-backend-type-conversion, mlc-convert-torch-to-mlc, func.func(torch-finalizing-backend-type-conversion))' | FileCheck %s

/// Inverse hyperbolic functions, xlogy, softmax and log_softmax with a dtype, and
/// matrix products with 1-D operands become mlc ops.

// CHECK-LABEL: func.func @inverse_hyperbolic_of_ints
// CHECK: %[[X:.*]] = "mlc.cast"(%arg0) : (tensor<4xi64>) -> tensor<4xf32>
// CHECK: "mlc.acosh"(%[[X]]) : (tensor<4xf32>) -> tensor<4xf32>
// CHECK: "mlc.asinh"
// CHECK: "mlc.atanh"
func.func @inverse_hyperbolic_of_ints(%arg0: !torch.vtensor<[4],si64>, %arg1: !torch.vtensor<[4],f32>) -> (!torch.vtensor<[4],f32>, !torch.vtensor<[4],f32>, !torch.vtensor<[4],f32>) {
  %0 = torch.aten.acosh %arg0 : !torch.vtensor<[4],si64> -> !torch.vtensor<[4],f32>
  %1 = torch.aten.asinh %arg1 : !torch.vtensor<[4],f32> -> !torch.vtensor<[4],f32>
  %2 = torch.aten.atanh %arg1 : !torch.vtensor<[4],f32> -> !torch.vtensor<[4],f32>
  return %0, %1, %2 : !torch.vtensor<[4],f32>, !torch.vtensor<[4],f32>, !torch.vtensor<[4],f32>
}

// -----

/// xlogy: x * log(y), 0 where x is 0, y itself (NaN) where y is NaN.

// CHECK-LABEL: func.func @xlogy
// CHECK-DAG: %[[Y:.*]] = "mlc.cast"(%arg1) : (tensor<4xi64>) -> tensor<4xf32>
// CHECK-DAG: %[[LOG:.*]] = "mlc.log"(%[[Y]])
// CHECK: %[[PRODUCT:.*]] = "mlc.mul"(%arg0, %[[LOG]]) : (tensor<3x1xf32>, tensor<4xf32>) -> tensor<3x4xf32>
// CHECK: %[[XZERO:.*]] = "mlc.compare"(%arg0, %{{.*}}) {predicate = "eq"}
// CHECK: %[[ZEROED:.*]] = "mlc.select"(%[[XZERO]], %{{.*}}, %[[PRODUCT]])
// CHECK: %[[YNAN:.*]] = "mlc.compare"(%[[Y]], %[[Y]]) {predicate = "ne"}
// CHECK: "mlc.select"(%[[YNAN]], %[[Y]], %[[ZEROED]]) : (tensor<4xi1>, tensor<4xf32>, tensor<3x4xf32>) -> tensor<3x4xf32>
func.func @xlogy(%arg0: !torch.vtensor<[3,1],f32>, %arg1: !torch.vtensor<[4],si64>) -> !torch.vtensor<[3,4],f32> {
  %0 = torch.aten.xlogy.Tensor %arg0, %arg1 : !torch.vtensor<[3,1],f32>, !torch.vtensor<[4],si64> -> !torch.vtensor<[3,4],f32>
  return %0 : !torch.vtensor<[3,4],f32>
}

// -----

/// softmax with a dtype casts first; log_softmax is (x - max) - log(sum(exp(x - max))).

// CHECK-LABEL: func.func @softmax_dtypes
// CHECK: %[[WIDE:.*]] = "mlc.cast"(%arg0) : (tensor<2x5xf32>) -> tensor<2x5xf64>
// CHECK: "mlc.softmax"(%[[WIDE]]) {axis = 1 : i64} : (tensor<2x5xf64>) -> tensor<2x5xf64>
// CHECK: %[[X:.*]] = "mlc.cast"(%arg0) : (tensor<2x5xf32>) -> tensor<2x5xf64>
// CHECK: %[[MAX:.*]] = "mlc.reduce_max"(%[[X]]) {axes = array<i64: 0>, keepdim = true} : (tensor<2x5xf64>) -> tensor<1x5xf64>
// CHECK: %[[SHIFTED:.*]] = "mlc.sub"(%[[X]], %[[MAX]])
// CHECK: %[[EXP:.*]] = "mlc.exp"(%[[SHIFTED]])
// CHECK: %[[SUM:.*]] = "mlc.reduce_sum"(%[[EXP]]) {axes = array<i64: 0>, keepdim = true}
// CHECK: %[[LOG:.*]] = "mlc.log"(%[[SUM]])
// CHECK: "mlc.sub"(%[[SHIFTED]], %[[LOG]]) : (tensor<2x5xf64>, tensor<1x5xf64>) -> tensor<2x5xf64>
func.func @softmax_dtypes(%arg0: !torch.vtensor<[2,5],f32>) -> (!torch.vtensor<[2,5],f64>, !torch.vtensor<[2,5],f64>) {
  %int1 = torch.constant.int 1
  %int0 = torch.constant.int 0
  %int7 = torch.constant.int 7
  %0 = torch.aten.softmax.int %arg0, %int1, %int7 : !torch.vtensor<[2,5],f32>, !torch.int, !torch.int -> !torch.vtensor<[2,5],f64>
  %1 = torch.aten.log_softmax.int %arg0, %int0, %int7 : !torch.vtensor<[2,5],f32>, !torch.int, !torch.int -> !torch.vtensor<[2,5],f64>
  return %0, %1 : !torch.vtensor<[2,5],f64>, !torch.vtensor<[2,5],f64>
}

// -----

/// A 1-D operand of matmul is a row (lhs) or a column (rhs), dropped from the result.

// CHECK-LABEL: func.func @vector_products
// CHECK: %[[ROW:.*]] = "mlc.reshape"(%arg0) : (tensor<5xf32>) -> tensor<1x5xf32>
// CHECK: %[[COLUMN:.*]] = "mlc.reshape"(%arg0) : (tensor<5xf32>) -> tensor<5x1xf32>
// CHECK: %[[DOT:.*]] = "mlc.matmul"(%[[ROW]], %[[COLUMN]]) : (tensor<1x5xf32>, tensor<5x1xf32>) -> tensor<1x1xf32>
// CHECK: "mlc.reshape"(%[[DOT]]) : (tensor<1x1xf32>) -> tensor<f32>
// CHECK: %[[COLUMN2:.*]] = "mlc.reshape"(%arg0) : (tensor<5xf32>) -> tensor<5x1xf32>
// CHECK: %[[FLAT:.*]] = "mlc.reshape"(%arg1) : (tensor<2x3x5xf32>) -> tensor<6x5xf32>
// CHECK: "mlc.matmul"(%[[FLAT]], %[[COLUMN2]]) : (tensor<6x5xf32>, tensor<5x1xf32>) -> tensor<6x1xf32>
// CHECK: "mlc.reshape"(%{{.*}}) : (tensor<2x3x1xf32>) -> tensor<2x3xf32>
// CHECK: %[[ROW2:.*]] = "mlc.reshape"(%arg0) : (tensor<5xf32>) -> tensor<1x5xf32>
// CHECK: "mlc.matmul"(%[[ROW2]], %arg2) : (tensor<1x5xf32>, tensor<2x5x4xf32>) -> tensor<2x1x4xf32>
func.func @vector_products(%arg0: !torch.vtensor<[5],f32>, %arg1: !torch.vtensor<[2,3,5],f32>, %arg2: !torch.vtensor<[2,5,4],f32>) -> (!torch.vtensor<[],f32>, !torch.vtensor<[2,3],f32>, !torch.vtensor<[2,4],f32>) {
  %0 = torch.aten.matmul %arg0, %arg0 : !torch.vtensor<[5],f32>, !torch.vtensor<[5],f32> -> !torch.vtensor<[],f32>
  %1 = torch.aten.matmul %arg1, %arg0 : !torch.vtensor<[2,3,5],f32>, !torch.vtensor<[5],f32> -> !torch.vtensor<[2,3],f32>
  %2 = torch.aten.matmul %arg0, %arg2 : !torch.vtensor<[5],f32>, !torch.vtensor<[2,5,4],f32> -> !torch.vtensor<[2,4],f32>
  return %0, %1, %2 : !torch.vtensor<[],f32>, !torch.vtensor<[2,3],f32>, !torch.vtensor<[2,4],f32>
}

// -----

/// A product over an empty dimension is zeros.

// CHECK-LABEL: func.func @empty_dot
// CHECK: %[[ZERO:.*]] = "mlc.constant"() {value = dense<0.000000e+00> : tensor<f32>}
// CHECK-NOT: mlc.matmul
func.func @empty_dot(%arg0: !torch.vtensor<[0],f32>) -> !torch.vtensor<[],f32> {
  %0 = torch.aten.matmul %arg0, %arg0 : !torch.vtensor<[0],f32>, !torch.vtensor<[0],f32> -> !torch.vtensor<[],f32>
  return %0 : !torch.vtensor<[],f32>
}

// -----

/// linear of a 1-D input: x @ w^T + b with x a row.

// CHECK-LABEL: func.func @linear_vector_input
// CHECK: %[[WT:.*]] = "mlc.transpose"(%arg1) {permutation = array<i64: 1, 0>}
// CHECK: %[[ROW:.*]] = "mlc.reshape"(%arg0) : (tensor<5xf32>) -> tensor<1x5xf32>
// CHECK: %[[P:.*]] = "mlc.matmul"(%[[ROW]], %[[WT]]) : (tensor<1x5xf32>, tensor<5x4xf32>) -> tensor<1x4xf32>
// CHECK: %[[V:.*]] = "mlc.reshape"(%[[P]]) : (tensor<1x4xf32>) -> tensor<4xf32>
// CHECK: "mlc.add"(%[[V]], %arg2) : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
func.func @linear_vector_input(%arg0: !torch.vtensor<[5],f32>, %arg1: !torch.vtensor<[4,5],f32>, %arg2: !torch.vtensor<[4],f32>) -> !torch.vtensor<[4],f32> {
  %0 = torch.aten.linear %arg0, %arg1, %arg2 : !torch.vtensor<[5],f32>, !torch.vtensor<[4,5],f32>, !torch.vtensor<[4],f32> -> !torch.vtensor<[4],f32>
  return %0 : !torch.vtensor<[4],f32>
}

// -----

/// addmm on integers: beta * input + alpha * (a @ b); addbmm is one matmul over batch and K together.

// CHECK-LABEL: func.func @add_products
// CHECK: %[[MM:.*]] = "mlc.matmul"(%arg1, %arg2) : (tensor<3x5xi64>, tensor<5x4xi64>) -> tensor<3x4xi64>
// CHECK: %[[ALPHA:.*]] = "mlc.constant"() {value = dense<3> : tensor<i64>}
// CHECK: %[[SCALED:.*]] = "mlc.mul"(%[[MM]], %[[ALPHA]])
// CHECK: %[[BETA:.*]] = "mlc.constant"() {value = dense<2> : tensor<i64>}
// CHECK: %[[INPUT:.*]] = "mlc.mul"(%arg0, %[[BETA]])
// CHECK: "mlc.add"(%[[SCALED]], %[[INPUT]])
// CHECK: %[[T:.*]] = "mlc.transpose"(%arg3) {permutation = array<i64: 1, 0, 2>} : (tensor<2x3x5xi64>) -> tensor<3x2x5xi64>
// CHECK: %[[L:.*]] = "mlc.reshape"(%[[T]]) : (tensor<3x2x5xi64>) -> tensor<3x10xi64>
// CHECK: %[[R:.*]] = "mlc.reshape"(%arg4) : (tensor<2x5x4xi64>) -> tensor<10x4xi64>
// CHECK: %[[B:.*]] = "mlc.matmul"(%[[L]], %[[R]]) : (tensor<3x10xi64>, tensor<10x4xi64>) -> tensor<3x4xi64>
// CHECK-NOT: "mlc.mul"
// CHECK: "mlc.add"(%[[B]], %arg0)
func.func @add_products(%arg0: !torch.vtensor<[3,4],si64>, %arg1: !torch.vtensor<[3,5],si64>, %arg2: !torch.vtensor<[5,4],si64>, %arg3: !torch.vtensor<[2,3,5],si64>, %arg4: !torch.vtensor<[2,5,4],si64>) -> (!torch.vtensor<[3,4],si64>, !torch.vtensor<[3,4],si64>) {
  %int1 = torch.constant.int 1
  %int2 = torch.constant.int 2
  %int3 = torch.constant.int 3
  %0 = torch.aten.addmm %arg0, %arg1, %arg2, %int2, %int3 : !torch.vtensor<[3,4],si64>, !torch.vtensor<[3,5],si64>, !torch.vtensor<[5,4],si64>, !torch.int, !torch.int -> !torch.vtensor<[3,4],si64>
  %1 = torch.aten.addbmm %arg0, %arg3, %arg4, %int1, %int1 : !torch.vtensor<[3,4],si64>, !torch.vtensor<[2,3,5],si64>, !torch.vtensor<[2,5,4],si64>, !torch.int, !torch.int -> !torch.vtensor<[3,4],si64>
  return %0, %1 : !torch.vtensor<[3,4],si64>, !torch.vtensor<[3,4],si64>
}

// -----

/// Float addmm and baddbmm reach mlc whole (torch-mlir's decomposition multiplied a NaN
/// input by beta = 0); with beta = 0 the input is not read at all.

// CHECK-LABEL: func.func @add_products_beta_zero
// CHECK: %[[MM:.*]] = "mlc.matmul"(%arg1, %arg2) : (tensor<3x5xf32>, tensor<5x4xf32>) -> tensor<3x4xf32>
// CHECK: %[[BMM:.*]] = "mlc.matmul"(%arg4, %arg5) : (tensor<2x3x5xf32>, tensor<2x5x4xf32>) -> tensor<2x3x4xf32>
// CHECK-NOT: "mlc.add"
// CHECK: return %[[MM]], %[[BMM]]
func.func @add_products_beta_zero(%arg0: !torch.vtensor<[3,4],f32>, %arg1: !torch.vtensor<[3,5],f32>, %arg2: !torch.vtensor<[5,4],f32>, %arg3: !torch.vtensor<[2,3,4],f32>, %arg4: !torch.vtensor<[2,3,5],f32>, %arg5: !torch.vtensor<[2,5,4],f32>) -> (!torch.vtensor<[3,4],f32>, !torch.vtensor<[2,3,4],f32>) {
  %int0 = torch.constant.int 0
  %int1 = torch.constant.int 1
  %0 = torch.aten.addmm %arg0, %arg1, %arg2, %int0, %int1 : !torch.vtensor<[3,4],f32>, !torch.vtensor<[3,5],f32>, !torch.vtensor<[5,4],f32>, !torch.int, !torch.int -> !torch.vtensor<[3,4],f32>
  %1 = torch.aten.baddbmm %arg3, %arg4, %arg5, %int0, %int1 : !torch.vtensor<[2,3,4],f32>, !torch.vtensor<[2,3,5],f32>, !torch.vtensor<[2,5,4],f32>, !torch.int, !torch.int -> !torch.vtensor<[2,3,4],f32>
  return %0, %1 : !torch.vtensor<[3,4],f32>, !torch.vtensor<[2,3,4],f32>
}

// -----

/// baddbmm with beta: beta * input (broadcast over the batch) + alpha * bmm.

// CHECK-LABEL: func.func @baddbmm_beta
// CHECK: %[[BMM:.*]] = "mlc.matmul"(%arg1, %arg2) : (tensor<2x3x5xf32>, tensor<2x5x4xf32>) -> tensor<2x3x4xf32>
// CHECK: %[[INPUT:.*]] = "mlc.mul"(%arg0, %{{.*}}) : (tensor<3x4xf32>, tensor<f32>) -> tensor<3x4xf32>
// CHECK: "mlc.add"(%[[BMM]], %[[INPUT]]) : (tensor<2x3x4xf32>, tensor<3x4xf32>) -> tensor<2x3x4xf32>
func.func @baddbmm_beta(%arg0: !torch.vtensor<[3,4],f32>, %arg1: !torch.vtensor<[2,3,5],f32>, %arg2: !torch.vtensor<[2,5,4],f32>) -> !torch.vtensor<[2,3,4],f32> {
  %half = torch.constant.float 5.000000e-01
  %int1 = torch.constant.int 1
  %0 = torch.aten.baddbmm %arg0, %arg1, %arg2, %half, %int1 : !torch.vtensor<[3,4],f32>, !torch.vtensor<[2,3,5],f32>, !torch.vtensor<[2,5,4],f32>, !torch.float, !torch.int -> !torch.vtensor<[2,3,4],f32>
  return %0 : !torch.vtensor<[2,3,4],f32>
}
