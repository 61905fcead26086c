// RUN: mlc-opt %s --pass-pipeline='builtin.module(torch-func-backend-type-conversion, mlc-convert-torch-to-mlc, func.func(torch-finalizing-backend-type-conversion))' | FileCheck %s

/// torch-mlir leaves `?` in the types of some slices with constant bounds (roll's
/// decomposition: `x[-1:]`, `x[:-1]`); mlc gives them their static sizes, so the
/// concat of the pieces is static too (a `?` there reached IREE as a dynamic concat).

// CHECK-LABEL: func.func @roll
// CHECK: %[[LAST:.*]] = "mlc.slice"(%arg0) {limit = array<i64: 4, 5>, start = array<i64: 3, 0>, stride = array<i64: 1, 1>} : (tensor<4x5xf32>) -> tensor<1x5xf32>
// CHECK: %[[REST:.*]] = "mlc.slice"(%arg0) {limit = array<i64: 3, 5>, start = array<i64: 0, 0>, stride = array<i64: 1, 1>} : (tensor<4x5xf32>) -> tensor<3x5xf32>
// CHECK: "mlc.concat"(%[[LAST]], %[[REST]]) {axis = 0 : i64} : (tensor<1x5xf32>, tensor<3x5xf32>) -> tensor<4x5xf32>
// CHECK-NOT: ?x
func.func @roll(%arg0: !torch.vtensor<[4,5],f32>) -> !torch.vtensor<[4,5],f32> {
  %int0 = torch.constant.int 0
  %int1 = torch.constant.int 1
  %none = torch.constant.none
  %int-1 = torch.constant.int -1
  %0 = torch.aten.slice.Tensor %arg0, %int0, %int-1, %none, %int1 : !torch.vtensor<[4,5],f32>, !torch.int, !torch.int, !torch.none, !torch.int -> !torch.vtensor<[?,5],f32>
  %1 = torch.aten.slice.Tensor %arg0, %int0, %int0, %int-1, %int1 : !torch.vtensor<[4,5],f32>, !torch.int, !torch.int, !torch.int, !torch.int -> !torch.vtensor<[?,5],f32>
  %2 = torch.prim.ListConstruct %0, %1 : (!torch.vtensor<[?,5],f32>, !torch.vtensor<[?,5],f32>) -> !torch.list<vtensor<[?,5],f32>>
  %3 = torch.aten.cat %2, %int0 : !torch.list<vtensor<[?,5],f32>>, !torch.int -> !torch.vtensor<[4,5],f32>
  return %3 : !torch.vtensor<[4,5],f32>
}
