// RUN: mlc-opt %s --split-input-file --pass-pipeline='builtin.module(torch-func-backend-type-conversion, mlc-convert-torch-to-mlc{allow-fallback=true}, mlc-lower-torch-fallback, func.func(torch-finalizing-backend-type-conversion))' | FileCheck %s
// RUN: mlc-opt %s --pass-pipeline='builtin.module(torch-func-backend-type-conversion, mlc-convert-torch-to-mlc{allow-fallback=true}, mlc-lower-torch-fallback, func.func(torch-finalizing-backend-type-conversion))' --mlir-pass-statistics -o /dev/null 2>&1 | FileCheck %s --check-prefix=STATS

/// The ops mlc converts become mlc ops; those it does not (a product of complex
/// numbers, between mlc's polar and view_as_real) are lowered by torch-mlir, in the
/// same function, and the casts between them go.

// CHECK-LABEL: func.func @complex_product_between_mlc_ops
// CHECK-SAME: (%[[X:.*]]: tensor<9x9xf32>) -> tensor<9x9x2xf32>
// CHECK: %[[RELU:.*]] = "mlc.relu"(%[[X]])
// CHECK: %[[Z:.*]] = "mlc.complex"
// CHECK: %[[PRODUCT:.*]] = linalg.generic {{.*}} ins(%[[Z]], %[[Z]] : tensor<9x9xcomplex<f32>>, tensor<9x9xcomplex<f32>>) outs(%{{.*}} : tensor<9x9xcomplex<f32>>)
// CHECK: ^bb0(%[[A:.*]]: complex<f32>, %[[B:.*]]: complex<f32>, %{{.*}}: complex<f32>):
// CHECK: complex.mul %[[A]], %[[B]] : complex<f32>
// CHECK: %[[COLUMN:.*]] = "mlc.reshape"(%[[PRODUCT]])
// CHECK: "mlc.real"(%[[COLUMN]])
// CHECK: "mlc.imag"(%[[COLUMN]])
// CHECK: %[[PAIRS:.*]] = "mlc.concat"
// CHECK: %[[NEG:.*]] = "mlc.neg"(%[[PAIRS]])
// CHECK: return %[[NEG]]
// CHECK-NOT: torch
func.func @complex_product_between_mlc_ops(%x: !torch.vtensor<[9,9],f32>) -> !torch.vtensor<[9,9,2],f32> {
  %0 = torch.aten.relu %x : !torch.vtensor<[9,9],f32> -> !torch.vtensor<[9,9],f32>
  %1 = torch.aten.polar %0, %x : !torch.vtensor<[9,9],f32>, !torch.vtensor<[9,9],f32> -> !torch.vtensor<[9,9],complex<f32>>
  %2 = torch.aten.mul.Tensor %1, %1 : !torch.vtensor<[9,9],complex<f32>>, !torch.vtensor<[9,9],complex<f32>> -> !torch.vtensor<[9,9],complex<f32>>
  %3 = torch.aten.view_as_real %2 : !torch.vtensor<[9,9],complex<f32>> -> !torch.vtensor<[9,9,2],f32>
  %4 = torch.aten.neg %3 : !torch.vtensor<[9,9,2],f32> -> !torch.vtensor<[9,9,2],f32>
  return %4 : !torch.vtensor<[9,9,2],f32>
}

// -----

/// Ops that torch-mlir lowers to its TMTensor dialect (kthvalue: topk) stay there; IREE takes it.

// CHECK-LABEL: func.func @kthvalue
// CHECK: tm_tensor.topk dimension(1)
// CHECK-NOT: torch.aten
func.func @kthvalue(%x: !torch.vtensor<[2,8],f32>) -> !torch.vtensor<[2],f32> {
  %int2 = torch.constant.int 2
  %int1 = torch.constant.int 1
  %false = torch.constant.bool false
  %values, %indices = torch.aten.kthvalue %x, %int2, %int1, %false : !torch.vtensor<[2,8],f32>, !torch.int, !torch.int, !torch.bool -> !torch.vtensor<[2],f32>, !torch.vtensor<[2],si64>
  return %values : !torch.vtensor<[2],f32>
}

// -----

/// negative: with every op converted to mlc, the pass changes nothing.

// CHECK-LABEL: func.func @negative_all_converted
// CHECK: "mlc.relu"
// CHECK-NOT: linalg
// CHECK: return
func.func @negative_all_converted(%x: !torch.vtensor<[4],f32>) -> !torch.vtensor<[4],f32> {
  %0 = torch.aten.relu %x : !torch.vtensor<[4],f32> -> !torch.vtensor<[4],f32>
  return %0 : !torch.vtensor<[4],f32>
}

/// The statistics name the ops each pass left and lowered (the file as one module).
// STATS-LABEL: 'mlc-convert-torch-to-mlc'
// STATS-DAG: (1) left for fallback: torch.aten.mul.Tensor
// STATS-DAG: (1) left for fallback: torch.aten.kthvalue
// STATS-LABEL: 'mlc-lower-torch-fallback'
// STATS-DAG: (1) torch.aten.mul.Tensor
// STATS-DAG: (1) torch.aten.kthvalue
