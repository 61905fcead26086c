// RUN: mlc-opt %s --split-input-file --pass-pipeline='builtin.module(mlc-lower-linalg-to-affine)' | FileCheck %s
// RUN: mlc-opt %s --split-input-file --pass-pipeline='builtin.module(mlc-lower-linalg-to-affine{tile-sizes=16,8})' | FileCheck %s --check-prefix=SIZES
// RUN: mlc-opt %s --split-input-file --pass-pipeline='builtin.module(mlc-lower-linalg-to-affine{cache-size-kib=8})' | FileCheck %s --check-prefix=CACHE

/// A matmul becomes a 6-deep nest: three tile loops stepping by the tile size,
/// then three loops inside one tile. The default tile, 32, is the largest power
/// of two whose three 32x32 f32 blocks (12 KiB) fit a 32 KiB L1; an 8 KiB cache
/// gives 16. Given sizes apply outermost first, and the last one repeats.

// CHECK-DAG: #[[LB:.*]] = affine_map<(d0) -> (d0)>
// CHECK-DAG: #[[UB:.*]] = affine_map<(d0) -> (d0 + 32)>
// CHECK-LABEL: func.func @matmul
// CHECK:      affine.for %[[I:.*]] = 0 to 64 step 32 {
// CHECK-NEXT:   affine.for %[[J:.*]] = 0 to 64 step 32 {
// CHECK-NEXT:     affine.for %[[K:.*]] = 0 to 64 step 32 {
// CHECK-NEXT:       affine.for %[[II:.*]] = #[[LB]](%[[I]]) to #[[UB]](%[[I]]) {
// CHECK-NEXT:         affine.for %[[JJ:.*]] = #[[LB]](%[[J]]) to #[[UB]](%[[J]]) {
// CHECK-NEXT:           affine.for %[[KK:.*]] = #[[LB]](%[[K]]) to #[[UB]](%[[K]]) {
// CHECK-NEXT:             affine.load %{{.*}}[%[[II]], %[[KK]]]
// CHECK-NEXT:             affine.load %{{.*}}[%[[KK]], %[[JJ]]]
// CHECK:                  arith.mulf
// CHECK:                  affine.store %{{.*}}, %{{.*}}[%[[II]], %[[JJ]]]
// CHECK-NOT: linalg.

// SIZES-LABEL: func.func @matmul
// SIZES:      affine.for %{{.*}} = 0 to 64 step 16 {
// SIZES-NEXT:   affine.for %{{.*}} = 0 to 64 step 8 {
// SIZES-NEXT:     affine.for %{{.*}} = 0 to 64 step 8 {

// CACHE-LABEL: func.func @matmul
// CACHE:      affine.for %{{.*}} = 0 to 64 step 16 {
// CACHE-NEXT:   affine.for %{{.*}} = 0 to 64 step 16 {
// CACHE-NEXT:     affine.for %{{.*}} = 0 to 64 step 16 {
func.func @matmul(%a: memref<64x64xf32>, %b: memref<64x64xf32>, %c: memref<64x64xf32>) {
  linalg.matmul ins(%a, %b : memref<64x64xf32>, memref<64x64xf32>) outs(%c : memref<64x64xf32>)
  return
}

// -----

/// A size that the tile does not divide ends in a partial tile: the inner
/// bound is the smaller of the tile's end and the buffer's.

// CHECK-DAG: #[[LB:.*]] = affine_map<(d0) -> (d0)>
// CHECK-DAG: #[[MIN:.*]] = affine_map<(d0) -> (d0 + 32, 100)>
// CHECK-LABEL: func.func @partial_tile
// CHECK:      affine.for %[[I:.*]] = 0 to 100 step 32 {
// CHECK-NEXT:   affine.for %{{.*}} = #[[LB]](%[[I]]) to min #[[MIN]](%[[I]]) {
func.func @partial_tile(%x: memref<100xf32>) {
  %zero = arith.constant 0.0 : f32
  linalg.fill ins(%zero : f32) outs(%x : memref<100xf32>)
  return
}

// -----

/// Negative: ops on tensors are not lowered (bufferize first); nothing to tile.

// CHECK-LABEL: func.func @negative_tensors
// CHECK-NOT: affine.for
// CHECK: linalg.matmul
func.func @negative_tensors(%a: tensor<4x4xf32>, %b: tensor<4x4xf32>) -> tensor<4x4xf32> {
  %0 = linalg.matmul ins(%a, %a : tensor<4x4xf32>, tensor<4x4xf32>) outs(%b : tensor<4x4xf32>) -> tensor<4x4xf32>
  return %0 : tensor<4x4xf32>
}
