// RUN: mlc-opt %s --split-input-file --verify-diagnostics
// RUN: not mlc-opt %s --split-input-file --verify-diagnostics --pass-pipeline='builtin.module(cse)' -DUNUSED 2>&1 | FileCheck %s --check-prefix=FLAG
// RUN: not mlc-opt %inputs/unexpected.mlir --verify-diagnostics 2>&1 | FileCheck %s --check-prefix=MISMATCH

// FLAG: error: unrecognized arguments: -DUNUSED

/// Expectations relative (@+N, @-N), on the same line, @above and @below.

func.func @relative(%x: tensor<4xf32>) -> tensor<5xf32> {
  // expected-error @+1 {{must equal input type}}
  %0 = "mlc.relu"(%x) : (tensor<4xf32>) -> tensor<5xf32>
  return %0 : tensor<5xf32>
}

// -----

func.func @same_line(%x: tensor<4xf32>) -> tensor<5xf32> {
  %0 = "mlc.relu"(%x) : (tensor<4xf32>) -> tensor<5xf32> // expected-error {{must equal input type}}
  return %0 : tensor<5xf32>
}

// -----

func.func @below_and_above(%x: tensor<4xf32>) -> tensor<5xf32> {
  // expected-error @below {{must equal input type}}
  %0 = "mlc.relu"(%x) : (tensor<4xf32>) -> tensor<5xf32>
  return %0 : tensor<5xf32>
}

// MISMATCH-DAG: unexpected.mlir:[[#]]:8: error: unexpected error: 'mlc.relu' op result type tensor<5xf32> must equal input type tensor<4xf32>
// MISMATCH-DAG: unexpected.mlir:[[#]]:6: error: expected error "this message never comes" was not produced
