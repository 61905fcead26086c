// RUN: mlc-opt %s --pass-pipeline='builtin.module(mlc-fuse, mlc-lower-to-linalg{keep-fusion-groups=true}, mlc-form-dispatch-regions, mlc-library-matmuls{shapes=all workgroups=4})' | FileCheck %s
// RUN: mlc-opt %s --pass-pipeline='builtin.module(mlc-fuse, mlc-lower-to-linalg{keep-fusion-groups=true}, mlc-form-dispatch-regions, mlc-library-matmuls{shapes=all workgroups=8})' | FileCheck %s --check-prefix=FEW

/// Ten rows in four workgroups: blocks of three rows, the last one of one
/// (min(3, 10 - 9)). Eight workgroups would leave some without rows: blocks of two
/// rows, five workgroups.

// CHECK:       %[[FOUR:.*]] = arith.constant 4 : index
// CHECK:       "flow.dispatch.region"(%[[FOUR]])
// CHECK:         %[[ROWS:.*]] = arith.constant 3 : index
// CHECK:         arith.muli %{{.*}}, %[[ROWS]] : index
// FEW:         %[[FIVE:.*]] = arith.constant 5 : index
// FEW:         "flow.dispatch.region"(%[[FIVE]])
// FEW:           %[[ROWS:.*]] = arith.constant 2 : index
func.func @ten_rows(%x: tensor<10x32xf32>, %w: tensor<32x16xf32>) -> tensor<10x16xf32> {
  %0 = "mlc.matmul"(%x, %w) : (tensor<10x32xf32>, tensor<32x16xf32>) -> tensor<10x16xf32>
  return %0 : tensor<10x16xf32>
}
