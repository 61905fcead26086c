/// A `layout` other than nhwc or nchw is one `error:` line naming the valid ones.

// RUN: not mlc-opt %inputs/relu.mlir --pass-pipeline='builtin.module(mlc-convert-layout{layout=nwhc})' 2>&1 | FileCheck %s
// CHECK: mlc-opt: error: option 'layout' of pass 'mlc-convert-layout' must be 'nhwc' or 'nchw', got 'nwhc'
// CHECK-NOT: Traceback
