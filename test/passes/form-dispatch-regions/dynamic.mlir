// RUN: mlc-opt %s --split-input-file --pass-pipeline='builtin.module(mlc-lower-to-linalg{keep-fusion-groups=true}, mlc-form-dispatch-regions)' | FileCheck %s
// RUN: mlc-opt %s --split-input-file --pass-pipeline='builtin.module(mlc-lower-to-linalg{keep-fusion-groups=true}, mlc-form-dispatch-regions)' --mlir-pass-statistics -o /dev/null 2>&1 | FileCheck %s --check-prefix=STATS

/// A region whose result has dynamic sizes takes them as operands (one per `?`),
/// built before the region from values outside it: traced through destination
/// operands (linalg outs) and `tensor.empty` back to the group's inputs.
/// A group whose sizes cannot be traced is inlined, and IREE forms its dispatches.

// STATS: 'mlc-form-dispatch-regions'
// STATS-DAG: (3) dispatch regions
// STATS-DAG: (1) groups inlined (untraceable dynamic sizes)

/// matmul -> fill -> tensor.empty(tensor.dim %x, 0): the batch size of %x,
/// read before the region.

// CHECK-LABEL: func.func @matmul_relu_dynamic_batch
// CHECK-SAME: (%[[X:.*]]: tensor<?x4xf32>,
// CHECK:      %[[C0:.*]] = arith.constant 0 : index
// CHECK-NEXT: %[[N:.*]] = tensor.dim %[[X]], %[[C0]] : tensor<?x4xf32>
// CHECK-NEXT: %[[R:.*]] = "flow.dispatch.region"(%[[N]]) ({
// CHECK:        linalg.matmul
// CHECK:        %[[RELU:.*]] = linalg.generic
// CHECK:        "flow.return"(%[[RELU]]) : (tensor<?x4xf32>) -> ()
// CHECK-NEXT: }, {
// CHECK-NEXT: }) {mlc.fusion_group = 0 : i64, operandSegmentSizes = array<i32: 1, 0>} : (index) -> tensor<?x4xf32>
// CHECK-NEXT: return %[[R]]
func.func @matmul_relu_dynamic_batch(%x: tensor<?x4xf32>, %w: tensor<4x4xf32>) -> tensor<?x4xf32> {
  %0 = "mlc.fusion_group"() ({
    %1 = "mlc.matmul"(%x, %w) : (tensor<?x4xf32>, tensor<4x4xf32>) -> tensor<?x4xf32>
    %2 = "mlc.relu"(%1) : (tensor<?x4xf32>) -> tensor<?x4xf32>
    "mlc.yield"(%2) : (tensor<?x4xf32>) -> ()
  }) : () -> tensor<?x4xf32>
  return %0 : tensor<?x4xf32>
}

// -----

/// Two dynamic sizes: two operands, in the order of the result's dimensions.

// CHECK-LABEL: func.func @two_dynamic_sizes
// CHECK-SAME: (%[[X:.*]]: tensor<?x?xf32>)
// CHECK-DAG:  %[[C0:.*]] = arith.constant 0 : index
// CHECK-DAG:  %[[ROWS:.*]] = tensor.dim %[[X]], %[[C0]] : tensor<?x?xf32>
// CHECK-DAG:  %[[C1:.*]] = arith.constant 1 : index
// CHECK-DAG:  %[[COLS:.*]] = tensor.dim %[[X]], %[[C1]] : tensor<?x?xf32>
// CHECK:      "flow.dispatch.region"(%[[ROWS]], %[[COLS]]) ({
// CHECK:        math.exp
// CHECK:      }) {mlc.fusion_group = 0 : i64, operandSegmentSizes = array<i32: 2, 0>} : (index, index) -> tensor<?x?xf32>
func.func @two_dynamic_sizes(%x: tensor<?x?xf32>) -> tensor<?x?xf32> {
  %0 = "mlc.fusion_group"() ({
    %1 = "mlc.exp"(%x) : (tensor<?x?xf32>) -> tensor<?x?xf32>
    %2 = "mlc.add"(%1, %x) : (tensor<?x?xf32>, tensor<?x?xf32>) -> tensor<?x?xf32>
    "mlc.yield"(%2) : (tensor<?x?xf32>) -> ()
  }) : () -> tensor<?x?xf32>
  return %0 : tensor<?x?xf32>
}

// -----

/// A reduction's result: its accumulator is a fill of a tensor.empty sized by
/// the input's kept dimension. Static dimensions give no operand.

// CHECK-LABEL: func.func @reduction_dynamic_rows
// CHECK-SAME: (%[[X:.*]]: tensor<?x8xf32>)
// CHECK:      %[[N:.*]] = tensor.dim %[[X]], %{{.*}} : tensor<?x8xf32>
// CHECK-NEXT: "flow.dispatch.region"(%[[N]]) ({
// CHECK:        linalg.generic
// CHECK:      }) {mlc.fusion_group = 0 : i64, operandSegmentSizes = array<i32: 1, 0>} : (index) -> tensor<?xf32>
func.func @reduction_dynamic_rows(%x: tensor<?x8xf32>) -> tensor<?xf32> {
  %0 = "mlc.fusion_group"() ({
    %1 = "mlc.exp"(%x) : (tensor<?x8xf32>) -> tensor<?x8xf32>
    %2 = "mlc.reduce_sum"(%1) {axes = array<i64: 1>, keepdim = false} : (tensor<?x8xf32>) -> tensor<?xf32>
    "mlc.yield"(%2) : (tensor<?xf32>) -> ()
  }) : () -> tensor<?xf32>
  return %0 : tensor<?xf32>
}

// -----

/// negative: the slice's size is an `arith.ceildivsi` of the size of a value made
/// in the group, and its result a `tensor.extract_slice` (neither destination style
/// nor tensor.empty): untraceable, so the group is inlined and no region is formed.

// CHECK-LABEL: func.func @negative_slice_to_end_inlined
// CHECK-NOT:  flow.dispatch.region
// CHECK:      math.exp
// CHECK:      arith.ceildivsi
// CHECK:      %[[S:.*]] = tensor.extract_slice
// CHECK-NOT:  flow.dispatch.region
// CHECK-NOT:  mlc.fusion_group
// CHECK:      return %[[S]]
func.func @negative_slice_to_end_inlined(%x: tensor<?x4xf32>) -> tensor<?x4xf32> {
  %0 = "mlc.fusion_group"() ({
    %1 = "mlc.exp"(%x) : (tensor<?x4xf32>) -> tensor<?x4xf32>
    %2 = "mlc.slice"(%1) {start = array<i64: 1, 0>, limit = array<i64: -9223372036854775808, 4>, stride = array<i64: 2, 1>} : (tensor<?x4xf32>) -> tensor<?x4xf32>
    "mlc.yield"(%2) : (tensor<?x4xf32>) -> ()
  }) : () -> tensor<?x4xf32>
  return %0 : tensor<?x4xf32>
}

// -----

/// negative: a group padding a dynamically sized tensor (a convolution's padding at
/// a dynamic batch) is inlined: IREE's CPU code generation fails on such a pad
/// inside a dispatch region, and places it itself when it forms the dispatches.

// CHECK-LABEL: func.func @negative_dynamic_pad_inlined
// CHECK-NOT:  flow.dispatch.region
// CHECK:      tensor.pad
// CHECK-NOT:  flow.dispatch.region
// CHECK-NOT:  mlc.fusion_group
func.func @negative_dynamic_pad_inlined(%x: tensor<?x4xf32>) -> tensor<?x6xf32> {
  %0 = "mlc.fusion_group"() ({
    %1 = "mlc.exp"(%x) : (tensor<?x4xf32>) -> tensor<?x4xf32>
    %2 = "mlc.pad"(%1) {low = array<i64: 0, 1>, high = array<i64: 0, 1>, value = 0.0 : f64} : (tensor<?x4xf32>) -> tensor<?x6xf32>
    "mlc.yield"(%2) : (tensor<?x6xf32>) -> ()
  }) : () -> tensor<?x6xf32>
  return %0 : tensor<?x6xf32>
}
