// RUN: mlc-opt %s --pass-pipeline='builtin.module(mlc-lower-to-linalg)' | FileCheck %s

/// mlc.quantized_matmul lowers to mlc-quantize-int8's steps as linalg ops: the rows'
/// largest magnitudes, their scales (never below the smallest normal x 127), the rows
/// divided, rounded half to even, clamped to +-127 and cast to int8, the int8 matmul into
/// int32 zeros, and the product times the row's and the column's scales. Three steps are
/// marked `mlc.quantized_matmul`, so that mlc-library-matmuls can take them whole.

// CHECK-LABEL: func.func @quantized_matmul
// CHECK-SAME: (%[[X:.*]]: tensor<1x8xf32>, %[[W:.*]]: tensor<8x4xi8>, %[[S:.*]]: tensor<4xf32>)
// CHECK:      %[[PEAK:.*]] = linalg.generic {{.*}}iterator_types = ["parallel", "reduction"]} ins(%[[X]] : tensor<1x8xf32>)
// CHECK:        math.absf
// CHECK:        arith.maximumf
// CHECK:      %[[SX:.*]] = linalg.generic {{.*}} ins(%[[PEAK]] : tensor<1xf32>)
// CHECK:        arith.maximumf %{{.*}}, %{{.*}} : f32
// CHECK:        arith.divf
// CHECK:      %[[Q:.*]] = linalg.generic {{.*}} ins(%[[X]], %[[SX]] : tensor<1x8xf32>, tensor<1xf32>) outs(%{{.*}} : tensor<1x8xi8>) attrs = {mlc.quantized_matmul = "quantize"}
// CHECK:        arith.divf
// CHECK:        math.roundeven
// CHECK:        arith.maximumf
// CHECK:        arith.minimumf
// CHECK:        arith.fptosi %{{.*}} : f32 to i8
// CHECK:      %[[P:.*]] = linalg.matmul {{{.*}}mlc.quantized_matmul = "product"} ins(%[[Q]], %[[W]] : tensor<1x8xi8>, tensor<8x4xi8>) outs(%{{.*}} : tensor<1x4xi32>)
// CHECK:      %[[Y:.*]] = linalg.generic {{.*}} ins(%[[P]], %[[SX]], %[[S]] : tensor<1x4xi32>, tensor<1xf32>, tensor<4xf32>) outs(%{{.*}} : tensor<1x4xf32>) attrs = {mlc.quantized_matmul = "rescale"}
// CHECK:        arith.sitofp
// CHECK:        arith.mulf
// CHECK:        arith.mulf
// CHECK:      return %[[Y]]
func.func @quantized_matmul(%x: tensor<1x8xf32>, %w: tensor<8x4xi8>, %s: tensor<4xf32>) -> tensor<1x4xf32> {
  %0 = "mlc.quantized_matmul"(%x, %w, %s) : (tensor<1x8xf32>, tensor<8x4xi8>, tensor<4xf32>) -> tensor<1x4xf32>
  return %0 : tensor<1x4xf32>
}
