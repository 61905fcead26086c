/// A vector size below 1 is one `error:` line.

// RUN: not mlc-opt %s --pass-pipeline='builtin.module(mlc-vectorize{vector-size=0})' 2>&1 | FileCheck %s
// CHECK: mlc-opt: error: option 'vector-size' of pass 'mlc-vectorize' must be positive, got 0
// CHECK-NOT: Traceback

func.func @f() {
  return
}
