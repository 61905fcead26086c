// RUN: mlc-opt %s --pass-pipeline='builtin.module(torch-func-backend-type-conversion, mlc-convert-torch-to-mlc, func.func(torch-finalizing-backend-type-conversion))' | FileCheck %s

/// roll without dims rolls the flattened tensor: the last 3 of 10 elements move to
/// the front (two slices and a concat), then the shape comes back.

// CHECK-LABEL: func.func @roll_flat
// CHECK: %[[FLAT:.*]] = "mlc.reshape"(%arg0) : (tensor<2x5xf32>) -> tensor<10xf32>
// CHECK: %[[TAIL:.*]] = "mlc.slice"(%[[FLAT]]) {limit = array<i64: 10>, start = array<i64: 7>, stride = array<i64: 1>} : (tensor<10xf32>) -> tensor<3xf32>
// CHECK: %[[HEAD:.*]] = "mlc.slice"(%[[FLAT]]) {limit = array<i64: 7>, start = array<i64: 0>, stride = array<i64: 1>} : (tensor<10xf32>) -> tensor<7xf32>
// CHECK: %[[ROLLED:.*]] = "mlc.concat"(%[[TAIL]], %[[HEAD]]) {axis = 0 : i64}
// CHECK: "mlc.reshape"(%[[ROLLED]]) : (tensor<10xf32>) -> tensor<2x5xf32>
func.func @roll_flat(%arg0: !torch.vtensor<[2,5],f32>) -> !torch.vtensor<[2,5],f32> {
  %int3 = torch.constant.int 3
  %0 = torch.prim.ListConstruct %int3 : (!torch.int) -> !torch.list<int>
  %1 = torch.prim.ListConstruct  : () -> !torch.list<int>
  %2 = torch.aten.roll %arg0, %0, %1 : !torch.vtensor<[2,5],f32>, !torch.list<int>, !torch.list<int> -> !torch.vtensor<[2,5],f32>
  return %2 : !torch.vtensor<[2,5],f32>
}
