// RUN: mlc-opt %s --split-input-file --pass-pipeline='builtin.module(mlc-lower-to-linalg, mlc-form-dispatch-regions, mlc-library-matmuls{shapes=all packed=true own-kernel=4x8x32,1x8x32,1x8x32xbf16})' | FileCheck %s
// RUN: mlc-opt %s --split-input-file --pass-pipeline='builtin.module(mlc-lower-to-linalg, mlc-form-dispatch-regions, mlc-library-matmuls{shapes=all packed=true own-kernel=4x8x32,1x8x32,1x8x32xbf16})' --mlir-pass-statistics -o /dev/null 2>&1 | FileCheck %s --check-prefix=STATS
// RUN: mlc-opt %s --split-input-file --pass-pipeline='builtin.module(mlc-lower-to-linalg, mlc-form-dispatch-regions, mlc-library-matmuls{shapes=all own-kernel=4x8x32,1x8x32xbf16})' | FileCheck %s --check-prefix=UNPACKED

/// A shape listed in `own-kernel` runs on mlc's own f32 kernel (native/sgemm_avx512.h):
/// the plugin's mlc_sgemm_epilogue, with no epilogue but the flags PACKED (16) and
/// OWN_KERNEL (64), after the weight's fingerprint. Only a product by a constant weight
/// packed once qualifies: a weight argument, or a model compiled without `packed`, stay
/// on MKL's functions. A single row (a decode step's) runs on mlc's f32 or bf16 kernel
/// (native/gemm_bf16.h), which streams the packed weight: mlc_sgemm_epilogue or
/// mlc_gemm_bf16_epilogue with the same flags.

// The statistics add up over the four functions: three weights packed once (the
// constant weight, the single f32 row, the single bf16 row) and one at each call.
// STATS:      (3) weights packed once
// STATS-NEXT: (4) matmuls on mlc's own kernel
// STATS-NEXT: (4) matmuls on the library
// STATS-NEXT: (1) weights packed at each call

// CHECK-LABEL: func.func @constant_weight
// CHECK-SAME:    (%[[X:.*]]: tensor<4x8xf32>)
// CHECK:       %[[WEIGHT:.*]] = arith.constant dense<
// CHECK:       %[[DEST:.*]] = tensor.empty() : tensor<4x32xf32>
// CHECK-NEXT:  %[[M:.*]] = arith.constant 4 : index
// CHECK-NEXT:  %[[N:.*]] = arith.constant 32 : index
// CHECK-NEXT:  %[[K:.*]] = arith.constant 8 : index
// CHECK-NEXT:  %[[KEY:.*]] = arith.constant {{[1-9][0-9]+}} : index
// CHECK-NEXT:  %[[FLAGS:.*]] = arith.constant 80 : index
// CHECK-NEXT:  "iree_codegen.ukernel.generic"(%[[X]], %[[WEIGHT]], %[[X]], %[[X]], %[[DEST]], %[[M]], %[[N]], %[[K]], %[[KEY]], %[[FLAGS]]) {{.*}} u_kernel_fn_name = "mlc_sgemm_epilogue"}
// UNPACKED-LABEL: func.func @constant_weight
// UNPACKED-NOT:   arith.constant 80 : index
// UNPACKED:       u_kernel_fn_name = "mlc_sgemm"}
func.func @constant_weight(%x: tensor<4x8xf32>) -> tensor<4x32xf32> {
  %w = "mlc.constant"() {value = dense<[[-0.75, -0.50, -0.25, 0.00, 0.25, 0.50, 0.75, -0.75, -0.50, -0.25, 0.00, 0.25, 0.50, 0.75, -0.75, -0.50, -0.25, 0.00, 0.25, 0.50, 0.75, -0.75, -0.50, -0.25, 0.00, 0.25, 0.50, 0.75, -0.75, -0.50, -0.25, 0.00], [0.25, 0.50, 0.75, -0.75, -0.50, -0.25, 0.00, 0.25, 0.50, 0.75, -0.75, -0.50, -0.25, 0.00, 0.25, 0.50, 0.75, -0.75, -0.50, -0.25, 0.00, 0.25, 0.50, 0.75, -0.75, -0.50, -0.25, 0.00, 0.25, 0.50, 0.75, -0.75], [-0.50, -0.25, 0.00, 0.25, 0.50, 0.75, -0.75, -0.50, -0.25, 0.00, 0.25, 0.50, 0.75, -0.75, -0.50, -0.25, 0.00, 0.25, 0.50, 0.75, -0.75, -0.50, -0.25, 0.00, 0.25, 0.50, 0.75, -0.75, -0.50, -0.25, 0.00, 0.25], [0.50, 0.75, -0.75, -0.50, -0.25, 0.00, 0.25, 0.50, 0.75, -0.75, -0.50, -0.25, 0.00, 0.25, 0.50, 0.75, -0.75, -0.50, -0.25, 0.00, 0.25, 0.50, 0.75, -0.75, -0.50, -0.25, 0.00, 0.25, 0.50, 0.75, -0.75, -0.50], [-0.25, 0.00, 0.25, 0.50, 0.75, -0.75, -0.50, -0.25, 0.00, 0.25, 0.50, 0.75, -0.75, -0.50, -0.25, 0.00, 0.25, 0.50, 0.75, -0.75, -0.50, -0.25, 0.00, 0.25, 0.50, 0.75, -0.75, -0.50, -0.25, 0.00, 0.25, 0.50], [0.75, -0.75, -0.50, -0.25, 0.00, 0.25, 0.50, 0.75, -0.75, -0.50, -0.25, 0.00, 0.25, 0.50, 0.75, -0.75, -0.50, -0.25, 0.00, 0.25, 0.50, 0.75, -0.75, -0.50, -0.25, 0.00, 0.25, 0.50, 0.75, -0.75, -0.50, -0.25], [0.00, 0.25, 0.50, 0.75, -0.75, -0.50, -0.25, 0.00, 0.25, 0.50, 0.75, -0.75, -0.50, -0.25, 0.00, 0.25, 0.50, 0.75, -0.75, -0.50, -0.25, 0.00, 0.25, 0.50, 0.75, -0.75, -0.50, -0.25, 0.00, 0.25, 0.50, 0.75], [-0.75, -0.50, -0.25, 0.00, 0.25, 0.50, 0.75, -0.75, -0.50, -0.25, 0.00, 0.25, 0.50, 0.75, -0.75, -0.50, -0.25, 0.00, 0.25, 0.50, 0.75, -0.75, -0.50, -0.25, 0.00, 0.25, 0.50, 0.75, -0.75, -0.50, -0.25, 0.00]]> : tensor<8x32xf32>} : () -> tensor<8x32xf32>
  %0 = "mlc.matmul"(%x, %w) : (tensor<4x8xf32>, tensor<8x32xf32>) -> tensor<4x32xf32>
  return %0 : tensor<4x32xf32>
}

// -----

// CHECK-LABEL: func.func @weight_argument
// CHECK-NOT:     arith.constant 80 : index
// CHECK:         u_kernel_fn_name = "mlc_sgemm"}
func.func @weight_argument(%x: tensor<4x8xf32>, %w: tensor<8x32xf32>) -> tensor<4x32xf32> {
  %0 = "mlc.matmul"(%x, %w) : (tensor<4x8xf32>, tensor<8x32xf32>) -> tensor<4x32xf32>
  return %0 : tensor<4x32xf32>
}

// -----

// CHECK-LABEL: func.func @single_row
// CHECK-SAME:    (%[[X:.*]]: tensor<1x8xf32>)
// CHECK:       %[[WEIGHT:.*]] = arith.constant dense<
// CHECK:       %[[DEST:.*]] = tensor.empty() : tensor<32xf32>
// CHECK-NEXT:  %[[M:.*]] = arith.constant 1 : index
// CHECK-NEXT:  %[[N:.*]] = arith.constant 32 : index
// CHECK-NEXT:  %[[K:.*]] = arith.constant 8 : index
// CHECK-NEXT:  %[[KEY:.*]] = arith.constant {{[1-9][0-9]+}} : index
// CHECK-NEXT:  %[[FLAGS:.*]] = arith.constant 80 : index
// CHECK-NEXT:  "iree_codegen.ukernel.generic"(%[[X]], %[[WEIGHT]], %[[X]], %[[X]], %[[DEST]], %[[M]], %[[N]], %[[K]], %[[KEY]], %[[FLAGS]]) {{.*}} u_kernel_fn_name = "mlc_sgemm_epilogue"}
// CHECK:       tensor.expand_shape {{.*}} into tensor<1x32xf32>
// UNPACKED-LABEL: func.func @single_row
// UNPACKED-NOT:   arith.constant 80 : index
// UNPACKED:       u_kernel_fn_name = "mlc_sgemm"}
func.func @single_row(%x: tensor<1x8xf32>) -> tensor<1x32xf32> {
  %w = "mlc.constant"() {value = dense<[[-0.75, -0.50, -0.25, 0.00, 0.25, 0.50, 0.75, -0.75, -0.50, -0.25, 0.00, 0.25, 0.50, 0.75, -0.75, -0.50, -0.25, 0.00, 0.25, 0.50, 0.75, -0.75, -0.50, -0.25, 0.00, 0.25, 0.50, 0.75, -0.75, -0.50, -0.25, 0.00], [0.25, 0.50, 0.75, -0.75, -0.50, -0.25, 0.00, 0.25, 0.50, 0.75, -0.75, -0.50, -0.25, 0.00, 0.25, 0.50, 0.75, -0.75, -0.50, -0.25, 0.00, 0.25, 0.50, 0.75, -0.75, -0.50, -0.25, 0.00, 0.25, 0.50, 0.75, -0.75], [-0.50, -0.25, 0.00, 0.25, 0.50, 0.75, -0.75, -0.50, -0.25, 0.00, 0.25, 0.50, 0.75, -0.75, -0.50, -0.25, 0.00, 0.25, 0.50, 0.75, -0.75, -0.50, -0.25, 0.00, 0.25, 0.50, 0.75, -0.75, -0.50, -0.25, 0.00, 0.25], [0.50, 0.75, -0.75, -0.50, -0.25, 0.00, 0.25, 0.50, 0.75, -0.75, -0.50, -0.25, 0.00, 0.25, 0.50, 0.75, -0.75, -0.50, -0.25, 0.00, 0.25, 0.50, 0.75, -0.75, -0.50, -0.25, 0.00, 0.25, 0.50, 0.75, -0.75, -0.50], [-0.25, 0.00, 0.25, 0.50, 0.75, -0.75, -0.50, -0.25, 0.00, 0.25, 0.50, 0.75, -0.75, -0.50, -0.25, 0.00, 0.25, 0.50, 0.75, -0.75, -0.50, -0.25, 0.00, 0.25, 0.50, 0.75, -0.75, -0.50, -0.25, 0.00, 0.25, 0.50], [0.75, -0.75, -0.50, -0.25, 0.00, 0.25, 0.50, 0.75, -0.75, -0.50, -0.25, 0.00, 0.25, 0.50, 0.75, -0.75, -0.50, -0.25, 0.00, 0.25, 0.50, 0.75, -0.75, -0.50, -0.25, 0.00, 0.25, 0.50, 0.75, -0.75, -0.50, -0.25], [0.00, 0.25, 0.50, 0.75, -0.75, -0.50, -0.25, 0.00, 0.25, 0.50, 0.75, -0.75, -0.50, -0.25, 0.00, 0.25, 0.50, 0.75, -0.75, -0.50, -0.25, 0.00, 0.25, 0.50, 0.75, -0.75, -0.50, -0.25, 0.00, 0.25, 0.50, 0.75], [-0.75, -0.50, -0.25, 0.00, 0.25, 0.50, 0.75, -0.75, -0.50, -0.25, 0.00, 0.25, 0.50, 0.75, -0.75, -0.50, -0.25, 0.00, 0.25, 0.50, 0.75, -0.75, -0.50, -0.25, 0.00, 0.25, 0.50, 0.75, -0.75, -0.50, -0.25, 0.00]]> : tensor<8x32xf32>} : () -> tensor<8x32xf32>
  %0 = "mlc.matmul"(%x, %w) : (tensor<1x8xf32>, tensor<8x32xf32>) -> tensor<1x32xf32>
  return %0 : tensor<1x32xf32>
}

// -----

// CHECK-LABEL: func.func @single_bf16_row
// CHECK-SAME:    (%[[X:.*]]: tensor<1x8xbf16>)
// CHECK:       %[[WEIGHT:.*]] = arith.constant dense_resource<w_bf16> : tensor<8x32xbf16>
// CHECK:       %[[DEST:.*]] = tensor.empty() : tensor<32xf32>
// CHECK-NEXT:  %[[M:.*]] = arith.constant 1 : index
// CHECK-NEXT:  %[[N:.*]] = arith.constant 32 : index
// CHECK-NEXT:  %[[K:.*]] = arith.constant 8 : index
// CHECK-NEXT:  %[[KEY:.*]] = arith.constant {{[1-9][0-9]+}} : index
// CHECK-NEXT:  %[[FLAGS:.*]] = arith.constant 80 : index
// CHECK-NEXT:  "iree_codegen.ukernel.generic"(%[[X]], %[[WEIGHT]], %[[X]], %[[X]], %[[DEST]], %[[M]], %[[N]], %[[K]], %[[KEY]], %[[FLAGS]]) {{.*}} u_kernel_fn_name = "mlc_gemm_bf16_epilogue"}
// CHECK:       tensor.expand_shape {{.*}} into tensor<1x32xf32>
// UNPACKED-LABEL: func.func @single_bf16_row
// UNPACKED-NOT:   arith.constant 80 : index
// UNPACKED:       u_kernel_fn_name = "mlc_gemm_bf16"}
func.func @single_bf16_row(%x: tensor<1x8xbf16>) -> tensor<1x32xf32> {
  %w = "mlc.constant"() {value = dense_resource<w_bf16> : tensor<8x32xbf16>} : () -> tensor<8x32xbf16>
  %0 = "mlc.matmul"(%x, %w) : (tensor<1x8xbf16>, tensor<8x32xbf16>) -> tensor<1x32xf32>
  return %0 : tensor<1x32xf32>
}

{-#
  dialect_resources: {
    builtin: {
      w_bf16: "0x0200000040BF003F000000BF403F803E80BE40BF003F000000BF403F803E80BE40BF003F000000BF403F803E80BE40BF003F000000BF403F803E80BE40BF003F000000BF403F803E80BE40BF003F000000BF403F803E80BE40BF003F000000BF403F803E80BE40BF003F000000BF403F803E80BE40BF003F000000BF403F803E80BE40BF003F000000BF403F803E80BE40BF003F000000BF403F803E80BE40BF003F000000BF403F803E80BE40BF003F000000BF403F803E80BE40BF003F000000BF403F803E80BE40BF003F000000BF403F803E80BE40BF003F000000BF403F803E80BE40BF003F000000BF403F803E80BE40BF003F000000BF403F803E80BE40BF003F000000BF403F803E80BE40BF003F000000BF403F803E80BE40BF003F000000BF403F803E80BE40BF003F000000BF403F803E80BE40BF003F000000BF403F803E80BE40BF003F000000BF403F803E80BE40BF003F000000BF403F803E80BE40BF003F000000BF403F803E80BE40BF003F000000BF403F803E80BE40BF003F000000BF403F803E80BE40BF003F000000BF403F803E80BE40BF003F000000BF403F803E80BE40BF003F000000BF403F803E80BE40BF003F000000BF403F803E80BE40BF003F000000BF403F803E80BE40BF003F000000BF403F803E80BE40BF003F000000BF403F803E80BE40BF003F000000BF403F803E80BE40BF003F000000BF"
    }
  }
#-}
