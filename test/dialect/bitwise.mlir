// RUN: mlc-opt %s | mlc-opt | FileCheck %s

/// Bitwise ops round-trip, with broadcasting, on integers and bools.

// CHECK-LABEL: func.func @bitwise
func.func @bitwise(%a: tensor<2x3xi32>, %b: tensor<3xi32>, %p: tensor<4xi1>, %q: tensor<4xi1>) -> (tensor<2x3xi32>, tensor<2x3xi32>, tensor<4xi1>) {
  // CHECK: "mlc.bitwise_and"(%{{.*}}, %{{.*}}) : (tensor<2x3xi32>, tensor<3xi32>) -> tensor<2x3xi32>
  %0 = "mlc.bitwise_and"(%a, %b) : (tensor<2x3xi32>, tensor<3xi32>) -> tensor<2x3xi32>
  // CHECK: "mlc.shift_right"(%{{.*}}, %{{.*}}) : (tensor<2x3xi32>, tensor<3xi32>) -> tensor<2x3xi32>
  %1 = "mlc.shift_right"(%0, %b) : (tensor<2x3xi32>, tensor<3xi32>) -> tensor<2x3xi32>
  // CHECK: "mlc.bitwise_xor"(%{{.*}}, %{{.*}}) : (tensor<4xi1>, tensor<4xi1>) -> tensor<4xi1>
  %2 = "mlc.bitwise_xor"(%p, %q) : (tensor<4xi1>, tensor<4xi1>) -> tensor<4xi1>
  return %0, %1, %2 : tensor<2x3xi32>, tensor<2x3xi32>, tensor<4xi1>
}
