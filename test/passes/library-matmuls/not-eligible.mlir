// RUN: mlc-opt %s --split-input-file --pass-pipeline='builtin.module(mlc-fuse, mlc-lower-to-linalg{keep-fusion-groups=true}, mlc-form-dispatch-regions, mlc-library-matmuls{shapes=all})' | FileCheck %s

/// What the plugin cannot take stays a linalg.matmul in its group, for IREE's kernel:
/// other element types, dynamic sizes, and an operand computed inside the group and used again.

// CHECK-LABEL: func.func @f64_matmul
// CHECK-NOT:   iree_codegen.ukernel.generic
// CHECK:       linalg.matmul
func.func @f64_matmul(%x: tensor<8x32xf64>, %w: tensor<32x16xf64>) -> tensor<8x16xf64> {
  %0 = "mlc.matmul"(%x, %w) : (tensor<8x32xf64>, tensor<32x16xf64>) -> tensor<8x16xf64>
  return %0 : tensor<8x16xf64>
}

// -----

// CHECK-LABEL: func.func @dynamic_rows
// CHECK-NOT:   iree_codegen.ukernel.generic
// CHECK:       linalg.matmul
func.func @dynamic_rows(%x: tensor<?x32xf32>, %w: tensor<32x16xf32>) -> tensor<?x16xf32> {
  %0 = "mlc.matmul"(%x, %w) : (tensor<?x32xf32>, tensor<32x16xf32>) -> tensor<?x16xf32>
  return %0 : tensor<?x16xf32>
}

// -----

/// An operand the group computes and uses again after the product cannot leave the
/// group (one used only by the matmul moves out: prologue.mlir).

// CHECK-LABEL: func.func @operand_made_in_the_group_and_used_again
// CHECK-NOT:   iree_codegen.ukernel.generic
// CHECK:       math.exp
// CHECK:       linalg.matmul
func.func @operand_made_in_the_group_and_used_again(%x: tensor<8x32xf32>, %w: tensor<32x32xf32>) -> tensor<8x32xf32> {
  %0 = "mlc.fusion_group"() ({
    %1 = "mlc.exp"(%x) : (tensor<8x32xf32>) -> tensor<8x32xf32>
    %2 = "mlc.matmul"(%1, %w) : (tensor<8x32xf32>, tensor<32x32xf32>) -> tensor<8x32xf32>
    %3 = "mlc.add"(%2, %1) : (tensor<8x32xf32>, tensor<8x32xf32>) -> tensor<8x32xf32>
    "mlc.yield"(%3) : (tensor<8x32xf32>) -> ()
  }) : () -> tensor<8x32xf32>
  return %0 : tensor<8x32xf32>
}

// -----

/// Operands of two types, or an i8 product summed in f32, are not the library's.

// CHECK-LABEL: func.func @mixed_operands
// CHECK:       linalg.matmul
// CHECK-NOT:   iree_codegen.ukernel.generic
func.func @mixed_operands(%x: tensor<8x32xbf16>, %w: tensor<32x32xf32>) -> tensor<8x32xf32> {
  %zero = arith.constant 0.0 : f32
  %0 = tensor.empty() : tensor<8x32xf32>
  %1 = linalg.fill ins(%zero : f32) outs(%0 : tensor<8x32xf32>) -> tensor<8x32xf32>
  %2 = linalg.matmul ins(%x, %w : tensor<8x32xbf16>, tensor<32x32xf32>) outs(%1 : tensor<8x32xf32>) -> tensor<8x32xf32>
  return %2 : tensor<8x32xf32>
}
