// RUN: mlc-opt %s --split-input-file --pass-pipeline='builtin.module(mlc-library-layer-norms)' | FileCheck %s
// RUN: mlc-opt %s --pass-pipeline='builtin.module(mlc-library-layer-norms)' --mlir-pass-statistics -o /dev/null 2>&1 | FileCheck %s --check-prefix=STATS

/// f32 LayerNorms of static shape, over the last dimension or several trailing ones,
/// run on mlc's matmul plugin: `library` becomes true. Others keep IREE's code: bf16,
/// a dynamic dimension, a 1-D input, and a norm over every dimension (no rows).

// STATS:      'mlc-library-layer-norms'
// STATS-NEXT:   (2) layer norms on the library
// STATS-NEXT:   (4) layer norms left to IREE

// CHECK-LABEL: func.func @rows_of_the_last_dimension
// CHECK:       "mlc.layer_norm"(%{{.*}}, %{{.*}}, %{{.*}}) {axis = -1 : i64, epsilon = 9.9999999999999998E-13 : f64, library = true}
func.func @rows_of_the_last_dimension(%x: tensor<2x128x768xf32>, %w: tensor<768xf32>, %b: tensor<768xf32>) -> tensor<2x128x768xf32> {
  %0 = "mlc.layer_norm"(%x, %w, %b) {axis = -1 : i64, epsilon = 1.0e-12 : f64, library = false} : (tensor<2x128x768xf32>, tensor<768xf32>, tensor<768xf32>) -> tensor<2x128x768xf32>
  return %0 : tensor<2x128x768xf32>
}

// -----

// CHECK-LABEL: func.func @rows_of_trailing_dimensions
// CHECK:       "mlc.layer_norm"(%{{.*}}, %{{.*}}, %{{.*}}) {axis = 1 : i64, epsilon = 1.000000e-05 : f64, library = true}
func.func @rows_of_trailing_dimensions(%x: tensor<4x8x16xf32>, %w: tensor<8x16xf32>, %b: tensor<8x16xf32>) -> tensor<4x8x16xf32> {
  %0 = "mlc.layer_norm"(%x, %w, %b) {axis = 1 : i64, epsilon = 1.0e-5 : f64, library = false} : (tensor<4x8x16xf32>, tensor<8x16xf32>, tensor<8x16xf32>) -> tensor<4x8x16xf32>
  return %0 : tensor<4x8x16xf32>
}

// -----

// CHECK-LABEL: func.func @bf16
// CHECK:       library = false
func.func @bf16(%x: tensor<4x16xbf16>, %w: tensor<16xbf16>) -> tensor<4x16xbf16> {
  %0 = "mlc.layer_norm"(%x, %w, %w) {axis = 1 : i64, epsilon = 1.0e-5 : f64, library = false} : (tensor<4x16xbf16>, tensor<16xbf16>, tensor<16xbf16>) -> tensor<4x16xbf16>
  return %0 : tensor<4x16xbf16>
}

// -----

// CHECK-LABEL: func.func @dynamic_rows
// CHECK:       library = false
func.func @dynamic_rows(%x: tensor<?x16xf32>, %w: tensor<16xf32>) -> tensor<?x16xf32> {
  %0 = "mlc.layer_norm"(%x, %w, %w) {axis = 1 : i64, epsilon = 1.0e-5 : f64, library = false} : (tensor<?x16xf32>, tensor<16xf32>, tensor<16xf32>) -> tensor<?x16xf32>
  return %0 : tensor<?x16xf32>
}

// -----

// CHECK-LABEL: func.func @one_dimensional
// CHECK:       library = false
func.func @one_dimensional(%x: tensor<16xf32>, %w: tensor<16xf32>) -> tensor<16xf32> {
  %0 = "mlc.layer_norm"(%x, %w, %w) {axis = 0 : i64, epsilon = 1.0e-5 : f64, library = false} : (tensor<16xf32>, tensor<16xf32>, tensor<16xf32>) -> tensor<16xf32>
  return %0 : tensor<16xf32>
}

// -----

// CHECK-LABEL: func.func @every_dimension
// CHECK:       library = false
func.func @every_dimension(%x: tensor<4x16xf32>, %w: tensor<4x16xf32>) -> tensor<4x16xf32> {
  %0 = "mlc.layer_norm"(%x, %w, %w) {axis = 0 : i64, epsilon = 1.0e-5 : f64, library = false} : (tensor<4x16xf32>, tensor<4x16xf32>, tensor<4x16xf32>) -> tensor<4x16xf32>
  return %0 : tensor<4x16xf32>
}
