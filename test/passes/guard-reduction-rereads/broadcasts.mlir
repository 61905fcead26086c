// RUN: mlc-opt %s --split-input-file --pass-pipeline='builtin.module(mlc-guard-reduction-rereads{broadcasts=true})' | FileCheck %s
// RUN: mlc-opt %s --split-input-file --pass-pipeline='builtin.module(mlc-guard-reduction-rereads)' | FileCheck %s --check-prefix=CPU

/// With `broadcasts` (every IREE target), a reduction's value read broadcast by an
/// elementwise consumer goes through a barrier: fused with it, IREE 3.13's SPIR-V code
/// computed only the first slice of the consumer's outermost parallel axis
/// (log_softmax over dim 0), and its CPU code got a one-column matmul read broadcast
/// wrong (seed 90072). Without the option, a single read is left alone.

// CHECK-LABEL: func.func @sum_then_broadcast
// CHECK:       %[[SUM:.*]] = linalg.generic {{.*}}iterator_types = ["parallel", "reduction"]
// CHECK:       %[[GUARDED:.*]] = "util.optimization_barrier"(%[[SUM]]) : (tensor<8xf32>) -> tensor<8xf32>
// CHECK:       %[[SPREAD:.*]] = tensor.expand_shape %[[GUARDED]]
// CHECK:       linalg.generic {{.*}} ins(%arg0, %[[SPREAD]] :
// CPU-LABEL:   func.func @sum_then_broadcast
// CPU-NOT:     util.optimization_barrier
func.func @sum_then_broadcast(%x: tensor<6x8xf32>) -> tensor<6x8xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<8xf32>
  %init = linalg.fill ins(%zero : f32) outs(%e : tensor<8xf32>) -> tensor<8xf32>
  %sum = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d1, d0)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<6x8xf32>) outs(%init : tensor<8xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %s = arith.addf %a, %acc : f32
    linalg.yield %s : f32
  } -> tensor<8xf32>
  %spread = tensor.expand_shape %sum [[0, 1]] output_shape [1, 8] : tensor<8xf32> into tensor<1x8xf32>
  %out = tensor.empty() : tensor<6x8xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (0, d1)>, affine_map<(d0, d1) -> (d0, d1)>],
                       iterator_types = ["parallel", "parallel"]}
      ins(%x, %spread : tensor<6x8xf32>, tensor<1x8xf32>) outs(%out : tensor<6x8xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %s = arith.subf %a, %b : f32
    linalg.yield %s : f32
  } -> tensor<6x8xf32>
  return %r : tensor<6x8xf32>
}

// -----

/// A read over every loop dimension (no broadcast) stays fused, with the option too.

// CHECK-LABEL: func.func @sum_then_same_shape
// CHECK-NOT:   util.optimization_barrier
// CHECK:       return
func.func @sum_then_same_shape(%x: tensor<6x8xf32>) -> tensor<8xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<8xf32>
  %init = linalg.fill ins(%zero : f32) outs(%e : tensor<8xf32>) -> tensor<8xf32>
  %sum = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d1, d0)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<6x8xf32>) outs(%init : tensor<8xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %s = arith.addf %a, %acc : f32
    linalg.yield %s : f32
  } -> tensor<8xf32>
  %out = tensor.empty() : tensor<8xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]}
      ins(%sum : tensor<8xf32>) outs(%out : tensor<8xf32>) {
  ^bb0(%a: f32, %o: f32):
    %s = math.log %a : f32
    linalg.yield %s : f32
  } -> tensor<8xf32>
  return %r : tensor<8xf32>
}

// -----

/// A matmul reduces too: its one column read broadcast (seed 90072, llvm-cpu -O0).

// CHECK-LABEL: func.func @one_column_matmul_then_broadcast
// CHECK:       %[[MM:.*]] = linalg.matmul
// CHECK:       %[[GUARDED:.*]] = "util.optimization_barrier"(%[[MM]]) : (tensor<80x1xf32>) -> tensor<80x1xf32>
// CHECK:       linalg.generic {{.*}} ins(%[[GUARDED]] :
// CPU-LABEL:   func.func @one_column_matmul_then_broadcast
// CPU-NOT:     util.optimization_barrier
func.func @one_column_matmul_then_broadcast(%x: tensor<80x3xf32>, %w: tensor<3x1xf32>) -> tensor<80x6xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<80x1xf32>
  %init = linalg.fill ins(%zero : f32) outs(%e : tensor<80x1xf32>) -> tensor<80x1xf32>
  %mm = linalg.matmul ins(%x, %w : tensor<80x3xf32>, tensor<3x1xf32>) outs(%init : tensor<80x1xf32>) -> tensor<80x1xf32>
  %out = tensor.empty() : tensor<80x6xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, 0)>, affine_map<(d0, d1) -> (d0, d1)>],
                       iterator_types = ["parallel", "parallel"]}
      ins(%mm : tensor<80x1xf32>) outs(%out : tensor<80x6xf32>) {
  ^bb0(%a: f32, %o: f32):
    linalg.yield %a : f32
  } -> tensor<80x6xf32>
  return %r : tensor<80x6xf32>
}
