// RUN: not mlc-opt %s --split-input-file 2>&1 | FileCheck %s

/// Locations in later chunks name lines of the whole file, and every chunk is
/// checked: errors in two chunks give two errors.

func.func @ok() {
  return
}

// -----

func.func @bad_one(%x: tensor<4xf32>) -> tensor<5xf32> {
  // CHECK: split-locations.mlir:[[# @LINE + 1]]:8: error: 'mlc.relu' op result type
  %0 = "mlc.relu"(%x) : (tensor<4xf32>) -> tensor<5xf32>
  return %0 : tensor<5xf32>
}

// -----

func.func @bad_two(%x: tensor<4xi32>) -> tensor<4xi32> {
  // CHECK: split-locations.mlir:[[# @LINE + 1]]:8: error: 'mlc.exp' op requires a floating-point tensor
  %0 = "mlc.exp"(%x) : (tensor<4xi32>) -> tensor<4xi32>
  return %0 : tensor<4xi32>
}
