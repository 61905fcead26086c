// RUN: mlc-opt %s --pass-pipeline='builtin.module(mlc-fold-constants)' --split-input-file | FileCheck %s

/// Weights are `dense_resource` blobs. In a module parsed from text, their
/// bytes are read from the module's `dialect_resources` section.

// CHECK-LABEL: func.func @transpose_weight
// CHECK-NEXT: %[[C:.*]] = "mlc.constant"() {value = dense<{{\[}}[1.000000e+00, 4.000000e+00], [2.000000e+00, 5.000000e+00], [3.000000e+00, 6.000000e+00]]> : tensor<3x2xf32>}
// CHECK-NEXT: return %[[C]]
func.func @transpose_weight() -> tensor<3x2xf32> {
  %w = "mlc.constant"() {value = dense_resource<fc.weight> : tensor<2x3xf32>} : () -> tensor<2x3xf32>
  %t = "mlc.transpose"(%w) {permutation = array<i64: 1, 0>} : (tensor<2x3xf32>) -> tensor<3x2xf32>
  return %t : tensor<3x2xf32>
}

{-#
  dialect_resources: {
    builtin: {
      fc.weight: "0x040000000000803F0000004000004040000080400000A0400000C040"
    }
  }
#-}

// -----

/// A second module may reuse a name (MLIR renames the blob): each reads its own.

// CHECK-LABEL: func.func @same_name_other_blob
// CHECK-NEXT: %[[C:.*]] = "mlc.constant"() {value = dense<[1.100000e+01, 2.200000e+01]> : tensor<2xf32>}
// CHECK-NEXT: return %[[C]]
func.func @same_name_other_blob() -> tensor<2xf32> {
  %w = "mlc.constant"() {value = dense_resource<fc.weight> : tensor<2xf32>} : () -> tensor<2xf32>
  %b = "mlc.constant"() {value = dense<[1.0, 2.0]> : tensor<2xf32>} : () -> tensor<2xf32>
  %s = "mlc.add"(%w, %b) : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>
  return %s : tensor<2xf32>
}

{-#
  dialect_resources: {
    builtin: {
      fc.weight: "0x04000000000020410000A041"
    }
  }
#-}

// -----

/// Booleans take a byte each; quoted names and integers read as well.

// CHECK-LABEL: func.func @bool_and_int_blobs
// CHECK-DAG: "mlc.constant"() {value = dense<[false, true, false, false]> : tensor<4xi1>}
// CHECK-DAG: "mlc.constant"() {value = dense<{{\[}}[-1, 3], [2, -4]]> : tensor<2x2xi64>}
// CHECK-NOT: dense_resource
func.func @bool_and_int_blobs() -> (tensor<4xi1>, tensor<2x2xi64>) {
  %m = "mlc.constant"() {value = dense_resource<"the mask"> : tensor<4xi1>} : () -> tensor<4xi1>
  %t = "mlc.constant"() {value = dense<true> : tensor<4xi1>} : () -> tensor<4xi1>
  %x = "mlc.compare"(%m, %t) {predicate = "ne"} : (tensor<4xi1>, tensor<4xi1>) -> tensor<4xi1>
  %i = "mlc.constant"() {value = dense_resource<ints> : tensor<2x2xi64>} : () -> tensor<2x2xi64>
  %j = "mlc.transpose"(%i) {permutation = array<i64: 1, 0>} : (tensor<2x2xi64>) -> tensor<2x2xi64>
  return %x, %j : tensor<4xi1>, tensor<2x2xi64>
}

{-#
  dialect_resources: {
    builtin: {
      "the mask": "0x0100000001000101",
      ints: "0x08000000FFFFFFFFFFFFFFFF02000000000000000300000000000000FCFFFFFFFFFFFFFF"
    }
  }
#-}
