// RUN: mlc-opt %s --pass-pipeline='builtin.module(mlc-attention-views)' | FileCheck %s

/// Self-attention reads one value three times: the views that cut its heads out are
/// erased once, after all three operands read the source in place (erasing them per
/// operand read an erased op's result again, and crashed: random programs, seed 165005).

// CHECK-LABEL: func.func @one_value_three_times
// CHECK-SAME:    (%[[X:.*]]: tensor<2x12x16xf32>)
// CHECK-NOT:   mlc.transpose
// CHECK-NOT:   mlc.reshape
// CHECK:       %[[O:.*]] = "mlc.attention"(%[[X]], %[[X]], %[[X]], %{{.*}}) {bf16_products = false, library = true, scale = 1.000000e+00 : f64, views = array<i64: 12, 8, {{.*}}>, zero_masked_rows = true, zero_masked_tail = false}
// CHECK-NEXT:  return %[[O]]
func.func @one_value_three_times(%x: tensor<2x12x16xf32>) -> tensor<4x12x8xf32> {
  %none = "mlc.constant"() {value = dense<0.000000e+00> : tensor<f32>} : () -> tensor<f32>
  %split = "mlc.reshape"(%x) : (tensor<2x12x16xf32>) -> tensor<2x12x2x8xf32>
  %heads = "mlc.transpose"(%split) {permutation = array<i64: 0, 2, 1, 3>} : (tensor<2x12x2x8xf32>) -> tensor<2x2x12x8xf32>
  %qkv = "mlc.reshape"(%heads) : (tensor<2x2x12x8xf32>) -> tensor<4x12x8xf32>
  %o = "mlc.attention"(%qkv, %qkv, %qkv, %none) {bf16_products = false, library = true, scale = 1.000000e+00 : f64, views = array<i64>, zero_masked_rows = true, zero_masked_tail = false} : (tensor<4x12x8xf32>, tensor<4x12x8xf32>, tensor<4x12x8xf32>, tensor<f32>) -> tensor<4x12x8xf32>
  return %o : tensor<4x12x8xf32>
}
