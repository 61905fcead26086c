// RUN: mlc-opt %s --pass-pipeline='builtin.module(torch-func-backend-type-conversion, mlc-convert-torch-to-mlc, func.func(torch-finalizing-backend-type-conversion))' | FileCheck %s

/// An op whose every result has no elements computes nothing: it becomes an empty
/// constant, whichever op it is (here one mlc has no conversion for); an op with a
/// non-empty result stays as it is.

// CHECK-LABEL: func.func @empty
// CHECK: %[[EMPTY:.*]] = "mlc.constant"() {value = dense<0.000000e+00> : tensor<0x3xf32>} : () -> tensor<0x3xf32>
// CHECK-NOT: torch.aten.special_zeta
// CHECK: "mlc.exp"(%arg1)
// CHECK: return %[[EMPTY]]
func.func @empty(%arg0: !torch.vtensor<[0,3],f32>, %arg1: !torch.vtensor<[2],f32>) -> (!torch.vtensor<[0,3],f32>, !torch.vtensor<[2],f32>) {
  %0 = torch.operator "torch.aten.special_zeta"(%arg0, %arg0) : (!torch.vtensor<[0,3],f32>, !torch.vtensor<[0,3],f32>) -> !torch.vtensor<[0,3],f32>
  %1 = torch.aten.exp %arg1 : !torch.vtensor<[2],f32> -> !torch.vtensor<[2],f32>
  return %0, %1 : !torch.vtensor<[0,3],f32>, !torch.vtensor<[2],f32>
}
