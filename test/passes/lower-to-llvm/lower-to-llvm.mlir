// RUN: mlc-opt %s --split-input-file --pass-pipeline='builtin.module(mlc-lower-to-llvm)' | FileCheck %s
// RUN: mlc-opt %s --split-input-file --pass-pipeline='builtin.module(mlc-lower-to-llvm)' | FileCheck %s --check-prefix=ONLY-LLVM

/// Loops, vectors, memrefs and math become the LLVM dialect only. A public
/// function gets a C interface (`_mlir_ciface_main`, one pointer per memref
/// descriptor); a private one does not. erf has no LLVM intrinsic: it calls
/// libm's erff, once per lane.

// CHECK:       llvm.func @erff(f32) -> f32
// CHECK-LABEL: llvm.func @main
// CHECK-SAME:    attributes {llvm.emit_c_interface}
// CHECK:         llvm.load %{{.*}} : !llvm.ptr -> vector<16xf32>
// CHECK:         llvm.call @erff
// CHECK:         llvm.intr.exp(%{{.*}}) : (vector<16xf32>) -> vector<16xf32>
// CHECK:         llvm.store %{{.*}}, %{{.*}} : vector<16xf32>, !llvm.ptr
// CHECK-LABEL: llvm.func @_mlir_ciface_main(%{{.*}}: !llvm.ptr, %{{.*}}: !llvm.ptr)
// CHECK:         llvm.call @main
// CHECK-LABEL: llvm.func @helper
// CHECK-NOT:   _mlir_ciface_helper
// ONLY-LLVM-NOT: {{ (affine|vector|memref|math|arith|scf|cf|func|ub)\.}}
// ONLY-LLVM-NOT: unrealized_conversion_cast
func.func @main(%x: memref<64xf32>, %out: memref<64xf32>) {
  affine.for %i = 0 to 64 step 16 {
    %p = ub.poison : f32
    %v = vector.transfer_read %x[%i], %p {in_bounds = [true]} : memref<64xf32>, vector<16xf32>
    %e = math.erf %v : vector<16xf32>
    %s = math.exp %e : vector<16xf32>
    vector.transfer_write %s, %out[%i] {in_bounds = [true]} : vector<16xf32>, memref<64xf32>
  }
  return
}

func.func private @helper(%x: memref<4xf32>) {
  return
}

// -----

/// A transfer at a buffer's edge is a masked load or store. Of bf16, it moves the
/// same bits as i16 (bitcasts around it): LLVM would otherwise widen it to f32 on a
/// CPU without AVX-512-BF16 and narrow it back with compiler-rt's __truncsfbf2,
/// which the JIT cannot resolve. A masked f32 transfer is left as it is.

// CHECK-LABEL: llvm.func @edge
// CHECK:         %[[PASS:.*]] = llvm.bitcast %{{.*}} : vector<16xbf16> to vector<16xi16>
// CHECK:         %[[LOADED:.*]] = llvm.intr.masked.load %{{.*}}, %{{.*}}, %[[PASS]] {alignment = 2 : i32} : (!llvm.ptr, vector<16xi1>, vector<16xi16>) -> vector<16xi16>
// CHECK:         llvm.bitcast %[[LOADED]] : vector<16xi16> to vector<16xbf16>
// CHECK:         %[[STORED:.*]] = llvm.bitcast %{{.*}} : vector<16xbf16> to vector<16xi16>
// CHECK:         llvm.intr.masked.store %[[STORED]], %{{.*}}, %{{.*}} {alignment = 2 : i32} : vector<16xi16>, vector<16xi1> into !llvm.ptr
// CHECK:         llvm.intr.masked.load %{{.*}} : (!llvm.ptr, vector<16xi1>, vector<16xf32>) -> vector<16xf32>
// CHECK-NOT:     vector<16xbf16>, vector<16xi1> into
func.func @edge(%x: memref<6xbf16>, %out: memref<6xbf16>, %y: memref<6xf32>, %z: memref<6xf32>) {
  %c0 = arith.constant 0 : index
  %pb = ub.poison : bf16
  %v = vector.transfer_read %x[%c0], %pb : memref<6xbf16>, vector<16xbf16>
  vector.transfer_write %v, %out[%c0] : vector<16xbf16>, memref<6xbf16>
  %pf = ub.poison : f32
  %w = vector.transfer_read %y[%c0], %pf : memref<6xf32>, vector<16xf32>
  vector.transfer_write %w, %z[%c0] : vector<16xf32>, memref<6xf32>
  return
}

// -----

/// Visibility spelled out as public is public: the function gets its C interface.

// CHECK-LABEL: llvm.func @spelled_public
// CHECK-SAME:    attributes {llvm.emit_c_interface}
// CHECK-LABEL: llvm.func @_mlir_ciface_spelled_public
func.func public @spelled_public(%x: memref<4xf32>) {
  return
}
