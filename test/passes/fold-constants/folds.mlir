// RUN: mlc-opt %s --pass-pipeline='builtin.module(mlc-fold-constants)' --split-input-file | FileCheck %s

/// An op whose operands are all constants becomes one constant; a chain folds
/// in one run and the constants it used, now dead, are erased.

// CHECK-LABEL: func.func @transpose_reshape_chain
// CHECK-NEXT: %[[C:.*]] = "mlc.constant"() {value = dense<{{\[}}[1.000000e+00, 4.000000e+00, 2.000000e+00], [5.000000e+00, 3.000000e+00, 6.000000e+00]]> : tensor<2x3xf32>}
// CHECK-NEXT: return %[[C]]
func.func @transpose_reshape_chain() -> tensor<2x3xf32> {
  %w = "mlc.constant"() {value = dense<[[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]> : tensor<2x3xf32>} : () -> tensor<2x3xf32>
  %t = "mlc.transpose"(%w) {permutation = array<i64: 1, 0>} : (tensor<2x3xf32>) -> tensor<3x2xf32>
  %r = "mlc.reshape"(%t) : (tensor<3x2xf32>) -> tensor<2x3xf32>
  return %r : tensor<2x3xf32>
}

// -----

/// Only the constant part of a graph folds: the matmul reads the argument.

// CHECK-LABEL: func.func @weight_transpose_feeding_matmul
// CHECK-SAME: (%[[X:.*]]: tensor<1x2xf32>)
// CHECK-NEXT: %[[W:.*]] = "mlc.constant"() {value = dense<{{\[}}[1.000000e+00, 3.000000e+00], [2.000000e+00, 4.000000e+00]]> : tensor<2x2xf32>}
// CHECK-NEXT: %[[Y:.*]] = "mlc.matmul"(%[[X]], %[[W]])
// CHECK-NEXT: return %[[Y]]
func.func @weight_transpose_feeding_matmul(%x: tensor<1x2xf32>) -> tensor<1x2xf32> {
  %w = "mlc.constant"() {value = dense<[[1.0, 2.0], [3.0, 4.0]]> : tensor<2x2xf32>} : () -> tensor<2x2xf32>
  %t = "mlc.transpose"(%w) {permutation = array<i64: 1, 0>} : (tensor<2x2xf32>) -> tensor<2x2xf32>
  %y = "mlc.matmul"(%x, %t) : (tensor<1x2xf32>, tensor<2x2xf32>) -> tensor<1x2xf32>
  return %y : tensor<1x2xf32>
}

// -----

/// Binary ops broadcast as NumPy does.

// CHECK-LABEL: func.func @add_broadcast
// CHECK-NEXT: %[[C:.*]] = "mlc.constant"() {value = dense<{{\[}}[1.100000e+01, 2.200000e+01], [1.300000e+01, 2.400000e+01]]> : tensor<2x2xf32>}
// CHECK-NEXT: return %[[C]]
func.func @add_broadcast() -> tensor<2x2xf32> {
  %a = "mlc.constant"() {value = dense<[[1.0, 2.0], [3.0, 4.0]]> : tensor<2x2xf32>} : () -> tensor<2x2xf32>
  %b = "mlc.constant"() {value = dense<[10.0, 20.0]> : tensor<2xf32>} : () -> tensor<2xf32>
  %c = "mlc.add"(%a, %b) : (tensor<2x2xf32>, tensor<2xf32>) -> tensor<2x2xf32>
  return %c : tensor<2x2xf32>
}

// -----

/// Integer division truncates toward zero (NumPy's // floors).

// CHECK-LABEL: func.func @div_integer_truncates
// CHECK-NEXT: %[[C:.*]] = "mlc.constant"() {value = dense<[-3, -3, 3, 0]> : tensor<4xi32>}
// CHECK-NEXT: return %[[C]]
func.func @div_integer_truncates() -> tensor<4xi32> {
  %a = "mlc.constant"() {value = dense<[-7, 7, -7, 1]> : tensor<4xi32>} : () -> tensor<4xi32>
  %b = "mlc.constant"() {value = dense<[2, -2, -2, 3]> : tensor<4xi32>} : () -> tensor<4xi32>
  %c = "mlc.div"(%a, %b) : (tensor<4xi32>, tensor<4xi32>) -> tensor<4xi32>
  return %c : tensor<4xi32>
}

// -----

/// Float to integer truncates toward zero; to bool is x != 0.

// CHECK-LABEL: func.func @cast
// CHECK-DAG: "mlc.constant"() {value = dense<[-1, 2, 0]> : tensor<3xi32>}
// CHECK-DAG: "mlc.constant"() {value = dense<[true, true, false]> : tensor<3xi1>}
// CHECK-NOT: mlc.cast
func.func @cast() -> (tensor<3xi32>, tensor<3xi1>) {
  %a = "mlc.constant"() {value = dense<[-1.5, 2.7, -0.0]> : tensor<3xf32>} : () -> tensor<3xf32>
  %b = "mlc.cast"(%a) : (tensor<3xf32>) -> tensor<3xi32>
  %c = "mlc.cast"(%a) : (tensor<3xf32>) -> tensor<3xi1>
  return %b, %c : tensor<3xi32>, tensor<3xi1>
}

// -----

// CHECK-LABEL: func.func @compare_select
// CHECK-NEXT: %[[C:.*]] = "mlc.constant"() {value = dense<[0.000000e+00, 5.000000e+00, 0.000000e+00]> : tensor<3xf32>}
// CHECK-NEXT: return %[[C]]
func.func @compare_select() -> tensor<3xf32> {
  %a = "mlc.constant"() {value = dense<[1.0, 5.0, 2.0]> : tensor<3xf32>} : () -> tensor<3xf32>
  %b = "mlc.constant"() {value = dense<2.0> : tensor<f32>} : () -> tensor<f32>
  %z = "mlc.constant"() {value = dense<0.0> : tensor<f32>} : () -> tensor<f32>
  %m = "mlc.compare"(%a, %b) {predicate = "gt"} : (tensor<3xf32>, tensor<f32>) -> tensor<3xi1>
  %r = "mlc.select"(%m, %a, %z) : (tensor<3xi1>, tensor<3xf32>, tensor<f32>) -> tensor<3xf32>
  return %r : tensor<3xf32>
}

// -----

// CHECK-LABEL: func.func @reductions
// CHECK-DAG: "mlc.constant"() {value = dense<{{\[}}[6], [15]]> : tensor<2x1xi64>}
// CHECK-DAG: "mlc.constant"() {value = dense<[4, 5, 6]> : tensor<3xi64>}
// CHECK-NOT: mlc.reduce
func.func @reductions() -> (tensor<2x1xi64>, tensor<3xi64>) {
  %a = "mlc.constant"() {value = dense<[[1, 2, 3], [4, 5, 6]]> : tensor<2x3xi64>} : () -> tensor<2x3xi64>
  %s = "mlc.reduce_sum"(%a) {axes = array<i64: -1>, keepdim = true} : (tensor<2x3xi64>) -> tensor<2x1xi64>
  %m = "mlc.reduce_max"(%a) {axes = array<i64: 0>, keepdim = false} : (tensor<2x3xi64>) -> tensor<3xi64>
  return %s, %m : tensor<2x1xi64>, tensor<3xi64>
}

// -----

// CHECK-LABEL: func.func @unary_math
// CHECK-NEXT: %[[C:.*]] = "mlc.constant"() {value = dense<[2.000000e+00, 3.000000e+00]> : tensor<2xf32>}
// CHECK-NEXT: return %[[C]]
func.func @unary_math() -> tensor<2xf32> {
  %a = "mlc.constant"() {value = dense<[4.0, 9.0]> : tensor<2xf32>} : () -> tensor<2xf32>
  %r = "mlc.sqrt"(%a) : (tensor<2xf32>) -> tensor<2xf32>
  return %r : tensor<2xf32>
}

// -----

/// Shape ops: slice, concat, pad and gather move elements.

// CHECK-LABEL: func.func @shape_ops
// CHECK-DAG: "mlc.constant"() {value = dense<[2, 4]> : tensor<2xi32>}
// CHECK-DAG: "mlc.constant"() {value = dense<[1, 2, 3, 4, 1, 2, 3, 4]> : tensor<8xi32>}
// CHECK-DAG: "mlc.constant"() {value = dense<[7, 1, 2, 3, 4, 7, 7]> : tensor<7xi32>}
// CHECK-DAG: "mlc.constant"() {value = dense<[4, 1, 4]> : tensor<3xi32>}
// CHECK-NOT: "mlc.{{(slice|concat|pad|gather)}}"
func.func @shape_ops() -> (tensor<2xi32>, tensor<8xi32>, tensor<7xi32>, tensor<3xi32>) {
  %a = "mlc.constant"() {value = dense<[1, 2, 3, 4]> : tensor<4xi32>} : () -> tensor<4xi32>
  %s = "mlc.slice"(%a) {start = array<i64: 1>, limit = array<i64: 4>, stride = array<i64: 2>} : (tensor<4xi32>) -> tensor<2xi32>
  %c = "mlc.concat"(%a, %a) {axis = 0 : i64} : (tensor<4xi32>, tensor<4xi32>) -> tensor<8xi32>
  %p = "mlc.pad"(%a) {low = array<i64: 1>, high = array<i64: 2>, value = 7.5 : f64} : (tensor<4xi32>) -> tensor<7xi32>
  %i = "mlc.constant"() {value = dense<[3, 0, 3]> : tensor<3xi64>} : () -> tensor<3xi64>
  %g = "mlc.gather"(%a, %i) {axis = 0 : i64} : (tensor<4xi32>, tensor<3xi64>) -> tensor<3xi32>
  return %s, %c, %p, %g : tensor<2xi32>, tensor<8xi32>, tensor<7xi32>, tensor<3xi32>
}

// -----

/// A scalar broadcast within the size limit folds into a splat, which costs
/// no memory whatever its shape.

// CHECK-LABEL: func.func @broadcast_scalar
// CHECK-NEXT: %[[C:.*]] = "mlc.constant"() {value = dense<2.500000e+00> : tensor<4x8xf32>}
// CHECK-NEXT: return %[[C]]
func.func @broadcast_scalar() -> tensor<4x8xf32> {
  %s = "mlc.constant"() {value = dense<2.5> : tensor<f32>} : () -> tensor<f32>
  %b = "mlc.broadcast"(%s) : (tensor<f32>) -> tensor<4x8xf32>
  return %b : tensor<4x8xf32>
}

// -----

/// A result over 64 elements becomes a resource blob named after the op.

// CHECK-LABEL: func.func @large_result_is_a_blob
// CHECK-NEXT: %[[C:.*]] = "mlc.constant"() {value = dense_resource<iota.transpose> : tensor<13x5xi8>}
// CHECK-NEXT: return %[[C]]
// CHECK: iota.transpose: "0x01000000000D1A2734010E1B2835020F1C293603101D2A3704111E2B3805121F2C390613202D3A0714212E3B0815222F3C091623303D0A1724313E0B1825323F0C19263340"
func.func @large_result_is_a_blob() -> tensor<13x5xi8> {
  %a = "mlc.constant"() {value = dense_resource<iota> : tensor<5x13xi8>} : () -> tensor<5x13xi8>
  %t = "mlc.transpose"(%a) {permutation = array<i64: 1, 0>} : (tensor<5x13xi8>) -> tensor<13x5xi8>
  return %t : tensor<13x5xi8>
}

{-#
  dialect_resources: {
    builtin: {
      iota: "0x01000000000102030405060708090A0B0C0D0E0F101112131415161718191A1B1C1D1E1F202122232425262728292A2B2C2D2E2F303132333435363738393A3B3C3D3E3F40"
    }
  }
#-}

// -----

/// A check of a constant divisor with no zero is the divisor.

// CHECK-LABEL: func.func @fold_check_of_nonzero_constant
// CHECK-NOT: mlc.check_nonzero
// CHECK: "mlc.floor_div"
func.func @fold_check_of_nonzero_constant(%x: tensor<2xi64>) -> tensor<2xi64> {
  %c = "mlc.constant"() {value = dense<[3, -2]> : tensor<2xi64>} : () -> tensor<2xi64>
  %d = "mlc.check_nonzero"(%c) : (tensor<2xi64>) -> tensor<2xi64>
  %y = "mlc.floor_div"(%x, %d) : (tensor<2xi64>, tensor<2xi64>) -> tensor<2xi64>
  return %y : tensor<2xi64>
}
