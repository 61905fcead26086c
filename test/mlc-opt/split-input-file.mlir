// RUN: mlc-opt %s --split-input-file | FileCheck %s
// RUN: mlc-opt %s --split-input-file 2>&1 >/dev/null | FileCheck %s --check-prefix=ERR --allow-empty

/// Each chunk is its own module; outputs are joined by the separator.

// CHECK: func.func @first
// CHECK: // -----
// CHECK: func.func @second
// ERR-NOT: error
func.func @first() {
  return
}

// -----

func.func @second() {
  return
}
