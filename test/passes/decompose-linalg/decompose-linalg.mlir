// RUN: mlc-opt %s --split-input-file --pass-pipeline='builtin.module(mlc-decompose-linalg)' | FileCheck %s

/// linalg.softmax becomes its four steps as linalg.generic ops on tensors: the
/// row maximum, exp(x - max), the row sum, and the division.

// CHECK-LABEL: func.func @softmax
// CHECK-SAME:    (%[[X:.*]]: tensor<2x16xf32>)
// CHECK:         %[[MAX:.*]] = linalg.generic {{.*}} iterator_types = ["parallel", "reduction"]} ins(%[[X]] : tensor<2x16xf32>)
// CHECK:           arith.maxnumf
// CHECK:         %[[EXP:.*]] = linalg.generic {{.*}} ins(%[[X]], %[[MAX]] : tensor<2x16xf32>, tensor<2xf32>)
// CHECK:           arith.subf
// CHECK-NEXT:      math.exp
// CHECK:         %[[SUM:.*]] = linalg.generic {{.*}} iterator_types = ["parallel", "reduction"]} ins(%[[EXP]] : tensor<2x16xf32>)
// CHECK:           arith.addf
// CHECK:         %[[DIV:.*]] = linalg.generic {{.*}} ins(%[[EXP]], %[[SUM]] : tensor<2x16xf32>, tensor<2xf32>)
// CHECK:           arith.divf
// CHECK:         return %[[DIV]]
// CHECK-NOT:   linalg.softmax
func.func @softmax(%x: tensor<2x16xf32>) -> tensor<2x16xf32> {
  %e = tensor.empty() : tensor<2x16xf32>
  %0 = linalg.softmax dimension(1) ins(%x : tensor<2x16xf32>) outs(%e : tensor<2x16xf32>) -> tensor<2x16xf32>
  return %0 : tensor<2x16xf32>
}

// -----

/// Negative: ops that have a loop form stay as they are.

// CHECK-LABEL: func.func @negative_matmul
// CHECK:         linalg.matmul
// CHECK-NOT:     linalg.generic
func.func @negative_matmul(%a: tensor<4x4xf32>, %b: tensor<4x4xf32>) -> tensor<4x4xf32> {
  %0 = linalg.matmul ins(%a, %a : tensor<4x4xf32>, tensor<4x4xf32>) outs(%b : tensor<4x4xf32>) -> tensor<4x4xf32>
  return %0 : tensor<4x4xf32>
}
