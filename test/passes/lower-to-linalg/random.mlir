// RUN: mlc-opt %s --pass-pipeline='builtin.module(mlc-lower-to-linalg, canonicalize)' --split-input-file | FileCheck %s

/// Random ops: one generic with no inputs; the body hashes the element's row-major
/// position with the seed (SplitMix64: the golden gamma, then the finalizer's two
/// multiplies) and makes the distribution's value of the 64-bit word.

/// f32 uniform: the top 24 bits times 2^-24, scaled to [low, high).

// CHECK-LABEL: func.func @uniform_f32
// CHECK-DAG:  %[[SEED:.*]] = arith.constant 42 : i64
// CHECK-DAG:  %[[GAMMA:.*]] = arith.constant -7046029254386353131 : i64
// CHECK-DAG:  %[[UNIT:.*]] = arith.constant 5.96046448E-8 : f32
// CHECK-DAG:  %[[TOP24:.*]] = arith.constant 40 : i64
// CHECK:      linalg.generic {{.*}} iterator_types = ["parallel", "parallel"]} outs(
// CHECK:        %[[I:.*]] = linalg.index 0 : index
// CHECK:        %[[ROW:.*]] = arith.muli %[[I]], %{{.*}} : index
// CHECK:        %[[J:.*]] = linalg.index 1 : index
// CHECK:        %[[POS:.*]] = arith.addi %[[ROW]], %[[J]] : index
// CHECK:        arith.index_cast %[[POS]] : index to i64
// CHECK:        arith.muli %{{.*}}, %[[GAMMA]] : i64
// CHECK:        arith.addi %{{.*}}, %[[SEED]] : i64
// CHECK:        %[[K:.*]] = arith.shrui %{{.*}}, %[[TOP24]] : i64
// CHECK-NEXT:   %[[F:.*]] = arith.sitofp %[[K]] : i64 to f32
// CHECK-NEXT:   %[[U:.*]] = arith.mulf %[[F]], %[[UNIT]] : f32
// CHECK:        %[[S:.*]] = arith.mulf %[[U]], %{{.*}} : f32
// CHECK:        %[[V:.*]] = arith.addf %[[S]], %{{.*}} : f32
// CHECK:        linalg.yield %[[V]] : f32
// CHECK-NOT:  mlc.random_uniform
func.func @uniform_f32() -> tensor<3x4xf32> {
  %0 = "mlc.random_uniform"() {seed = 42 : i64, low = 2.0 : f64, high = 5.0 : f64} : () -> tensor<3x4xf32>
  return %0 : tensor<3x4xf32>
}

// -----

/// f64 (bernoulli's and dropout's uniform): 53 bits.

// CHECK-LABEL: func.func @uniform_f64
// CHECK-DAG:  arith.constant 11 : i64
// CHECK-DAG:  arith.constant 1.1102230246251565E-16 : f64
// CHECK:      arith.sitofp %{{.*}} : i64 to f64
func.func @uniform_f64() -> tensor<8xf64> {
  %0 = "mlc.random_uniform"() {seed = 7 : i64, low = 0.0 : f64, high = 1.0 : f64} : () -> tensor<8xf64>
  return %0 : tensor<8xf64>
}

// -----

/// bf16 normal of a dynamic size: Box-Muller in f32 from two words (counters 2i and
/// 2i + 1), u1 = (k + 1) / 2^24 so that the log never sees 0, then truncated.

// CHECK-LABEL: func.func @normal_bf16_dynamic
// CHECK-SAME: (%[[N:.*]]: index)
// CHECK-DAG:  %[[ONE:.*]] = arith.constant 1 : i64
// CHECK-DAG:  %[[TWO:.*]] = arith.constant 2 : i64
// CHECK-DAG:  %[[TOP24:.*]] = arith.constant 40 : i64
// CHECK:      %[[E:.*]] = tensor.empty(%[[N]]) : tensor<?x16xbf16>
// CHECK:      linalg.generic {{.*}} outs(%[[E]] : tensor<?x16xbf16>)
// CHECK:        arith.muli %{{.*}}, %[[TWO]] : i64
// CHECK:        %[[K:.*]] = arith.shrui %{{.*}}, %[[TOP24]] : i64
// CHECK-NEXT:   %[[K1:.*]] = arith.addi %[[K]], %[[ONE]] : i64
// CHECK-NEXT:   arith.sitofp %[[K1]] : i64 to f32
// CHECK:        math.log
// CHECK:        math.sqrt
// CHECK:        math.cos
// CHECK:        %[[V:.*]] = arith.truncf %{{.*}} : f32 to bf16
// CHECK-NEXT:   linalg.yield %[[V]] : bf16
func.func @normal_bf16_dynamic(%n: index) -> tensor<?x16xbf16> {
  %0 = "mlc.random_normal"(%n) {seed = 3 : i64, mean = 1.0 : f64, std = 2.0 : f64} : (index) -> tensor<?x16xbf16>
  return %0 : tensor<?x16xbf16>
}

// -----

/// Integers on [-3, 10) as i32: the word modulo 13 (unsigned), plus -3, truncated.
/// The dynamic inner size strides the row-major position.

// CHECK-LABEL: func.func @int_i32
// CHECK-SAME: (%[[N:.*]]: index)
// CHECK-DAG:  %[[RANGE:.*]] = arith.constant 13 : i64
// CHECK-DAG:  %[[LOW:.*]] = arith.constant -3 : i64
// CHECK:      linalg.generic
// CHECK:        arith.muli %{{.*}}, %[[N]] : index
// CHECK:        %[[M:.*]] = arith.remui %{{.*}}, %[[RANGE]] : i64
// CHECK-NEXT:   %[[V:.*]] = arith.addi %[[M]], %[[LOW]] : i64
// CHECK-NEXT:   %[[T:.*]] = arith.trunci %[[V]] : i64 to i32
// CHECK-NEXT:   linalg.yield %[[T]] : i32
func.func @int_i32(%n: index) -> tensor<5x?xi32> {
  %0 = "mlc.random_int"(%n) {seed = 1 : i64, low = -3 : i64, high = 10 : i64} : (index) -> tensor<5x?xi32>
  return %0 : tensor<5x?xi32>
}

// -----

/// Integers as floats (randint with dtype=torch.float32).

// CHECK-LABEL: func.func @int_as_f32
// CHECK:        %[[M:.*]] = arith.remui
// CHECK:        arith.sitofp %{{.*}} : i64 to f32
func.func @int_as_f32() -> tensor<5xf32> {
  %0 = "mlc.random_int"() {seed = 1 : i64, low = 0 : i64, high = 10 : i64} : () -> tensor<5xf32>
  return %0 : tensor<5xf32>
}
