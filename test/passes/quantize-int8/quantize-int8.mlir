// RUN: mlc-opt %s --split-input-file --pass-pipeline='builtin.module(mlc-quantize-int8)' | FileCheck %s
// RUN: mlc-opt %s --split-input-file --pass-pipeline='builtin.module(mlc-quantize-int8{whole-rows=true})' | FileCheck %s --check-prefix=WHOLE
// RUN: mlc-opt %s --split-input-file --pass-pipeline='builtin.module(mlc-quantize-int8{whole-rows=true whole-matrices=true})' | FileCheck %s --check-prefix=MATRICES
// RUN: mlc-opt %s --split-input-file --pass-pipeline='builtin.module(mlc-quantize-int8{weight-only=true})' | FileCheck %s --check-prefix=WEIGHT

/// A matmul by a constant f32 weight multiplies int8 by int8 and sums in int32: the
/// weight quantized per column at compile time (each column here has 127 at most, so its
/// scale is 1 and the int8 weight has W's values), the activation per row at run time.

// CHECK-LABEL: func.func @linear
// CHECK-SAME: (%[[X:.*]]: tensor<2x8xf32>)
// CHECK:      %[[WQ:.*]] = "mlc.constant"() {value = dense<{{\[}}{{\[}}127, 127, 127, 127], {{\[}}-36, -33, -127, -27], {{\[}}-24, -21, -18, -15], {{\[}}-12, -9, -6, -3], {{\[}}0, 3, 6, 9], {{\[}}12, 15, 18, 21], {{\[}}24, 27, 30, 33], {{\[}}36, 39, 42, 45]]> : tensor<8x4xi8>}
// CHECK:      %[[SW:.*]] = "mlc.constant"() {value = dense<1.000000e+00> : tensor<4xf32>}
// CHECK:      %[[ABS:.*]] = "mlc.abs"(%[[X]]) : (tensor<2x8xf32>) -> tensor<2x8xf32>
// CHECK:      %[[PEAK:.*]] = "mlc.reduce_max"(%[[ABS]]) {axes = array<i64: -1>, keepdim = true} : (tensor<2x8xf32>) -> tensor<2x1xf32>
// CHECK:      %[[KEPT:.*]] = "mlc.maximum"(%[[PEAK]], %{{.*}}) : (tensor<2x1xf32>, tensor<f32>) -> tensor<2x1xf32>
// CHECK:      %[[SX:.*]] = "mlc.div"(%[[KEPT]], %{{.*}}) : (tensor<2x1xf32>, tensor<f32>) -> tensor<2x1xf32>
// CHECK:      %[[SCALED:.*]] = "mlc.div"(%[[X]], %[[SX]]) : (tensor<2x8xf32>, tensor<2x1xf32>) -> tensor<2x8xf32>
// CHECK:      %[[ROUNDED:.*]] = "mlc.round"(%[[SCALED]])
// CHECK:      %[[BOUNDED:.*]] = "mlc.clamp"(%[[ROUNDED]]) {max = 1.270000e+02 : f64, min = -1.270000e+02 : f64}
// CHECK:      %[[XQ:.*]] = "mlc.cast"(%[[BOUNDED]]) : (tensor<2x8xf32>) -> tensor<2x8xi8>
// CHECK:      %[[PRODUCT:.*]] = "mlc.matmul"(%[[XQ]], %[[WQ]]) : (tensor<2x8xi8>, tensor<8x4xi8>) -> tensor<2x4xi32>
// CHECK:      %[[WIDE:.*]] = "mlc.cast"(%[[PRODUCT]]) : (tensor<2x4xi32>) -> tensor<2x4xf32>
// CHECK:      %[[ROWS:.*]] = "mlc.mul"(%[[WIDE]], %[[SX]]) : (tensor<2x4xf32>, tensor<2x1xf32>) -> tensor<2x4xf32>
// CHECK:      %[[Y:.*]] = "mlc.mul"(%[[ROWS]], %[[SW]]) : (tensor<2x4xf32>, tensor<4xf32>) -> tensor<2x4xf32>
// CHECK:      return %[[Y]]

/// Several rows stay steps with whole-rows alone, and become one mlc.quantized_matmul
/// with whole-matrices too (a CPU whose library multiplies int8 on AMX).

// WHOLE-LABEL:    func.func @linear
// WHOLE:          "mlc.abs"
// WHOLE-NOT:      "mlc.quantized_matmul"
// MATRICES-LABEL: func.func @linear
// MATRICES-SAME:  (%[[X:.*]]: tensor<2x8xf32>)
// MATRICES-NOT:   "mlc.abs"
// MATRICES:       %[[Y:.*]] = "mlc.quantized_matmul"(%[[X]], %{{.*}}, %{{.*}}) : (tensor<2x8xf32>, tensor<8x4xi8>, tensor<4xf32>) -> tensor<2x4xf32>
// MATRICES-NOT:   "mlc.matmul"
// MATRICES:       return %[[Y]]

/// With weight-only (a target whose bf16 products are fast and int8 ones are not: cuda),
/// the weight is int8 and the activation is not quantized: both multiply in bf16 (int8
/// is exact in bf16), summing in f32, and the product is rescaled per column alone.

// WEIGHT-LABEL: func.func @linear
// WEIGHT-SAME:  (%[[X:.*]]: tensor<2x8xf32>)
// WEIGHT-NOT:   "mlc.abs"
// WEIGHT:       %[[WQ:.*]] = "mlc.constant"() {value = dense<{{.*}}> : tensor<8x4xi8>}
// WEIGHT:       %[[SW:.*]] = "mlc.constant"() {value = dense<1.000000e+00> : tensor<4xf32>}
// WEIGHT:       %[[XB:.*]] = "mlc.cast"(%[[X]]) : (tensor<2x8xf32>) -> tensor<2x8xbf16>
// WEIGHT:       %[[WB:.*]] = "mlc.cast"(%[[WQ]]) : (tensor<8x4xi8>) -> tensor<8x4xbf16>
// WEIGHT:       %[[P:.*]] = "mlc.matmul"(%[[XB]], %[[WB]]) : (tensor<2x8xbf16>, tensor<8x4xbf16>) -> tensor<2x4xf32>
// WEIGHT:       %[[Y:.*]] = "mlc.mul"(%[[P]], %[[SW]]) : (tensor<2x4xf32>, tensor<4xf32>) -> tensor<2x4xf32>
// WEIGHT-NOT:   "mlc.quantized_matmul"
// WEIGHT:       return %[[Y]]
func.func @linear(%x: tensor<2x8xf32>) -> tensor<2x4xf32> {
  %w = "mlc.constant"() {value = dense<[[127.0, 127.0, 127.0, 127.0], [-36.0, -33.0, -127.0, -27.0], [-24.0, -21.0, -18.0, -15.0], [-12.0, -9.0, -6.0, -3.0], [0.0, 3.0, 6.0, 9.0], [12.0, 15.0, 18.0, 21.0], [24.0, 27.0, 30.0, 33.0], [36.0, 39.0, 42.0, 45.0]]> : tensor<8x4xf32>} : () -> tensor<8x4xf32>
  %0 = "mlc.matmul"(%x, %w) : (tensor<2x8xf32>, tensor<8x4xf32>) -> tensor<2x4xf32>
  return %0 : tensor<2x4xf32>
}

// -----

/// Left as they are: a product of two activations (attention's scores), a matmul over
/// K = 1, and one already in bf16.

// CHECK-LABEL: func.func @left_alone
// CHECK-NOT: i8
// CHECK-COUNT-3: "mlc.matmul"
// CHECK-NOT: i8
// WEIGHT-LABEL: func.func @left_alone
// WEIGHT-NOT: i8
// WEIGHT-COUNT-3: "mlc.matmul"
// WEIGHT-NOT: i8
func.func @left_alone(%q: tensor<2x4x8xf32>, %k: tensor<2x8x4xf32>, %v: tensor<4x1xf32>, %b: tensor<4x8xbf16>)
    -> (tensor<2x4x4xf32>, tensor<4x4xf32>, tensor<4x8xf32>) {
  %scores = "mlc.matmul"(%q, %k) : (tensor<2x4x8xf32>, tensor<2x8x4xf32>) -> tensor<2x4x4xf32>
  %row = "mlc.constant"() {value = dense<[[1.0, 2.0, 3.0, 4.0]]> : tensor<1x4xf32>} : () -> tensor<1x4xf32>
  %outer = "mlc.matmul"(%v, %row) : (tensor<4x1xf32>, tensor<1x4xf32>) -> tensor<4x4xf32>
  %w = "mlc.constant"() {value = dense<1.0> : tensor<8x8xbf16>} : () -> tensor<8x8xbf16>
  %narrow = "mlc.matmul"(%b, %w) : (tensor<4x8xbf16>, tensor<8x8xbf16>) -> tensor<4x8xf32>
  return %scores, %outer, %narrow : tensor<2x4x4xf32>, tensor<4x4xf32>, tensor<4x8xf32>
}

// -----

/// With whole-rows (a target whose matmul library runs them: llvm-cpu with mlc's
/// plugin), a single row (a decode step's) becomes one mlc.quantized_matmul: the same
/// steps as one op, which the library runs in one call. Without, the steps stay graph ops.

// CHECK-LABEL: func.func @single_row
// CHECK:      "mlc.abs"
// CHECK:      "mlc.matmul"
// CHECK-NOT:  "mlc.quantized_matmul"

// WHOLE-LABEL: func.func @single_row
// WHOLE-SAME: (%[[X:.*]]: tensor<1x8xf32>)
// WHOLE-NOT:  "mlc.abs"
// WHOLE:      %[[WQ:.*]] = "mlc.constant"() {value = dense<{{.*}}> : tensor<8x4xi8>}
// WHOLE:      %[[SW:.*]] = "mlc.constant"() {value = dense<1.000000e+00> : tensor<4xf32>}
// WHOLE:      %[[Y:.*]] = "mlc.quantized_matmul"(%[[X]], %[[WQ]], %[[SW]]) : (tensor<1x8xf32>, tensor<8x4xi8>, tensor<4xf32>) -> tensor<1x4xf32>
// WHOLE-NOT:  "mlc.matmul"
// WHOLE:      return %[[Y]]
// MATRICES-LABEL: func.func @single_row
// MATRICES:       "mlc.quantized_matmul"
// WEIGHT-LABEL:   func.func @single_row
// WEIGHT:         "mlc.matmul"(%{{.*}}, %{{.*}}) : (tensor<1x8xbf16>, tensor<8x4xbf16>) -> tensor<1x4xf32>
// WEIGHT-NOT:     "mlc.quantized_matmul"
func.func @single_row(%x: tensor<1x8xf32>) -> tensor<1x4xf32> {
  %w = "mlc.constant"() {value = dense<[[127.0, 127.0, 127.0, 127.0], [-36.0, -33.0, -127.0, -27.0], [-24.0, -21.0, -18.0, -15.0], [-12.0, -9.0, -6.0, -3.0], [0.0, 3.0, 6.0, 9.0], [12.0, 15.0, 18.0, 21.0], [24.0, 27.0, 30.0, 33.0], [36.0, 39.0, 42.0, 45.0]]> : tensor<8x4xf32>} : () -> tensor<8x4xf32>
  %0 = "mlc.matmul"(%x, %w) : (tensor<1x8xf32>, tensor<8x4xf32>) -> tensor<1x4xf32>
  return %0 : tensor<1x4xf32>
}
