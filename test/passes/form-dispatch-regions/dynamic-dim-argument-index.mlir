// RUN: mlc-opt %s --pass-pipeline='builtin.module(mlc-form-dispatch-regions)' | FileCheck %s
// RUN: mlc-opt %s --pass-pipeline='builtin.module(mlc-form-dispatch-regions)' --mlir-pass-statistics -o /dev/null 2>&1 | FileCheck %s --check-prefix=STATS

/// A `tensor.dim` in the group whose index is a block argument cannot be
/// traced: the group is inlined and IREE forms its dispatches.

// STATS: (1) groups inlined (untraceable dynamic sizes)
// CHECK-LABEL: func.func @dim_with_argument_index
// CHECK-NOT:  flow.dispatch.region
// CHECK:      linalg.fill
func.func @dim_with_argument_index(%x: tensor<?xf32>, %i: index) -> tensor<?xf32> {
  %0 = "mlc.fusion_group"() ({
    %n = tensor.dim %x, %i : tensor<?xf32>
    %e = tensor.empty(%n) : tensor<?xf32>
    %one = arith.constant 1.0 : f32
    %r = linalg.fill ins(%one : f32) outs(%e : tensor<?xf32>) -> tensor<?xf32>
    "mlc.yield"(%r) : (tensor<?xf32>) -> ()
  }) : () -> tensor<?xf32>
  return %0 : tensor<?xf32>
}
