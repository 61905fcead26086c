// RUN: mlc-opt %s --split-input-file --pass-pipeline='builtin.module(torch-func-backend-type-conversion, mlc-convert-torch-to-mlc, func.func(torch-finalizing-backend-type-conversion))' | FileCheck %s

/// PT2E's quantize/dequantize ops, as torch's reference computes them:
/// quantize = clamp(round(x * (1 / scale)) + zero_point, qmin, qmax) cast to the integer type,
/// dequantize = (q cast to float - zero_point) * scale.

// CHECK-LABEL: func.func @quantize_per_tensor
// CHECK: %[[INV:.*]] = "mlc.constant"() {value = dense<2.000000e+01> : tensor<f32>}
// CHECK: %[[SCALED:.*]] = "mlc.mul"(%arg0, %[[INV]]) : (tensor<8x4xf32>, tensor<f32>) -> tensor<8x4xf32>
// CHECK: %[[ROUNDED:.*]] = "mlc.round"(%[[SCALED]])
// CHECK: %[[ZP:.*]] = "mlc.constant"() {value = dense<3.000000e+00> : tensor<f32>}
// CHECK: %[[SHIFTED:.*]] = "mlc.add"(%[[ROUNDED]], %[[ZP]])
// CHECK: %[[CLAMPED:.*]] = "mlc.clamp"(%[[SHIFTED]]) {max = 1.270000e+02 : f64, min = -1.280000e+02 : f64}
// CHECK: "mlc.cast"(%[[CLAMPED]]) : (tensor<8x4xf32>) -> tensor<8x4xi8>
func.func @quantize_per_tensor(%x: !torch.vtensor<[8,4],f32>) -> !torch.vtensor<[8,4],si8> {
  %scale = torch.constant.float 5.000000e-02
  %zp = torch.constant.int 3
  %qmin = torch.constant.int -128
  %qmax = torch.constant.int 127
  %int8 = torch.constant.int 1
  %0 = torch.quantized_decomposed.quantize_per_tensor %x, %scale, %zp, %qmin, %qmax, %int8 : !torch.vtensor<[8,4],f32>, !torch.float, !torch.int, !torch.int, !torch.int, !torch.int -> !torch.vtensor<[8,4],si8>
  return %0 : !torch.vtensor<[8,4],si8>
}

// -----

// CHECK-LABEL: func.func @dequantize_per_tensor
// CHECK: %[[F:.*]] = "mlc.cast"(%arg0) : (tensor<8x4xi8>) -> tensor<8x4xf32>
// CHECK: %[[ZP:.*]] = "mlc.constant"() {value = dense<3.000000e+00> : tensor<f32>}
// CHECK: %[[CENTERED:.*]] = "mlc.sub"(%[[F]], %[[ZP]])
// CHECK: %[[SCALE:.*]] = "mlc.constant"() {value = dense<5.000000e-02> : tensor<f32>}
// CHECK: "mlc.mul"(%[[CENTERED]], %[[SCALE]]) : (tensor<8x4xf32>, tensor<f32>) -> tensor<8x4xf32>
func.func @dequantize_per_tensor(%q: !torch.vtensor<[8,4],si8>) -> !torch.vtensor<[8,4],f32> {
  %scale = torch.constant.float 5.000000e-02
  %zp = torch.constant.int 3
  %qmin = torch.constant.int -128
  %qmax = torch.constant.int 127
  %int8 = torch.constant.int 1
  %none = torch.constant.none
  %0 = torch.quantized_decomposed.dequantize_per_tensor %q, %scale, %zp, %qmin, %qmax, %int8, %none : !torch.vtensor<[8,4],si8>, !torch.float, !torch.int, !torch.int, !torch.int, !torch.int, !torch.none -> !torch.vtensor<[8,4],f32>
  return %0 : !torch.vtensor<[8,4],f32>
}
