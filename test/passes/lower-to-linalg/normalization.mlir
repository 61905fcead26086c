// RUN: mlc-opt %s --pass-pipeline='builtin.module(mlc-lower-to-linalg)' --split-input-file | FileCheck %s

/// softmax is linalg.softmax (IREE decomposes it into the stable form);
/// layer_norm and batch_norm are linalg.generics following torch's formulas.

// CHECK-LABEL: func.func @softmax
// CHECK-SAME: (%[[X:.*]]: tensor<2x5x3xf32>)
// CHECK: %[[INIT:.*]] = tensor.empty() : tensor<2x5x3xf32>
// CHECK-NEXT: %[[Y:.*]] = linalg.softmax dimension(1) ins(%[[X]] : tensor<2x5x3xf32>) outs(%[[INIT]] : tensor<2x5x3xf32>)
// CHECK-NEXT: return %[[Y]]
func.func @softmax(%x: tensor<2x5x3xf32>) -> tensor<2x5x3xf32> {
  %0 = "mlc.softmax"(%x) {axis = -2 : i64} : (tensor<2x5x3xf32>) -> tensor<2x5x3xf32>
  return %0 : tensor<2x5x3xf32>
}

// -----

/// layer_norm: mean = sum / N, biased variance = sum((x - mean)^2) / N, then
/// (x - mean) / sqrt(variance + epsilon) * weight + bias.

// CHECK-DAG: #[[$ID:.*]] = affine_map<(d0, d1) -> (d0, d1)>
// CHECK-DAG: #[[$ROW:.*]] = affine_map<(d0, d1) -> (d0)>
// CHECK-DAG: #[[$FEATURE:.*]] = affine_map<(d0, d1) -> (d1)>
// CHECK-LABEL: func.func @layer_norm
// CHECK-SAME: (%[[X:.*]]: tensor<2x8xf32>, %[[W:.*]]: tensor<8xf32>, %[[B:.*]]: tensor<8xf32>)
// CHECK: %[[N:.*]] = arith.constant 8.000000e+00 : f32
// CHECK-NEXT: %[[EPS:.*]] = arith.constant 9.99999974E-6 : f32
// CHECK: %[[SUM:.*]] = linalg.generic {indexing_maps = [#[[$ID]], #[[$ROW]]], iterator_types = ["parallel", "reduction"]} ins(%[[X]]
// CHECK: arith.addf
// CHECK: %[[MEAN:.*]] = linalg.generic {{.*}} ins(%[[SUM]]
// CHECK: arith.divf %{{.*}}, %[[N]]
// CHECK: %[[SQUARES:.*]] = linalg.generic {{.*}} iterator_types = ["parallel", "reduction"]} ins(%[[X]], %[[MEAN]] :
// CHECK-NEXT: ^bb0(%[[V:.*]]: f32, %[[M:.*]]: f32, %[[ACC:.*]]: f32):
// CHECK-NEXT: %[[DEV:.*]] = arith.subf %[[V]], %[[M]]
// CHECK-NEXT: %[[SQ:.*]] = arith.mulf %[[DEV]], %[[DEV]]
// CHECK-NEXT: arith.addf %[[ACC]], %[[SQ]]
// CHECK: linalg.generic {indexing_maps = [#[[$ID]], #[[$ROW]], #[[$ROW]], #[[$FEATURE]], #[[$FEATURE]], #[[$ID]]]
// CHECK-SAME: ins(%[[X]], %[[MEAN]], %[[SQUARES]], %[[W]], %[[B]] :
// CHECK-NEXT: ^bb0(%[[V2:.*]]: f32, %[[M2:.*]]: f32, %[[S2:.*]]: f32, %[[W2:.*]]: f32, %[[B2:.*]]: f32, %{{.*}}: f32):
// CHECK-NEXT: %[[VAR:.*]] = arith.divf %[[S2]], %[[N]]
// CHECK-NEXT: %[[CENTERED:.*]] = arith.subf %[[V2]], %[[M2]]
// CHECK-NEXT: %[[VAR_EPS:.*]] = arith.addf %[[VAR]], %[[EPS]]
// CHECK-NEXT: %[[STD:.*]] = math.sqrt %[[VAR_EPS]]
// CHECK-NEXT: %[[NORM:.*]] = arith.divf %[[CENTERED]], %[[STD]]
// CHECK-NEXT: %[[SCALED:.*]] = arith.mulf %[[NORM]], %[[W2]]
// CHECK-NEXT: %[[Y:.*]] = arith.addf %[[SCALED]], %[[B2]]
// CHECK-NEXT: linalg.yield %[[Y]]
func.func @layer_norm(%x: tensor<2x8xf32>, %w: tensor<8xf32>, %b: tensor<8xf32>) -> tensor<2x8xf32> {
  %0 = "mlc.layer_norm"(%x, %w, %b) {axis = -1 : i64, epsilon = 1.0e-05 : f64, library = false} : (tensor<2x8xf32>, tensor<8xf32>, tensor<8xf32>) -> tensor<2x8xf32>
  return %0 : tensor<2x8xf32>
}

// -----

/// Normalizing over several trailing dimensions: N is their product.

// CHECK-LABEL: func.func @layer_norm_trailing
// CHECK: arith.constant 2.000000e+01 : f32
// CHECK: iterator_types = ["parallel", "reduction", "reduction"]
func.func @layer_norm_trailing(%x: tensor<3x4x5xf32>, %w: tensor<4x5xf32>, %b: tensor<4x5xf32>) -> tensor<3x4x5xf32> {
  %0 = "mlc.layer_norm"(%x, %w, %b) {axis = 1 : i64, epsilon = 1.0e-05 : f64, library = false} : (tensor<3x4x5xf32>, tensor<4x5xf32>, tensor<4x5xf32>) -> tensor<3x4x5xf32>
  return %0 : tensor<3x4x5xf32>
}

// -----

/// batch_norm: one parallel generic; the statistics are read per channel (axis 1).

// CHECK-DAG: #[[$ID:.*]] = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
// CHECK-DAG: #[[$CHANNEL:.*]] = affine_map<(d0, d1, d2, d3) -> (d1)>
// CHECK-LABEL: func.func @batch_norm
// CHECK-SAME: (%[[X:.*]]: tensor<2x3x4x4xf32>, %[[SCALE:.*]]: tensor<3xf32>, %[[OFFSET:.*]]: tensor<3xf32>, %[[MEAN:.*]]: tensor<3xf32>, %[[VAR:.*]]: tensor<3xf32>)
// CHECK: %[[EPS:.*]] = arith.constant 9.99999974E-6 : f32
// CHECK: linalg.generic {indexing_maps = [#[[$ID]], #[[$CHANNEL]], #[[$CHANNEL]], #[[$CHANNEL]], #[[$CHANNEL]], #[[$ID]]], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
// CHECK-SAME: ins(%[[X]], %[[SCALE]], %[[OFFSET]], %[[MEAN]], %[[VAR]] :
// CHECK-NEXT: ^bb0(%[[V:.*]]: f32, %[[S:.*]]: f32, %[[O:.*]]: f32, %[[M:.*]]: f32, %[[VA:.*]]: f32, %{{.*}}: f32):
// CHECK-NEXT: %[[CENTERED:.*]] = arith.subf %[[V]], %[[M]]
// CHECK-NEXT: %[[VAR_EPS:.*]] = arith.addf %[[VA]], %[[EPS]]
// CHECK-NEXT: %[[STD:.*]] = math.sqrt %[[VAR_EPS]]
// CHECK-NEXT: %[[NORM:.*]] = arith.divf %[[CENTERED]], %[[STD]]
// CHECK-NEXT: %[[SCALED:.*]] = arith.mulf %[[NORM]], %[[S]]
// CHECK-NEXT: arith.addf %[[SCALED]], %[[O]]
func.func @batch_norm(%x: tensor<2x3x4x4xf32>, %s: tensor<3xf32>, %o: tensor<3xf32>, %m: tensor<3xf32>, %v: tensor<3xf32>) -> tensor<2x3x4x4xf32> {
  %0 = "mlc.batch_norm"(%x, %s, %o, %m, %v) {axis = 1 : i64, epsilon = 1.0e-05 : f64} : (tensor<2x3x4x4xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>) -> tensor<2x3x4x4xf32>
  return %0 : tensor<2x3x4x4xf32>
}

// -----

/// NHWC: the channel is the last dimension.

// CHECK-DAG: #[[$CHANNEL:.*]] = affine_map<(d0, d1, d2, d3) -> (d3)>
// CHECK-LABEL: func.func @batch_norm_nhwc
// CHECK: linalg.generic {indexing_maps = [#{{.*}}, #[[$CHANNEL]], #[[$CHANNEL]], #[[$CHANNEL]], #[[$CHANNEL]], #{{.*}}]
func.func @batch_norm_nhwc(%x: tensor<2x4x4x3xf32>, %s: tensor<3xf32>, %o: tensor<3xf32>, %m: tensor<3xf32>, %v: tensor<3xf32>) -> tensor<2x4x4x3xf32> {
  %0 = "mlc.batch_norm"(%x, %s, %o, %m, %v) {axis = 3 : i64, epsilon = 1.0e-05 : f64} : (tensor<2x4x4x3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>) -> tensor<2x4x4x3xf32>
  return %0 : tensor<2x4x4x3xf32>
}

// -----

/// A linalg.softmax already there is left alone.

// CHECK-LABEL: func.func @negative_linalg_softmax
// CHECK-NEXT: %[[Y:.*]] = linalg.softmax dimension(0)
// CHECK-NEXT: return %[[Y]]
func.func @negative_linalg_softmax(%x: tensor<4xf32>, %init: tensor<4xf32>) -> tensor<4xf32> {
  %0 = linalg.softmax dimension(0) ins(%x : tensor<4xf32>) outs(%init : tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

/// With `library`, a layer_norm is one call of the plugin's mlc_layer_norm in a dispatch
/// region of one workgroup: the input as rows [R, N] of the normalized dimensions,
/// weight and bias as vectors [N], the result's rows made in the region; the scalars are
/// R, N and epsilon's f32 bits (1e-5: 0x3727C5AC). The result is reshaped back.

// CHECK-LABEL: func.func @layer_norm_on_library
// CHECK-SAME:    (%[[X:.*]]: tensor<2x5x8xf32>, %[[W:.*]]: tensor<8xf32>, %[[B:.*]]: tensor<8xf32>)
// CHECK:       %[[ROWS:.*]] = tensor.collapse_shape %[[X]] {{\[}}[0, 1], [2]] : tensor<2x5x8xf32> into tensor<10x8xf32>
// CHECK:       %[[REGION:.*]] = "flow.dispatch.region"
// CHECK:         %[[OUT:.*]] = tensor.empty() : tensor<10x8xf32>
// CHECK-DAG:     %[[R:.*]] = arith.constant 10 : index
// CHECK-DAG:     %[[N:.*]] = arith.constant 8 : index
// CHECK-DAG:     %[[EPS:.*]] = arith.constant 925353388 : index
// CHECK:         %[[CALL:.*]] = "iree_codegen.ukernel.generic"(%[[ROWS]], %[[W]], %[[B]], %[[OUT]], %[[R]], %[[N]], %[[EPS]])
// CHECK-SAME:      u_kernel_fn_name = "mlc_layer_norm"
// CHECK:         "flow.return"(%[[CALL]])
// CHECK:       %[[BACK:.*]] = tensor.expand_shape %[[REGION]] {{\[}}[0, 1], [2]] output_shape [2, 5, 8] : tensor<10x8xf32> into tensor<2x5x8xf32>
// CHECK:       return %[[BACK]]
func.func @layer_norm_on_library(%x: tensor<2x5x8xf32>, %w: tensor<8xf32>, %b: tensor<8xf32>) -> tensor<2x5x8xf32> {
  %0 = "mlc.layer_norm"(%x, %w, %b) {axis = -1 : i64, epsilon = 1.0e-5 : f64, library = true} : (tensor<2x5x8xf32>, tensor<8xf32>, tensor<8xf32>) -> tensor<2x5x8xf32>
  return %0 : tensor<2x5x8xf32>
}

// -----

/// Over several trailing dimensions, they make the rows' N (40), and weight and bias
/// are collapsed to vectors; epsilon 1e-3 is 0x3A83126F.

// CHECK-LABEL: func.func @layer_norm_on_library_trailing
// CHECK-DAG:   tensor.collapse_shape %{{.*}} {{\[}}[0], [1, 2]] : tensor<2x5x8xf32> into tensor<2x40xf32>
// CHECK-DAG:   tensor.collapse_shape %{{.*}} {{\[}}[0, 1]] : tensor<5x8xf32> into tensor<40xf32>
// CHECK-DAG:   arith.constant 981668463 : index
// CHECK:       "iree_codegen.ukernel.generic"
// CHECK-SAME:    u_kernel_fn_name = "mlc_layer_norm"
// CHECK:       tensor.expand_shape %{{.*}} {{\[}}[0], [1, 2]] output_shape [2, 5, 8] : tensor<2x40xf32> into tensor<2x5x8xf32>
func.func @layer_norm_on_library_trailing(%x: tensor<2x5x8xf32>, %w: tensor<5x8xf32>, %b: tensor<5x8xf32>) -> tensor<2x5x8xf32> {
  %0 = "mlc.layer_norm"(%x, %w, %b) {axis = 1 : i64, epsilon = 1.0e-3 : f64, library = true} : (tensor<2x5x8xf32>, tensor<5x8xf32>, tensor<5x8xf32>) -> tensor<2x5x8xf32>
  return %0 : tensor<2x5x8xf32>
}
