// RUN: not mlc-opt %s 2>&1 | FileCheck %s

/// A verifier failure is reported once, at the op's line and column.

func.func @f(%x: tensor<4xf32>) -> tensor<5xf32> {
  // CHECK: verifier-error.mlir:[[# @LINE + 1]]:8: error: 'mlc.relu' op result type tensor<5xf32> must equal input type tensor<4xf32>
  %0 = "mlc.relu"(%x) : (tensor<4xf32>) -> tensor<5xf32>
  return %0 : tensor<5xf32>
}
// CHECK-NOT: error
