// RUN: mlc-opt %s --split-input-file --pass-pipeline='builtin.module(mlc-lower-to-linalg)' | FileCheck %s

/// sin, cos and tan of f32 reduce their argument exactly (Payne and Hanek's): the
/// 24-bit significand times 64 bits of 2/pi chosen by the exponent gives the quadrant
/// (the top two bits) and the remainder, whose math.sin and math.cos stay within pi/4
/// (IREE's own reduction of math.cos gave cos(9.19e8) = -396432). The product is built
/// in 32-bit words, their products from 16-bit halves: no i64, which
/// IREE's Vulkan code emulates and failed to compile in 2-D dispatches.

// CHECK-LABEL: func.func @cos
// CHECK:       linalg.generic
// CHECK:         arith.bitcast %{{.*}} : f32 to i32
// CHECK-NOT:     i64
// CHECK:         arith.muli %{{.*}}, %{{.*}} : i32
// CHECK:         arith.muli %{{.*}}, %{{.*}} : i32
// CHECK:         arith.shrui %{{.*}}, %{{.*}} : i32
// CHECK:         arith.uitofp %{{.*}} : i32 to f32
// CHECK-NOT:     i64
// CHECK-DAG:     math.cos %{{.*}} : f32
// CHECK-DAG:     math.sin %{{.*}} : f32
// CHECK:         arith.select
// CHECK:         linalg.yield
func.func @cos(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = "mlc.cos"(%x) : (tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

/// bf16 is reduced in f32 and rounded back; f64 keeps math.sin (nothing to reduce it
/// in wider, and IREE does not link f64 sin either way).

// CHECK-LABEL: func.func @narrow_and_wide
// CHECK:       arith.extf %{{.*}} : bf16 to f32
// CHECK:       arith.muli %{{.*}}, %{{.*}} : i32
// CHECK:       arith.truncf %{{.*}} : f32 to bf16
// CHECK:       linalg.generic
// CHECK-NOT:     arith.muli
// CHECK:         math.sin %{{.*}} : f64
func.func @narrow_and_wide(%x: tensor<4xbf16>, %y: tensor<4xf64>) -> (tensor<4xbf16>, tensor<4xf64>) {
  %0 = "mlc.sin"(%x) : (tensor<4xbf16>) -> tensor<4xbf16>
  %1 = "mlc.sin"(%y) : (tensor<4xf64>) -> tensor<4xf64>
  return %0, %1 : tensor<4xbf16>, tensor<4xf64>
}
