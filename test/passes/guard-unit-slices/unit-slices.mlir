// RUN: mlc-opt %s --split-input-file --pass-pipeline='builtin.module(mlc-guard-unit-slices)' | FileCheck %s

/// A one-element slice that a reshape takes past its source's rank reaches every user
/// through a barrier: IREE 3.13 made the slice 0-d and folded the reshape into it, a
/// slice of higher rank than its source (compile error; seed 90089).

// CHECK-LABEL: func.func @slice_unsqueezed
// CHECK:       %[[SLICE:.*]] = tensor.extract_slice %arg0[0] [1] [2]
// CHECK-NEXT:  %[[GUARDED:.*]] = "util.optimization_barrier"(%[[SLICE]]) : (tensor<1xf32>) -> tensor<1xf32>
// CHECK:       tensor.expand_shape %[[GUARDED]]
// CHECK:       linalg.generic {{.*}} ins(%[[GUARDED]] :
func.func @slice_unsqueezed(%x: tensor<4xf32>) -> (tensor<1x1xf32>, tensor<3xf32>) {
  %s = tensor.extract_slice %x[0] [1] [2] : tensor<4xf32> to tensor<1xf32>
  %u = tensor.expand_shape %s [[0, 1]] output_shape [1, 1] : tensor<1xf32> into tensor<1x1xf32>
  %e = tensor.empty() : tensor<3xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0) -> (0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]}
      ins(%s : tensor<1xf32>) outs(%e : tensor<3xf32>) {
  ^bb0(%a: f32, %o: f32):
    linalg.yield %a : f32
  } -> tensor<3xf32>
  return %u, %r : tensor<1x1xf32>, tensor<3xf32>
}

// -----

/// Through a collapse: [4, 4] -> [1, 1] -> [1] -> [1, 1, 1], three dimensions past two.

// CHECK-LABEL: func.func @through_a_collapse
// CHECK:       %[[SLICE:.*]] = tensor.extract_slice
// CHECK-NEXT:  %[[GUARDED:.*]] = "util.optimization_barrier"(%[[SLICE]])
// CHECK:       tensor.collapse_shape %[[GUARDED]]
func.func @through_a_collapse(%x: tensor<4x4xf32>) -> tensor<1x1x1xf32> {
  %s = tensor.extract_slice %x[1, 2] [1, 1] [1, 1] : tensor<4x4xf32> to tensor<1x1xf32>
  %c = tensor.collapse_shape %s [[0, 1]] : tensor<1x1xf32> into tensor<1xf32>
  %u = tensor.expand_shape %c [[0, 1, 2]] output_shape [1, 1, 1] : tensor<1xf32> into tensor<1x1x1xf32>
  return %u : tensor<1x1x1xf32>
}

// -----

/// Negative: reshaped within the source's rank, the fold stays valid.

// CHECK-LABEL: func.func @reshaped_within_rank
// CHECK-NOT:   util.optimization_barrier
func.func @reshaped_within_rank(%x: tensor<4x4xf32>) -> tensor<1x1xf32> {
  %s = tensor.extract_slice %x[0, 0] [1, 1] [1, 1] : tensor<4x4xf32> to tensor<1x1xf32>
  %c = tensor.collapse_shape %s [[0, 1]] : tensor<1x1xf32> into tensor<1xf32>
  %u = tensor.expand_shape %c [[0, 1]] output_shape [1, 1] : tensor<1xf32> into tensor<1x1xf32>
  return %u : tensor<1x1xf32>
}

// -----

/// Negative: a slice of more than one element keeps a dimension, so IREE's fold is right.

// CHECK-LABEL: func.func @two_elements
// CHECK-NOT:   util.optimization_barrier
func.func @two_elements(%x: tensor<4xf32>) -> tensor<1x2xf32> {
  %s = tensor.extract_slice %x[0] [2] [2] : tensor<4xf32> to tensor<2xf32>
  %u = tensor.expand_shape %s [[0, 1]] output_shape [1, 2] : tensor<2xf32> into tensor<1x2xf32>
  return %u : tensor<1x2xf32>
}

// -----

/// Negative: inside one of mlc's dispatch regions, IREE does not fold across the region.

// CHECK-LABEL: func.func @in_a_dispatch_region
// CHECK-NOT:   util.optimization_barrier
func.func @in_a_dispatch_region(%x: tensor<4xf32>) -> tensor<1x1xf32> {
  %r = "flow.dispatch.region"() ({
    %s = tensor.extract_slice %x[0] [1] [2] : tensor<4xf32> to tensor<1xf32>
    %u = tensor.expand_shape %s [[0, 1]] output_shape [1, 1] : tensor<1xf32> into tensor<1x1xf32>
    "flow.return"(%u) : (tensor<1x1xf32>) -> ()
  }, {
  }) {operandSegmentSizes = array<i32: 0, 0>} : () -> tensor<1x1xf32>
  return %r : tensor<1x1xf32>
}
