/// Bad tile sizes or cache sizes are one `error:` line, before anything runs.

// RUN: not mlc-opt %s --pass-pipeline='builtin.module(mlc-lower-linalg-to-affine{tile-sizes=16,x})' 2>&1 | FileCheck %s
// CHECK: mlc-opt: error: option 'tile-sizes' of pass 'mlc-lower-linalg-to-affine' expects positive integers separated by commas, got '16,x'
// CHECK-NOT: Traceback

// RUN: not mlc-opt %s --pass-pipeline='builtin.module(mlc-lower-linalg-to-affine{tile-sizes=0})' 2>&1 | FileCheck %s --check-prefix=ZERO
// ZERO: mlc-opt: error: option 'tile-sizes' of pass 'mlc-lower-linalg-to-affine' expects positive integers separated by commas, got '0'

// RUN: not mlc-opt %s --pass-pipeline='builtin.module(mlc-lower-linalg-to-affine{cache-size-kib=0})' 2>&1 | FileCheck %s --check-prefix=CACHE
// CACHE: mlc-opt: error: option 'cache-size-kib' of pass 'mlc-lower-linalg-to-affine' must be positive, got 0

func.func @f() {
  return
}
