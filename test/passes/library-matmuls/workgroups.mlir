// RUN: mlc-opt %s --split-input-file --pass-pipeline='builtin.module(mlc-fuse, mlc-lower-to-linalg{keep-fusion-groups=true}, mlc-form-dispatch-regions, mlc-library-matmuls{shapes=all workgroups=4})' | FileCheck %s
// RUN: mlc-opt %s --split-input-file --pass-pipeline='builtin.module(mlc-fuse, mlc-lower-to-linalg{keep-fusion-groups=true}, mlc-form-dispatch-regions, mlc-library-matmuls{shapes=all workgroups=8})' | FileCheck %s --check-prefix=FEW

/// A hundred columns in four workgroups: blocks of 32 columns (multiples of 16), the
/// last one of four (min(32, 100 - 96)). Eight workgroups would get 12.5 columns: blocks
/// of 16, seven workgroups.

// CHECK-LABEL: func.func @hundred_columns
// CHECK:       %[[FOUR:.*]] = arith.constant 4 : index
// CHECK:       "flow.dispatch.region"(%[[FOUR]])
// CHECK:         %[[COLUMNS:.*]] = arith.constant 32 : index
// CHECK:         arith.muli %{{.*}}, %[[COLUMNS]] : index
// CHECK:         %[[N:.*]] = arith.constant 100 : index
// CHECK:         arith.subi %[[N]]
// FEW-LABEL: func.func @hundred_columns
// FEW:         %[[SEVEN:.*]] = arith.constant 7 : index
// FEW:         "flow.dispatch.region"(%[[SEVEN]])
// FEW:           %[[COLUMNS:.*]] = arith.constant 16 : index
func.func @hundred_columns(%x: tensor<10x32xf32>, %w: tensor<32x100xf32>) -> tensor<10x100xf32> {
  %0 = "mlc.matmul"(%x, %w) : (tensor<10x32xf32>, tensor<32x100xf32>) -> tensor<10x100xf32>
  return %0 : tensor<10x100xf32>
}

// -----

/// A single row: the result is a vector, in blocks of columns, expanded to 1xN after
/// the region (IREE crashes on blocks of a 1xN tensor).

// CHECK-LABEL: func.func @one_row
// CHECK:       %[[VECTOR:.*]] = "flow.dispatch.region"
// CHECK:         tensor.extract_slice %{{.*}} : tensor<100xf32> to tensor<?xf32>
// CHECK:         "iree_codegen.ukernel.generic"{{.*}} : (tensor<1x32xf32>, tensor<32x?xf32>, tensor<?xf32>, index, index, index) -> tensor<?xf32>
// CHECK:         tensor.insert_slice {{.*}} : tensor<?xf32> into tensor<100xf32>
// CHECK:       }) {{.*}} -> tensor<100xf32>
// CHECK:       %[[ROW:.*]] = tensor.expand_shape %[[VECTOR]] {{\[\[}}0, 1]] output_shape [1, 100] : tensor<100xf32> into tensor<1x100xf32>
// CHECK:       return %[[ROW]]
func.func @one_row(%x: tensor<1x32xf32>, %w: tensor<32x100xf32>) -> tensor<1x100xf32> {
  %0 = "mlc.matmul"(%x, %w) : (tensor<1x32xf32>, tensor<32x100xf32>) -> tensor<1x100xf32>
  return %0 : tensor<1x100xf32>
}
