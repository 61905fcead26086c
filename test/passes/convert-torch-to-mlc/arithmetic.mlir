// RUN: mlc-opt %s --split-input-file --pass-pipeline='builtin.module(torch-func-backend-type-conversion, mlc-convert-torch-to-mlc, func.func(torch-finalizing-backend-type-conversion))' | FileCheck %s

/// torch's remaining elementwise arithmetic becomes mlc ops: remainders, rounding divisions, reversed forms, tensor clamp bounds, logical and bitwise ops.

// CHECK-LABEL: func.func @pow_scalar_base
// CHECK: %[[BASE:.*]] = "mlc.constant"() {value = dense<2.000000e+00> : tensor<f32>}
// CHECK: "mlc.pow"(%[[BASE]], %arg0) : (tensor<f32>, tensor<3x4xf32>) -> tensor<3x4xf32>
func.func @pow_scalar_base(%arg0: !torch.vtensor<[3,4],f32>) -> !torch.vtensor<[3,4],f32> {
  %float2.000000e00 = torch.constant.float 2.000000e+00
  %0 = torch.aten.pow.Scalar %float2.000000e00, %arg0 : !torch.float, !torch.vtensor<[3,4],f32> -> !torch.vtensor<[3,4],f32>
  return %0 : !torch.vtensor<[3,4],f32>
}

// -----

/// An integer divisor is checked for zeros at each call (torch raises ZeroDivisionError).

// CHECK-LABEL: func.func @remainder_int
// CHECK: %[[D:.*]] = "mlc.check_nonzero"(%arg1) : (tensor<4xi64>) -> tensor<4xi64>
// CHECK: "mlc.remainder"(%arg0, %[[D]]) : (tensor<3x4xi64>, tensor<4xi64>) -> tensor<3x4xi64>
func.func @remainder_int(%arg0: !torch.vtensor<[3,4],si64>, %arg1: !torch.vtensor<[4],si64>) -> !torch.vtensor<[3,4],si64> {
  %0 = torch.aten.remainder.Tensor %arg0, %arg1 : !torch.vtensor<[3,4],si64>, !torch.vtensor<[4],si64> -> !torch.vtensor<[3,4],si64>
  return %0 : !torch.vtensor<[3,4],si64>
}

// -----

// CHECK-LABEL: func.func @floor_divide_int
// CHECK: %[[D:.*]] = "mlc.check_nonzero"(%arg1)
// CHECK: "mlc.floor_div"(%arg0, %[[D]]) : (tensor<3x4xi64>, tensor<4xi64>) -> tensor<3x4xi64>
func.func @floor_divide_int(%arg0: !torch.vtensor<[3,4],si64>, %arg1: !torch.vtensor<[4],si64>) -> !torch.vtensor<[3,4],si64> {
  %str = torch.constant.str "floor"
  %0 = torch.aten.div.Tensor_mode %arg0, %arg1, %str : !torch.vtensor<[3,4],si64>, !torch.vtensor<[4],si64>, !torch.str -> !torch.vtensor<[3,4],si64>
  return %0 : !torch.vtensor<[3,4],si64>
}

// -----

/// A float divisor is not checked: x / 0 is inf or NaN, as in eager. Nor is a constant
/// divisor with no zero.

// CHECK-LABEL: func.func @div_trunc
// CHECK-NOT: mlc.check_nonzero
// CHECK: %[[Q:.*]] = "mlc.div"(%arg0, %arg1)
// CHECK: "mlc.trunc"(%[[Q]])
func.func @div_trunc(%arg0: !torch.vtensor<[3,4],f32>, %arg1: !torch.vtensor<[4],f32>) -> !torch.vtensor<[3,4],f32> {
  %str = torch.constant.str "trunc"
  %0 = torch.aten.div.Tensor_mode %arg0, %arg1, %str : !torch.vtensor<[3,4],f32>, !torch.vtensor<[4],f32>, !torch.str -> !torch.vtensor<[3,4],f32>
  return %0 : !torch.vtensor<[3,4],f32>
}

// -----

// CHECK-LABEL: func.func @fmod_by_a_constant
// CHECK-NOT: mlc.check_nonzero
// CHECK: "mlc.fmod"
func.func @fmod_by_a_constant(%arg0: !torch.vtensor<[3,4],si64>) -> !torch.vtensor<[3,4],si64> {
  %int3 = torch.constant.int 3
  %0 = torch.aten.fmod.Scalar %arg0, %int3 : !torch.vtensor<[3,4],si64>, !torch.int -> !torch.vtensor<[3,4],si64>
  return %0 : !torch.vtensor<[3,4],si64>
}

// -----

// CHECK-LABEL: func.func @floor_divide_by_a_constant_zero
// CHECK: %[[D:.*]] = "mlc.check_nonzero"
// CHECK: "mlc.floor_div"(%arg0, %[[D]])
func.func @floor_divide_by_a_constant_zero(%arg0: !torch.vtensor<[3,4],si64>) -> !torch.vtensor<[3,4],si64> {
  %int0 = torch.constant.int 0
  %str = torch.constant.str "floor"
  %0 = torch.aten.div.Scalar_mode %arg0, %int0, %str : !torch.vtensor<[3,4],si64>, !torch.int, !torch.str -> !torch.vtensor<[3,4],si64>
  return %0 : !torch.vtensor<[3,4],si64>
}

// -----

// CHECK-LABEL: func.func @atan2
// CHECK: "mlc.atan2"(%arg0, %arg1) : (tensor<3x4xf32>, tensor<3x4xf32>) -> tensor<3x4xf32>
func.func @atan2(%arg0: !torch.vtensor<[3,4],f32>, %arg1: !torch.vtensor<[3,4],f32>) -> !torch.vtensor<[3,4],f32> {
  %0 = torch.aten.atan2 %arg0, %arg1 : !torch.vtensor<[3,4],f32>, !torch.vtensor<[3,4],f32> -> !torch.vtensor<[3,4],f32>
  return %0 : !torch.vtensor<[3,4],f32>
}

// -----

// CHECK-LABEL: func.func @rsub
// CHECK: %[[TWO:.*]] = "mlc.constant"() {value = dense<2.000000e+00> : tensor<f32>}
// CHECK: "mlc.sub"(%[[TWO]], %arg0)
func.func @rsub(%arg0: !torch.vtensor<[3,4],f32>) -> !torch.vtensor<[3,4],f32> {
  %float2.000000e00 = torch.constant.float 2.000000e+00
  %int1 = torch.constant.int 1
  %0 = torch.aten.rsub.Scalar %arg0, %float2.000000e00, %int1 : !torch.vtensor<[3,4],f32>, !torch.float, !torch.int -> !torch.vtensor<[3,4],f32>
  return %0 : !torch.vtensor<[3,4],f32>
}

// -----

// CHECK-LABEL: func.func @logical_not
// CHECK: %[[FALSE:.*]] = "mlc.constant"() {value = dense<false> : tensor<i1>}
// CHECK: "mlc.compare"(%arg0, %[[FALSE]]) {predicate = "eq"}
func.func @logical_not(%arg0: !torch.vtensor<[3,4],i1>) -> !torch.vtensor<[3,4],i1> {
  %0 = torch.aten.logical_not %arg0 : !torch.vtensor<[3,4],i1> -> !torch.vtensor<[3,4],i1>
  return %0 : !torch.vtensor<[3,4],i1>
}

// -----

// CHECK-LABEL: func.func @logical_and_float
// CHECK: %[[A:.*]] = "mlc.cast"(%arg0) : (tensor<4xf32>) -> tensor<4xi1>
// CHECK: %[[B:.*]] = "mlc.cast"(%arg1) : (tensor<4xf32>) -> tensor<4xi1>
// CHECK: "mlc.bitwise_and"(%[[A]], %[[B]]) : (tensor<4xi1>, tensor<4xi1>) -> tensor<4xi1>
func.func @logical_and_float(%arg0: !torch.vtensor<[4],f32>, %arg1: !torch.vtensor<[4],f32>) -> !torch.vtensor<[4],i1> {
  %0 = torch.aten.logical_and %arg0, %arg1 : !torch.vtensor<[4],f32>, !torch.vtensor<[4],f32> -> !torch.vtensor<[4],i1>
  return %0 : !torch.vtensor<[4],i1>
}

// -----

// CHECK-LABEL: func.func @bitwise_not
// CHECK: %[[ONES:.*]] = "mlc.constant"() {value = dense<-1> : tensor<i64>}
// CHECK: "mlc.bitwise_xor"(%arg0, %[[ONES]])
func.func @bitwise_not(%arg0: !torch.vtensor<[3,4],si64>) -> !torch.vtensor<[3,4],si64> {
  %0 = torch.aten.bitwise_not %arg0 : !torch.vtensor<[3,4],si64> -> !torch.vtensor<[3,4],si64>
  return %0 : !torch.vtensor<[3,4],si64>
}

// -----

// CHECK-LABEL: func.func @bitwise_left_shift
// CHECK: %[[TWO:.*]] = "mlc.constant"() {value = dense<2> : tensor<i64>}
// CHECK: "mlc.shift_left"(%arg0, %[[TWO]])
func.func @bitwise_left_shift(%arg0: !torch.vtensor<[3,4],si64>) -> !torch.vtensor<[3,4],si64> {
  %int2 = torch.constant.int 2
  %0 = torch.aten.__lshift__.Scalar %arg0, %int2 : !torch.vtensor<[3,4],si64>, !torch.int -> !torch.vtensor<[3,4],si64>
  return %0 : !torch.vtensor<[3,4],si64>
}

// -----

// CHECK-LABEL: func.func @isfinite
// CHECK: %[[ABS:.*]] = "mlc.abs"(%arg0)
// CHECK: %[[INF:.*]] = "mlc.constant"() {value = dense<0x7F800000> : tensor<f32>}
// CHECK: "mlc.compare"(%[[ABS]], %[[INF]]) {predicate = "lt"} : (tensor<12xf32>, tensor<f32>) -> tensor<12xi1>
func.func @isfinite(%arg0: !torch.vtensor<[12],f32>) -> !torch.vtensor<[12],i1> {
  %0 = torch.aten.isfinite %arg0 : !torch.vtensor<[12],f32> -> !torch.vtensor<[12],i1>
  return %0 : !torch.vtensor<[12],i1>
}

// -----

// CHECK-LABEL: func.func @clamp_tensor
// CHECK: %[[LOW:.*]] = "mlc.maximum"(%arg0, %arg1) : (tensor<3x4xf32>, tensor<4xf32>) -> tensor<3x4xf32>
// CHECK: "mlc.minimum"(%[[LOW]], %arg2) : (tensor<3x4xf32>, tensor<3x1xf32>) -> tensor<3x4xf32>
func.func @clamp_tensor(%arg0: !torch.vtensor<[3,4],f32>, %arg1: !torch.vtensor<[4],f32>, %arg2: !torch.vtensor<[3,1],f32>) -> !torch.vtensor<[3,4],f32> {
  %0 = torch.aten.clamp.Tensor %arg0, %arg1, %arg2 : !torch.vtensor<[3,4],f32>, !torch.vtensor<[4],f32>, !torch.vtensor<[3,1],f32> -> !torch.vtensor<[3,4],f32>
  return %0 : !torch.vtensor<[3,4],f32>
}

// -----

/// nan_to_num of integers is the input: integers hold no NaN or infinity.

// CHECK-LABEL: func.func @nan_to_num_integers
// CHECK-SAME: (%[[X:.*]]: tensor<3xi64>)
// CHECK-NEXT: return %[[X]]
func.func @nan_to_num_integers(%arg0: !torch.vtensor<[3],si64>) -> !torch.vtensor<[3],si64> {
  %none = torch.constant.none
  %0 = torch.aten.nan_to_num %arg0, %none, %none, %none : !torch.vtensor<[3],si64>, !torch.none, !torch.none, !torch.none -> !torch.vtensor<[3],si64>
  return %0 : !torch.vtensor<[3],si64>
}
