/// An `isolate` entry that names no mlc op is one `error:` line, not a silently ignored name.

// RUN: not mlc-opt %inputs/relu.mlir --pass-pipeline='builtin.module(mlc-fuse{isolate=concat,concatenate})' 2>&1 | FileCheck %s
// CHECK: mlc-opt: error: option 'isolate' of pass 'mlc-fuse' names no mlc op: 'concatenate'
// CHECK-NOT: Traceback
