// RUN: mlc-opt %s --pass-pipeline='builtin.module(mlc-simplify)' --split-input-file | FileCheck %s

/// A cast to the same type is its input.

// CHECK-LABEL: func.func @identity_cast
// CHECK-SAME: (%[[X:.*]]: tensor<4xf32>)
// CHECK-NEXT: return %[[X]]
func.func @identity_cast(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = "mlc.cast"(%x) : (tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

/// After an exact cast (every value survives) a second cast gives what one
/// cast from the source gives.

// CHECK-LABEL: func.func @widening_chain
// CHECK-SAME: (%[[X:.*]]: tensor<4xf16>)
// CHECK-NEXT: %[[C:.*]] = "mlc.cast"(%[[X]]) : (tensor<4xf16>) -> tensor<4xf64>
// CHECK-NEXT: return %[[C]]
func.func @widening_chain(%x: tensor<4xf16>) -> tensor<4xf64> {
  %0 = "mlc.cast"(%x) : (tensor<4xf16>) -> tensor<4xf32>
  %1 = "mlc.cast"(%0) : (tensor<4xf32>) -> tensor<4xf64>
  return %1 : tensor<4xf64>
}

// -----

// CHECK-LABEL: func.func @exact_round_trip
// CHECK-SAME: (%[[X:.*]]: tensor<4xi8>)
// CHECK-NEXT: return %[[X]]
func.func @exact_round_trip(%x: tensor<4xi8>) -> tensor<4xi8> {
  %0 = "mlc.cast"(%x) : (tensor<4xi8>) -> tensor<4xf16>
  %1 = "mlc.cast"(%0) : (tensor<4xf16>) -> tensor<4xi8>
  return %1 : tensor<4xi8>
}

// -----

// CHECK-LABEL: func.func @int_widening_then_float
// CHECK-SAME: (%[[X:.*]]: tensor<4xi16>)
// CHECK-NEXT: %[[C:.*]] = "mlc.cast"(%[[X]]) : (tensor<4xi16>) -> tensor<4xf32>
// CHECK-NEXT: return %[[C]]
func.func @int_widening_then_float(%x: tensor<4xi16>) -> tensor<4xf32> {
  %0 = "mlc.cast"(%x) : (tensor<4xi16>) -> tensor<4xi64>
  %1 = "mlc.cast"(%0) : (tensor<4xi64>) -> tensor<4xf32>
  return %1 : tensor<4xf32>
}

// -----

/// A narrowing cast rounds: f32 -> f16 -> f32 is not the identity.

// CHECK-LABEL: func.func @negative_narrowing_chain
// CHECK-SAME: (%[[X:.*]]: tensor<4xf32>)
// CHECK-NEXT: %[[H:.*]] = "mlc.cast"(%[[X]]) : (tensor<4xf32>) -> tensor<4xf16>
// CHECK-NEXT: %[[F:.*]] = "mlc.cast"(%[[H]]) : (tensor<4xf16>) -> tensor<4xf32>
// CHECK-NEXT: return %[[F]]
func.func @negative_narrowing_chain(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = "mlc.cast"(%x) : (tensor<4xf32>) -> tensor<4xf16>
  %1 = "mlc.cast"(%0) : (tensor<4xf16>) -> tensor<4xf32>
  return %1 : tensor<4xf32>
}

// -----

/// Not every i32 is an f32 (24 significant bits), nor every bf16 an f16.

// CHECK-LABEL: func.func @negative_inexact_conversions
// CHECK-COUNT-4: "mlc.cast"
func.func @negative_inexact_conversions(%x: tensor<4xi32>, %y: tensor<4xbf16>) -> (tensor<4xf64>, tensor<4xf32>) {
  %0 = "mlc.cast"(%x) : (tensor<4xi32>) -> tensor<4xf32>
  %1 = "mlc.cast"(%0) : (tensor<4xf32>) -> tensor<4xf64>
  %2 = "mlc.cast"(%y) : (tensor<4xbf16>) -> tensor<4xf16>
  %3 = "mlc.cast"(%2) : (tensor<4xf16>) -> tensor<4xf32>
  return %1, %3 : tensor<4xf64>, tensor<4xf32>
}
