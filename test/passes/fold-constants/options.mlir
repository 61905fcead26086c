/// A bad option value is one located error, as for any pass option.

// RUN: not mlc-opt %s --pass-pipeline='builtin.module(mlc-fold-constants{size-limit=abc})' 2>&1 | FileCheck %s
// CHECK: mlc-opt: error: option 'size-limit' of pass 'mlc-fold-constants' expects int, got 'abc'
// CHECK-NOT: Traceback

// RUN: not mlc-opt %s --pass-pipeline='builtin.module(mlc-fold-constants{limit=1})' 2>&1 | FileCheck %s --check-prefix=NAME
// NAME: mlc-opt: error: pass 'mlc-fold-constants' has no option 'limit' (options: size-limit)

func.func @f() {
  return
}
