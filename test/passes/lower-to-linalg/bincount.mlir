// RUN: mlc-opt %s --pass-pipeline='builtin.module(mlc-lower-to-linalg, canonicalize, cse)' --split-input-file | FileCheck %s

/// mlc.bincount: the length n = max(max(x) + 1, minlength) from a max reduction
/// starting at -1, read back with tensor.extract; a scatter-add of ones (computed from
/// x, 0 for a negative value) into n + 1 zeros (the last bin takes negative values),
/// of which the first n are the result.

// CHECK-LABEL: func.func @bincount_counts
// CHECK-SAME: (%[[X:.*]]: tensor<4xi32>)
// CHECK-DAG: %[[MINUS_ONE:.*]] = arith.constant -1 : i64
// CHECK-DAG: %[[MINLENGTH:.*]] = arith.constant 3 : i64
// CHECK-DAG: %[[ONE:.*]] = arith.constant 1 : i64
// CHECK-DAG: %[[ZERO:.*]] = arith.constant 0 : i64
// CHECK: %[[START:.*]] = linalg.fill ins(%[[MINUS_ONE]] : i64) outs(%{{.*}} : tensor<i64>)
// CHECK: %[[MAX:.*]] = linalg.generic {{.*}} iterator_types = ["reduction"]} ins(%[[X]] : tensor<4xi32>) outs(%[[START]] : tensor<i64>)
// CHECK:   arith.extsi %{{.*}} : i32 to i64
// CHECK:   arith.maxsi
// CHECK: %[[TOP:.*]] = tensor.extract %[[MAX]][] : tensor<i64>
// CHECK: %[[NEXT:.*]] = arith.addi %[[TOP]], %[[ONE]] : i64
// CHECK: %[[LENGTH:.*]] = arith.maxsi %[[NEXT]], %[[MINLENGTH]] : i64
// CHECK: %[[N:.*]] = arith.index_cast %[[LENGTH]] : i64 to index
// CHECK: %[[N1:.*]] = arith.addi %[[N]], %{{.*}} : index
// CHECK: %[[EMPTY:.*]] = tensor.empty(%[[N1]]) : tensor<?xi64>
// CHECK: %[[BINS:.*]] = linalg.fill ins(%[[ZERO]] : i64) outs(%[[EMPTY]] : tensor<?xi64>)
// CHECK: %[[ONES:.*]] = linalg.generic {{.*}} ins(%[[X]] : tensor<4xi32>) outs(%{{.*}} : tensor<4xi64>)
// CHECK:   %[[COUNTED_HERE:.*]] = arith.cmpi sge, %{{.*}}, %[[ZERO]] : i64
// CHECK:   arith.extui %[[COUNTED_HERE]] : i1 to i64
// CHECK: %[[POSITIONS:.*]] = linalg.generic {{.*}} ins(%[[X]] : tensor<4xi32>) outs(%{{.*}} : tensor<4x1xi64>)
// CHECK:   %[[NEGATIVE:.*]] = arith.cmpi slt, %{{.*}}, %[[ZERO]] : i64
// CHECK:   arith.select %[[NEGATIVE]], %[[LENGTH]], %{{.*}} : i64
// CHECK: %[[COUNTED:.*]] = tm_tensor.scatter {dimension_map = array<i64: 0>} unique_indices(false) ins(%[[ONES]], %[[POSITIONS]] : tensor<4xi64>, tensor<4x1xi64>) outs(%[[BINS]] : tensor<?xi64>)
// CHECK:   arith.addi
// CHECK: %[[RESULT:.*]] = tensor.extract_slice %[[COUNTED]][0] [%[[N]]] [1] : tensor<?xi64> to tensor<?xi64>
// CHECK: return %[[RESULT]]
func.func @bincount_counts(%x: tensor<4xi32>) -> tensor<?xi64> {
  %0 = "mlc.bincount"(%x) {minlength = 3 : i64} : (tensor<4xi32>) -> tensor<?xi64>
  return %0 : tensor<?xi64>
}

// -----

/// Weights are the updates, added as floats; a dynamic input.

// CHECK-LABEL: func.func @bincount_weights
// CHECK-SAME: (%[[X:.*]]: tensor<?xi64>, %[[W:.*]]: tensor<?xf32>)
// CHECK: %[[BINS:.*]] = linalg.fill ins(%{{.*}} : f32) outs(%{{.*}} : tensor<?xf32>)
// CHECK: tm_tensor.scatter {dimension_map = array<i64: 0>} unique_indices(false) ins(%[[W]], %{{.*}} : tensor<?xf32>, tensor<?x1xi64>) outs(%[[BINS]] : tensor<?xf32>)
// CHECK:   arith.addf
func.func @bincount_weights(%x: tensor<?xi64>, %w: tensor<?xf32>) -> tensor<?xf32> {
  %0 = "mlc.bincount"(%x, %w) {minlength = 0 : i64} : (tensor<?xi64>, tensor<?xf32>) -> tensor<?xf32>
  return %0 : tensor<?xf32>
}

// -----

/// An input empty by its type: minlength zeros, no scatter.

// CHECK-LABEL: func.func @bincount_empty
// CHECK: %[[ZEROS:.*]] = linalg.fill ins(%{{.*}} : i64) outs(%{{.*}} : tensor<4xi64>)
// CHECK: %[[RESULT:.*]] = tensor.cast %[[ZEROS]] : tensor<4xi64> to tensor<?xi64>
// CHECK-NOT: tm_tensor.scatter
// CHECK: return %[[RESULT]]
func.func @bincount_empty(%x: tensor<0xi64>) -> tensor<?xi64> {
  %0 = "mlc.bincount"(%x) {minlength = 4 : i64} : (tensor<0xi64>) -> tensor<?xi64>
  return %0 : tensor<?xi64>
}
