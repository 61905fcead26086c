// RUN: mlc-opt %s --split-input-file --pass-pipeline='builtin.module(torch-func-backend-type-conversion, mlc-convert-torch-to-mlc{allow-fallback=true}, mlc-lower-torch-fallback, func.func(torch-finalizing-backend-type-conversion))' | FileCheck %s
// RUN: mlc-opt %s --pass-pipeline='builtin.module(torch-func-backend-type-conversion, mlc-convert-torch-to-mlc{allow-fallback=true}, mlc-lower-torch-fallback, func.func(torch-finalizing-backend-type-conversion))' --mlir-pass-statistics -o /dev/null 2>&1 | FileCheck %s --check-prefix=STATS

/// The ops mlc converts become mlc ops; those it does not (polar and view_as_real,
/// through a complex tensor) are lowered by torch-mlir, in the same function, and the
/// casts between them go.

// CHECK-LABEL: func.func @polar_between_mlc_ops
// CHECK-SAME: (%[[X:.*]]: tensor<9x9xf32>) -> tensor<9x9x2xf32>
// CHECK: %[[RELU:.*]] = "mlc.relu"(%[[X]])
// CHECK: %[[POLAR:.*]] = linalg.generic {{.*}} ins(%[[RELU]], %[[X]] : tensor<9x9xf32>, tensor<9x9xf32>) outs(%{{.*}} : tensor<9x9xcomplex<f32>>)
// CHECK: ^bb0(%[[ABS:.*]]: f32, %[[ANGLE:.*]]: f32, %{{.*}}: complex<f32>):
// CHECK: %[[COS:.*]] = math.cos %[[ANGLE]]
// CHECK: %[[SIN:.*]] = math.sin %[[ANGLE]]
// CHECK: %[[RE:.*]] = arith.mulf %[[ABS]], %[[COS]]
// CHECK: %[[IM:.*]] = arith.mulf %[[ABS]], %[[SIN]]
// CHECK: complex.create %[[RE]], %[[IM]]
// CHECK: %[[REAL:.*]] = linalg.generic {{.*}} ins(%[[POLAR]] : tensor<9x9xcomplex<f32>>) outs(%{{.*}} : tensor<9x9x2xf32>)
// CHECK: complex.re
// CHECK: complex.im
// CHECK: %[[NEG:.*]] = "mlc.neg"(%[[REAL]])
// CHECK: return %[[NEG]]
// CHECK-NOT: torch
func.func @polar_between_mlc_ops(%x: !torch.vtensor<[9,9],f32>) -> !torch.vtensor<[9,9,2],f32> {
  %0 = torch.aten.relu %x : !torch.vtensor<[9,9],f32> -> !torch.vtensor<[9,9],f32>
  %1 = torch.aten.polar %0, %x : !torch.vtensor<[9,9],f32>, !torch.vtensor<[9,9],f32> -> !torch.vtensor<[9,9],complex<f32>>
  %2 = torch.aten.view_as_real %1 : !torch.vtensor<[9,9],complex<f32>> -> !torch.vtensor<[9,9,2],f32>
  %3 = torch.aten.neg %2 : !torch.vtensor<[9,9,2],f32> -> !torch.vtensor<[9,9,2],f32>
  return %3 : !torch.vtensor<[9,9,2],f32>
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
// STATS-DAG: (1) left for fallback: torch.aten.polar
// STATS-DAG: (1) left for fallback: torch.aten.view_as_real
// STATS-DAG: (1) left for fallback: torch.aten.kthvalue
// STATS-LABEL: 'mlc-lower-torch-fallback'
// STATS-DAG: (1) torch.aten.polar
// STATS-DAG: (1) torch.aten.view_as_real
// STATS-DAG: (1) torch.aten.kthvalue
