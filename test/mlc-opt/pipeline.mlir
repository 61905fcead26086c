// RUN: mlc-opt %s --pass-pipeline='builtin.module(func.func(cse), canonicalize)' | FileCheck %s
// RUN: mlc-opt %s --pass-pipeline='builtin.module(canonicalize{max-iterations=2 region-simplify=disabled})' | FileCheck %s --check-prefix=DCE
// RUN: mlc-opt %s | FileCheck %s --check-prefix=NONE

/// Upstream passes run from mlc-opt with MLIR's syntax for anchors and options.
/// Pure mlc ops are CSE'd and erased when dead.

// CHECK-LABEL: func.func @pure_ops
// CHECK-NEXT: %[[R:.*]] = "mlc.relu"(%arg0)
// CHECK-NEXT: "mlc.exp"(%[[R]])
// CHECK-NOT: mlc.relu
// DCE-LABEL: func.func @pure_ops
// DCE-NOT: mlc.neg
// NONE: "mlc.neg"
func.func @pure_ops(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = "mlc.relu"(%x) : (tensor<4xf32>) -> tensor<4xf32>
  %1 = "mlc.relu"(%x) : (tensor<4xf32>) -> tensor<4xf32>
  %2 = "mlc.add"(%0, %1) : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  %dead = "mlc.neg"(%2) : (tensor<4xf32>) -> tensor<4xf32>
  %3 = "mlc.exp"(%0) : (tensor<4xf32>) -> tensor<4xf32>
  return %3 : tensor<4xf32>
}

// RUN: mlc-opt --list-pipelines | FileCheck %s --check-prefix=LIST
// LIST: O0: lowering only
// LIST: O2: O1 plus BatchNorm folding
// LIST-NEXT: builtin.module(mlc-fold-batchnorm,

// RUN: mlc-opt %s --pass-pipeline='builtin.module(mlc-lower-to-linalg)' --mlir-pass-statistics -o /dev/null 2>&1 | FileCheck %s --check-prefix=STATS
// STATS: ... Pass statistics report ...
// STATS: 'mlc-lower-to-linalg'
// STATS-DAG: (2) mlc.relu
// STATS-DAG: (1) mlc.add
