// RUN: mlc-opt %s --pass-pipeline='builtin.module(mlc-fuse{isolate=im2col outside=concat})' | FileCheck %s
// RUN: not mlc-opt %s --pass-pipeline='builtin.module(mlc-fuse{outside=concatenate})' 2>&1 | FileCheck %s --check-prefix=UNKNOWN

/// The GPU targets leave mlc.concat out of every group (`outside`, from
/// `Target.left_outside`): IREE's SPIR-V and CUDA code generation fail on slices
/// inserted into a buffer inside a dispatch, and IREE turns a concat outside its
/// dispatches into copies. Its producer and consumer still form groups of their own.

// CHECK-LABEL: func.func @concat_outside
// CHECK:      %[[E:.*]] = "mlc.fusion_group"() ({
// CHECK-NEXT:   "mlc.exp"
// CHECK:      %[[C:.*]] = "mlc.concat"(%[[E]], %arg1) {axis = 0 : i64}
// CHECK-NEXT: %[[R:.*]] = "mlc.fusion_group"() ({
// CHECK-NEXT:   "mlc.relu"(%[[C]])
// CHECK:      return %[[R]]
func.func @concat_outside(%x: tensor<2x4xf32>, %y: tensor<2x4xf32>) -> tensor<4x4xf32> {
  %a = "mlc.exp"(%x) : (tensor<2x4xf32>) -> tensor<2x4xf32>
  %c = "mlc.concat"(%a, %y) {axis = 0 : i64} : (tensor<2x4xf32>, tensor<2x4xf32>) -> tensor<4x4xf32>
  %r = "mlc.relu"(%c) : (tensor<4x4xf32>) -> tensor<4x4xf32>
  return %r : tensor<4x4xf32>
}

// UNKNOWN: mlc-opt: error: option 'outside' of pass 'mlc-fuse' names no mlc op: 'concatenate'
// UNKNOWN-NOT: Traceback
