// RUN: mlc-opt %s --split-input-file --pass-pipeline='builtin.module(mlc-lower-to-linalg)' | FileCheck %s

/// A reshape that keeps a dynamic batch and regroups the static rest (a group norm's
/// [N, C, H, W] -> [N, G, C/G x H x W]) goes through [N, C x H x W]: a collapse, then
/// an expansion whose batch size is the input's.

// CHECK-LABEL: func.func @regroup
// CHECK-SAME: (%[[X:.*]]: tensor<?x4x5x5xf32>)
// CHECK: %[[FLAT:.*]] = tensor.collapse_shape %[[X]] {{\[\[}}0], [1, 2, 3]] : tensor<?x4x5x5xf32> into tensor<?x100xf32>
// CHECK: %[[N:.*]] = tensor.dim %[[X]], %{{.*}} : tensor<?x4x5x5xf32>
// CHECK: %[[GROUPS:.*]] = tensor.expand_shape %[[FLAT]] {{\[\[}}0], [1, 2]] output_shape [%[[N]], 2, 50] : tensor<?x100xf32> into tensor<?x2x50xf32>
// CHECK: return %[[GROUPS]]
func.func @regroup(%x: tensor<?x4x5x5xf32>) -> tensor<?x2x50xf32> {
  %0 = "mlc.reshape"(%x) : (tensor<?x4x5x5xf32>) -> tensor<?x2x50xf32>
  return %0 : tensor<?x2x50xf32>
}

// -----

/// One dynamic size in the result, regrouped with static ones (nn.MultiheadAttention's
/// [seq, batch, 128] -> [seq, batch x 8 heads, 16] at a dynamic batch): through one
/// dimension, the unknown size being the element count over the known sizes.

// CHECK-LABEL: func.func @heads_at_a_dynamic_batch
// CHECK-SAME: (%[[X:.*]]: tensor<16x?x128xf32>)
// CHECK: %[[FLAT:.*]] = tensor.collapse_shape %[[X]] {{\[\[}}0, 1, 2]] : tensor<16x?x128xf32> into tensor<?xf32>
// CHECK: %[[TOTAL:.*]] = tensor.dim %[[FLAT]]
// CHECK: %[[ROWS:.*]] = arith.divui %[[TOTAL]], %{{.*}} : index
// CHECK: tensor.expand_shape %[[FLAT]] {{\[\[}}0, 1, 2]] output_shape [16, %[[ROWS]], 16] : tensor<?xf32> into tensor<16x?x16xf32>
func.func @heads_at_a_dynamic_batch(%x: tensor<16x?x128xf32>) -> tensor<16x?x16xf32> {
  %0 = "mlc.reshape"(%x) : (tensor<16x?x128xf32>) -> tensor<16x?x16xf32>
  return %0 : tensor<16x?x16xf32>
}
