// RUN: mlc-opt %s --pass-pipeline='builtin.module(torch-func-backend-type-conversion, mlc-convert-torch-to-mlc, func.func(torch-finalizing-backend-type-conversion))' | FileCheck %s

/// A constant-true torch.runtime.assert is dropped (shapes are static).

// CHECK-LABEL: func.func @true_assert_dropped
// CHECK-NOT: torch.runtime.assert
// CHECK: "mlc.relu"
func.func @true_assert_dropped(%x: !torch.vtensor<[4],f32>) -> !torch.vtensor<[4],f32> {
  %true = torch.constant.bool true
  torch.runtime.assert %true, "always holds"
  %0 = torch.aten.relu %x : !torch.vtensor<[4],f32> -> !torch.vtensor<[4],f32>
  return %0 : !torch.vtensor<[4],f32>
}
