// RUN: mlc-opt %s --pass-pipeline='builtin.module(mlc-lower-to-linalg)' --split-input-file | FileCheck %s

/// mlc.take_along_axis becomes one linalg.generic over the indices: each element
/// reads the input with `tensor.extract` at its own position, the index replacing
/// the position along `axis`.

// CHECK-LABEL: func.func @take_along_axis_1
// CHECK-SAME: (%[[X:.*]]: tensor<4x5xf32>, %[[I:.*]]: tensor<4x3xi64>)
// CHECK:      %[[INIT:.*]] = tensor.empty() : tensor<4x3xf32>
// CHECK:      %[[R:.*]] = linalg.generic {{.*}} ins(%[[I]] : tensor<4x3xi64>) outs(%[[INIT]] : tensor<4x3xf32>)
// CHECK-NEXT: ^bb0(%[[IN:.*]]: i64, %{{.*}}: f32):
// CHECK-NEXT:   %[[ROW:.*]] = linalg.index 0 : index
// CHECK:        %[[AT:.*]] = arith.index_cast %[[IN]] : i64 to index
// CHECK-NEXT:   %[[E:.*]] = tensor.extract %[[X]][%[[ROW]], %[[AT]]] : tensor<4x5xf32>
// CHECK-NEXT:   linalg.yield %[[E]] : f32
// CHECK:      return %[[R]]
func.func @take_along_axis_1(%x: tensor<4x5xf32>, %i: tensor<4x3xi64>) -> tensor<4x3xf32> {
  %0 = "mlc.take_along_axis"(%x, %i) {axis = 1 : i64} : (tensor<4x5xf32>, tensor<4x3xi64>) -> tensor<4x3xf32>
  return %0 : tensor<4x3xf32>
}

// -----

/// Along axis 0, with a dynamic size: the result is sized by the indices.

// CHECK-LABEL: func.func @take_along_axis_0_dynamic
// CHECK-SAME: (%[[X:.*]]: tensor<?x5xf32>, %[[I:.*]]: tensor<?x5xi32>)
// CHECK:      %[[N:.*]] = tensor.dim %[[I]], %{{.*}} : tensor<?x5xi32>
// CHECK:      %[[INIT:.*]] = tensor.empty(%[[N]]) : tensor<?x5xf32>
// CHECK:      linalg.generic {{.*}} ins(%[[I]] : tensor<?x5xi32>) outs(%[[INIT]] : tensor<?x5xf32>)
// CHECK:        %[[COL:.*]] = linalg.index 1 : index
// CHECK:        %[[AT:.*]] = arith.index_cast %{{.*}} : i32 to index
// CHECK-NEXT:   tensor.extract %[[X]][%[[AT]], %[[COL]]] : tensor<?x5xf32>
func.func @take_along_axis_0_dynamic(%x: tensor<?x5xf32>, %i: tensor<?x5xi32>) -> tensor<?x5xf32> {
  %0 = "mlc.take_along_axis"(%x, %i) {axis = 0 : i64} : (tensor<?x5xf32>, tensor<?x5xi32>) -> tensor<?x5xf32>
  return %0 : tensor<?x5xf32>
}
