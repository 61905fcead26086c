// RUN: mlc-opt %s --split-input-file --pass-pipeline='builtin.module(mlc-bufferize)' | FileCheck %s

/// Tensors become memrefs with identity layouts at the function boundary; the
/// result becomes a buffer the caller passes last (the last op writes straight
/// into it), and every temporary is freed.

// CHECK-LABEL: func.func @matmul_relu
// CHECK-SAME:    (%[[A:.*]]: memref<4x8xf32>, %[[B:.*]]: memref<8x16xf32>, %[[OUT:.*]]: memref<4x16xf32>) {
// CHECK:         %[[TMP:.*]] = memref.alloc() {{.*}} : memref<4x16xf32>
// CHECK:         linalg.fill ins(%{{.*}} : f32) outs(%[[TMP]] : memref<4x16xf32>)
// CHECK:         linalg.matmul ins(%[[A]], %[[B]] : {{.*}}) outs(%[[TMP]] : memref<4x16xf32>)
// CHECK:         linalg.generic {{.*}} ins(%[[TMP]] : memref<4x16xf32>) outs(%[[OUT]] : memref<4x16xf32>)
// CHECK:         memref.dealloc %[[TMP]] : memref<4x16xf32>
// CHECK-NEXT:    return{{$}}
// CHECK-NOT:   tensor
func.func @matmul_relu(%a: tensor<4x8xf32>, %b: tensor<8x16xf32>) -> tensor<4x16xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<4x16xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<4x16xf32>) -> tensor<4x16xf32>
  %m = linalg.matmul ins(%a, %b : tensor<4x8xf32>, tensor<8x16xf32>) outs(%f : tensor<4x16xf32>) -> tensor<4x16xf32>
  %e2 = tensor.empty() : tensor<4x16xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%m : tensor<4x16xf32>) outs(%e2 : tensor<4x16xf32>) {
  ^bb0(%in: f32, %out: f32):
    %0 = arith.maximumf %in, %zero : f32
    linalg.yield %0 : f32
  } -> tensor<4x16xf32>
  return %r : tensor<4x16xf32>
}

// -----

/// A pad copies its input into a strided view of the result: a linalg.copy
/// (loops later), not a memref.copy (a call into MLIR's C runner utils).

// CHECK-LABEL: func.func @pad
// CHECK-SAME:    (%[[X:.*]]: memref<2x3xf32>, %[[OUT:.*]]: memref<4x5xf32>) {
// CHECK:         linalg.map outs(%[[OUT]] : memref<4x5xf32>)
// CHECK:         %[[VIEW:.*]] = memref.subview %[[OUT]][1, 1] [2, 3] [1, 1]
// CHECK:         linalg.copy {{.*}}ins(%[[X]] : memref<2x3xf32>) outs(%[[VIEW]] : memref<2x3xf32, strided<[5, 1], offset: 6>>)
// CHECK-NOT:   memref.copy
func.func @pad(%x: tensor<2x3xf32>) -> tensor<4x5xf32> {
  %zero = arith.constant 0.0 : f32
  %p = tensor.pad %x low[1, 1] high[1, 1] {
  ^bb0(%i: index, %j: index):
    tensor.yield %zero : f32
  } : tensor<2x3xf32> to tensor<4x5xf32>
  return %p : tensor<4x5xf32>
}

// -----

/// A constant result is a global, copied into the caller's buffer.

// CHECK: memref.global "private" constant @[[GLOBAL:.*]] : memref<2xf32> = dense<[1.000000e+00, 2.000000e+00]>
// CHECK-LABEL: func.func @constant_result
// CHECK-SAME:    (%[[OUT:.*]]: memref<2xf32>) {
// CHECK:         %[[C:.*]] = memref.get_global @[[GLOBAL]] : memref<2xf32>
// CHECK:         linalg.copy {{.*}}ins(%[[C]] : memref<2xf32>) outs(%[[OUT]] : memref<2xf32>)
func.func @constant_result() -> tensor<2xf32> {
  %c = arith.constant dense<[1.0, 2.0]> : tensor<2xf32>
  return %c : tensor<2xf32>
}

// -----

/// A computed tensor returned twice gets a buffer per result: the second
/// out-param is filled by a copy of the first (upstream's
/// buffer-results-to-out-params crashes when two results share one buffer).

// CHECK-LABEL: func.func @returned_twice
// CHECK-SAME:    (%{{.*}}: memref<3x4xf32>, %[[OUT0:.*]]: memref<3x4xf32>, %[[OUT1:.*]]: memref<3x4xf32>) {
// CHECK:         linalg.generic {{.*}} outs(%[[OUT0]] : memref<3x4xf32>)
// CHECK:         linalg.copy {{.*}} ins(%[[OUT0]] : memref<3x4xf32>) outs(%[[OUT1]] : memref<3x4xf32>)
// CHECK-NEXT:    return{{$}}
func.func @returned_twice(%x: tensor<3x4xf32>) -> (tensor<3x4xf32>, tensor<3x4xf32>) {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<3x4xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%x : tensor<3x4xf32>) outs(%e : tensor<3x4xf32>) {
  ^bb0(%in: f32, %out: f32):
    %0 = arith.maximumf %in, %zero : f32
    linalg.yield %0 : f32
  } -> tensor<3x4xf32>
  return %r, %r : tensor<3x4xf32>, tensor<3x4xf32>
}
