// RUN: mlc-opt %s --split-input-file --pass-pipeline='builtin.module(mlc-guard-nested-pads)' | FileCheck %s

/// A pad of a pad by another value reads it through a barrier: IREE 3.13 put the value
/// and both pads in one dispatch it could not distribute (compile error on every
/// target; seed 580200, found on an H200).

// CHECK-LABEL: func.func @two_values
// CHECK:       %[[INNER:.*]] = tensor.pad %{{.*}} low[0, 1] high[0, 1]
// CHECK:       %[[GUARDED:.*]] = "util.optimization_barrier"(%[[INNER]]) : (tensor<6x5xf32>) -> tensor<6x5xf32>
// CHECK-NEXT:  tensor.pad %[[GUARDED]] low[0, 2] high[0, 1]
func.func @two_values(%x: tensor<6x3xf32>) -> tensor<6x8xf32> {
  %zero = arith.constant 0.0 : f32
  %minus_one = arith.constant -1.0 : f32
  %e = tensor.empty() : tensor<6x3xf32>
  %exp = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>],
                         iterator_types = ["parallel", "parallel"]} ins(%x : tensor<6x3xf32>) outs(%e : tensor<6x3xf32>) {
  ^bb0(%a: f32, %o: f32):
    %r = math.exp %a : f32
    linalg.yield %r : f32
  } -> tensor<6x3xf32>
  %inner = tensor.pad %exp low[0, 1] high[0, 1] {
  ^bb0(%i: index, %j: index):
    tensor.yield %zero : f32
  } : tensor<6x3xf32> to tensor<6x5xf32>
  %outer = tensor.pad %inner low[0, 2] high[0, 1] {
  ^bb0(%i: index, %j: index):
    tensor.yield %minus_one : f32
  } : tensor<6x5xf32> to tensor<6x8xf32>
  return %outer : tensor<6x8xf32>
}

// -----

/// A value that is no constant may differ from the other: guarded too.

// CHECK-LABEL: func.func @a_value_of_the_caller
// CHECK:       %[[INNER:.*]] = tensor.pad
// CHECK-NEXT:  ^bb0
// CHECK-NEXT:  tensor.yield %cst
// CHECK:       %[[GUARDED:.*]] = "util.optimization_barrier"(%[[INNER]])
// CHECK-NEXT:  tensor.pad %[[GUARDED]]
func.func @a_value_of_the_caller(%x: tensor<4xf32>, %v: f32) -> tensor<8xf32> {
  %zero = arith.constant 0.0 : f32
  %inner = tensor.pad %x low[1] high[1] {
  ^bb0(%i: index):
    tensor.yield %zero : f32
  } : tensor<4xf32> to tensor<6xf32>
  %outer = tensor.pad %inner low[1] high[1] {
  ^bb0(%i: index):
    tensor.yield %v : f32
  } : tensor<6xf32> to tensor<8xf32>
  return %outer : tensor<8xf32>
}

// -----

/// Negative: pads by one value compile (IREE composes them).

// CHECK-LABEL: func.func @one_value
// CHECK-NOT:   util.optimization_barrier
func.func @one_value(%x: tensor<4xf32>) -> tensor<8xf32> {
  %zero = arith.constant 0.0 : f32
  %also_zero = arith.constant 0.0 : f32
  %inner = tensor.pad %x low[1] high[1] {
  ^bb0(%i: index):
    tensor.yield %zero : f32
  } : tensor<4xf32> to tensor<6xf32>
  %outer = tensor.pad %inner low[1] high[1] {
  ^bb0(%i: index):
    tensor.yield %also_zero : f32
  } : tensor<6xf32> to tensor<8xf32>
  return %outer : tensor<8xf32>
}

// -----

/// Negative: one pad, and pads inside mlc's own dispatch regions, are left alone.

// CHECK-LABEL: func.func @in_a_region
// CHECK-NOT:   util.optimization_barrier
func.func @in_a_region(%x: tensor<4xf32>) -> (tensor<8xf32>, tensor<6xf32>) {
  %zero = arith.constant 0.0 : f32
  %one = arith.constant 1.0 : f32
  %r = "flow.dispatch.region"() ({
    %inner = tensor.pad %x low[1] high[1] {
    ^bb0(%i: index):
      tensor.yield %zero : f32
    } : tensor<4xf32> to tensor<6xf32>
    %outer = tensor.pad %inner low[1] high[1] {
    ^bb0(%i: index):
      tensor.yield %one : f32
    } : tensor<6xf32> to tensor<8xf32>
    "flow.return"(%outer) : (tensor<8xf32>) -> ()
  }, {
  }) {operandSegmentSizes = array<i32: 0, 0>} : () -> tensor<8xf32>
  %single = tensor.pad %x low[1] high[1] {
  ^bb0(%i: index):
    tensor.yield %one : f32
  } : tensor<4xf32> to tensor<6xf32>
  return %r, %single : tensor<8xf32>, tensor<6xf32>
}
