// RUN: mlc-opt %s --split-input-file | mlc-opt --split-input-file | FileCheck %s

/// Elementwise ops round-trip through the printer and parser unchanged.

// CHECK-LABEL: func.func @unary
func.func @unary(%x: tensor<2x3xf32>) -> tensor<2x3xf32> {
  // CHECK: "mlc.relu"(%{{.*}}) : (tensor<2x3xf32>) -> tensor<2x3xf32>
  %0 = "mlc.relu"(%x) : (tensor<2x3xf32>) -> tensor<2x3xf32>
  // CHECK: "mlc.exp"
  %1 = "mlc.exp"(%0) : (tensor<2x3xf32>) -> tensor<2x3xf32>
  // CHECK: "mlc.gelu"(%{{.*}}) {approximate = "tanh"}
  %2 = "mlc.gelu"(%1) {approximate = "tanh"} : (tensor<2x3xf32>) -> tensor<2x3xf32>
  // CHECK: "mlc.clamp"(%{{.*}}) {max = 6.000000e+00 : f64, min = 0.000000e+00 : f64}
  %3 = "mlc.clamp"(%2) {min = 0.0 : f64, max = 6.0 : f64} : (tensor<2x3xf32>) -> tensor<2x3xf32>
  // CHECK: "mlc.softplus"(%{{.*}}) {beta = 2.000000e+00 : f64, threshold = 2.000000e+01 : f64}
  %4 = "mlc.softplus"(%3) {beta = 2.0 : f64, threshold = 20.0 : f64} : (tensor<2x3xf32>) -> tensor<2x3xf32>
  return %4 : tensor<2x3xf32>
}

// -----

// CHECK-LABEL: func.func @binary_broadcast
func.func @binary_broadcast(%x: tensor<2x3xf32>, %b: tensor<3xf32>, %s: tensor<f32>) -> tensor<2x3xf32> {
  // CHECK: "mlc.add"(%{{.*}}, %{{.*}}) : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xf32>
  %0 = "mlc.add"(%x, %b) : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xf32>
  // CHECK: "mlc.mul"(%{{.*}}, %{{.*}}) : (tensor<2x3xf32>, tensor<f32>) -> tensor<2x3xf32>
  %1 = "mlc.mul"(%0, %s) : (tensor<2x3xf32>, tensor<f32>) -> tensor<2x3xf32>
  return %1 : tensor<2x3xf32>
}

// -----

// CHECK-LABEL: func.func @dynamic_batch
func.func @dynamic_batch(%x: tensor<?x3xf32>, %b: tensor<1x3xf32>) -> tensor<?x3xf32> {
  // CHECK: "mlc.sub"(%{{.*}}, %{{.*}}) : (tensor<?x3xf32>, tensor<1x3xf32>) -> tensor<?x3xf32>
  %0 = "mlc.sub"(%x, %b) : (tensor<?x3xf32>, tensor<1x3xf32>) -> tensor<?x3xf32>
  return %0 : tensor<?x3xf32>
}

// -----

// CHECK-LABEL: func.func @compare_select
func.func @compare_select(%x: tensor<4xf32>, %y: tensor<4xf32>) -> tensor<4xf32> {
  // CHECK: %[[COND:.*]] = "mlc.compare"(%{{.*}}, %{{.*}}) {predicate = "lt"} : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xi1>
  %c = "mlc.compare"(%x, %y) {predicate = "lt"} : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xi1>
  // CHECK: "mlc.select"(%[[COND]], %{{.*}}, %{{.*}}) : (tensor<4xi1>, tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  %s = "mlc.select"(%c, %x, %y) : (tensor<4xi1>, tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  return %s : tensor<4xf32>
}
