// RUN: mlc-opt %s --pass-pipeline='builtin.module(mlc-lower-to-linalg)' --split-input-file | FileCheck %s

/// mlc.update_slice is one tensor.insert_slice at the offset read from its tensor,
/// counted from the end where negative (+ 96), then clamped to [0, size - block] along
/// the axis; at `start` along the others.

// CHECK-LABEL: func.func @cache_row
// CHECK: %[[READ:.+]] = tensor.extract %{{.*}}[] : tensor<i64>
// CHECK: %[[AT:.+]] = arith.index_cast %[[READ]] : i64 to index
// CHECK: %[[NEGATIVE:.+]] = arith.cmpi slt, %[[AT]], %{{.*}} : index
// CHECK: %[[FROM_END:.+]] = arith.addi %[[AT]], %{{.*}} : index
// CHECK: %[[WRAPPED:.+]] = arith.select %[[NEGATIVE]], %[[FROM_END]], %[[AT]] : index
// CHECK: %[[LOW:.+]] = arith.maxsi %[[WRAPPED]], %{{.*}} : index
// CHECK: %[[CLAMPED:.+]] = arith.minsi %[[LOW]], %{{.*}} : index
// CHECK: tensor.insert_slice %{{.*}} into %{{.*}}[0, 0, %[[CLAMPED]], 0] [1, 12, 1, 64] [1, 1, 1, 1] : tensor<1x12x1x64xf32> into tensor<1x12x96x64xf32>
// CHECK-NOT: tm_tensor.scatter
func.func @cache_row(%cache: tensor<1x12x96x64xf32>, %row: tensor<1x12x1x64xf32>, %at: tensor<i64>) -> tensor<1x12x96x64xf32> {
  %0 = "mlc.update_slice"(%cache, %row, %at) {axis = 2 : i64, start = array<i64: 0, 0, 0, 0>} : (tensor<1x12x96x64xf32>, tensor<1x12x1x64xf32>, tensor<i64>) -> tensor<1x12x96x64xf32>
  return %0 : tensor<1x12x96x64xf32>
}

// -----

/// The last offset whose block fits is the size less the block's: 10 - 3 = 7.

// CHECK-LABEL: func.func @inner_block
// CHECK-DAG: %[[LAST:.+]] = arith.constant 7 : index
// CHECK: arith.minsi %{{.*}}, %[[LAST]] : index
// CHECK: tensor.insert_slice %{{.*}} into %{{.*}}[2, %{{.*}}] [2, 3] [1, 1] : tensor<2x3xi64> into tensor<4x10xi64>
func.func @inner_block(%x: tensor<4x10xi64>, %u: tensor<2x3xi64>, %at: tensor<i32>) -> tensor<4x10xi64> {
  %0 = "mlc.update_slice"(%x, %u, %at) {axis = 1 : i64, start = array<i64: 2, 0>} : (tensor<4x10xi64>, tensor<2x3xi64>, tensor<i32>) -> tensor<4x10xi64>
  return %0 : tensor<4x10xi64>
}
