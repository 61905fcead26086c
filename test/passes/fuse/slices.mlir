// RUN: mlc-opt %s --split-input-file --pass-pipeline='builtin.module(mlc-fuse)' | FileCheck %s

/// A slice of what a group computes stays out of that group: IREE cannot tile a
/// dispatch whose output is a part of its computation (found by test/fuzz: the
/// group log, sub, slice failed "write affecting operations on global resources are
/// restricted to workgroup distributed contexts"). The slice gets its own group.

// CHECK-LABEL: func.func @slice_of_a_computed_value
// CHECK:      %[[G:.*]] = "mlc.fusion_group"() ({
// CHECK-NEXT:   "mlc.log"
// CHECK-NEXT:   %[[S:.*]] = "mlc.sub"
// CHECK-NEXT:   "mlc.yield"(%[[S]])
// CHECK:      %[[P:.*]] = "mlc.fusion_group"() ({
// CHECK-NEXT:   %[[T:.*]] = "mlc.slice"(%[[G]])
// CHECK-NEXT:   "mlc.yield"(%[[T]])
// CHECK:      return %[[P]]
func.func @slice_of_a_computed_value(%x: tensor<2xf32>, %y: tensor<1xf32>) -> tensor<1xf32> {
  %0 = "mlc.log"(%y) : (tensor<1xf32>) -> tensor<1xf32>
  %1 = "mlc.sub"(%x, %0) : (tensor<2xf32>, tensor<1xf32>) -> tensor<2xf32>
  %2 = "mlc.slice"(%1) {start = array<i64: 0>, limit = array<i64: 1>, stride = array<i64: 1>} : (tensor<2xf32>) -> tensor<1xf32>
  return %2 : tensor<1xf32>
}

// -----

/// A slice still fuses into its consumers, reading its operand from outside the
/// group; and an injective op that keeps every element (the transpose) fuses into
/// the slice-free group of its producer as before.

// CHECK-LABEL: func.func @slice_into_its_consumer
// CHECK:      %[[G:.*]] = "mlc.fusion_group"() ({
// CHECK-NEXT:   "mlc.exp"
// CHECK-NEXT:   %[[T:.*]] = "mlc.transpose"
// CHECK-NEXT:   "mlc.yield"(%[[T]])
// CHECK:      "mlc.fusion_group"() ({
// CHECK-NEXT:   %[[S:.*]] = "mlc.slice"(%[[G]])
// CHECK-NEXT:   %[[N:.*]] = "mlc.neg"(%[[S]])
// CHECK-NEXT:   "mlc.yield"(%[[N]])
func.func @slice_into_its_consumer(%x: tensor<4x3xf32>) -> tensor<2x4xf32> {
  %0 = "mlc.exp"(%x) : (tensor<4x3xf32>) -> tensor<4x3xf32>
  %1 = "mlc.transpose"(%0) {permutation = array<i64: 1, 0>} : (tensor<4x3xf32>) -> tensor<3x4xf32>
  %2 = "mlc.slice"(%1) {start = array<i64: 1, 0>, limit = array<i64: 3, 4>, stride = array<i64: 1, 1>} : (tensor<3x4xf32>) -> tensor<2x4xf32>
  %3 = "mlc.neg"(%2) : (tensor<2x4xf32>) -> tensor<2x4xf32>
  return %3 : tensor<2x4xf32>
}
