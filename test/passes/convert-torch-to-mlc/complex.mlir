// RUN: mlc-opt %s --split-input-file --pass-pipeline='builtin.module(torch-func-backend-type-conversion, mlc-convert-torch-to-mlc, func.func(torch-finalizing-backend-type-conversion))' | FileCheck %s

/// view_as_complex: the last axis's two slices are the parts; the complex result
/// loses that axis in one reshape, last.

// CHECK-LABEL: func.func @view_as_complex
// CHECK-SAME: (%[[X:.*]]: tensor<?x4x2xf32>)
// CHECK-DAG: %[[RE:.*]] = "mlc.slice"(%[[X]]) {limit = array<i64: -9223372036854775808, 4, 1>, start = array<i64: 0, 0, 0>, stride = array<i64: 1, 1, 1>} : (tensor<?x4x2xf32>) -> tensor<?x4x1xf32>
// CHECK-DAG: %[[IM:.*]] = "mlc.slice"(%[[X]]) {limit = array<i64: -9223372036854775808, 4, 2>, start = array<i64: 0, 0, 1>, stride = array<i64: 1, 1, 1>} : (tensor<?x4x2xf32>) -> tensor<?x4x1xf32>
// CHECK: %[[PAIRS:.*]] = "mlc.complex"(%[[RE]], %[[IM]]) : (tensor<?x4x1xf32>, tensor<?x4x1xf32>) -> tensor<?x4x1xcomplex<f32>>
// CHECK: %[[Z:.*]] = "mlc.reshape"(%[[PAIRS]]) : (tensor<?x4x1xcomplex<f32>>) -> tensor<?x4xcomplex<f32>>
// CHECK: return %[[Z]]
func.func @view_as_complex(%arg0: !torch.vtensor<[?,4,2],f32>) -> !torch.vtensor<[?,4],complex<f32>> {
  %0 = torch.aten.view_as_complex %arg0 : !torch.vtensor<[?,4,2],f32> -> !torch.vtensor<[?,4],complex<f32>>
  return %0 : !torch.vtensor<[?,4],complex<f32>>
}

// -----

/// view_as_real: a last axis of 1 first, then the parts side by side along it.

// CHECK-LABEL: func.func @view_as_real
// CHECK-SAME: (%[[Z:.*]]: tensor<3x4xcomplex<f64>>)
// CHECK: %[[COLUMN:.*]] = "mlc.reshape"(%[[Z]]) : (tensor<3x4xcomplex<f64>>) -> tensor<3x4x1xcomplex<f64>>
// CHECK-DAG: %[[RE:.*]] = "mlc.real"(%[[COLUMN]]) : (tensor<3x4x1xcomplex<f64>>) -> tensor<3x4x1xf64>
// CHECK-DAG: %[[IM:.*]] = "mlc.imag"(%[[COLUMN]]) : (tensor<3x4x1xcomplex<f64>>) -> tensor<3x4x1xf64>
// CHECK: %[[PAIRS:.*]] = "mlc.concat"(%[[RE]], %[[IM]]) {axis = 2 : i64} : (tensor<3x4x1xf64>, tensor<3x4x1xf64>) -> tensor<3x4x2xf64>
// CHECK: return %[[PAIRS]]
func.func @view_as_real(%arg0: !torch.vtensor<[3,4],complex<f64>>) -> !torch.vtensor<[3,4,2],f64> {
  %0 = torch.aten.view_as_real %arg0 : !torch.vtensor<[3,4],complex<f64>> -> !torch.vtensor<[3,4,2],f64>
  return %0 : !torch.vtensor<[3,4,2],f64>
}

// -----

/// complex broadcasts its parts, as torch does.

// CHECK-LABEL: func.func @complex_broadcast
// CHECK-SAME: (%[[RE:.*]]: tensor<3x4xf32>, %[[IM:.*]]: tensor<4xf32>)
// CHECK: %[[Z:.*]] = "mlc.complex"(%[[RE]], %[[IM]]) : (tensor<3x4xf32>, tensor<4xf32>) -> tensor<3x4xcomplex<f32>>
// CHECK: return %[[Z]]
func.func @complex_broadcast(%arg0: !torch.vtensor<[3,4],f32>, %arg1: !torch.vtensor<[4],f32>) -> !torch.vtensor<[3,4],complex<f32>> {
  %0 = torch.aten.complex %arg0, %arg1 : !torch.vtensor<[3,4],f32>, !torch.vtensor<[4],f32> -> !torch.vtensor<[3,4],complex<f32>>
  return %0 : !torch.vtensor<[3,4],complex<f32>>
}

// -----

/// polar(abs, angle) is complex(abs * cos(angle), abs * sin(angle)).

// CHECK-LABEL: func.func @polar
// CHECK-SAME: (%[[ABS:.*]]: tensor<3x4xf32>, %[[ANGLE:.*]]: tensor<4xf32>)
// CHECK-DAG: %[[COS:.*]] = "mlc.cos"(%[[ANGLE]]) : (tensor<4xf32>) -> tensor<4xf32>
// CHECK-DAG: %[[SIN:.*]] = "mlc.sin"(%[[ANGLE]]) : (tensor<4xf32>) -> tensor<4xf32>
// CHECK-DAG: %[[RE:.*]] = "mlc.mul"(%[[ABS]], %[[COS]]) : (tensor<3x4xf32>, tensor<4xf32>) -> tensor<3x4xf32>
// CHECK-DAG: %[[IM:.*]] = "mlc.mul"(%[[ABS]], %[[SIN]]) : (tensor<3x4xf32>, tensor<4xf32>) -> tensor<3x4xf32>
// CHECK: %[[Z:.*]] = "mlc.complex"(%[[RE]], %[[IM]]) : (tensor<3x4xf32>, tensor<3x4xf32>) -> tensor<3x4xcomplex<f32>>
// CHECK: return %[[Z]]
func.func @polar(%arg0: !torch.vtensor<[3,4],f32>, %arg1: !torch.vtensor<[4],f32>) -> !torch.vtensor<[3,4],complex<f32>> {
  %0 = torch.aten.polar %arg0, %arg1 : !torch.vtensor<[3,4],f32>, !torch.vtensor<[4],f32> -> !torch.vtensor<[3,4],complex<f32>>
  return %0 : !torch.vtensor<[3,4],complex<f32>>
}

// -----

/// A complex result without elements computes nothing: mlc.complex of two empty
/// constants (no attribute holds complex numbers), whatever the op.

// CHECK-LABEL: func.func @empty_complex
// CHECK: %[[ZEROS:.*]] = "mlc.constant"() {value = dense<0.000000e+00> : tensor<0xf64>} : () -> tensor<0xf64>
// CHECK: %[[Z:.*]] = "mlc.complex"(%[[ZEROS]], %[[ZEROS]]) : (tensor<0xf64>, tensor<0xf64>) -> tensor<0xcomplex<f64>>
// CHECK: return %[[Z]]
func.func @empty_complex(%arg0: !torch.vtensor<[0,2],f64>) -> !torch.vtensor<[0],complex<f64>> {
  %0 = torch.aten.view_as_complex %arg0 : !torch.vtensor<[0,2],f64> -> !torch.vtensor<[0],complex<f64>>
  return %0 : !torch.vtensor<[0],complex<f64>>
}

// -----

/// abs of a complex tensor (a spectrogram's magnitude): the hypot of its parts.

// CHECK-LABEL: func.func @complex_abs
// CHECK-SAME: (%[[Z:.*]]: tensor<3x4xcomplex<f32>>)
// CHECK-DAG: %[[RE:.*]] = "mlc.real"(%[[Z]]) : (tensor<3x4xcomplex<f32>>) -> tensor<3x4xf32>
// CHECK-DAG: %[[IM:.*]] = "mlc.imag"(%[[Z]]) : (tensor<3x4xcomplex<f32>>) -> tensor<3x4xf32>
// CHECK: %[[M:.*]] = "mlc.hypot"(%[[RE]], %[[IM]]) : (tensor<3x4xf32>, tensor<3x4xf32>) -> tensor<3x4xf32>
// CHECK: return %[[M]]
func.func @complex_abs(%arg0: !torch.vtensor<[3,4],complex<f32>>) -> !torch.vtensor<[3,4],f32> {
  %0 = torch.aten.abs %arg0 : !torch.vtensor<[3,4],complex<f32>> -> !torch.vtensor<[3,4],f32>
  return %0 : !torch.vtensor<[3,4],f32>
}

// -----

/// abs of a real tensor stays mlc.abs.

// CHECK-LABEL: func.func @real_abs
// CHECK: "mlc.abs"(%{{.*}}) : (tensor<3xf32>) -> tensor<3xf32>
// CHECK-NOT: mlc.hypot
func.func @real_abs(%arg0: !torch.vtensor<[3],f32>) -> !torch.vtensor<[3],f32> {
  %0 = torch.aten.abs %arg0 : !torch.vtensor<[3],f32> -> !torch.vtensor<[3],f32>
  return %0 : !torch.vtensor<[3],f32>
}
