// RUN: mlc-opt %s --pass-pipeline='builtin.module(mlc-fold-constants)' --split-input-file | FileCheck %s

/// The rounding, logarithmic, trigonometric, remainder, bitwise, product, arg-reduction,
/// scan and take_along_axis ops fold as torch computes them; the values torch leaves
/// undefined, or defines otherwise than numpy, stay.

/// round is half to even (torch.round), trunc rounds toward zero.

// CHECK-LABEL: func.func @round_trunc_sign
// CHECK-DAG: "mlc.constant"() {value = dense<[-2.000000e+00, -2.000000e+00, -0.000000e+00, 0.000000e+00, 2.000000e+00, 2.000000e+00, 4.000000e+00]> : tensor<7xf32>}
// CHECK-DAG: "mlc.constant"() {value = dense<[-2.000000e+00, -1.000000e+00, -0.000000e+00, 0.000000e+00, 1.000000e+00, 2.000000e+00, 3.000000e+00]> : tensor<7xf32>}
// CHECK-DAG: "mlc.constant"() {value = dense<[-1.000000e+00, -1.000000e+00, -1.000000e+00, 1.000000e+00, 1.000000e+00, 1.000000e+00, 1.000000e+00]> : tensor<7xf32>}
// CHECK-NOT: "mlc.round"
// CHECK-NOT: "mlc.trunc"
// CHECK-NOT: "mlc.sign"
func.func @round_trunc_sign() -> (tensor<7xf32>, tensor<7xf32>, tensor<7xf32>) {
  %a = "mlc.constant"() {value = dense<[-2.5, -1.5, -0.5, 0.5, 1.5, 2.5, 3.7]> : tensor<7xf32>} : () -> tensor<7xf32>
  %r = "mlc.round"(%a) : (tensor<7xf32>) -> tensor<7xf32>
  %t = "mlc.trunc"(%a) : (tensor<7xf32>) -> tensor<7xf32>
  %s = "mlc.sign"(%a) : (tensor<7xf32>) -> tensor<7xf32>
  return %r, %t, %s : tensor<7xf32>, tensor<7xf32>, tensor<7xf32>
}

// -----

/// log1p and expm1 stay exact for small x, where log(1 + x) would give 1.19e-7.

// CHECK-LABEL: func.func @logarithms
// CHECK-DAG: "mlc.constant"() {value = dense<[0.000000e+00, 3.000000e+00, -1.000000e+00]> : tensor<3xf32>}
// CHECK-DAG: "mlc.constant"() {value = dense<[0.000000e+00, 1.000000e+00, -3.000000e+00]> : tensor<3xf32>}
// CHECK-DAG: "mlc.constant"() {value = dense<[0.000000e+00, 9.9999994E-8, 0xFF800000]> : tensor<3xf32>}
// CHECK-DAG: "mlc.constant"() {value = dense<[0.000000e+00, 1.00000008E-7, -0.632120549]> : tensor<3xf32>}
// CHECK-NOT: "mlc.log
// CHECK-NOT: "mlc.expm1"
func.func @logarithms() -> (tensor<3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>) {
  %a = "mlc.constant"() {value = dense<[1.0, 8.0, 0.5]> : tensor<3xf32>} : () -> tensor<3xf32>
  %b = "mlc.constant"() {value = dense<[1.0, 10.0, 0.001]> : tensor<3xf32>} : () -> tensor<3xf32>
  %z = "mlc.constant"() {value = dense<[0.0, 1.0e-07, -1.0]> : tensor<3xf32>} : () -> tensor<3xf32>
  %l2 = "mlc.log2"(%a) : (tensor<3xf32>) -> tensor<3xf32>
  %l10 = "mlc.log10"(%b) : (tensor<3xf32>) -> tensor<3xf32>
  %l1p = "mlc.log1p"(%z) : (tensor<3xf32>) -> tensor<3xf32>
  %em1 = "mlc.expm1"(%z) : (tensor<3xf32>) -> tensor<3xf32>
  return %l2, %l10, %l1p, %em1 : tensor<3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>
}

// -----

// CHECK-LABEL: func.func @trigonometry
// CHECK-DAG: "mlc.constant"() {value = dense<[0.000000e+00, 1.55740774]> : tensor<2xf32>}
// CHECK-DAG: "mlc.constant"() {value = dense<[0.000000e+00, 1.57079637]> : tensor<2xf32>}
// CHECK-DAG: "mlc.constant"() {value = dense<[1.57079637, 0.000000e+00]> : tensor<2xf32>}
// CHECK-DAG: "mlc.constant"() {value = dense<[0.000000e+00, 0.785398185]> : tensor<2xf32>}
// CHECK-DAG: "mlc.constant"() {value = dense<[0.000000e+00, 1.17520118]> : tensor<2xf32>}
// CHECK-DAG: "mlc.constant"() {value = dense<[1.000000e+00, 1.54308069]> : tensor<2xf32>}
// CHECK-NOT: "mlc.{{tan|asin|acos|atan|sinh|cosh}}"
func.func @trigonometry() -> (tensor<2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>) {
  %a = "mlc.constant"() {value = dense<[0.0, 1.0]> : tensor<2xf32>} : () -> tensor<2xf32>
  %tan = "mlc.tan"(%a) : (tensor<2xf32>) -> tensor<2xf32>
  %asin = "mlc.asin"(%a) : (tensor<2xf32>) -> tensor<2xf32>
  %acos = "mlc.acos"(%a) : (tensor<2xf32>) -> tensor<2xf32>
  %atan = "mlc.atan"(%a) : (tensor<2xf32>) -> tensor<2xf32>
  %sinh = "mlc.sinh"(%a) : (tensor<2xf32>) -> tensor<2xf32>
  %cosh = "mlc.cosh"(%a) : (tensor<2xf32>) -> tensor<2xf32>
  return %tan, %asin, %acos, %atan, %sinh, %cosh : tensor<2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>
}

// -----

/// atan2 keeps the sign of a zero y: (-0, -1) is -pi, (0, -1) is pi.

// CHECK-LABEL: func.func @atan2_signed_zero
// CHECK-NEXT: %[[C:.*]] = "mlc.constant"() {value = dense<[-3.14159274, 3.14159274]> : tensor<2xf32>}
// CHECK-NEXT: return %[[C]]
func.func @atan2_signed_zero() -> tensor<2xf32> {
  %y = "mlc.constant"() {value = dense<[-0.0, 0.0]> : tensor<2xf32>} : () -> tensor<2xf32>
  %x = "mlc.constant"() {value = dense<-1.0> : tensor<f32>} : () -> tensor<f32>
  %r = "mlc.atan2"(%y, %x) : (tensor<2xf32>, tensor<f32>) -> tensor<2xf32>
  return %r : tensor<2xf32>
}

// -----

/// hypot neither overflows nor underflows in between: 3e37 and 4e37 give 5e37, 3e-30
/// and 4e-30 give 5e-30; an infinity wins over a NaN.

// CHECK-LABEL: func.func @hypot_extremes
// CHECK-NEXT: %[[C:.*]] = "mlc.constant"() {value = dense<[5.000000e+00, 5.000000e+37, 5.000000e-30, 0x7F800000]> : tensor<4xf32>}
// CHECK-NEXT: return %[[C]]
func.func @hypot_extremes() -> tensor<4xf32> {
  %a = "mlc.constant"() {value = dense<[3.0, 3.0e37, 3.0e-30, 0x7F800000]> : tensor<4xf32>} : () -> tensor<4xf32>
  %b = "mlc.constant"() {value = dense<[-4.0, 4.0e37, 4.0e-30, 0x7FC00000]> : tensor<4xf32>} : () -> tensor<4xf32>
  %r = "mlc.hypot"(%a, %b) : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  return %r : tensor<4xf32>
}

// -----

/// fmod takes the dividend's sign, remainder the divisor's; floor_div floors, and
/// for floats divides as torch does: 1 // 0.1 is 9, though 1 / 0.1 rounds to 10.

// CHECK-LABEL: func.func @divisions_f32
// CHECK-DAG: "mlc.constant"() {value = dense<[1.000000e+00, -1.000000e+00, 1.000000e+00, -1.000000e+00, 0.0999999865]> : tensor<5xf32>}
// CHECK-DAG: "mlc.constant"() {value = dense<[1.000000e+00, 1.000000e+00, -1.000000e+00, -1.000000e+00, 0.0999999865]> : tensor<5xf32>}
// CHECK-DAG: "mlc.constant"() {value = dense<[3.000000e+00, -4.000000e+00, -4.000000e+00, 3.000000e+00, 9.000000e+00]> : tensor<5xf32>}
// CHECK-NOT: "mlc.fmod"
// CHECK-NOT: "mlc.remainder"
// CHECK-NOT: "mlc.floor_div"
func.func @divisions_f32() -> (tensor<5xf32>, tensor<5xf32>, tensor<5xf32>) {
  %a = "mlc.constant"() {value = dense<[7.0, -7.0, 7.0, -7.0, 1.0]> : tensor<5xf32>} : () -> tensor<5xf32>
  %b = "mlc.constant"() {value = dense<[2.0, 2.0, -2.0, -2.0, 0.1]> : tensor<5xf32>} : () -> tensor<5xf32>
  %f = "mlc.fmod"(%a, %b) : (tensor<5xf32>, tensor<5xf32>) -> tensor<5xf32>
  %r = "mlc.remainder"(%a, %b) : (tensor<5xf32>, tensor<5xf32>) -> tensor<5xf32>
  %d = "mlc.floor_div"(%a, %b) : (tensor<5xf32>, tensor<5xf32>) -> tensor<5xf32>
  return %f, %r, %d : tensor<5xf32>, tensor<5xf32>, tensor<5xf32>
}

// -----

/// A zero remainder is +0 whatever the divisor's sign, as torch (np.mod gives -0).

// CHECK-LABEL: func.func @remainder_zero_is_positive
// CHECK-NEXT: %[[C:.*]] = "mlc.constant"() {value = dense<0.000000e+00> : tensor<2xf32>}
// CHECK-NEXT: return %[[C]]
func.func @remainder_zero_is_positive() -> tensor<2xf32> {
  %a = "mlc.constant"() {value = dense<[6.0, 0.0]> : tensor<2xf32>} : () -> tensor<2xf32>
  %b = "mlc.constant"() {value = dense<-3.0> : tensor<f32>} : () -> tensor<f32>
  %r = "mlc.remainder"(%a, %b) : (tensor<2xf32>, tensor<f32>) -> tensor<2xf32>
  return %r : tensor<2xf32>
}

// -----

// CHECK-LABEL: func.func @divisions_i32
// CHECK-DAG: "mlc.constant"() {value = dense<[1, -1, 1, -1, 0]> : tensor<5xi32>}
// CHECK-DAG: "mlc.constant"() {value = dense<[1, 1, -1, -1, 0]> : tensor<5xi32>}
// CHECK-DAG: "mlc.constant"() {value = dense<[3, -4, -4, 3, -2]> : tensor<5xi32>}
// CHECK-NOT: "mlc.fmod"
// CHECK-NOT: "mlc.remainder"
// CHECK-NOT: "mlc.floor_div"
func.func @divisions_i32() -> (tensor<5xi32>, tensor<5xi32>, tensor<5xi32>) {
  %a = "mlc.constant"() {value = dense<[7, -7, 7, -7, 6]> : tensor<5xi32>} : () -> tensor<5xi32>
  %b = "mlc.constant"() {value = dense<[2, 2, -2, -2, -3]> : tensor<5xi32>} : () -> tensor<5xi32>
  %f = "mlc.fmod"(%a, %b) : (tensor<5xi32>, tensor<5xi32>) -> tensor<5xi32>
  %r = "mlc.remainder"(%a, %b) : (tensor<5xi32>, tensor<5xi32>) -> tensor<5xi32>
  %d = "mlc.floor_div"(%a, %b) : (tensor<5xi32>, tensor<5xi32>) -> tensor<5xi32>
  return %f, %r, %d : tensor<5xi32>, tensor<5xi32>, tensor<5xi32>
}

// -----

/// Shifting by the bit width or more, or by a negative amount, gives 0 to the
/// left and the sign to the right, as torch's << and >>.

// CHECK-LABEL: func.func @shifts
// CHECK-DAG: "mlc.constant"() {value = dense<[-8, -16, 0, 0, 0, 0]> : tensor<6xi32>}
// CHECK-DAG: "mlc.constant"() {value = dense<[-8, -4, -1, -1, -1, -1]> : tensor<6xi32>}
// CHECK-NOT: "mlc.shift_
func.func @shifts() -> (tensor<6xi32>, tensor<6xi32>) {
  %a = "mlc.constant"() {value = dense<-8> : tensor<i32>} : () -> tensor<i32>
  %n = "mlc.constant"() {value = dense<[0, 1, 31, 32, 40, -1]> : tensor<6xi32>} : () -> tensor<6xi32>
  %l = "mlc.shift_left"(%a, %n) : (tensor<i32>, tensor<6xi32>) -> tensor<6xi32>
  %r = "mlc.shift_right"(%a, %n) : (tensor<i32>, tensor<6xi32>) -> tensor<6xi32>
  return %l, %r : tensor<6xi32>, tensor<6xi32>
}

// -----

/// On i1, and, or and xor are the logical ops.

// CHECK-LABEL: func.func @bitwise
// CHECK-DAG: "mlc.constant"() {value = dense<[8, 5]> : tensor<2xi64>}
// CHECK-DAG: "mlc.constant"() {value = dense<[14, -1]> : tensor<2xi64>}
// CHECK-DAG: "mlc.constant"() {value = dense<[6, -6]> : tensor<2xi64>}
// CHECK-DAG: "mlc.constant"() {value = dense<[true, false, false, false]> : tensor<4xi1>}
// CHECK-DAG: "mlc.constant"() {value = dense<[true, true, true, false]> : tensor<4xi1>}
// CHECK-DAG: "mlc.constant"() {value = dense<[false, true, true, false]> : tensor<4xi1>}
// CHECK-NOT: "mlc.bitwise_
func.func @bitwise() -> (tensor<2xi64>, tensor<2xi64>, tensor<2xi64>, tensor<4xi1>, tensor<4xi1>, tensor<4xi1>) {
  %a = "mlc.constant"() {value = dense<[12, -1]> : tensor<2xi64>} : () -> tensor<2xi64>
  %b = "mlc.constant"() {value = dense<[10, 5]> : tensor<2xi64>} : () -> tensor<2xi64>
  %and = "mlc.bitwise_and"(%a, %b) : (tensor<2xi64>, tensor<2xi64>) -> tensor<2xi64>
  %or = "mlc.bitwise_or"(%a, %b) : (tensor<2xi64>, tensor<2xi64>) -> tensor<2xi64>
  %xor = "mlc.bitwise_xor"(%a, %b) : (tensor<2xi64>, tensor<2xi64>) -> tensor<2xi64>
  %p = "mlc.constant"() {value = dense<[true, true, false, false]> : tensor<4xi1>} : () -> tensor<4xi1>
  %q = "mlc.constant"() {value = dense<[true, false, true, false]> : tensor<4xi1>} : () -> tensor<4xi1>
  %land = "mlc.bitwise_and"(%p, %q) : (tensor<4xi1>, tensor<4xi1>) -> tensor<4xi1>
  %lor = "mlc.bitwise_or"(%p, %q) : (tensor<4xi1>, tensor<4xi1>) -> tensor<4xi1>
  %lxor = "mlc.bitwise_xor"(%p, %q) : (tensor<4xi1>, tensor<4xi1>) -> tensor<4xi1>
  return %and, %or, %xor, %land, %lor, %lxor : tensor<2xi64>, tensor<2xi64>, tensor<2xi64>, tensor<4xi1>, tensor<4xi1>, tensor<4xi1>
}

// -----

/// argmax and argmin pick the first of ties and the first NaN; their result type may
/// be narrower than numpy's int64.

// CHECK-LABEL: func.func @reductions
// CHECK-DAG: "mlc.constant"() {value = dense<{{\[}}[-30], [-144]]> : tensor<2x1xi32>}
// CHECK-DAG: "mlc.constant"() {value = dense<[1, 2, 1]> : tensor<3xi64>}
// CHECK-DAG: "mlc.constant"() {value = dense<{{\[}}[1, 0, 0]]> : tensor<1x3xi32>}
// CHECK-NOT: "mlc.reduce_prod"
// CHECK-NOT: "mlc.arg
func.func @reductions() -> (tensor<2x1xi32>, tensor<3xi64>, tensor<1x3xi32>) {
  %a = "mlc.constant"() {value = dense<[[3, -2, 5], [-4, 6, 6]]> : tensor<2x3xi32>} : () -> tensor<2x3xi32>
  %p = "mlc.reduce_prod"(%a) {axes = array<i64: -1>, keepdim = true} : (tensor<2x3xi32>) -> tensor<2x1xi32>
  %x = "mlc.constant"() {value = dense<[[1.0, 3.0, 3.0], [2.0, 5.0, 0x7FC00000], [4.0, 0x7FC00000, 0x7FC00000]]> : tensor<3x3xf32>} : () -> tensor<3x3xf32>
  %m = "mlc.argmax"(%x) {axis = 1 : i64, keepdim = false} : (tensor<3x3xf32>) -> tensor<3xi64>
  %n = "mlc.argmin"(%a) {axis = 0 : i64, keepdim = true} : (tensor<2x3xi32>) -> tensor<1x3xi32>
  return %p, %m, %n : tensor<2x1xi32>, tensor<3xi64>, tensor<1x3xi32>
}

// -----

/// take_along_axis may read a narrower slice of the input than it has.

// CHECK-LABEL: func.func @scans_take_along_axis
// CHECK-DAG: "mlc.constant"() {value = dense<{{\[}}[3, 1, 6], [-4, 2, 8]]> : tensor<2x3xi32>}
// CHECK-DAG: "mlc.constant"() {value = dense<{{\[}}[3, -2, 5], [-12, -12, 30]]> : tensor<2x3xi32>}
// CHECK-DAG: "mlc.constant"() {value = dense<{{\[}}[5, 3, 5]]> : tensor<1x3xi32>}
// CHECK-NOT: "mlc.cum
// CHECK-NOT: "mlc.take_along_axis"
func.func @scans_take_along_axis() -> (tensor<2x3xi32>, tensor<2x3xi32>, tensor<1x3xi32>) {
  %a = "mlc.constant"() {value = dense<[[3, -2, 5], [-4, 6, 6]]> : tensor<2x3xi32>} : () -> tensor<2x3xi32>
  %s = "mlc.cumsum"(%a) {axis = -1 : i64} : (tensor<2x3xi32>) -> tensor<2x3xi32>
  %p = "mlc.cumprod"(%a) {axis = 0 : i64} : (tensor<2x3xi32>) -> tensor<2x3xi32>
  %i = "mlc.constant"() {value = dense<[[2, 0, 2]]> : tensor<1x3xi64>} : () -> tensor<1x3xi64>
  %t = "mlc.take_along_axis"(%a, %i) {axis = 1 : i64} : (tensor<2x3xi32>, tensor<1x3xi64>) -> tensor<1x3xi32>
  return %s, %p, %t : tensor<2x3xi32>, tensor<2x3xi32>, tensor<1x3xi32>
}

// -----

/// Integer division by zero (an error in torch) and MIN / -1 (overflow) are undefined.

// CHECK-LABEL: func.func @no_fold_integer_division_by_zero
// CHECK: "mlc.floor_div"
// CHECK: "mlc.fmod"
func.func @no_fold_integer_division_by_zero() -> (tensor<2xi32>, tensor<2xi32>) {
  %a = "mlc.constant"() {value = dense<[5, 4]> : tensor<2xi32>} : () -> tensor<2xi32>
  %b = "mlc.constant"() {value = dense<[1, 0]> : tensor<2xi32>} : () -> tensor<2xi32>
  %d = "mlc.floor_div"(%a, %b) : (tensor<2xi32>, tensor<2xi32>) -> tensor<2xi32>
  %f = "mlc.fmod"(%a, %b) : (tensor<2xi32>, tensor<2xi32>) -> tensor<2xi32>
  return %d, %f : tensor<2xi32>, tensor<2xi32>
}

// -----

// CHECK-LABEL: func.func @no_fold_integer_division_overflow
// CHECK: "mlc.remainder"
func.func @no_fold_integer_division_overflow() -> tensor<2xi32> {
  %a = "mlc.constant"() {value = dense<[-2147483648, 4]> : tensor<2xi32>} : () -> tensor<2xi32>
  %b = "mlc.constant"() {value = dense<-1> : tensor<i32>} : () -> tensor<i32>
  %r = "mlc.remainder"(%a, %b) : (tensor<2xi32>, tensor<i32>) -> tensor<2xi32>
  return %r : tensor<2xi32>
}

// -----

/// The sign of NaN is 0, as torch.sign and the lowering of mlc.sign (numpy's is NaN).

// CHECK-LABEL: func.func @sign_of_nan
// CHECK: dense<[0.000000e+00, 1.000000e+00]>
// CHECK-NOT: "mlc.sign"
func.func @sign_of_nan() -> tensor<2xf32> {
  %a = "mlc.constant"() {value = dense<[0x7FC00000, 1.0]> : tensor<2xf32>} : () -> tensor<2xf32>
  %s = "mlc.sign"(%a) : (tensor<2xf32>) -> tensor<2xf32>
  return %s : tensor<2xf32>
}

// -----

/// Arithmetic on i1 is not numpy's: shifts, scans, products, arg-reductions stay.

// CHECK-LABEL: func.func @no_fold_arithmetic_on_i1
// CHECK: "mlc.shift_left"
// CHECK: "mlc.cumsum"
// CHECK: "mlc.reduce_prod"
// CHECK: "mlc.argmax"
func.func @no_fold_arithmetic_on_i1() -> (tensor<2xi1>, tensor<2xi1>, tensor<i1>, tensor<i64>) {
  %p = "mlc.constant"() {value = dense<[true, false]> : tensor<2xi1>} : () -> tensor<2xi1>
  %shl = "mlc.shift_left"(%p, %p) : (tensor<2xi1>, tensor<2xi1>) -> tensor<2xi1>
  %cs = "mlc.cumsum"(%p) {axis = 0 : i64} : (tensor<2xi1>) -> tensor<2xi1>
  %pr = "mlc.reduce_prod"(%p) {axes = array<i64: 0>, keepdim = false} : (tensor<2xi1>) -> tensor<i1>
  %am = "mlc.argmax"(%p) {axis = 0 : i64, keepdim = false} : (tensor<2xi1>) -> tensor<i64>
  return %shl, %cs, %pr, %am : tensor<2xi1>, tensor<2xi1>, tensor<i1>, tensor<i64>
}

// -----

// CHECK-LABEL: func.func @no_fold_take_along_axis_out_of_range
// CHECK: "mlc.take_along_axis"
func.func @no_fold_take_along_axis_out_of_range() -> tensor<1x1xi32> {
  %a = "mlc.constant"() {value = dense<[[1, 2]]> : tensor<1x2xi32>} : () -> tensor<1x2xi32>
  %i = "mlc.constant"() {value = dense<[[2]]> : tensor<1x1xi64>} : () -> tensor<1x1xi64>
  %t = "mlc.take_along_axis"(%a, %i) {axis = 1 : i64} : (tensor<1x2xi32>, tensor<1x1xi64>) -> tensor<1x1xi32>
  return %t : tensor<1x1xi32>
}

// -----

/// argsort has no folder: numpy's descending order does not put NaN first.

// CHECK-LABEL: func.func @no_fold_argsort
// CHECK: "mlc.argsort"
func.func @no_fold_argsort() -> tensor<2xi64> {
  %a = "mlc.constant"() {value = dense<[2.0, 1.0]> : tensor<2xf32>} : () -> tensor<2xf32>
  %o = "mlc.argsort"(%a) {axis = 0 : i64, descending = false} : (tensor<2xf32>) -> tensor<2xi64>
  return %o : tensor<2xi64>
}
