// RUN: mlc-opt %s --pass-pipeline='builtin.module(mlc-decompose-linalg, mlc-bufferize, mlc-lower-linalg-to-affine, mlc-vectorize, mlc-lower-to-llvm)' | FileCheck %s
// RUN: mlc-opt %s --pass-pipeline='builtin.module(mlc-decompose-linalg, mlc-bufferize, mlc-lower-linalg-to-affine, mlc-vectorize, mlc-lower-to-llvm)' | FileCheck %s --check-prefix=ONLY-LLVM

/// The whole mlir-cpu lowering, stage by stage, from linalg on tensors: only
/// LLVM ops are left, main has its C interface with the result as the last
/// pointer, and nothing calls MLIR's runner utils (memrefCopy): torch-mlir does
/// not ship them.

// CHECK-LABEL: llvm.func @main
// CHECK:         llvm.fdiv {{.*}} : vector<16xf32>
// CHECK-LABEL: llvm.func @_mlir_ciface_main(%{{.*}}: !llvm.ptr, %{{.*}}: !llvm.ptr, %{{.*}}: !llvm.ptr)
// ONLY-LLVM-NOT: {{ (linalg|tensor|bufferization|affine|vector|memref|math|arith|scf|cf|func|ub)\.}}
// ONLY-LLVM-NOT: unrealized_conversion_cast
// ONLY-LLVM-NOT: memrefCopy
func.func @main(%x: tensor<4x30xf32>, %w: tensor<32x32xf32>) -> tensor<4x32xf32> {
  %zero = arith.constant 0.0 : f32
  %padded = tensor.pad %x low[0, 1] high[0, 1] {
  ^bb0(%i: index, %j: index):
    tensor.yield %zero : f32
  } : tensor<4x30xf32> to tensor<4x32xf32>
  %e = tensor.empty() : tensor<4x32xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<4x32xf32>) -> tensor<4x32xf32>
  %m = linalg.matmul ins(%padded, %w : tensor<4x32xf32>, tensor<32x32xf32>) outs(%f : tensor<4x32xf32>) -> tensor<4x32xf32>
  %s = linalg.softmax dimension(1) ins(%m : tensor<4x32xf32>) outs(%e : tensor<4x32xf32>) -> tensor<4x32xf32>
  return %s : tensor<4x32xf32>
}
