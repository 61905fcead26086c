// RUN: mlc-opt %s --pass-pipeline='builtin.module(mlc-lower-to-linalg)' | FileCheck %s

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
