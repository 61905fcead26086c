// RUN: mlc-opt %s --split-input-file --pass-pipeline='builtin.module(mlc-sink-reshapes, mlc-simplify, cse)' | FileCheck %s

/// A Linear on [1, 4, 8] is reshape(matmul(reshape(x))). The expanding reshape after
/// the matmul sinks below the bias, the GELU and the residual add (whose other
/// operand is viewed in the matmul's shape), and below the layer norm over the last
/// axis; there it meets the next Linear's flattening reshape and both cancel.

// CHECK-LABEL: func.func @linear_gelu_residual_norm_linear
// CHECK-SAME: (%[[X:.*]]: tensor<1x4x8xf32>
// CHECK:      %[[FLAT:.*]] = "mlc.reshape"(%[[X]]) : (tensor<1x4x8xf32>) -> tensor<4x8xf32>
// CHECK:      %[[MM:.*]] = "mlc.matmul"(%[[FLAT]], %{{.*}}) : (tensor<4x8xf32>, tensor<8x8xf32>) -> tensor<4x8xf32>
// CHECK-NEXT: %[[BIAS:.*]] = "mlc.add"(%[[MM]], %{{.*}}) : (tensor<4x8xf32>, tensor<8xf32>) -> tensor<4x8xf32>
// CHECK-NEXT: %[[GELU:.*]] = "mlc.gelu"(%[[BIAS]]) {{.*}} : (tensor<4x8xf32>) -> tensor<4x8xf32>
// CHECK-NEXT: %[[SUM:.*]] = "mlc.add"(%[[GELU]], %[[FLAT]]) : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
// CHECK-NEXT: %[[NORM:.*]] = "mlc.layer_norm"(%[[SUM]], %{{.*}}, %{{.*}}) {axis = 1 : i64, {{.*}}} : (tensor<4x8xf32>, tensor<8xf32>, tensor<8xf32>) -> tensor<4x8xf32>
// CHECK-NEXT: %[[MM2:.*]] = "mlc.matmul"(%[[NORM]], %{{.*}}) : (tensor<4x8xf32>, tensor<8x8xf32>) -> tensor<4x8xf32>
// CHECK-NEXT: %[[OUT:.*]] = "mlc.reshape"(%[[MM2]]) : (tensor<4x8xf32>) -> tensor<1x4x8xf32>
// CHECK-NEXT: return %[[OUT]]
func.func @linear_gelu_residual_norm_linear(%x: tensor<1x4x8xf32>, %w: tensor<8x8xf32>, %b: tensor<8xf32>) -> tensor<1x4x8xf32> {
  %flat = "mlc.reshape"(%x) : (tensor<1x4x8xf32>) -> tensor<4x8xf32>
  %mm = "mlc.matmul"(%flat, %w) : (tensor<4x8xf32>, tensor<8x8xf32>) -> tensor<4x8xf32>
  %y = "mlc.reshape"(%mm) : (tensor<4x8xf32>) -> tensor<1x4x8xf32>
  %biased = "mlc.add"(%y, %b) : (tensor<1x4x8xf32>, tensor<8xf32>) -> tensor<1x4x8xf32>
  %g = "mlc.gelu"(%biased) {approximate = "none"} : (tensor<1x4x8xf32>) -> tensor<1x4x8xf32>
  %sum = "mlc.add"(%g, %x) : (tensor<1x4x8xf32>, tensor<1x4x8xf32>) -> tensor<1x4x8xf32>
  %n = "mlc.layer_norm"(%sum, %b, %b) {axis = 2 : i64, epsilon = 1.0e-05 : f64, library = false} : (tensor<1x4x8xf32>, tensor<8xf32>, tensor<8xf32>) -> tensor<1x4x8xf32>
  %flat2 = "mlc.reshape"(%n) : (tensor<1x4x8xf32>) -> tensor<4x8xf32>
  %mm2 = "mlc.matmul"(%flat2, %w) : (tensor<4x8xf32>, tensor<8x8xf32>) -> tensor<4x8xf32>
  %out = "mlc.reshape"(%mm2) : (tensor<4x8xf32>) -> tensor<1x4x8xf32>
  return %out : tensor<1x4x8xf32>
}

// -----

/// A conv as matmul: [49, 16] expands to [1, 7, 7, 16]; relu and a residual add of an
/// NHWC value take it, the add viewing its other operand as [49, 16].

// CHECK-LABEL: func.func @nhwc_epilogue
// CHECK-SAME: (%[[P:.*]]: tensor<49x16xf32>, %[[SKIP:.*]]: tensor<1x7x7x16xf32>)
// CHECK-NEXT: %[[R:.*]] = "mlc.relu"(%[[P]]) : (tensor<49x16xf32>) -> tensor<49x16xf32>
// CHECK-NEXT: %[[S:.*]] = "mlc.reshape"(%[[SKIP]]) : (tensor<1x7x7x16xf32>) -> tensor<49x16xf32>
// CHECK-NEXT: %[[A:.*]] = "mlc.add"(%[[R]], %[[S]]) : (tensor<49x16xf32>, tensor<49x16xf32>) -> tensor<49x16xf32>
// CHECK-NEXT: %[[OUT:.*]] = "mlc.reshape"(%[[A]]) : (tensor<49x16xf32>) -> tensor<1x7x7x16xf32>
// CHECK-NEXT: return %[[OUT]]
func.func @nhwc_epilogue(%p: tensor<49x16xf32>, %skip: tensor<1x7x7x16xf32>) -> tensor<1x7x7x16xf32> {
  %y = "mlc.reshape"(%p) : (tensor<49x16xf32>) -> tensor<1x7x7x16xf32>
  %r = "mlc.relu"(%y) : (tensor<1x7x7x16xf32>) -> tensor<1x7x7x16xf32>
  %a = "mlc.add"(%r, %skip) : (tensor<1x7x7x16xf32>, tensor<1x7x7x16xf32>) -> tensor<1x7x7x16xf32>
  return %a : tensor<1x7x7x16xf32>
}

// -----

/// A collapsing reshape never sinks (sinking it could undo the expansion above it).

// CHECK-LABEL: func.func @negative_collapse
// CHECK-NEXT: %[[C:.*]] = "mlc.reshape"(%{{.*}}) : (tensor<2x3x4xf32>) -> tensor<6x4xf32>
// CHECK-NEXT: "mlc.exp"(%[[C]]) : (tensor<6x4xf32>) -> tensor<6x4xf32>
func.func @negative_collapse(%x: tensor<2x3x4xf32>) -> tensor<6x4xf32> {
  %c = "mlc.reshape"(%x) : (tensor<2x3x4xf32>) -> tensor<6x4xf32>
  %e = "mlc.exp"(%c) : (tensor<6x4xf32>) -> tensor<6x4xf32>
  return %e : tensor<6x4xf32>
}

// -----

/// A softmax across the split dimensions, and an operand that varies along them
/// without being the full shape, keep the reshape where it is.

// CHECK-LABEL: func.func @negative_across_split
// CHECK-NEXT: %[[Y:.*]] = "mlc.reshape"(%{{.*}}) : (tensor<6x4xf32>) -> tensor<2x3x4xf32>
// CHECK-NEXT: "mlc.softmax"(%[[Y]]) {axis = 1 : i64} : (tensor<2x3x4xf32>) -> tensor<2x3x4xf32>
// CHECK-NEXT: "mlc.add"(%[[Y]], %{{.*}}) : (tensor<2x3x4xf32>, tensor<3x1xf32>) -> tensor<2x3x4xf32>
func.func @negative_across_split(%x: tensor<6x4xf32>, %v: tensor<3x1xf32>) -> (tensor<2x3x4xf32>, tensor<2x3x4xf32>) {
  %y = "mlc.reshape"(%x) : (tensor<6x4xf32>) -> tensor<2x3x4xf32>
  %s = "mlc.softmax"(%y) {axis = 1 : i64} : (tensor<2x3x4xf32>) -> tensor<2x3x4xf32>
  %a = "mlc.add"(%y, %v) : (tensor<2x3x4xf32>, tensor<3x1xf32>) -> tensor<2x3x4xf32>
  return %s, %a : tensor<2x3x4xf32>, tensor<2x3x4xf32>
}

// -----

/// Dynamic shapes stay as they are.

// CHECK-LABEL: func.func @negative_dynamic
// CHECK: "mlc.reshape"
// CHECK-NEXT: "mlc.exp"(%{{.*}}) : (tensor<?x3x4xf32>) -> tensor<?x3x4xf32>
func.func @negative_dynamic(%x: tensor<?x4xf32>, %n: index) -> tensor<?x3x4xf32> {
  %y = "mlc.reshape"(%x, %n) : (tensor<?x4xf32>, index) -> tensor<?x3x4xf32>
  %e = "mlc.exp"(%y) : (tensor<?x3x4xf32>) -> tensor<?x3x4xf32>
  return %e : tensor<?x3x4xf32>
}
