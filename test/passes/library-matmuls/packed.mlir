// RUN: mlc-opt %s --split-input-file --pass-pipeline='builtin.module(mlc-lower-to-linalg, mlc-form-dispatch-regions, mlc-library-matmuls{shapes=all packed=true})' | FileCheck %s
// RUN: mlc-opt %s --split-input-file --pass-pipeline='builtin.module(mlc-lower-to-linalg, mlc-form-dispatch-regions, mlc-library-matmuls{shapes=all packed=true})' --mlir-pass-statistics -o /dev/null 2>&1 | FileCheck %s --check-prefix=STATS
// RUN: mlc-opt %s --split-input-file --pass-pipeline='builtin.module(mlc-lower-to-linalg, mlc-form-dispatch-regions, mlc-library-matmuls{shapes=all})' | FileCheck %s --check-prefix=UNPACKED

/// With `packed`, a matmul by a constant f32 weight calls the plugin's mlc_sgemm_packed,
/// once (one workgroup), passing the fingerprint of the weight's values (computed here)
/// after M, N and K: the plugin splits the columns among its own threads, packs each of
/// its blocks once, at its first call, and keeps it under that key plus the block's
/// number. A weight that is not a constant goes to mlc_sgemm, which MKL packs at every call.

// STATS: 'mlc-library-matmuls'
// STATS-DAG: (1) weights packed once
// STATS-DAG: (1) weights packed at each call
// STATS-DAG: (2) matmuls on the library

// CHECK-LABEL: func.func @constant_weight
// CHECK-SAME:    (%[[X:.*]]: tensor<4x8xf32>)
// CHECK:       %[[WEIGHT:.*]] = arith.constant dense<
// CHECK:       %[[WORKGROUPS:.*]] = arith.constant 1 : index
// CHECK-NEXT:  "flow.dispatch.region"(%[[WORKGROUPS]]) ({
// CHECK-NEXT:    %[[DEST:.*]] = tensor.empty() : tensor<4x32xf32>
// CHECK-NEXT:    %[[M:.*]] = arith.constant 4 : index
// CHECK-NEXT:    %[[N:.*]] = arith.constant 32 : index
// CHECK-NEXT:    %[[K:.*]] = arith.constant 8 : index
// CHECK-NEXT:    %[[KEY:.*]] = arith.constant {{[1-9][0-9]+}} : index
// CHECK-NEXT:    %[[CALL:.*]] = "iree_codegen.ukernel.generic"(%[[X]], %[[WEIGHT]], %[[DEST]], %[[M]], %[[N]], %[[K]], %[[KEY]]) {operandSegmentSizes = array<i32: 2, 1, 4>{{.*}} u_kernel_fn_name = "mlc_sgemm_packed"}
// CHECK-NEXT:    "flow.return"(%[[CALL]]) : (tensor<4x32xf32>) -> ()
// UNPACKED-LABEL: func.func @constant_weight
// UNPACKED:       u_kernel_fn_name = "mlc_sgemm"}
func.func @constant_weight(%x: tensor<4x8xf32>) -> tensor<4x32xf32> {
  %w = "mlc.constant"() {value = dense<[[-0.75, -0.50, -0.25, 0.00, 0.25, 0.50, 0.75, -0.75, -0.50, -0.25, 0.00, 0.25, 0.50, 0.75, -0.75, -0.50, -0.25, 0.00, 0.25, 0.50, 0.75, -0.75, -0.50, -0.25, 0.00, 0.25, 0.50, 0.75, -0.75, -0.50, -0.25, 0.00], [0.25, 0.50, 0.75, -0.75, -0.50, -0.25, 0.00, 0.25, 0.50, 0.75, -0.75, -0.50, -0.25, 0.00, 0.25, 0.50, 0.75, -0.75, -0.50, -0.25, 0.00, 0.25, 0.50, 0.75, -0.75, -0.50, -0.25, 0.00, 0.25, 0.50, 0.75, -0.75], [-0.50, -0.25, 0.00, 0.25, 0.50, 0.75, -0.75, -0.50, -0.25, 0.00, 0.25, 0.50, 0.75, -0.75, -0.50, -0.25, 0.00, 0.25, 0.50, 0.75, -0.75, -0.50, -0.25, 0.00, 0.25, 0.50, 0.75, -0.75, -0.50, -0.25, 0.00, 0.25], [0.50, 0.75, -0.75, -0.50, -0.25, 0.00, 0.25, 0.50, 0.75, -0.75, -0.50, -0.25, 0.00, 0.25, 0.50, 0.75, -0.75, -0.50, -0.25, 0.00, 0.25, 0.50, 0.75, -0.75, -0.50, -0.25, 0.00, 0.25, 0.50, 0.75, -0.75, -0.50], [-0.25, 0.00, 0.25, 0.50, 0.75, -0.75, -0.50, -0.25, 0.00, 0.25, 0.50, 0.75, -0.75, -0.50, -0.25, 0.00, 0.25, 0.50, 0.75, -0.75, -0.50, -0.25, 0.00, 0.25, 0.50, 0.75, -0.75, -0.50, -0.25, 0.00, 0.25, 0.50], [0.75, -0.75, -0.50, -0.25, 0.00, 0.25, 0.50, 0.75, -0.75, -0.50, -0.25, 0.00, 0.25, 0.50, 0.75, -0.75, -0.50, -0.25, 0.00, 0.25, 0.50, 0.75, -0.75, -0.50, -0.25, 0.00, 0.25, 0.50, 0.75, -0.75, -0.50, -0.25], [0.00, 0.25, 0.50, 0.75, -0.75, -0.50, -0.25, 0.00, 0.25, 0.50, 0.75, -0.75, -0.50, -0.25, 0.00, 0.25, 0.50, 0.75, -0.75, -0.50, -0.25, 0.00, 0.25, 0.50, 0.75, -0.75, -0.50, -0.25, 0.00, 0.25, 0.50, 0.75], [-0.75, -0.50, -0.25, 0.00, 0.25, 0.50, 0.75, -0.75, -0.50, -0.25, 0.00, 0.25, 0.50, 0.75, -0.75, -0.50, -0.25, 0.00, 0.25, 0.50, 0.75, -0.75, -0.50, -0.25, 0.00, 0.25, 0.50, 0.75, -0.75, -0.50, -0.25, 0.00]]> : tensor<8x32xf32>} : () -> tensor<8x32xf32>
  %0 = "mlc.matmul"(%x, %w) : (tensor<4x8xf32>, tensor<8x32xf32>) -> tensor<4x32xf32>
  return %0 : tensor<4x32xf32>
}

// -----

// CHECK-LABEL: func.func @weight_argument
// CHECK-NOT:     mlc_sgemm_packed
// CHECK:         u_kernel_fn_name = "mlc_sgemm"}
func.func @weight_argument(%x: tensor<4x8xf32>, %w: tensor<8x32xf32>) -> tensor<4x32xf32> {
  %0 = "mlc.matmul"(%x, %w) : (tensor<4x8xf32>, tensor<8x32xf32>) -> tensor<4x32xf32>
  return %0 : tensor<4x32xf32>
}
