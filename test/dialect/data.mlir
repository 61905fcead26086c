// RUN: mlc-opt %s --split-input-file | mlc-opt --split-input-file | FileCheck %s

/// Data ops round-trip through the printer and parser unchanged.

// CHECK-LABEL: func.func @constant_dense
func.func @constant_dense() -> (tensor<2x2xf32>, tensor<3xi64>, tensor<f32>) {
  // CHECK: "mlc.constant"() {value = dense<{{\[}}[1.000000e+00, 2.000000e+00], [3.000000e+00, 4.000000e+00]]> : tensor<2x2xf32>} : () -> tensor<2x2xf32>
  %0 = "mlc.constant"() {value = dense<[[1.0, 2.0], [3.0, 4.0]]> : tensor<2x2xf32>} : () -> tensor<2x2xf32>
  // CHECK: "mlc.constant"() {value = dense<[1, -2, 3]> : tensor<3xi64>} : () -> tensor<3xi64>
  %1 = "mlc.constant"() {value = dense<[1, -2, 3]> : tensor<3xi64>} : () -> tensor<3xi64>
  /// A splat and a rank-0 constant.
  // CHECK: "mlc.constant"() {value = dense<5.000000e-01> : tensor<f32>} : () -> tensor<f32>
  %2 = "mlc.constant"() {value = dense<0.5> : tensor<f32>} : () -> tensor<f32>
  return %0, %1, %2 : tensor<2x2xf32>, tensor<3xi64>, tensor<f32>
}

// -----

/// A weight held as a resource blob: the reference and the blob's bytes
/// (4-byte alignment header, then 1.0 and 2.0 as little-endian f32) survive.

// CHECK-LABEL: func.func @constant_resource
func.func @constant_resource() -> tensor<2xf32> {
  // CHECK: "mlc.constant"() {value = dense_resource<blob> : tensor<2xf32>} : () -> tensor<2xf32>
  %0 = "mlc.constant"() {value = dense_resource<blob> : tensor<2xf32>} : () -> tensor<2xf32>
  return %0 : tensor<2xf32>
}

// CHECK:      {-#
// CHECK-NEXT:   dialect_resources: {
// CHECK-NEXT:     builtin: {
// CHECK-NEXT:       blob: "0x040000000000803F00000040"
// CHECK-NEXT:     }
// CHECK-NEXT:   }
// CHECK-NEXT: #-}

{-#
  dialect_resources: {
    builtin: {
      blob: "0x040000000000803F00000040"
    }
  }
#-}

// -----

// CHECK-LABEL: func.func @cast
func.func @cast(%x: tensor<2x3xf32>, %i: tensor<?x4xi32>) -> (tensor<2x3xi32>, tensor<2x3xf16>, tensor<?x4xf32>, tensor<2x3xf32>) {
  // CHECK: "mlc.cast"(%{{.*}}) : (tensor<2x3xf32>) -> tensor<2x3xi32>
  %0 = "mlc.cast"(%x) : (tensor<2x3xf32>) -> tensor<2x3xi32>
  // CHECK: "mlc.cast"(%{{.*}}) : (tensor<2x3xf32>) -> tensor<2x3xf16>
  %1 = "mlc.cast"(%x) : (tensor<2x3xf32>) -> tensor<2x3xf16>
  // CHECK: "mlc.cast"(%{{.*}}) : (tensor<?x4xi32>) -> tensor<?x4xf32>
  %2 = "mlc.cast"(%i) : (tensor<?x4xi32>) -> tensor<?x4xf32>
  /// Casting to the same type is allowed (a no-op).
  // CHECK: "mlc.cast"(%{{.*}}) : (tensor<2x3xf32>) -> tensor<2x3xf32>
  %3 = "mlc.cast"(%x) : (tensor<2x3xf32>) -> tensor<2x3xf32>
  return %0, %1, %2, %3 : tensor<2x3xi32>, tensor<2x3xf16>, tensor<?x4xf32>, tensor<2x3xf32>
}
