// RUN: mlc-opt %s --split-input-file --pass-pipeline='builtin.module(mlc-vectorize)' | FileCheck %s
// RUN: mlc-opt %s --split-input-file --pass-pipeline='builtin.module(mlc-vectorize{vector-size=8})' | FileCheck %s --check-prefix=EIGHT
// RUN: mlc-opt %s --split-input-file --pass-pipeline='builtin.module(mlc-vectorize)' --mlir-pass-statistics 2>&1 >/dev/null | FileCheck %s --check-prefix=STATS

/// The innermost loop over contiguous memory steps by the vector size (16 f32
/// lanes by default) and computes on vectors read and written whole.

// CHECK-LABEL: func.func @add
// CHECK:      affine.for %[[I:.*]] = 0 to 4 {
// CHECK-NEXT:   affine.for %[[J:.*]] = 0 to 64 step 16 {
// CHECK-DAG:      %[[X:.*]] = vector.transfer_read %{{.*}}[%[[I]], %[[J]]], %{{.*}} {in_bounds = [true]} : memref<4x64xf32>, vector<16xf32>
// CHECK-DAG:      %[[Y:.*]] = vector.transfer_read %{{.*}}[%[[J]]], %{{.*}} {in_bounds = [true]} : memref<64xf32>, vector<16xf32>
// CHECK:          %[[S:.*]] = arith.addf %[[X]], %[[Y]] : vector<16xf32>
// CHECK:          vector.transfer_write %[[S]], %{{.*}}[%[[I]], %[[J]]] {in_bounds = [true]} : vector<16xf32>, memref<4x64xf32>
// CHECK-NOT:  affine.load
// EIGHT-LABEL: func.func @add
// EIGHT:       affine.for %{{.*}} = 0 to 64 step 8 {
// EIGHT:       arith.addf %{{.*}}, %{{.*}} : vector<8xf32>
func.func @add(%a: memref<4x64xf32>, %b: memref<64xf32>, %c: memref<4x64xf32>) {
  affine.for %i = 0 to 4 {
    affine.for %j = 0 to 64 {
      %x = affine.load %a[%i, %j] : memref<4x64xf32>
      %y = affine.load %b[%j] : memref<64xf32>
      %s = arith.addf %x, %y : f32
      affine.store %s, %c[%i, %j] : memref<4x64xf32>
    }
  }
  return
}

// -----

/// Negative: a strided access (every second element, as in a stride-2
/// convolution) is not contiguous; upstream would read it as if it were
/// (llvm/llvm-project#196973), so the loop stays scalar, also when the stride
/// comes through an affine.apply.

// CHECK-LABEL: func.func @negative_strided
// CHECK:      affine.for %{{.*}} = 0 to 32 {
// CHECK:        memref.load
// CHECK-NOT:  vector.
// STATS: 'mlc-vectorize'
// STATS: (2) strided accesses kept scalar
func.func @negative_strided(%x: memref<2x64xf32>, %y: memref<2x32xf32>) {
  affine.for %i = 0 to 2 {
    affine.for %j = 0 to 32 {
      %v = affine.load %x[%i, %j * 2] : memref<2x64xf32>
      affine.store %v, %y[%i, %j] : memref<2x32xf32>
    }
  }
  return
}

// CHECK-LABEL: func.func @negative_strided_apply
// CHECK:      affine.for %{{.*}} = 0 to 32 {
// CHECK:        memref.load
// CHECK-NOT:  vector.
func.func @negative_strided_apply(%x: memref<2x64xf32>, %y: memref<2x32xf32>) {
  affine.for %i = 0 to 2 {
    affine.for %j = 0 to 32 {
      %k = affine.apply affine_map<(d0) -> (d0 * 2 + 1)>(%j)
      %v = affine.load %x[%i, %k] : memref<2x64xf32>
      affine.store %v, %y[%i, %j] : memref<2x32xf32>
    }
  }
  return
}

// -----

/// A reduction loop is not widened; the loop around it is, when its accesses
/// are contiguous along it. Its 4 iterations end at the buffer's edge, so the
/// vector of 16 is masked there (no in_bounds).

// CHECK-LABEL: func.func @reduction_outer_loop
// CHECK:      affine.for %[[I:.*]] = 0 to 4 step 16 {
// CHECK-NEXT:   affine.for %[[K:.*]] = 0 to 64 {
// CHECK-NEXT:     vector.transfer_read %{{.*}}[%[[K]], %[[I]]], %{{.*}} : memref<64x4xf32>, vector<16xf32>
// CHECK:          vector.transfer_write %{{.*}}, %{{.*}}[%[[I]]] : vector<16xf32>, memref<4xf32>
func.func @reduction_outer_loop(%x: memref<64x4xf32>, %sum: memref<4xf32>) {
  affine.for %i = 0 to 4 {
    affine.for %k = 0 to 64 {
      %v = affine.load %x[%k, %i] : memref<64x4xf32>
      %s = affine.load %sum[%i] : memref<4xf32>
      %t = arith.addf %s, %v : f32
      affine.store %t, %sum[%i] : memref<4xf32>
    }
  }
  return
}
