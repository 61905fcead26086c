// RUN: mlc-opt %s --pass-pipeline='builtin.module(mlc-lower-to-linalg)' --split-input-file | FileCheck %s

/// constant keeps its attribute as it is; cast applies one arith conversion
/// per element; fusion_group is inlined.

// CHECK-LABEL: func.func @constant_dense
// CHECK-NEXT: %[[C:.*]] = arith.constant dense<[1.000000e+00, 2.000000e+00]> : tensor<2xf32>
// CHECK-NEXT: return %[[C]]
func.func @constant_dense() -> tensor<2xf32> {
  %0 = "mlc.constant"() {value = dense<[1.0, 2.0]> : tensor<2xf32>} : () -> tensor<2xf32>
  return %0 : tensor<2xf32>
}

// -----

/// A weight blob stays a dense_resource: it is referenced, not copied.

// CHECK-LABEL: func.func @constant_resource
// CHECK-NEXT: %[[C:.*]] = arith.constant dense_resource<weights> : tensor<2xf32>
// CHECK-NEXT: return %[[C]]
// CHECK: weights: "0x040000000000803F00000040"
func.func @constant_resource() -> tensor<2xf32> {
  %0 = "mlc.constant"() {value = dense_resource<weights> : tensor<2xf32>} : () -> tensor<2xf32>
  return %0 : tensor<2xf32>
}

{-#
  dialect_resources: {
    builtin: {
      weights: "0x040000000000803F00000040"
    }
  }
#-}

// -----

// CHECK-LABEL: func.func @cast_float_to_int
// CHECK: ^bb0(%[[IN:.*]]: f32, %{{.*}}: i32):
// CHECK-NEXT: %[[Y:.*]] = arith.fptosi %[[IN]] : f32 to i32
// CHECK-NEXT: linalg.yield %[[Y]] : i32
func.func @cast_float_to_int(%x: tensor<4xf32>) -> tensor<4xi32> {
  %0 = "mlc.cast"(%x) : (tensor<4xf32>) -> tensor<4xi32>
  return %0 : tensor<4xi32>
}

// -----

// CHECK-LABEL: func.func @cast_int_to_float
// CHECK: ^bb0(%[[IN:.*]]: i64, %{{.*}}: f32):
// CHECK-NEXT: arith.sitofp %[[IN]] : i64 to f32
func.func @cast_int_to_float(%x: tensor<4xi64>) -> tensor<4xf32> {
  %0 = "mlc.cast"(%x) : (tensor<4xi64>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

/// Integers to bf16 go through f32 and round to nearest even on the bits (a
/// truncf of the sitofp would fold into one sitofp to bf16, which IREE's CPU
/// backend cannot link).

// CHECK-LABEL: func.func @cast_int_to_bf16
// CHECK: ^bb0(%[[IN:.*]]: i64, %{{.*}}: bf16):
// CHECK-NEXT: %[[F:.*]] = arith.sitofp %[[IN]] : i64 to f32
// CHECK-NEXT: %[[BITS:.*]] = arith.bitcast %[[F]] : f32 to i32
// CHECK: %[[HIGH:.*]] = arith.trunci %{{.*}} : i32 to i16
// CHECK: %[[NAN:.*]] = arith.cmpf uno, %[[F]], %[[F]] : f32
// CHECK: %[[PICKED:.*]] = arith.select %[[NAN]], %{{.*}}, %[[HIGH]] : i16
// CHECK-NEXT: %[[B:.*]] = arith.bitcast %[[PICKED]] : i16 to bf16
// CHECK-NEXT: linalg.yield %[[B]] : bf16
// CHECK-NOT: to bf16
func.func @cast_int_to_bf16(%x: tensor<4xi64>) -> tensor<4xbf16> {
  %0 = "mlc.cast"(%x) : (tensor<4xi64>) -> tensor<4xbf16>
  return %0 : tensor<4xbf16>
}

// -----

/// Floats to bf16 round on the bits too, a NaN to 0x7FC0 (32704), never with truncf:
/// IREE's CPU code computes bf16 in f32, and a truncf whose value stayed in its
/// dispatch was not rounded. f64 goes through f32 first, as torch rounds it.

// CHECK-LABEL: func.func @cast_float_to_bf16
// CHECK: ^bb0(%[[IN:.*]]: f32, %{{.*}}: bf16):
// CHECK-NEXT: %[[BITS:.*]] = arith.bitcast %[[IN]] : f32 to i32
// CHECK: %[[CANONICAL_NAN:.*]] = arith.constant 32704 : i16
// CHECK: arith.bitcast %{{.*}} : i16 to bf16
// CHECK: ^bb0(%[[WIDE:.*]]: f64, %{{.*}}: bf16):
// CHECK-NEXT: %[[NARROW:.*]] = arith.truncf %[[WIDE]] : f64 to f32
// CHECK-NEXT: arith.bitcast %[[NARROW]] : f32 to i32
// CHECK-NOT: to bf16 {{$}}
// CHECK-NOT: arith.truncf {{.*}} to bf16
func.func @cast_float_to_bf16(%x: tensor<4xf32>, %y: tensor<4xf64>) -> (tensor<4xbf16>, tensor<4xbf16>) {
  %0 = "mlc.cast"(%x) : (tensor<4xf32>) -> tensor<4xbf16>
  %1 = "mlc.cast"(%y) : (tensor<4xf64>) -> tensor<4xbf16>
  return %0, %1 : tensor<4xbf16>, tensor<4xbf16>
}

// -----

/// Booleans are unsigned: true converts to 1.

// CHECK-LABEL: func.func @cast_bool
// CHECK: arith.uitofp %{{.*}} : i1 to f32
// CHECK: arith.extui %{{.*}} : i1 to i32
func.func @cast_bool(%x: tensor<4xi1>) -> (tensor<4xf32>, tensor<4xi32>) {
  %0 = "mlc.cast"(%x) : (tensor<4xi1>) -> tensor<4xf32>
  %1 = "mlc.cast"(%x) : (tensor<4xi1>) -> tensor<4xi32>
  return %0, %1 : tensor<4xf32>, tensor<4xi32>
}

// -----

/// To bool is x != 0 (unordered for floats: NaN is true).

// CHECK-LABEL: func.func @cast_to_bool
// CHECK: %[[FZERO:.*]] = arith.constant 0.000000e+00 : f32
// CHECK-NEXT: arith.cmpf une, %{{.*}}, %[[FZERO]] : f32
// CHECK: %[[IZERO:.*]] = arith.constant 0 : i32
// CHECK-NEXT: arith.cmpi ne, %{{.*}}, %[[IZERO]] : i32
func.func @cast_to_bool(%x: tensor<4xf32>, %y: tensor<4xi32>) -> (tensor<4xi1>, tensor<4xi1>) {
  %0 = "mlc.cast"(%x) : (tensor<4xf32>) -> tensor<4xi1>
  %1 = "mlc.cast"(%y) : (tensor<4xi32>) -> tensor<4xi1>
  return %0, %1 : tensor<4xi1>, tensor<4xi1>
}

// -----

// CHECK-LABEL: func.func @cast_widths
// CHECK: arith.extf %{{.*}} : f16 to f32
// CHECK: arith.bitcast %{{.*}} : i16 to bf16
// CHECK: arith.extsi %{{.*}} : i32 to i64
// CHECK: arith.trunci %{{.*}} : i64 to i8
func.func @cast_widths(%h: tensor<4xf16>, %f: tensor<4xf32>, %i: tensor<4xi32>, %l: tensor<4xi64>) -> (tensor<4xf32>, tensor<4xbf16>, tensor<4xi64>, tensor<4xi8>) {
  %0 = "mlc.cast"(%h) : (tensor<4xf16>) -> tensor<4xf32>
  %1 = "mlc.cast"(%f) : (tensor<4xf32>) -> tensor<4xbf16>
  %2 = "mlc.cast"(%i) : (tensor<4xi32>) -> tensor<4xi64>
  %3 = "mlc.cast"(%l) : (tensor<4xi64>) -> tensor<4xi8>
  return %0, %1, %2, %3 : tensor<4xf32>, tensor<4xbf16>, tensor<4xi64>, tensor<4xi8>
}

// -----

/// f16 and bf16 have the same width: the conversion goes through f32.

// CHECK-LABEL: func.func @cast_f16_to_bf16
// CHECK: %[[WIDE:.*]] = arith.extf %{{.*}} : f16 to f32
// CHECK-NEXT: arith.bitcast %[[WIDE]] : f32 to i32
// CHECK: arith.bitcast %{{.*}} : i16 to bf16
func.func @cast_f16_to_bf16(%x: tensor<4xf16>) -> tensor<4xbf16> {
  %0 = "mlc.cast"(%x) : (tensor<4xf16>) -> tensor<4xbf16>
  return %0 : tensor<4xbf16>
}

// -----

/// A cast to the same element type is no op at all.

// CHECK-LABEL: func.func @cast_identity
// CHECK-SAME: (%[[X:.*]]: tensor<4xf32>)
// CHECK-NEXT: return %[[X]]
func.func @cast_identity(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = "mlc.cast"(%x) : (tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

/// A fusion_group's body is inlined where the group was, then lowered; the
/// values it read from above are used as they are.

// CHECK-LABEL: func.func @fusion_group
// CHECK-SAME: (%[[A:.*]]: tensor<4x4xf32>, %[[B:.*]]: tensor<4x4xf32>)
// CHECK-NOT: mlc.
// CHECK: %[[C:.*]] = linalg.matmul ins(%[[A]], %[[B]] :
// CHECK: %[[Y:.*]] = linalg.generic {{.*}} ins(%[[C]] :
// CHECK: arith.maximumf
// CHECK: return %[[Y]]
func.func @fusion_group(%a: tensor<4x4xf32>, %b: tensor<4x4xf32>) -> tensor<4x4xf32> {
  %0 = "mlc.fusion_group"() ({
    %1 = "mlc.matmul"(%a, %b) : (tensor<4x4xf32>, tensor<4x4xf32>) -> tensor<4x4xf32>
    %2 = "mlc.relu"(%1) : (tensor<4x4xf32>) -> tensor<4x4xf32>
    "mlc.yield"(%2) : (tensor<4x4xf32>) -> ()
  }) : () -> tensor<4x4xf32>
  return %0 : tensor<4x4xf32>
}

// -----

/// Nested groups are inlined innermost first; the body of each reads values
/// of different types from above (here i32 and f32).

// CHECK-LABEL: func.func @fusion_group_nested
// CHECK-SAME: (%[[X:.*]]: tensor<4xf32>, %[[Y:.*]]: tensor<4xi32>)
// CHECK-NOT: mlc.
// CHECK: %[[E:.*]] = linalg.generic {{.*}} ins(%[[X]] : tensor<4xf32>)
// CHECK: math.exp
// CHECK: %[[F:.*]] = linalg.generic {{.*}} ins(%[[Y]] : tensor<4xi32>)
// CHECK: arith.sitofp
// CHECK: %[[S:.*]] = linalg.generic {{.*}} ins(%[[E]], %[[F]] : tensor<4xf32>, tensor<4xf32>)
// CHECK: arith.addf
// CHECK: %[[N:.*]] = linalg.generic {{.*}} ins(%[[S]] : tensor<4xf32>)
// CHECK: arith.negf
// CHECK: return %[[N]]
func.func @fusion_group_nested(%x: tensor<4xf32>, %y: tensor<4xi32>) -> tensor<4xf32> {
  %0 = "mlc.fusion_group"() ({
    %e = "mlc.exp"(%x) : (tensor<4xf32>) -> tensor<4xf32>
    %1 = "mlc.fusion_group"() ({
      %f = "mlc.cast"(%y) : (tensor<4xi32>) -> tensor<4xf32>
      %s = "mlc.add"(%e, %f) : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
      "mlc.yield"(%s) : (tensor<4xf32>) -> ()
    }) : () -> tensor<4xf32>
    %n = "mlc.neg"(%1) : (tensor<4xf32>) -> tensor<4xf32>
    "mlc.yield"(%n) : (tensor<4xf32>) -> ()
  }) : () -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

/// A group that yields a value from above leaves nothing behind.

// CHECK-LABEL: func.func @fusion_group_yields_value_from_above
// CHECK-SAME: (%[[X:.*]]: tensor<4xf32>)
// CHECK-NEXT: return %[[X]] : tensor<4xf32>
func.func @fusion_group_yields_value_from_above(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = "mlc.fusion_group"() ({
    "mlc.yield"(%x) : (tensor<4xf32>) -> ()
  }) : () -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

/// An arith.constant already there is left alone.

// CHECK-LABEL: func.func @negative_arith_constant
// CHECK-NEXT: %[[C:.*]] = arith.constant dense<0.000000e+00> : tensor<2xf32>
// CHECK-NEXT: return %[[C]]
func.func @negative_arith_constant() -> tensor<2xf32> {
  %0 = arith.constant dense<0.0> : tensor<2xf32>
  return %0 : tensor<2xf32>
}
