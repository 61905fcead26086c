// RUN: mlc-opt %s --split-input-file --pass-pipeline='builtin.module(torch-func-backend-type-conversion, mlc-convert-torch-to-mlc, func.func(torch-finalizing-backend-type-conversion))' | FileCheck %s

/// Unsigned integers in mlc's signed ops: an op whose result depends on the sign
/// computes on its operands zero-extended to the next wider signed type (uint8 in
/// i16: a sign-extending cast, then the high byte masked off) and truncates an
/// unsigned result back; an op whose result bits do not depend on it stays as it is.

// CHECK-LABEL: func.func @maximum_uint8
// CHECK-SAME: (%[[A:.*]]: tensor<5xi8>, %[[B:.*]]: tensor<5xi8>)
// CHECK: %[[A16:.*]] = "mlc.cast"(%[[A]]) : (tensor<5xi8>) -> tensor<5xi16>
// CHECK: %[[MASK:.*]] = "mlc.constant"() {value = dense<255> : tensor<i16>}
// CHECK: %[[AZ:.*]] = "mlc.bitwise_and"(%[[A16]], %[[MASK]])
// CHECK: %[[BZ:.*]] = "mlc.bitwise_and"
// CHECK: %[[MAX:.*]] = "mlc.maximum"(%[[AZ]], %[[BZ]]) : (tensor<5xi16>, tensor<5xi16>) -> tensor<5xi16>
// CHECK: %[[R:.*]] = "mlc.cast"(%[[MAX]]) : (tensor<5xi16>) -> tensor<5xi8>
// CHECK: return %[[R]]
func.func @maximum_uint8(%arg0: !torch.vtensor<[5],ui8>, %arg1: !torch.vtensor<[5],ui8>) -> !torch.vtensor<[5],ui8> {
  %0 = torch.aten.maximum %arg0, %arg1 : !torch.vtensor<[5],ui8>, !torch.vtensor<[5],ui8> -> !torch.vtensor<[5],ui8>
  return %0 : !torch.vtensor<[5],ui8>
}

// -----

// CHECK-LABEL: func.func @floor_divide_uint8
// CHECK: %[[Q:.*]] = "mlc.floor_div"(%{{.*}}, %{{.*}}) : (tensor<5xi16>, tensor<5xi16>) -> tensor<5xi16>
// CHECK: %[[R:.*]] = "mlc.cast"(%[[Q]]) : (tensor<5xi16>) -> tensor<5xi8>
// CHECK: return %[[R]]
func.func @floor_divide_uint8(%arg0: !torch.vtensor<[5],ui8>, %arg1: !torch.vtensor<[5],ui8>) -> !torch.vtensor<[5],ui8> {
  %str = torch.constant.str "floor"
  %0 = torch.aten.div.Tensor_mode %arg0, %arg1, %str : !torch.vtensor<[5],ui8>, !torch.vtensor<[5],ui8>, !torch.str -> !torch.vtensor<[5],ui8>
  return %0 : !torch.vtensor<[5],ui8>
}

// -----

/// An integer scalar takes the tensor's unsigned type, as in eager: x < 300 is x < 44.

// CHECK-LABEL: func.func @less_than_wrapped_scalar
// CHECK: %[[BOUND:.*]] = "mlc.constant"() {value = dense<44> : tensor<i16>}
// CHECK: "mlc.compare"(%{{.*}}, %[[BOUND]]) {predicate = "lt"} : (tensor<5xi16>, tensor<i16>) -> tensor<5xi1>
func.func @less_than_wrapped_scalar(%arg0: !torch.vtensor<[5],ui8>) -> !torch.vtensor<[5],i1> {
  %int300 = torch.constant.int 300
  %0 = torch.aten.lt.Scalar %arg0, %int300 : !torch.vtensor<[5],ui8>, !torch.int -> !torch.vtensor<[5],i1>
  return %0 : !torch.vtensor<[5],i1>
}

// -----

// CHECK-LABEL: func.func @uint8_to_float
// CHECK: %[[WIDE:.*]] = "mlc.bitwise_and"
// CHECK: "mlc.cast"(%[[WIDE]]) : (tensor<4xi16>) -> tensor<4xf32>
func.func @uint8_to_float(%arg0: !torch.vtensor<[4],ui8>) -> !torch.vtensor<[4],f32> {
  %int6 = torch.constant.int 6
  %false = torch.constant.bool false
  %none = torch.constant.none
  %0 = torch.aten.to.dtype %arg0, %int6, %false, %false, %none : !torch.vtensor<[4],ui8>, !torch.int, !torch.bool, !torch.bool, !torch.none -> !torch.vtensor<[4],f32>
  return %0 : !torch.vtensor<[4],f32>
}

// -----

/// uint32 widens to i64.

// CHECK-LABEL: func.func @uint32_to_int64
// CHECK: %[[WIDE:.*]] = "mlc.cast"(%arg0) : (tensor<4xi32>) -> tensor<4xi64>
// CHECK: %[[MASK:.*]] = "mlc.constant"() {value = dense<4294967295> : tensor<i64>}
// CHECK: %[[R:.*]] = "mlc.bitwise_and"(%[[WIDE]], %[[MASK]])
// CHECK: return %[[R]]
func.func @uint32_to_int64(%arg0: !torch.vtensor<[4],ui32>) -> !torch.vtensor<[4],si64> {
  %int4 = torch.constant.int 4
  %false = torch.constant.bool false
  %none = torch.constant.none
  %0 = torch.aten.to.dtype %arg0, %int4, %false, %false, %none : !torch.vtensor<[4],ui32>, !torch.int, !torch.bool, !torch.bool, !torch.none -> !torch.vtensor<[4],si64>
  return %0 : !torch.vtensor<[4],si64>
}

// -----

/// add wraps around the same for both signs: uint8 + uint8 stays in i8.

// CHECK-LABEL: func.func @add_uint8_as_it_stands
// CHECK: "mlc.add"(%arg0, %arg1) : (tensor<5xi8>, tensor<5xi8>) -> tensor<5xi8>
// CHECK-NOT: mlc.cast
func.func @add_uint8_as_it_stands(%arg0: !torch.vtensor<[5],ui8>, %arg1: !torch.vtensor<[5],ui8>) -> !torch.vtensor<[5],ui8> {
  %int1 = torch.constant.int 1
  %0 = torch.aten.add.Tensor %arg0, %arg1, %int1 : !torch.vtensor<[5],ui8>, !torch.vtensor<[5],ui8>, !torch.int -> !torch.vtensor<[5],ui8>
  return %0 : !torch.vtensor<[5],ui8>
}

// -----

/// ... but uint8 + int64 is int64: the uint8 operand is zero-extended first.

// CHECK-LABEL: func.func @add_uint8_to_int64
// CHECK: %[[Z:.*]] = "mlc.bitwise_and"
// CHECK: %[[WIDE:.*]] = "mlc.cast"(%[[Z]]) : (tensor<5xi16>) -> tensor<5xi64>
// CHECK: "mlc.add"(%[[WIDE]], %arg1) : (tensor<5xi64>, tensor<5xi64>) -> tensor<5xi64>
func.func @add_uint8_to_int64(%arg0: !torch.vtensor<[5],ui8>, %arg1: !torch.vtensor<[5],si64>) -> !torch.vtensor<[5],si64> {
  %int1 = torch.constant.int 1
  %0 = torch.aten.add.Tensor %arg0, %arg1, %int1 : !torch.vtensor<[5],ui8>, !torch.vtensor<[5],si64>, !torch.int -> !torch.vtensor<[5],si64>
  return %0 : !torch.vtensor<[5],si64>
}
