// RUN: mlc-opt %s --split-input-file --pass-pipeline='builtin.module(mlc-guard-reduction-rereads)' | FileCheck %s

/// A reduction read through two maps: the second read goes through a barrier
/// (IREE 3.13 computes such a fused dispatch wrong), the first stays as it is.


// CHECK-LABEL: func.func @outer_sum_of_row_sums
// CHECK:       %[[SUM:.*]] = linalg.generic {{.*}}iterator_types = ["parallel", "reduction"]
// CHECK:       %[[GUARDED:.*]] = "util.optimization_barrier"(%[[SUM]]) : (tensor<6xf32>) -> tensor<6xf32>
// CHECK:       %[[ROWS:.*]] = tensor.expand_shape %[[SUM]] {{\[\[}}0, 1]] output_shape [6, 1]
// CHECK:       %[[COLS:.*]] = tensor.expand_shape %[[GUARDED]] {{\[\[}}0, 1]] output_shape [1, 6]
// CHECK:       linalg.generic {{.*}} ins(%[[ROWS]], %[[COLS]] :
func.func @outer_sum_of_row_sums(%x: tensor<6x4xf32>) -> tensor<6x6xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<6xf32>
  %init = linalg.fill ins(%zero : f32) outs(%e : tensor<6xf32>) -> tensor<6xf32>
  %sum = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<6x4xf32>) outs(%init : tensor<6xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %s = arith.addf %a, %acc : f32
    linalg.yield %s : f32
  } -> tensor<6xf32>
  %rows = tensor.expand_shape %sum [[0, 1]] output_shape [6, 1] : tensor<6xf32> into tensor<6x1xf32>
  %cols = tensor.expand_shape %sum [[0, 1]] output_shape [1, 6] : tensor<6xf32> into tensor<1x6xf32>
  %out = tensor.empty() : tensor<6x6xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, 0)>, affine_map<(d0, d1) -> (0, d1)>, affine_map<(d0, d1) -> (d0, d1)>],
                       iterator_types = ["parallel", "parallel"]}
      ins(%rows, %cols : tensor<6x1xf32>, tensor<1x6xf32>) outs(%out : tensor<6x6xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %s = arith.addf %a, %b : f32
    linalg.yield %s : f32
  } -> tensor<6x6xf32>
  return %r : tensor<6x6xf32>
}

// -----

/// Through an elementwise op fused after the reduction, and a transpose: the value
/// read twice is the elementwise result, so the barrier is on it. The read made
/// first in program order (the transpose's) stays.

// CHECK-LABEL: func.func @scaled_max_against_its_transpose
// CHECK:       %[[MAX:.*]] = linalg.matmul
// CHECK:       %[[SCALED:.*]] = linalg.generic
// CHECK-NEXT:  ^bb0
// CHECK-NEXT:    arith.mulf
// CHECK:       %[[GUARDED:.*]] = "util.optimization_barrier"(%[[SCALED]])
// CHECK:       %[[T:.*]] = linalg.transpose ins(%[[SCALED]] : tensor<4x4xf32>)
// CHECK:       linalg.generic {{.*}} ins(%[[GUARDED]], %[[T]] :
func.func @scaled_max_against_its_transpose(%x: tensor<4x4xf32>) -> tensor<4x4xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<4x4xf32>
  %init = linalg.fill ins(%zero : f32) outs(%e : tensor<4x4xf32>) -> tensor<4x4xf32>
  %p = linalg.matmul ins(%x, %x : tensor<4x4xf32>, tensor<4x4xf32>) outs(%init : tensor<4x4xf32>) -> tensor<4x4xf32>
  %scaled = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]}
      ins(%p : tensor<4x4xf32>) outs(%e : tensor<4x4xf32>) {
  ^bb0(%a: f32, %o: f32):
    %s = arith.mulf %a, %a : f32
    linalg.yield %s : f32
  } -> tensor<4x4xf32>
  %t = linalg.transpose ins(%scaled : tensor<4x4xf32>) outs(%e : tensor<4x4xf32>) permutation = [1, 0]
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]}
      ins(%scaled, %t : tensor<4x4xf32>, tensor<4x4xf32>) outs(%e : tensor<4x4xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %s = arith.subf %a, %b : f32
    linalg.yield %s : f32
  } -> tensor<4x4xf32>
  return %r : tensor<4x4xf32>
}

// -----

/// Two consumers read a row max through different maps (IREE may fuse them into one).

// CHECK-LABEL: func.func @two_consumers
// CHECK-COUNT-1: util.optimization_barrier
func.func @two_consumers(%x: tensor<6x4xf32>) -> (tensor<6x6xf32>, tensor<6x6xf32>) {
  %low = arith.constant 0xFF800000 : f32
  %e = tensor.empty() : tensor<6xf32>
  %init = linalg.fill ins(%low : f32) outs(%e : tensor<6xf32>) -> tensor<6xf32>
  %max = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<6x4xf32>) outs(%init : tensor<6xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %s = arith.maximumf %a, %acc : f32
    linalg.yield %s : f32
  } -> tensor<6xf32>
  %out = tensor.empty() : tensor<6x6xf32>
  %a = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]}
      ins(%max : tensor<6xf32>) outs(%out : tensor<6x6xf32>) {
  ^bb0(%m: f32, %o: f32):
    linalg.yield %m : f32
  } -> tensor<6x6xf32>
  %b = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]}
      ins(%max : tensor<6xf32>) outs(%out : tensor<6x6xf32>) {
  ^bb0(%m: f32, %o: f32):
    linalg.yield %m : f32
  } -> tensor<6x6xf32>
  return %a, %b : tensor<6x6xf32>, tensor<6x6xf32>
}

// -----

/// Negative cases: a reduction read through one map wherever it is read
/// (`v * v + v`), and a value that no reduction computes: no barrier.

// CHECK-LABEL: func.func @one_way_of_reading
// CHECK-NOT: util.optimization_barrier
func.func @one_way_of_reading(%x: tensor<6x4xf32>) -> tensor<6xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<6xf32>
  %init = linalg.fill ins(%zero : f32) outs(%e : tensor<6xf32>) -> tensor<6xf32>
  %sum = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<6x4xf32>) outs(%init : tensor<6xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %s = arith.addf %a, %acc : f32
    linalg.yield %s : f32
  } -> tensor<6xf32>
  %sq = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>],
                        iterator_types = ["parallel"]}
      ins(%sum, %sum : tensor<6xf32>, tensor<6xf32>) outs(%e : tensor<6xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %s = arith.mulf %a, %b : f32
    linalg.yield %s : f32
  } -> tensor<6xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>],
                       iterator_types = ["parallel"]}
      ins(%sq, %sum : tensor<6xf32>, tensor<6xf32>) outs(%e : tensor<6xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %s = arith.addf %a, %b : f32
    linalg.yield %s : f32
  } -> tensor<6xf32>
  return %r : tensor<6xf32>
}

// CHECK-LABEL: func.func @no_reduction
// CHECK-NOT: util.optimization_barrier
func.func @no_reduction(%x: tensor<6xf32>) -> tensor<6x6xf32> {
  %rows = tensor.expand_shape %x [[0, 1]] output_shape [6, 1] : tensor<6xf32> into tensor<6x1xf32>
  %cols = tensor.expand_shape %x [[0, 1]] output_shape [1, 6] : tensor<6xf32> into tensor<1x6xf32>
  %out = tensor.empty() : tensor<6x6xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, 0)>, affine_map<(d0, d1) -> (0, d1)>, affine_map<(d0, d1) -> (d0, d1)>],
                       iterator_types = ["parallel", "parallel"]}
      ins(%rows, %cols : tensor<6x1xf32>, tensor<1x6xf32>) outs(%out : tensor<6x6xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %s = arith.addf %a, %b : f32
    linalg.yield %s : f32
  } -> tensor<6x6xf32>
  return %r : tensor<6x6xf32>
}
