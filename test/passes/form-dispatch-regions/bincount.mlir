// RUN: mlc-opt %s --pass-pipeline='builtin.module(mlc-lower-to-linalg{keep-fusion-groups=true}, mlc-form-dispatch-regions)' | FileCheck %s
// RUN: mlc-opt %s --pass-pipeline='builtin.module(mlc-lower-to-linalg{keep-fusion-groups=true}, mlc-form-dispatch-regions)' --mlir-pass-statistics -o /dev/null 2>&1 | FileCheck %s --check-prefix=STATS

/// bincount's length comes from its input's values (a tensor.extract), not from
/// the group's input sizes: its group is inlined, and IREE forms its dispatches.
/// The consumer's group takes its size from the bincount result, outside it.

// STATS: 'mlc-form-dispatch-regions'
// STATS-DAG: (1) dispatch regions
// STATS-DAG: (1) groups inlined (untraceable dynamic sizes)

// CHECK-LABEL: func.func @bincount_then_cast
// CHECK-NOT:  "flow.dispatch.region"
// CHECK:      %[[COUNTS:.*]] = tensor.extract_slice
// CHECK:      %[[N:.*]] = tensor.dim %[[COUNTS]], %{{.*}} : tensor<?xi64>
// CHECK-NEXT: %[[R:.*]] = "flow.dispatch.region"(%[[N]]) ({
// CHECK:        arith.sitofp
// CHECK:      return %[[R]]
func.func @bincount_then_cast(%x: tensor<6xi64>) -> tensor<?xf32> {
  %0 = "mlc.fusion_group"() ({
    %1 = "mlc.bincount"(%x) {minlength = 2 : i64} : (tensor<6xi64>) -> tensor<?xi64>
    "mlc.yield"(%1) : (tensor<?xi64>) -> ()
  }) : () -> tensor<?xi64>
  %2 = "mlc.fusion_group"() ({
    %3 = "mlc.cast"(%0) : (tensor<?xi64>) -> tensor<?xf32>
    "mlc.yield"(%3) : (tensor<?xf32>) -> ()
  }) : () -> tensor<?xf32>
  return %2 : tensor<?xf32>
}
