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
