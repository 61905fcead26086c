// RUN: not mlc-opt %s --pass-pipeline='builtin.module(torch-func-backend-type-conversion, mlc-convert-torch-to-mlc)' 2>&1 | FileCheck %s

/// Every unconvertible op is reported in one error, with counts and source
/// lines, not just the first one; a reason is given where a pattern declined.

// CHECK: error: 3 torch op(s) of 2 kind(s) have no conversion to mlc:
// CHECK-NEXT: torch.aten.special_zeta  x2  at model.py:7, model.py:9
// CHECK-NEXT: torch.aten.batch_norm    x1  at model.py:12  [batch_norm in training mode (call model.eval() first)]
// CHECK-NOT: error
func.func @f(%x: !torch.vtensor<[2,4],f32>) -> !torch.vtensor<[2,4],f32> {
  %0 = torch.aten.relu %x : !torch.vtensor<[2,4],f32> -> !torch.vtensor<[2,4],f32>
  %1 = torch.operator "torch.aten.special_zeta"(%0, %0) : (!torch.vtensor<[2,4],f32>, !torch.vtensor<[2,4],f32>) -> !torch.vtensor<[2,4],f32> loc("model.py":7:0)
  %2 = torch.operator "torch.aten.special_zeta"(%1, %0) : (!torch.vtensor<[2,4],f32>, !torch.vtensor<[2,4],f32>) -> !torch.vtensor<[2,4],f32> loc("model.py":9:0)
  %stat = torch.vtensor.literal(dense<1.0> : tensor<4xf32>) : !torch.vtensor<[4],f32>
  %true = torch.constant.bool true
  %f = torch.constant.float 1.000000e-01
  %3 = torch.aten.batch_norm %2, %stat, %stat, %stat, %stat, %true, %f, %f, %true : !torch.vtensor<[2,4],f32>, !torch.vtensor<[4],f32>, !torch.vtensor<[4],f32>, !torch.vtensor<[4],f32>, !torch.vtensor<[4],f32>, !torch.bool, !torch.float, !torch.float, !torch.bool -> !torch.vtensor<[2,4],f32> loc("model.py":12:0)
  return %3 : !torch.vtensor<[2,4],f32>
}
