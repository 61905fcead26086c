// RUN: mlc-opt %s --pass-pipeline='builtin.module(mlc-lower-to-llvm)' --split-input-file --verify-diagnostics

/// An op the conversions to LLVM leave alone is reported at the op, with the
/// stages that should have run before.

func.func @linalg_left(%c: memref<4x4xf32>) {
  %zero = arith.constant 0.0 : f32
  // expected-error @+1 {{'linalg.fill' is left after lowering to LLVM: mlc-lower-to-llvm takes affine, scf, vector, memref, arith, math and func ops (run mlc-bufferize and mlc-lower-linalg-to-affine first)}}
  linalg.fill ins(%zero : f32) outs(%c : memref<4x4xf32>)
  return
}

// -----

/// An op on tensors fails in the upstream conversion, which names it.

func.func @tensor_left(%x: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{failed to legalize operation 'math.exp' that was explicitly marked illegal}}
  %0 = math.exp %x : tensor<4xf32>
  return %0 : tensor<4xf32>
}
