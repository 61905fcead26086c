// RUN: mlc-opt %s --pass-pipeline='builtin.module(torch-func-backend-type-conversion, mlc-convert-torch-to-mlc, func.func(torch-finalizing-backend-type-conversion))' | FileCheck %s

/// An assertion proved true is dropped: a constant true (shapes are static).

// CHECK-LABEL: func.func @true_assert_dropped
// CHECK-NOT: torch.runtime.assert
// CHECK: "mlc.relu"
func.func @true_assert_dropped(%x: !torch.vtensor<[4],f32>) -> !torch.vtensor<[4],f32> {
  %true = torch.constant.bool true
  torch.runtime.assert %true, "always holds"
  %0 = torch.aten.relu %x : !torch.vtensor<[4],f32> -> !torch.vtensor<[4],f32>
  return %0 : !torch.vtensor<[4],f32>
}

/// A size is never negative: torch.export's "s0 >= 0" on a dynamic size is dropped,
/// and the comparison with it.

// CHECK-LABEL: func.func @size_at_least_zero_dropped
// CHECK-NOT: torch.
// CHECK: "mlc.relu"
// CHECK-NOT: torch.
func.func @size_at_least_zero_dropped(%x: !torch.vtensor<[?],f32>) -> !torch.vtensor<[?],f32> {
  %int0 = torch.constant.int 0
  %0 = torch.aten.size.int %x, %int0 : !torch.vtensor<[?],f32>, !torch.int -> !torch.int
  %1 = torch.aten.ge.int %0, %int0 : !torch.int, !torch.int -> !torch.bool
  %2 = torch.aten.Int.bool %1 : !torch.bool -> !torch.int
  %3 = torch.aten.Bool.int %2 : !torch.int -> !torch.bool
  torch.runtime.assert %3, "Runtime assertion failed for expression s0 >= 0"
  %4 = torch.aten.relu %x : !torch.vtensor<[?],f32> -> !torch.vtensor<[?],f32>
  return %4 : !torch.vtensor<[?],f32>
}
