// RUN: mlc-opt %s --split-input-file --pass-pipeline='builtin.module(mlc-fuse{matmuls-take-no-producers=true})' | FileCheck %s
// RUN: mlc-opt %s --split-input-file --pass-pipeline='builtin.module(mlc-fuse)' | FileCheck %s --check-prefix=DEFAULT

/// With matmuls-take-no-producers (llvm-cpu), a matmul's group takes none of its
/// producers: IREE's data tiling packs the matmul's operands inside its dispatch, and
/// with attention's zeroed weights (a compare and a select) there, IREE 3.13 failed
/// with "exceeded stack allocation limit". Its consumers still join it. Without the
/// option, the elementwise producer fuses into the matmul's group.

// CHECK-LABEL: func.func @producer_and_consumer
// CHECK:      %[[R:.*]] = "mlc.fusion_group"() ({
// CHECK-NEXT:   "mlc.relu"(%arg0)
// CHECK:      "mlc.fusion_group"() ({
// CHECK-NEXT:   %[[M:.*]] = "mlc.matmul"(%[[R]], %arg1)
// CHECK-NEXT:   "mlc.add"(%[[M]], %arg2)
// DEFAULT-LABEL: func.func @producer_and_consumer
// DEFAULT:      "mlc.fusion_group"() ({
// DEFAULT-NEXT:   "mlc.relu"
// DEFAULT-NEXT:   "mlc.matmul"
// DEFAULT-NEXT:   "mlc.add"
func.func @producer_and_consumer(%x: tensor<8x32xf32>, %w: tensor<32x16xf32>, %r: tensor<8x16xf32>) -> tensor<8x16xf32> {
  %1 = "mlc.relu"(%x) : (tensor<8x32xf32>) -> tensor<8x32xf32>
  %2 = "mlc.matmul"(%1, %w) : (tensor<8x32xf32>, tensor<32x16xf32>) -> tensor<8x16xf32>
  %3 = "mlc.add"(%2, %r) : (tensor<8x16xf32>, tensor<8x16xf32>) -> tensor<8x16xf32>
  return %3 : tensor<8x16xf32>
}

// -----

/// A producer that also feeds the matmul's consumer would join the group through that
/// consumer, and be the matmul's producer there: it stays out too.

// CHECK-LABEL: func.func @producer_of_the_consumer_too
// CHECK:      %[[R:.*]] = "mlc.fusion_group"() ({
// CHECK-NEXT:   "mlc.relu"(%arg0)
// CHECK:      "mlc.fusion_group"() ({
// CHECK-NEXT:   %[[M:.*]] = "mlc.matmul"(%[[R]], %arg1)
// CHECK-NEXT:   "mlc.add"(%[[M]], %[[R]])
func.func @producer_of_the_consumer_too(%x: tensor<8x8xf32>, %w: tensor<8x8xf32>) -> tensor<8x8xf32> {
  %1 = "mlc.relu"(%x) : (tensor<8x8xf32>) -> tensor<8x8xf32>
  %2 = "mlc.matmul"(%1, %w) : (tensor<8x8xf32>, tensor<8x8xf32>) -> tensor<8x8xf32>
  %3 = "mlc.add"(%2, %1) : (tensor<8x8xf32>, tensor<8x8xf32>) -> tensor<8x8xf32>
  return %3 : tensor<8x8xf32>
}

// -----

/// A producer of the consumer's other operand is no producer of the matmul: it joins.

// CHECK-LABEL: func.func @producer_of_the_residual
// CHECK:      "mlc.fusion_group"() ({
// CHECK-DAG:    "mlc.relu"(%arg2)
// CHECK-DAG:    "mlc.matmul"(%arg0, %arg1)
// CHECK:        "mlc.add"
// CHECK-NOT:  "mlc.fusion_group"
func.func @producer_of_the_residual(%x: tensor<8x32xf32>, %w: tensor<32x16xf32>, %r: tensor<8x16xf32>) -> tensor<8x16xf32> {
  %1 = "mlc.relu"(%r) : (tensor<8x16xf32>) -> tensor<8x16xf32>
  %2 = "mlc.matmul"(%x, %w) : (tensor<8x32xf32>, tensor<32x16xf32>) -> tensor<8x16xf32>
  %3 = "mlc.add"(%2, %1) : (tensor<8x16xf32>, tensor<8x16xf32>) -> tensor<8x16xf32>
  return %3 : tensor<8x16xf32>
}
