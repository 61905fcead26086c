// RUN: mlc-opt %s --pass-pipeline='builtin.module(mlc-lower-to-linalg)' --split-input-file | FileCheck %s

/// argmax is one reduction with two accumulators (value, index): a new element
/// wins when larger, or equal at a smaller index, or the first NaN.

// CHECK-DAG: #[[$IN:.*]] = affine_map<(d0, d1) -> (d0, d1)>
// CHECK-DAG: #[[$KEPT:.*]] = affine_map<(d0, d1) -> (d0)>
// CHECK-LABEL: func.func @argmax
// CHECK: %[[NEG_INF:.*]] = arith.constant 0xFF800000 : f32
// CHECK: %[[BEST:.*]] = linalg.fill ins(%[[NEG_INF]] : f32)
// CHECK: %[[FIRST:.*]] = linalg.fill ins(%{{.*}} : i64)
// CHECK: %[[R:.*]]:2 = linalg.generic {indexing_maps = [#[[$IN]], #[[$KEPT]], #[[$KEPT]]], iterator_types = ["parallel", "reduction"]}
// CHECK-SAME: outs(%[[BEST]], %[[FIRST]] : tensor<2xf32>, tensor<2xi64>)
// CHECK: %[[AT:.*]] = linalg.index 1 : index
// CHECK: arith.cmpf ogt
// CHECK: arith.cmpf uno
// CHECK: arith.select %[[TAKE:.*]], %{{.*}}, %{{.*}} : f32
// CHECK-NEXT: arith.select %[[TAKE]], %{{.*}}, %{{.*}} : i64
// CHECK: return %[[R]]#1 : tensor<2xi64>
func.func @argmax(%x: tensor<2x5xf32>) -> tensor<2xi64> {
  %0 = "mlc.argmax"(%x) {axis = 1 : i64, keepdim = false} : (tensor<2x5xf32>) -> tensor<2xi64>
  return %0 : tensor<2xi64>
}

// -----

/// argmin on integers keeps the reduced dimension with keepdim.

// CHECK-LABEL: func.func @argmin_keepdim
// CHECK: %[[R:.*]]:2 = linalg.generic {{.*}} iterator_types = ["reduction", "parallel"]
// CHECK: arith.cmpi slt
// CHECK: tensor.expand_shape %[[R]]#1 {{\[}}[0, 1]] output_shape [1, 3] : tensor<3xi64> into tensor<1x3xi64>
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
