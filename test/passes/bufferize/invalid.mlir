// RUN: mlc-opt %s --pass-pipeline='builtin.module(mlc-bufferize)' --split-input-file --verify-diagnostics

/// An op bufferization does not know (here mlc's own, before mlc-lower-to-linalg)
/// is reported at the op, as upstream reports it.

func.func @not_lowered(%x: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{op was not bufferized}}
  %0 = "mlc.relu"(%x) : (tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}
