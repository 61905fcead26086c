// RUN: mlc-opt %s --pass-pipeline='builtin.module(mlc-lower-to-linalg)' --split-input-file | FileCheck %s

/// A scan is a reduction over an extra loop j along the axis; element j counts
/// toward result i when j <= i, else the identity does.

// CHECK-DAG: #[[$AT_J:.*]] = affine_map<(d0, d1, d2) -> (d0, d2)>
// CHECK-DAG: #[[$OUT:.*]] = affine_map<(d0, d1, d2) -> (d0, d1)>
// CHECK-LABEL: func.func @cumsum
// CHECK: %[[ZERO:.*]] = arith.constant 0.000000e+00 : f32
// CHECK: %[[ACC:.*]] = linalg.fill ins(%[[ZERO]] : f32)
// CHECK: linalg.generic {indexing_maps = [#[[$AT_J]], #[[$OUT]]], iterator_types = ["parallel", "parallel", "reduction"]}
// CHECK-SAME: ins(%arg0 : tensor<2x5xf32>) outs(%[[ACC]] : tensor<2x5xf32>)
// CHECK: %[[J:.*]] = linalg.index 2 : index
// CHECK: %[[I:.*]] = linalg.index 1 : index
// CHECK: %[[COUNTED:.*]] = arith.cmpi ule, %[[J]], %[[I]] : index
// CHECK: %[[TERM:.*]] = arith.select %[[COUNTED]], %{{.*}}, %{{.*}} : f32
// CHECK: arith.addf %{{.*}}, %[[TERM]] : f32
func.func @cumsum(%x: tensor<2x5xf32>) -> tensor<2x5xf32> {
  %0 = "mlc.cumsum"(%x) {axis = 1 : i64} : (tensor<2x5xf32>) -> tensor<2x5xf32>
  return %0 : tensor<2x5xf32>
}

// -----

// CHECK-LABEL: func.func @cumprod_int
// CHECK: %[[ONE:.*]] = arith.constant 1 : i64
// CHECK: linalg.fill ins(%[[ONE]] : i64)
// CHECK: iterator_types = ["parallel", "parallel", "reduction"]
// CHECK: arith.muli
func.func @cumprod_int(%x: tensor<4x3xi64>) -> tensor<4x3xi64> {
  %0 = "mlc.cumprod"(%x) {axis = 0 : i64} : (tensor<4x3xi64>) -> tensor<4x3xi64>
  return %0 : tensor<4x3xi64>
}

// -----

/// logcumsumexp combines by logaddexp from -inf: max + log1p(exp(min - max)), and
/// -inf (nothing counted yet, or a term of weight 0) adds nothing.
// CHECK-LABEL: func.func @logcumsumexp
// CHECK: %[[NEG_INF:.*]] = arith.constant 0xFF800000 : f32
// CHECK: linalg.fill ins(%[[NEG_INF]] : f32)
// CHECK: iterator_types = ["parallel", "reduction"]
// CHECK: %[[HIGH:.*]] = arith.maximumf
// CHECK: %[[LOW:.*]] = arith.minimumf
// CHECK: math.exp
// CHECK: math.log1p
// CHECK: %[[NOTHING:.*]] = arith.cmpf oeq, %[[LOW]]
// CHECK: arith.select %[[NOTHING]], %[[HIGH]]
func.func @logcumsumexp(%x: tensor<6xf32>) -> tensor<6xf32> {
  %0 = "mlc.logcumsumexp"(%x) {axis = 0 : i64} : (tensor<6xf32>) -> tensor<6xf32>
  return %0 : tensor<6xf32>
}
