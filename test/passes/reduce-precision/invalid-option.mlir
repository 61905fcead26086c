/// A type mlc-reduce-precision does not know is one `error:` line.

// RUN: not mlc-opt %s --pass-pipeline='builtin.module(mlc-reduce-precision{type=f8})' 2>&1 | FileCheck %s
// CHECK: mlc-opt: error: option 'type' of pass 'mlc-reduce-precision' must be bf16, got 'f8'
// CHECK-NOT: Traceback

func.func @f() {
  return
}
