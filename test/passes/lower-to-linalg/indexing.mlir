// RUN: mlc-opt %s --pass-pipeline='builtin.module(mlc-lower-to-linalg)' --split-input-file | FileCheck %s

/// argmax is two reductions of one accumulator each, both with a combiner IREE
/// vectorizes: the largest value (maximumf: NaN over every number), then the first
/// index that ties with it (equal, or both NaN).

// CHECK-DAG: #[[$IN:.*]] = affine_map<(d0, d1) -> (d0, d1)>
// CHECK-DAG: #[[$KEPT:.*]] = affine_map<(d0, d1) -> (d0)>
// CHECK-LABEL: func.func @argmax
// CHECK: %[[NEG_INF:.*]] = arith.constant 0xFF800000 : f32
// CHECK: %[[LOWEST:.*]] = linalg.fill ins(%[[NEG_INF]] : f32)
// CHECK: %[[BEST:.*]] = linalg.generic {indexing_maps = [#[[$IN]], #[[$KEPT]]], iterator_types = ["parallel", "reduction"]}
// CHECK-SAME: outs(%[[LOWEST]] : tensor<2xf32>)
// CHECK: arith.maximumf
// CHECK: %[[NONE:.*]] = linalg.fill ins(%{{.*}} : i64)
// CHECK: %[[R:.*]] = linalg.generic {indexing_maps = [#[[$IN]], #[[$KEPT]], #[[$KEPT]]], iterator_types = ["parallel", "reduction"]}
// CHECK-SAME: ins(%arg0, %[[BEST]] : tensor<2x5xf32>, tensor<2xf32>) outs(%[[NONE]] : tensor<2xi64>)
// CHECK: arith.cmpf oeq
// CHECK: arith.cmpf uno
// CHECK: %[[AT:.*]] = linalg.index 1 : index
// CHECK: arith.select
// CHECK: arith.minsi
// CHECK: return %[[R]] : tensor<2xi64>
func.func @argmax(%x: tensor<2x5xf32>) -> tensor<2xi64> {
  %0 = "mlc.argmax"(%x) {axis = 1 : i64, keepdim = false} : (tensor<2x5xf32>) -> tensor<2xi64>
  return %0 : tensor<2xi64>
}

// -----

/// argmin on integers keeps the reduced dimension with keepdim.

// CHECK-LABEL: func.func @argmin_keepdim
// CHECK: linalg.generic {{.*}} iterator_types = ["reduction", "parallel"]
// CHECK: arith.minsi %{{.*}}, %{{.*}} : i32
// CHECK: %[[R:.*]] = linalg.generic {{.*}} iterator_types = ["reduction", "parallel"]
// CHECK: arith.cmpi eq
// CHECK: tensor.expand_shape %[[R]] {{\[}}[0, 1]] output_shape [1, 3] : tensor<3xi64> into tensor<1x3xi64>
func.func @argmin_keepdim(%x: tensor<4x3xi32>) -> tensor<1x3xi64> {
  %0 = "mlc.argmin"(%x) {axis = 0 : i64, keepdim = true} : (tensor<4x3xi32>) -> tensor<1x3xi64>
  return %0 : tensor<1x3xi64>
}

// -----

/// argsort: the rank of each element (how many sort before it), then the index
/// holding each rank; both are reductions over an extra loop along the axis.

// CHECK-DAG: #[[$SELF:.*]] = affine_map<(d0, d1, d2) -> (d0, d1)>
// CHECK-DAG: #[[$OTHER:.*]] = affine_map<(d0, d1, d2) -> (d0, d2)>
// CHECK-LABEL: func.func @argsort
// CHECK: %[[RANKS:.*]] = linalg.generic {indexing_maps = [#[[$SELF]], #[[$OTHER]], #[[$SELF]]], iterator_types = ["parallel", "parallel", "reduction"]}
// CHECK-SAME: ins(%arg0, %arg0 : tensor<2x6xf32>, tensor<2x6xf32>)
// CHECK: arith.extui
// CHECK: %[[ORDER:.*]] = linalg.generic {indexing_maps = [#[[$OTHER]], #[[$SELF]]], iterator_types = ["parallel", "parallel", "reduction"]}
// CHECK-SAME: ins(%[[RANKS]] : tensor<2x6xi64>)
// CHECK: arith.cmpi eq
// CHECK: return %[[ORDER]] : tensor<2x6xi64>
func.func @argsort(%x: tensor<2x6xf32>) -> tensor<2x6xi64> {
  %0 = "mlc.argsort"(%x) {axis = 1 : i64, descending = false} : (tensor<2x6xf32>) -> tensor<2x6xi64>
  return %0 : tensor<2x6xi64>
}
