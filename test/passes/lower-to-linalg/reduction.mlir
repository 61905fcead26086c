// RUN: mlc-opt %s --pass-pipeline='builtin.module(mlc-lower-to-linalg)' --split-input-file | FileCheck %s

/// A reduction is a linalg.generic whose reduced loops are "reduction"
/// iterators, into a filled accumulator of the kept dimensions; keepdim expands
/// the result back with size-1 dimensions.

// CHECK-DAG: #[[$IN:.*]] = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
// CHECK-DAG: #[[$OUT:.*]] = affine_map<(d0, d1, d2) -> (d0, d2)>
// CHECK-LABEL: func.func @reduce_sum
// CHECK-SAME: (%[[X:.*]]: tensor<2x3x4xf32>)
// CHECK: %[[ZERO:.*]] = arith.constant 0.000000e+00 : f32
// CHECK-NEXT: %[[EMPTY:.*]] = tensor.empty() : tensor<2x4xf32>
// CHECK-NEXT: %[[ACC:.*]] = linalg.fill ins(%[[ZERO]] : f32) outs(%[[EMPTY]] : tensor<2x4xf32>)
// CHECK-NEXT: %[[SUM:.*]] = linalg.generic {indexing_maps = [#[[$IN]], #[[$OUT]]], iterator_types = ["parallel", "reduction", "parallel"]}
// CHECK-SAME: ins(%[[X]] : tensor<2x3x4xf32>) outs(%[[ACC]] : tensor<2x4xf32>)
// CHECK-NEXT: ^bb0(%[[V:.*]]: f32, %[[A:.*]]: f32):
// CHECK-NEXT: %[[Y:.*]] = arith.addf %[[V]], %[[A]] : f32
// CHECK-NEXT: linalg.yield %[[Y]]
// CHECK: return %[[SUM]] : tensor<2x4xf32>
func.func @reduce_sum(%x: tensor<2x3x4xf32>) -> tensor<2x4xf32> {
  %0 = "mlc.reduce_sum"(%x) {axes = array<i64: 1>, keepdim = false} : (tensor<2x3x4xf32>) -> tensor<2x4xf32>
  return %0 : tensor<2x4xf32>
}

// -----

/// keepdim: each reduced dimension joins a neighbouring kept one in expand_shape.

// CHECK-LABEL: func.func @reduce_sum_keepdim
// CHECK: %[[SUM:.*]] = linalg.generic {{.*}} iterator_types = ["reduction", "parallel", "reduction"]
// CHECK: %[[KEPT:.*]] = tensor.expand_shape %[[SUM]] {{\[}}[0, 1, 2]] output_shape [1, 3, 1] : tensor<3xf32> into tensor<1x3x1xf32>
// CHECK-NEXT: return %[[KEPT]]
func.func @reduce_sum_keepdim(%x: tensor<2x3x4xf32>) -> tensor<1x3x1xf32> {
  %0 = "mlc.reduce_sum"(%x) {axes = array<i64: 0, -1>, keepdim = true} : (tensor<2x3x4xf32>) -> tensor<1x3x1xf32>
  return %0 : tensor<1x3x1xf32>
}

// -----

/// mean = sum / N, N the number of reduced elements (here 2 x 4).

// CHECK-LABEL: func.func @reduce_mean
// CHECK: %[[SUM:.*]] = linalg.generic {{.*}} iterator_types = ["reduction", "parallel", "reduction"]
// CHECK: %[[N:.*]] = arith.constant 8.000000e+00 : f32
// CHECK: linalg.generic {{.*}} ins(%[[SUM]] : tensor<3xf32>)
// CHECK-NEXT: ^bb0(%[[S:.*]]: f32, %{{.*}}: f32):
// CHECK-NEXT: arith.divf %[[S]], %[[N]] : f32
func.func @reduce_mean(%x: tensor<2x3x4xf32>) -> tensor<3xf32> {
  %0 = "mlc.reduce_mean"(%x) {axes = array<i64: 0, 2>, keepdim = false} : (tensor<2x3x4xf32>) -> tensor<3xf32>
  return %0 : tensor<3xf32>
}

// -----

/// max starts from -inf and propagates NaN; reducing every axis gives a rank-0
/// accumulator that keepdim expands to 1 x 1.

// CHECK-DAG: #[[$ALL:.*]] = affine_map<(d0, d1) -> ()>
// CHECK-LABEL: func.func @reduce_max_all_keepdim
// CHECK: %[[NEG_INF:.*]] = arith.constant 0xFF800000 : f32
// CHECK-NEXT: %[[EMPTY:.*]] = tensor.empty() : tensor<f32>
// CHECK-NEXT: %[[ACC:.*]] = linalg.fill ins(%[[NEG_INF]] : f32) outs(%[[EMPTY]] : tensor<f32>)
// CHECK-NEXT: %[[MAX:.*]] = linalg.generic {indexing_maps = [#{{.*}}, #[[$ALL]]], iterator_types = ["reduction", "reduction"]}
// CHECK: arith.maximumf
// CHECK: tensor.expand_shape %[[MAX]] [] output_shape [1, 1] : tensor<f32> into tensor<1x1xf32>
func.func @reduce_max_all_keepdim(%x: tensor<2x3xf32>) -> tensor<1x1xf32> {
  %0 = "mlc.reduce_max"(%x) {axes = array<i64: 0, 1>, keepdim = true} : (tensor<2x3xf32>) -> tensor<1x1xf32>
  return %0 : tensor<1x1xf32>
}

// -----

/// min starts from +inf.

// CHECK-LABEL: func.func @reduce_min
// CHECK: %[[POS_INF:.*]] = arith.constant 0x7F800000 : f32
// CHECK: linalg.fill ins(%[[POS_INF]] : f32)
// CHECK: arith.minimumf
func.func @reduce_min(%x: tensor<2x3xf32>) -> tensor<2xf32> {
  %0 = "mlc.reduce_min"(%x) {axes = array<i64: 1>, keepdim = false} : (tensor<2x3xf32>) -> tensor<2xf32>
  return %0 : tensor<2xf32>
}

// -----

/// On integers the identities are the type's extremes.

// CHECK-LABEL: func.func @reduce_integer
// CHECK: arith.constant 0 : i64
// CHECK: arith.addi
// CHECK: arith.constant -9223372036854775808 : i64
// CHECK: arith.maxsi
// CHECK: arith.constant 9223372036854775807 : i64
// CHECK: arith.minsi
func.func @reduce_integer(%x: tensor<2x3xi64>) -> (tensor<2xi64>, tensor<2xi64>, tensor<2xi64>) {
  %0 = "mlc.reduce_sum"(%x) {axes = array<i64: 1>, keepdim = false} : (tensor<2x3xi64>) -> tensor<2xi64>
  %1 = "mlc.reduce_max"(%x) {axes = array<i64: 1>, keepdim = false} : (tensor<2x3xi64>) -> tensor<2xi64>
  %2 = "mlc.reduce_min"(%x) {axes = array<i64: 1>, keepdim = false} : (tensor<2x3xi64>) -> tensor<2xi64>
  return %0, %1, %2 : tensor<2xi64>, tensor<2xi64>, tensor<2xi64>
}

// -----

/// On bools, max is `or` from false and min is `and` from true.

// CHECK-LABEL: func.func @reduce_bool
// CHECK: %[[FALSE:.*]] = arith.constant false
// CHECK: linalg.fill ins(%[[FALSE]] : i1)
// CHECK: arith.ori
// CHECK: %[[TRUE:.*]] = arith.constant true
// CHECK: linalg.fill ins(%[[TRUE]] : i1)
// CHECK: arith.andi
func.func @reduce_bool(%x: tensor<2x3xi1>) -> (tensor<2xi1>, tensor<2xi1>) {
  %0 = "mlc.reduce_max"(%x) {axes = array<i64: 1>, keepdim = false} : (tensor<2x3xi1>) -> tensor<2xi1>
  %1 = "mlc.reduce_min"(%x) {axes = array<i64: 1>, keepdim = false} : (tensor<2x3xi1>) -> tensor<2xi1>
  return %0, %1 : tensor<2xi1>, tensor<2xi1>
}

// -----

/// A dynamic kept dimension sizes the accumulator through tensor.dim.

// CHECK-LABEL: func.func @reduce_sum_dynamic
// CHECK-SAME: (%[[X:.*]]: tensor<?x3xf32>)
// CHECK: %[[N:.*]] = tensor.dim %[[X]], %{{.*}} : tensor<?x3xf32>
// CHECK: tensor.empty(%[[N]]) : tensor<?xf32>
func.func @reduce_sum_dynamic(%x: tensor<?x3xf32>) -> tensor<?xf32> {
  %0 = "mlc.reduce_sum"(%x) {axes = array<i64: 1>, keepdim = false} : (tensor<?x3xf32>) -> tensor<?xf32>
  return %0 : tensor<?xf32>
}

// -----

/// A linalg.reduce already there is left alone.

// CHECK-LABEL: func.func @negative_linalg_reduce
// CHECK: linalg.reduce
// CHECK-NOT: linalg.generic
func.func @negative_linalg_reduce(%x: tensor<2x3xf32>, %init: tensor<2xf32>) -> tensor<2xf32> {
  %0 = linalg.reduce ins(%x : tensor<2x3xf32>) outs(%init : tensor<2xf32>) dimensions = [1]
    (%in: f32, %acc: f32) {
      %1 = arith.addf %in, %acc : f32
      linalg.yield %1 : f32
    }
  return %0 : tensor<2xf32>
}
