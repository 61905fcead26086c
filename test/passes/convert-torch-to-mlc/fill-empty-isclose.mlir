// RUN: mlc-opt %s --split-input-file --pass-pipeline='builtin.module(torch-func-backend-type-conversion, mlc-convert-torch-to-mlc, func.func(torch-finalizing-backend-type-conversion))' | FileCheck %s

/// empty is zeros (any value will do); fill is the value in the input's shape; isclose
/// is a == b or a finite |a - b| within atol + |rtol * b|.

// CHECK-LABEL: func.func @empty_and_fill
// CHECK-DAG: "mlc.constant"() {value = dense<0.000000e+00> : tensor<2x3xf32>}
// CHECK-DAG: "mlc.constant"() {value = dense<2.500000e+00> : tensor<2x3xf32>}
// CHECK-DAG: %[[V:.*]] = "mlc.cast"(%arg1) : (tensor<i64>) -> tensor<f32>
// CHECK-DAG: "mlc.broadcast"(%[[V]]) : (tensor<f32>) -> tensor<2x3xf32>
func.func @empty_and_fill(%arg0: !torch.vtensor<[2,3],f32>, %arg1: !torch.vtensor<[],si64>) -> (!torch.vtensor<[2,3],f32>, !torch.vtensor<[2,3],f32>, !torch.vtensor<[2,3],f32>) {
  %int2 = torch.constant.int 2
  %int3 = torch.constant.int 3
  %int6 = torch.constant.int 6
  %none = torch.constant.none
  %false = torch.constant.bool false
  %float = torch.constant.float 2.500000e+00
  %sizes = torch.prim.ListConstruct %int2, %int3 : (!torch.int, !torch.int) -> !torch.list<int>
  %0 = torch.aten.empty.memory_format %sizes, %int6, %none, %none, %false, %none : !torch.list<int>, !torch.int, !torch.none, !torch.none, !torch.bool, !torch.none -> !torch.vtensor<[2,3],f32>
  %1 = torch.aten.fill.Scalar %arg0, %float : !torch.vtensor<[2,3],f32>, !torch.float -> !torch.vtensor<[2,3],f32>
  %2 = torch.aten.fill.Tensor %arg0, %arg1 : !torch.vtensor<[2,3],f32>, !torch.vtensor<[],si64> -> !torch.vtensor<[2,3],f32>
  return %0, %1, %2 : !torch.vtensor<[2,3],f32>, !torch.vtensor<[2,3],f32>, !torch.vtensor<[2,3],f32>
}

// -----

/// A fill of a dynamic shape broadcasts the value with the input's sizes.

// CHECK-LABEL: func.func @fill_dynamic
// CHECK: %[[D:.*]] = tensor.dim %arg0, %{{.*}} : tensor<?x3xf32>
// CHECK: "mlc.broadcast"(%{{.*}}, %[[D]]) : (tensor<f32>, index) -> tensor<?x3xf32>
func.func @fill_dynamic(%arg0: !torch.vtensor<[?,3],f32>) -> !torch.vtensor<[?,3],f32> {
  %float = torch.constant.float 2.500000e+00
  %0 = torch.aten.fill.Scalar %arg0, %float : !torch.vtensor<[?,3],f32>, !torch.float -> !torch.vtensor<[?,3],f32>
  return %0 : !torch.vtensor<[?,3],f32>
}

// -----

// CHECK-LABEL: func.func @isclose
// CHECK: %[[EQ:.*]] = "mlc.compare"(%arg0, %arg1) {predicate = "eq"}
// CHECK: %[[DIFF:.*]] = "mlc.sub"(%arg0, %arg1)
// CHECK: %[[ACTUAL:.*]] = "mlc.abs"(%[[DIFF]])
// CHECK: %[[SCALED:.*]] = "mlc.mul"(%arg1, %{{.*}})
// CHECK: %[[MAG:.*]] = "mlc.abs"(%[[SCALED]])
// CHECK: %[[ALLOWED:.*]] = "mlc.add"(%[[MAG]], %{{.*}})
// CHECK: %[[FINITE:.*]] = "mlc.compare"(%[[ACTUAL]], %{{.*}}) {predicate = "lt"}
// CHECK: %[[LE:.*]] = "mlc.compare"(%[[ACTUAL]], %[[ALLOWED]]) {predicate = "le"}
// CHECK: %[[WITHIN:.*]] = "mlc.bitwise_and"(%[[FINITE]], %[[LE]])
// CHECK: "mlc.bitwise_or"(%[[EQ]], %[[WITHIN]]) : (tensor<4xi1>, tensor<4xi1>) -> tensor<4xi1>
func.func @isclose(%arg0: !torch.vtensor<[4],f32>, %arg1: !torch.vtensor<[4],f32>) -> !torch.vtensor<[4],i1> {
  %rtol = torch.constant.float 1.000000e-05
  %atol = torch.constant.float 1.000000e-08
  %false = torch.constant.bool false
  %0 = torch.aten.isclose %arg0, %arg1, %rtol, %atol, %false : !torch.vtensor<[4],f32>, !torch.vtensor<[4],f32>, !torch.float, !torch.float, !torch.bool -> !torch.vtensor<[4],i1>
  return %0 : !torch.vtensor<[4],i1>
}

// -----

/// Zero tolerances with equal_nan: equality, or both NaN.

// CHECK-LABEL: func.func @isclose_exact_equal_nan
// CHECK: %[[EQ:.*]] = "mlc.compare"(%arg0, %arg1) {predicate = "eq"}
// CHECK: %[[ANAN:.*]] = "mlc.compare"(%arg0, %arg0) {predicate = "ne"}
// CHECK: %[[BNAN:.*]] = "mlc.compare"(%arg1, %arg1) {predicate = "ne"}
// CHECK: %[[BOTH:.*]] = "mlc.bitwise_and"(%[[ANAN]], %[[BNAN]])
// CHECK: "mlc.bitwise_or"(%[[EQ]], %[[BOTH]])
// CHECK-NOT: mlc.sub
func.func @isclose_exact_equal_nan(%arg0: !torch.vtensor<[4],f32>, %arg1: !torch.vtensor<[4],f32>) -> !torch.vtensor<[4],i1> {
  %zero = torch.constant.float 0.000000e+00
  %true = torch.constant.bool true
  %0 = torch.aten.isclose %arg0, %arg1, %zero, %zero, %true : !torch.vtensor<[4],f32>, !torch.vtensor<[4],f32>, !torch.float, !torch.float, !torch.bool -> !torch.vtensor<[4],i1>
  return %0 : !torch.vtensor<[4],i1>
}
