// RUN: mlc-opt %inputs/relu.mlir --pass-pipeline='builtin.module(cse,canonicalize)' --mlir-print-ir-after-all -o /dev/null 2>&1 | FileCheck %s
// RUN: mlc-opt %inputs/relu.mlir --pass-pipeline='builtin.module(cse,canonicalize)' --mlir-timing -o /dev/null 2>&1 | FileCheck %s --check-prefix=TIMING
// RUN: mlc-opt %inputs/relu.mlir -o %t.mlir && FileCheck %s --input-file=%t.mlir --check-prefix=OUTPUT

// CHECK: IR Dump After CSE
// CHECK: IR Dump After Canonicalizer
// TIMING: Execution time report
// TIMING: CSE
// TIMING: Canonicalizer
// OUTPUT: func.func @relu
