// RUN: mlc-opt %s --pass-pipeline='builtin.module(mlc-lower-to-linalg)' --split-input-file | FileCheck %s

/// Each elementwise op becomes one parallel linalg.generic over the result's
/// shape; broadcasting lives in the indexing maps (a stretched size-1
/// dimension reads index 0), the scalar function in the body.

/// Unary ops map to one math or arith op.

// CHECK-LABEL: func.func @neg
// CHECK-SAME: (%[[X:.*]]: tensor<4xf32>)
// CHECK: %[[INIT:.*]] = tensor.empty() : tensor<4xf32>
// CHECK: linalg.generic {{.*}} ins(%[[X]] : tensor<4xf32>) outs(%[[INIT]] : tensor<4xf32>)
// CHECK-NEXT: ^bb0(%[[IN:.*]]: f32, %{{.*}}: f32):
// CHECK-NEXT: %[[Y:.*]] = arith.negf %[[IN]] : f32
// CHECK-NEXT: linalg.yield %[[Y]] : f32
func.func @neg(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = "mlc.neg"(%x) : (tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

// CHECK-LABEL: func.func @abs
// CHECK-SAME: (%[[X:.*]]: tensor<4xf32>)
// CHECK: %[[INIT:.*]] = tensor.empty() : tensor<4xf32>
// CHECK: linalg.generic {{.*}} ins(%[[X]] : tensor<4xf32>) outs(%[[INIT]] : tensor<4xf32>)
// CHECK-NEXT: ^bb0(%[[IN:.*]]: f32, %{{.*}}: f32):
// CHECK-NEXT: %[[Y:.*]] = math.absf %[[IN]] : f32
// CHECK-NEXT: linalg.yield %[[Y]] : f32
func.func @abs(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = "mlc.abs"(%x) : (tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

// CHECK-LABEL: func.func @abs_i32
// CHECK-SAME: (%[[X:.*]]: tensor<4xi32>)
// CHECK: %[[INIT:.*]] = tensor.empty() : tensor<4xi32>
// CHECK: linalg.generic {{.*}} ins(%[[X]] : tensor<4xi32>) outs(%[[INIT]] : tensor<4xi32>)
// CHECK-NEXT: ^bb0(%[[IN:.*]]: i32, %{{.*}}: i32):
// CHECK-NEXT: %[[ZERO:.*]] = arith.constant 0 : i32
// CHECK-NEXT: %[[NEG:.*]] = arith.cmpi slt, %[[IN]], %[[ZERO]] : i32
// CHECK: %[[MINUS:.*]] = arith.subi %{{.*}}, %[[IN]] : i32
// CHECK-NEXT: %[[Y:.*]] = arith.select %[[NEG]], %[[MINUS]], %[[IN]] : i32
// CHECK-NEXT: linalg.yield %[[Y]] : i32
func.func @abs_i32(%x: tensor<4xi32>) -> tensor<4xi32> {
  %0 = "mlc.abs"(%x) : (tensor<4xi32>) -> tensor<4xi32>
  return %0 : tensor<4xi32>
}

// -----

// CHECK-LABEL: func.func @exp
// CHECK-SAME: (%[[X:.*]]: tensor<4xf32>)
// CHECK: %[[INIT:.*]] = tensor.empty() : tensor<4xf32>
// CHECK: linalg.generic {{.*}} ins(%[[X]] : tensor<4xf32>) outs(%[[INIT]] : tensor<4xf32>)
// CHECK-NEXT: ^bb0(%[[IN:.*]]: f32, %{{.*}}: f32):
// CHECK-NEXT: %[[Y:.*]] = math.exp %[[IN]] : f32
// CHECK-NEXT: linalg.yield %[[Y]] : f32
func.func @exp(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = "mlc.exp"(%x) : (tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

// CHECK-LABEL: func.func @log
// CHECK-SAME: (%[[X:.*]]: tensor<4xf32>)
// CHECK: %[[INIT:.*]] = tensor.empty() : tensor<4xf32>
// CHECK: linalg.generic {{.*}} ins(%[[X]] : tensor<4xf32>) outs(%[[INIT]] : tensor<4xf32>)
// CHECK-NEXT: ^bb0(%[[IN:.*]]: f32, %{{.*}}: f32):
// CHECK-NEXT: %[[Y:.*]] = math.log %[[IN]] : f32
// CHECK-NEXT: linalg.yield %[[Y]] : f32
func.func @log(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = "mlc.log"(%x) : (tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

// CHECK-LABEL: func.func @sqrt
// CHECK-SAME: (%[[X:.*]]: tensor<4xf32>)
// CHECK: %[[INIT:.*]] = tensor.empty() : tensor<4xf32>
// CHECK: linalg.generic {{.*}} ins(%[[X]] : tensor<4xf32>) outs(%[[INIT]] : tensor<4xf32>)
// CHECK-NEXT: ^bb0(%[[IN:.*]]: f32, %{{.*}}: f32):
// CHECK-NEXT: %[[Y:.*]] = math.sqrt %[[IN]] : f32
// CHECK-NEXT: linalg.yield %[[Y]] : f32
func.func @sqrt(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = "mlc.sqrt"(%x) : (tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

// CHECK-LABEL: func.func @rsqrt
// CHECK-SAME: (%[[X:.*]]: tensor<4xf32>)
// CHECK: %[[INIT:.*]] = tensor.empty() : tensor<4xf32>
// CHECK: linalg.generic {{.*}} ins(%[[X]] : tensor<4xf32>) outs(%[[INIT]] : tensor<4xf32>)
// CHECK-NEXT: ^bb0(%[[IN:.*]]: f32, %{{.*}}: f32):
// CHECK-NEXT: %[[Y:.*]] = math.rsqrt %[[IN]] : f32
// CHECK-NEXT: linalg.yield %[[Y]] : f32
func.func @rsqrt(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = "mlc.rsqrt"(%x) : (tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

// CHECK-LABEL: func.func @tanh
// CHECK-SAME: (%[[X:.*]]: tensor<4xf32>)
// CHECK: %[[INIT:.*]] = tensor.empty() : tensor<4xf32>
// CHECK: linalg.generic {{.*}} ins(%[[X]] : tensor<4xf32>) outs(%[[INIT]] : tensor<4xf32>)
// CHECK-NEXT: ^bb0(%[[IN:.*]]: f32, %{{.*}}: f32):
// CHECK-NEXT: %[[Y:.*]] = math.tanh %[[IN]] : f32
// CHECK-NEXT: linalg.yield %[[Y]] : f32
func.func @tanh(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = "mlc.tanh"(%x) : (tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

// CHECK-LABEL: func.func @erf
// CHECK-SAME: (%[[X:.*]]: tensor<4xf32>)
// CHECK: %[[INIT:.*]] = tensor.empty() : tensor<4xf32>
// CHECK: linalg.generic {{.*}} ins(%[[X]] : tensor<4xf32>) outs(%[[INIT]] : tensor<4xf32>)
// CHECK-NEXT: ^bb0(%[[IN:.*]]: f32, %{{.*}}: f32):
// CHECK-NEXT: %[[Y:.*]] = math.erf %[[IN]] : f32
// CHECK-NEXT: linalg.yield %[[Y]] : f32
func.func @erf(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = "mlc.erf"(%x) : (tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

// CHECK-LABEL: func.func @floor
// CHECK-SAME: (%[[X:.*]]: tensor<4xf32>)
// CHECK: %[[INIT:.*]] = tensor.empty() : tensor<4xf32>
// CHECK: linalg.generic {{.*}} ins(%[[X]] : tensor<4xf32>) outs(%[[INIT]] : tensor<4xf32>)
// CHECK-NEXT: ^bb0(%[[IN:.*]]: f32, %{{.*}}: f32):
// CHECK-NEXT: %[[Y:.*]] = math.floor %[[IN]] : f32
// CHECK-NEXT: linalg.yield %[[Y]] : f32
func.func @floor(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = "mlc.floor"(%x) : (tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

// CHECK-LABEL: func.func @ceil
// CHECK-SAME: (%[[X:.*]]: tensor<4xf32>)
// CHECK: %[[INIT:.*]] = tensor.empty() : tensor<4xf32>
// CHECK: linalg.generic {{.*}} ins(%[[X]] : tensor<4xf32>) outs(%[[INIT]] : tensor<4xf32>)
// CHECK-NEXT: ^bb0(%[[IN:.*]]: f32, %{{.*}}: f32):
// CHECK-NEXT: %[[Y:.*]] = math.ceil %[[IN]] : f32
// CHECK-NEXT: linalg.yield %[[Y]] : f32
func.func @ceil(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = "mlc.ceil"(%x) : (tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

/// NaN propagates through relu, as in torch: arith.maximumf, not maxnumf.

// CHECK-LABEL: func.func @relu
// CHECK: ^bb0(%[[IN:.*]]: f32, %{{.*}}: f32):
// CHECK: %[[ZERO:.*]] = arith.constant 0.000000e+00 : f32
// CHECK-NEXT: %[[Y:.*]] = arith.maximumf %[[IN]], %[[ZERO]] : f32
// CHECK-NEXT: linalg.yield %[[Y]]
func.func @relu(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = "mlc.relu"(%x) : (tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

// CHECK-LABEL: func.func @relu_i32
// CHECK: ^bb0(%[[IN:.*]]: i32, %{{.*}}: i32):
// CHECK: %[[ZERO:.*]] = arith.constant 0 : i32
// CHECK-NEXT: arith.maxsi %[[IN]], %[[ZERO]] : i32
func.func @relu_i32(%x: tensor<4xi32>) -> tensor<4xi32> {
  %0 = "mlc.relu"(%x) : (tensor<4xi32>) -> tensor<4xi32>
  return %0 : tensor<4xi32>
}

// -----

/// Integer negation is 0 - x.

// CHECK-LABEL: func.func @neg_i32
// CHECK: ^bb0(%[[IN:.*]]: i32, %{{.*}}: i32):
// CHECK: %[[ZERO:.*]] = arith.constant 0 : i32
// CHECK-NEXT: arith.subi %[[ZERO]], %[[IN]] : i32
func.func @neg_i32(%x: tensor<4xi32>) -> tensor<4xi32> {
  %0 = "mlc.neg"(%x) : (tensor<4xi32>) -> tensor<4xi32>
  return %0 : tensor<4xi32>
}

// -----

// CHECK-LABEL: func.func @reciprocal
// CHECK: ^bb0(%[[IN:.*]]: f32, %{{.*}}: f32):
// CHECK: %[[ONE:.*]] = arith.constant 1.000000e+00 : f32
// CHECK-NEXT: arith.divf %[[ONE]], %[[IN]] : f32
func.func @reciprocal(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = "mlc.reciprocal"(%x) : (tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

/// sigmoid(x) = 1 / (1 + e^-x).

// CHECK-LABEL: func.func @sigmoid
// CHECK: ^bb0(%[[IN:.*]]: f32, %{{.*}}: f32):
// CHECK: %[[NEG:.*]] = arith.negf %[[IN]]
// CHECK-NEXT: %[[EXP:.*]] = math.exp %[[NEG]]
// CHECK-NEXT: %[[DEN:.*]] = arith.addf %[[ONE:.*]], %[[EXP]]
// CHECK-NEXT: arith.divf %[[ONE2:.*]], %[[DEN]]
func.func @sigmoid(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = "mlc.sigmoid"(%x) : (tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

/// silu(x) = x / (1 + e^-x), the form torch computes.

// CHECK-LABEL: func.func @silu
// CHECK: ^bb0(%[[IN:.*]]: f32, %{{.*}}: f32):
// CHECK: %[[NEG:.*]] = arith.negf %[[IN]]
// CHECK-NEXT: %[[EXP:.*]] = math.exp %[[NEG]]
// CHECK-NEXT: %[[DEN:.*]] = arith.addf %{{.*}}, %[[EXP]]
// CHECK-NEXT: %[[Y:.*]] = arith.divf %[[IN]], %[[DEN]]
// CHECK-NEXT: linalg.yield %[[Y]]
func.func @silu(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = "mlc.silu"(%x) : (tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

/// Exact GELU: 0.5 * x * (1 + erf(x * 1/sqrt(2))).

// CHECK-LABEL: func.func @gelu_erf
// CHECK: ^bb0(%[[IN:.*]]: f32, %{{.*}}: f32):
// CHECK: %[[RSQRT2:.*]] = arith.constant 0.707106769 : f32
// CHECK-NEXT: %[[SCALED:.*]] = arith.mulf %[[IN]], %[[RSQRT2]]
// CHECK-NEXT: %[[ERF:.*]] = math.erf %[[SCALED]]
// CHECK: %[[HALF_X:.*]] = arith.mulf %{{.*}}, %[[IN]]
// CHECK: %[[ONE_PLUS:.*]] = arith.addf %{{.*}}, %[[ERF]]
// CHECK-NEXT: %[[Y:.*]] = arith.mulf %[[HALF_X]], %[[ONE_PLUS]]
// CHECK-NEXT: linalg.yield %[[Y]]
func.func @gelu_erf(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = "mlc.gelu"(%x) {approximate = "none"} : (tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

/// tanh GELU: 0.5 * x * (1 + tanh(sqrt(2/pi) * (x + 0.044715 * x^3))).

// CHECK-LABEL: func.func @gelu_tanh
// CHECK: ^bb0(%[[IN:.*]]: f32, %{{.*}}: f32):
// CHECK-NEXT: %[[SQUARE:.*]] = arith.mulf %[[IN]], %[[IN]]
// CHECK-NEXT: %[[CUBE:.*]] = arith.mulf %[[SQUARE]], %[[IN]]
// CHECK-NEXT: %[[C:.*]] = arith.constant 4.471500e-02 : f32
// CHECK-NEXT: %[[TERM:.*]] = arith.mulf %[[C]], %[[CUBE]]
// CHECK-NEXT: %[[INNER:.*]] = arith.addf %[[IN]], %[[TERM]]
// CHECK-NEXT: %[[K:.*]] = arith.constant 0.797884583 : f32
// CHECK-NEXT: %[[ARG:.*]] = arith.mulf %[[K]], %[[INNER]]
// CHECK-NEXT: math.tanh %[[ARG]]
func.func @gelu_tanh(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = "mlc.gelu"(%x) {approximate = "tanh"} : (tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

/// softplus: x where beta * x > threshold, else log1p(exp(beta * x)) / beta.

// CHECK-LABEL: func.func @softplus
// CHECK: ^bb0(%[[IN:.*]]: f32, %{{.*}}: f32):
// CHECK-NEXT: %[[BETA:.*]] = arith.constant 2.000000e+00 : f32
// CHECK-NEXT: %[[SCALED:.*]] = arith.mulf %[[IN]], %[[BETA]]
// CHECK-NEXT: %[[EXP:.*]] = math.exp %[[SCALED]]
// CHECK-NEXT: %[[LOG1P:.*]] = math.log1p %[[EXP]]
// CHECK: %[[SOFT:.*]] = arith.divf %[[LOG1P]], %{{.*}}
// CHECK-NEXT: %[[T:.*]] = arith.constant 1.000000e+01 : f32
// CHECK-NEXT: %[[ABOVE:.*]] = arith.cmpf ogt, %[[SCALED]], %[[T]]
// CHECK-NEXT: %[[Y:.*]] = arith.select %[[ABOVE]], %[[IN]], %[[SOFT]]
// CHECK-NEXT: linalg.yield %[[Y]]
func.func @softplus(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = "mlc.softplus"(%x) {beta = 2.0 : f64, threshold = 10.0 : f64} : (tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

/// clamp is max then min, both NaN-propagating.

// CHECK-LABEL: func.func @clamp
// CHECK: ^bb0(%[[IN:.*]]: f32, %{{.*}}: f32):
// CHECK: %[[LOW:.*]] = arith.constant 0.000000e+00 : f32
// CHECK-NEXT: %[[MAX:.*]] = arith.maximumf %[[IN]], %[[LOW]]
// CHECK-NEXT: %[[HIGH:.*]] = arith.constant 6.000000e+00 : f32
// CHECK-NEXT: %[[Y:.*]] = arith.minimumf %[[MAX]], %[[HIGH]]
// CHECK-NEXT: linalg.yield %[[Y]]
func.func @clamp(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = "mlc.clamp"(%x) {min = 0.0 : f64, max = 6.0 : f64} : (tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

/// On integers, a bound rounds inward and an infinite bound is no bound.

// CHECK-LABEL: func.func @clamp_i32_lower_bound_only
// CHECK: ^bb0(%[[IN:.*]]: i32, %{{.*}}: i32):
// CHECK: %[[LOW:.*]] = arith.constant -1 : i32
// CHECK-NEXT: %[[Y:.*]] = arith.maxsi %[[IN]], %[[LOW]]
// CHECK-NEXT: linalg.yield %[[Y]]
func.func @clamp_i32_lower_bound_only(%x: tensor<4xi32>) -> tensor<4xi32> {
  %0 = "mlc.clamp"(%x) {min = -1.5 : f64, max = 0x7FF0000000000000 : f64} : (tensor<4xi32>) -> tensor<4xi32>
  return %0 : tensor<4xi32>
}

// -----

/// Binary ops: the maps broadcast NumPy-style.

// CHECK-DAG: #[[$ID:.*]] = affine_map<(d0, d1) -> (d0, d1)>
// CHECK-DAG: #[[$ROW:.*]] = affine_map<(d0, d1) -> (d1)>
// CHECK-LABEL: func.func @add_broadcast
// CHECK-SAME: (%[[X:.*]]: tensor<2x3xf32>, %[[B:.*]]: tensor<3xf32>)
// CHECK: %[[INIT:.*]] = tensor.empty() : tensor<2x3xf32>
// CHECK: linalg.generic {indexing_maps = [#[[$ID]], #[[$ROW]], #[[$ID]]], iterator_types = ["parallel", "parallel"]}
// CHECK-SAME: ins(%[[X]], %[[B]] : tensor<2x3xf32>, tensor<3xf32>) outs(%[[INIT]] : tensor<2x3xf32>)
// CHECK-NEXT: ^bb0(%[[L:.*]]: f32, %[[R:.*]]: f32, %{{.*}}: f32):
// CHECK-NEXT: %[[Y:.*]] = arith.addf %[[L]], %[[R]] : f32
// CHECK-NEXT: linalg.yield %[[Y]] : f32
func.func @add_broadcast(%x: tensor<2x3xf32>, %b: tensor<3xf32>) -> tensor<2x3xf32> {
  %0 = "mlc.add"(%x, %b) : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}

// -----

/// Size-1 dimensions stretch by reading index 0.

// CHECK-DAG: #[[$COLUMN:.*]] = affine_map<(d0, d1) -> (d0, 0)>
// CHECK-DAG: #[[$ROW:.*]] = affine_map<(d0, d1) -> (0, d1)>
// CHECK-DAG: #[[$ID:.*]] = affine_map<(d0, d1) -> (d0, d1)>
// CHECK-LABEL: func.func @sub_stretch
// CHECK: linalg.generic {indexing_maps = [#[[$COLUMN]], #[[$ROW]], #[[$ID]]]
// CHECK: arith.subf
func.func @sub_stretch(%x: tensor<2x1xf32>, %y: tensor<1x3xf32>) -> tensor<2x3xf32> {
  %0 = "mlc.sub"(%x, %y) : (tensor<2x1xf32>, tensor<1x3xf32>) -> tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}

// -----

/// A rank-0 operand is read through the empty map.

// CHECK-DAG: #[[$SCALAR:.*]] = affine_map<(d0, d1) -> ()>
// CHECK-LABEL: func.func @mul_scalar
// CHECK: linalg.generic {indexing_maps = [#{{.*}}, #[[$SCALAR]], #{{.*}}]
// CHECK: arith.mulf
func.func @mul_scalar(%x: tensor<2x3xf32>, %s: tensor<f32>) -> tensor<2x3xf32> {
  %0 = "mlc.mul"(%x, %s) : (tensor<2x3xf32>, tensor<f32>) -> tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}

// -----

/// A dynamic result size is read from the operand that has it.

// CHECK-LABEL: func.func @add_dynamic
// CHECK-SAME: (%[[X:.*]]: tensor<?x3xf32>, %[[Y:.*]]: tensor<1x3xf32>)
// CHECK: %[[C0:.*]] = arith.constant 0 : index
// CHECK-NEXT: %[[N:.*]] = tensor.dim %[[X]], %[[C0]] : tensor<?x3xf32>
// CHECK-NEXT: %[[INIT:.*]] = tensor.empty(%[[N]]) : tensor<?x3xf32>
// CHECK-NEXT: linalg.generic
// CHECK-SAME: outs(%[[INIT]] : tensor<?x3xf32>)
func.func @add_dynamic(%x: tensor<?x3xf32>, %y: tensor<1x3xf32>) -> tensor<?x3xf32> {
  %0 = "mlc.add"(%x, %y) : (tensor<?x3xf32>, tensor<1x3xf32>) -> tensor<?x3xf32>
  return %0 : tensor<?x3xf32>
}

// -----

// CHECK-LABEL: func.func @div
// CHECK: arith.divf
func.func @div(%x: tensor<4xf32>, %y: tensor<4xf32>) -> tensor<4xf32> {
  %0 = "mlc.div"(%x, %y) : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

/// Integer ops use their own arith ops; division truncates.

// CHECK-LABEL: func.func @integer_binary
// CHECK: arith.addi
// CHECK: arith.subi
// CHECK: arith.muli
// CHECK: arith.divsi
// CHECK: arith.maxsi
// CHECK: arith.minsi
func.func @integer_binary(%x: tensor<4xi32>, %y: tensor<4xi32>) -> tensor<4xi32> {
  %0 = "mlc.add"(%x, %y) : (tensor<4xi32>, tensor<4xi32>) -> tensor<4xi32>
  %1 = "mlc.sub"(%0, %y) : (tensor<4xi32>, tensor<4xi32>) -> tensor<4xi32>
  %2 = "mlc.mul"(%1, %y) : (tensor<4xi32>, tensor<4xi32>) -> tensor<4xi32>
  %3 = "mlc.div"(%2, %y) : (tensor<4xi32>, tensor<4xi32>) -> tensor<4xi32>
  %4 = "mlc.maximum"(%3, %y) : (tensor<4xi32>, tensor<4xi32>) -> tensor<4xi32>
  %5 = "mlc.minimum"(%4, %y) : (tensor<4xi32>, tensor<4xi32>) -> tensor<4xi32>
  return %5 : tensor<4xi32>
}

// -----

/// maximum and minimum propagate NaN.

// CHECK-LABEL: func.func @maximum_minimum
// CHECK: arith.maximumf
// CHECK: arith.minimumf
func.func @maximum_minimum(%x: tensor<4xf32>, %y: tensor<4xf32>) -> tensor<4xf32> {
  %0 = "mlc.maximum"(%x, %y) : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  %1 = "mlc.minimum"(%0, %y) : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  return %1 : tensor<4xf32>
}

// -----

/// Float pow is C's pow: |x|^y with x's sign for odd integer y, NaN for a
/// negative base with a non-integer exponent, and 1 for a zero exponent.

// CHECK-LABEL: func.func @pow
// CHECK: ^bb0(%[[X:.*]]: f32, %[[Y:.*]]: f32, %{{.*}}: f32):
// CHECK: %[[ABS:.*]] = math.absf %[[X]]
// CHECK: math.powf %[[ABS]], %[[Y]]
// CHECK: math.copysign %{{.*}}, %[[X]]
// CHECK: %[[ZERO_EXPONENT:.*]] = arith.cmpf oeq, %[[Y]], %{{.*}}
// CHECK: %[[RESULT:.*]] = arith.select %[[ZERO_EXPONENT]]
// CHECK-NEXT: linalg.yield %[[RESULT]]
func.func @pow(%x: tensor<4xf32>, %y: tensor<4xf32>) -> tensor<4xf32> {
  %0 = "mlc.pow"(%x, %y) : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

/// Integer pow squares over the exponent's bits (IREE cannot compile math.ipowi).

// CHECK-LABEL: func.func @pow_i32
// CHECK: ^bb0(%[[X:.*]]: i32, %[[Y:.*]]: i32, %{{.*}}: i32):
// CHECK: %[[BITS:.*]] = arith.constant 32 : index
// CHECK: %[[POWER:.*]]:2 = scf.for %{{.*}} = %{{.*}} to %[[BITS]] step %{{.*}} iter_args(%{{.*}} = %{{.*}}, %{{.*}} = %[[X]])
// CHECK: arith.shrsi %[[Y]]
// CHECK: linalg.yield %[[POWER]]#0
// CHECK-NOT: math.ipowi
func.func @pow_i32(%x: tensor<4xi32>, %y: tensor<4xi32>) -> tensor<4xi32> {
  %0 = "mlc.pow"(%x, %y) : (tensor<4xi32>, tensor<4xi32>) -> tensor<4xi32>
  return %0 : tensor<4xi32>
}

// -----

/// Float comparisons are ordered, except ne, which is unordered (NaN != x).

// CHECK-LABEL: func.func @compare_float
// CHECK: %[[INIT:.*]] = tensor.empty() : tensor<4xi1>
// CHECK: outs(%[[INIT]] : tensor<4xi1>)
// CHECK: arith.cmpf oeq
// CHECK: arith.cmpf une
// CHECK: arith.cmpf olt
// CHECK: arith.cmpf ole
// CHECK: arith.cmpf ogt
// CHECK: arith.cmpf oge
func.func @compare_float(%x: tensor<4xf32>, %y: tensor<4xf32>) -> (tensor<4xi1>, tensor<4xi1>, tensor<4xi1>, tensor<4xi1>, tensor<4xi1>, tensor<4xi1>) {
  %0 = "mlc.compare"(%x, %y) {predicate = "eq"} : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xi1>
  %1 = "mlc.compare"(%x, %y) {predicate = "ne"} : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xi1>
  %2 = "mlc.compare"(%x, %y) {predicate = "lt"} : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xi1>
  %3 = "mlc.compare"(%x, %y) {predicate = "le"} : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xi1>
  %4 = "mlc.compare"(%x, %y) {predicate = "gt"} : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xi1>
  %5 = "mlc.compare"(%x, %y) {predicate = "ge"} : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xi1>
  return %0, %1, %2, %3, %4, %5 : tensor<4xi1>, tensor<4xi1>, tensor<4xi1>, tensor<4xi1>, tensor<4xi1>, tensor<4xi1>
}

// -----

/// Integer comparisons are signed.

// CHECK-LABEL: func.func @compare_integer
// CHECK: arith.cmpi eq
// CHECK: arith.cmpi ne
// CHECK: arith.cmpi slt
// CHECK: arith.cmpi sle
// CHECK: arith.cmpi sgt
// CHECK: arith.cmpi sge
func.func @compare_integer(%x: tensor<4xi64>, %y: tensor<4xi64>) -> (tensor<4xi1>, tensor<4xi1>, tensor<4xi1>, tensor<4xi1>, tensor<4xi1>, tensor<4xi1>) {
  %0 = "mlc.compare"(%x, %y) {predicate = "eq"} : (tensor<4xi64>, tensor<4xi64>) -> tensor<4xi1>
  %1 = "mlc.compare"(%x, %y) {predicate = "ne"} : (tensor<4xi64>, tensor<4xi64>) -> tensor<4xi1>
  %2 = "mlc.compare"(%x, %y) {predicate = "lt"} : (tensor<4xi64>, tensor<4xi64>) -> tensor<4xi1>
  %3 = "mlc.compare"(%x, %y) {predicate = "le"} : (tensor<4xi64>, tensor<4xi64>) -> tensor<4xi1>
  %4 = "mlc.compare"(%x, %y) {predicate = "gt"} : (tensor<4xi64>, tensor<4xi64>) -> tensor<4xi1>
  %5 = "mlc.compare"(%x, %y) {predicate = "ge"} : (tensor<4xi64>, tensor<4xi64>) -> tensor<4xi1>
  return %0, %1, %2, %3, %4, %5 : tensor<4xi1>, tensor<4xi1>, tensor<4xi1>, tensor<4xi1>, tensor<4xi1>, tensor<4xi1>
}

// -----

/// Bools (i1) are unsigned: false < true, max is `or`, min is `and`.

// CHECK-LABEL: func.func @bool_ops
// CHECK: arith.cmpi ult
// CHECK: arith.ori
// CHECK: arith.andi
func.func @bool_ops(%x: tensor<4xi1>, %y: tensor<4xi1>) -> (tensor<4xi1>, tensor<4xi1>, tensor<4xi1>) {
  %0 = "mlc.compare"(%x, %y) {predicate = "lt"} : (tensor<4xi1>, tensor<4xi1>) -> tensor<4xi1>
  %1 = "mlc.maximum"(%x, %y) : (tensor<4xi1>, tensor<4xi1>) -> tensor<4xi1>
  %2 = "mlc.minimum"(%x, %y) : (tensor<4xi1>, tensor<4xi1>) -> tensor<4xi1>
  return %0, %1, %2 : tensor<4xi1>, tensor<4xi1>, tensor<4xi1>
}

// -----

/// select broadcasts all three operands.

// CHECK-DAG: #[[$COLUMN:.*]] = affine_map<(d0, d1) -> (d0, 0)>
// CHECK-DAG: #[[$ID:.*]] = affine_map<(d0, d1) -> (d0, d1)>
// CHECK-DAG: #[[$SCALAR:.*]] = affine_map<(d0, d1) -> ()>
// CHECK-LABEL: func.func @select
// CHECK: linalg.generic {indexing_maps = [#[[$COLUMN]], #[[$ID]], #[[$SCALAR]], #[[$ID]]]
// CHECK-NEXT: ^bb0(%[[C:.*]]: i1, %[[T:.*]]: f32, %[[F:.*]]: f32, %{{.*}}: f32):
// CHECK-NEXT: %[[Y:.*]] = arith.select %[[C]], %[[T]], %[[F]] : f32
func.func @select(%c: tensor<2x1xi1>, %x: tensor<2x3xf32>, %y: tensor<f32>) -> tensor<2x3xf32> {
  %0 = "mlc.select"(%c, %x, %y) : (tensor<2x1xi1>, tensor<2x3xf32>, tensor<f32>) -> tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}

// -----

/// Ops already in linalg and arith are left as they are.

// CHECK-LABEL: func.func @negative_already_linalg
// CHECK-NEXT: %[[Y:.*]] = linalg.exp ins(%{{.*}} : tensor<4xf32>) outs(%{{.*}} : tensor<4xf32>) -> tensor<4xf32>
// CHECK-NEXT: return %[[Y]]
func.func @negative_already_linalg(%x: tensor<4xf32>, %init: tensor<4xf32>) -> tensor<4xf32> {
  %0 = linalg.exp ins(%x : tensor<4xf32>) outs(%init : tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

/// On bools add is `or` (torch's True + True is True), max `or` and min `and`;
/// mul stays muli, which on i1 is `and`.

// CHECK-LABEL: func.func @bool_arithmetic
// CHECK: arith.ori
// CHECK-NOT: arith.addi
// CHECK: arith.ori
// CHECK: arith.andi
// CHECK: arith.muli
func.func @bool_arithmetic(%x: tensor<4xi1>, %y: tensor<4xi1>) -> (tensor<4xi1>, tensor<4xi1>, tensor<4xi1>, tensor<4xi1>) {
  %0 = "mlc.add"(%x, %y) : (tensor<4xi1>, tensor<4xi1>) -> tensor<4xi1>
  %1 = "mlc.maximum"(%x, %y) : (tensor<4xi1>, tensor<4xi1>) -> tensor<4xi1>
  %2 = "mlc.minimum"(%x, %y) : (tensor<4xi1>, tensor<4xi1>) -> tensor<4xi1>
  %3 = "mlc.mul"(%x, %y) : (tensor<4xi1>, tensor<4xi1>) -> tensor<4xi1>
  return %0, %1, %2, %3 : tensor<4xi1>, tensor<4xi1>, tensor<4xi1>, tensor<4xi1>
}

// -----

/// Negative: on other integers add stays addi.

// CHECK-LABEL: func.func @i8_add
// CHECK: arith.addi
// CHECK-NOT: arith.ori
func.func @i8_add(%x: tensor<4xi8>, %y: tensor<4xi8>) -> tensor<4xi8> {
  %0 = "mlc.add"(%x, %y) : (tensor<4xi8>, tensor<4xi8>) -> tensor<4xi8>
  return %0 : tensor<4xi8>
}

// -----

/// hypot scales by the larger magnitude m: m * sqrt(1 + (n / m)^2), 0 where m is 0,
/// infinity where either part is infinite.

// CHECK-LABEL: func.func @hypot
// CHECK: ^bb0(%[[A:.*]]: f32, %[[B:.*]]: f32, %{{.*}}: f32):
// CHECK-DAG: %[[ABS_A:.*]] = math.absf %[[A]] : f32
// CHECK-DAG: %[[ABS_B:.*]] = math.absf %[[B]] : f32
// CHECK: %[[M:.*]] = arith.maximumf %[[ABS_A]], %[[ABS_B]] : f32
// CHECK: %[[N:.*]] = arith.minimumf %[[ABS_A]], %[[ABS_B]] : f32
// CHECK: %[[R:.*]] = arith.divf %[[N]], %[[M]] : f32
// CHECK: math.sqrt
// CHECK: %[[SCALED:.*]] = arith.mulf %[[M]], %{{.*}} : f32
// CHECK: %[[FINITE:.*]] = arith.select %{{.*}}, %{{.*}}, %[[SCALED]] : f32
// CHECK: %[[OUT:.*]] = arith.select %{{.*}}, %{{.*}}, %[[FINITE]] : f32
// CHECK: linalg.yield %[[OUT]] : f32
func.func @hypot(%a: tensor<4xf32>, %b: tensor<4xf32>) -> tensor<4xf32> {
  %0 = "mlc.hypot"(%a, %b) : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

/// atan2 keeps the sign of y (zeros too) and the corners of two infinities, which
/// the polynomial IREE makes of math.atan2 does not.

// CHECK-LABEL: func.func @atan2
// CHECK: ^bb0(%[[Y:.*]]: f32, %[[X:.*]]: f32, %{{.*}}: f32):
// CHECK: %[[ANGLE:.*]] = math.atan2 %[[Y]], %[[X]] : f32
// CHECK: %[[PICKED:.*]] = arith.select %{{.*}}, %{{.*}}, %[[ANGLE]] : f32
// CHECK: %[[SIGNED:.*]] = math.copysign %[[PICKED]], %[[Y]] : f32
// CHECK: linalg.yield %[[SIGNED]] : f32
func.func @atan2(%y: tensor<4xf32>, %x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = "mlc.atan2"(%y, %x) : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}
