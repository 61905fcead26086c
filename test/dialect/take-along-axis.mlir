// RUN: mlc-opt %s --split-input-file | mlc-opt --split-input-file | FileCheck %s

/// mlc.take_along_axis (torch.gather) round-trips: indices of the input's rank, the
/// result has the indices' shape; along the axis the indices may be longer than the
/// input, and sizes may be dynamic.

// CHECK-LABEL: func.func @take_along_axis
func.func @take_along_axis(%x: tensor<4x5x6xf32>, %i: tensor<4x3x6xi64>, %longer: tensor<4x9x6xi32>) -> (tensor<4x3x6xf32>, tensor<4x9x6xf32>) {
  // CHECK: "mlc.take_along_axis"(%{{.*}}, %{{.*}}) {axis = 1 : i64} : (tensor<4x5x6xf32>, tensor<4x3x6xi64>) -> tensor<4x3x6xf32>
  %0 = "mlc.take_along_axis"(%x, %i) {axis = 1 : i64} : (tensor<4x5x6xf32>, tensor<4x3x6xi64>) -> tensor<4x3x6xf32>
  // CHECK: "mlc.take_along_axis"(%{{.*}}, %{{.*}}) {axis = 1 : i64} : (tensor<4x5x6xf32>, tensor<4x9x6xi32>) -> tensor<4x9x6xf32>
  %1 = "mlc.take_along_axis"(%x, %longer) {axis = 1 : i64} : (tensor<4x5x6xf32>, tensor<4x9x6xi32>) -> tensor<4x9x6xf32>
  return %0, %1 : tensor<4x3x6xf32>, tensor<4x9x6xf32>
}

// -----

/// A negative axis counts from the end; indices smaller than the input off the axis.

// CHECK-LABEL: func.func @take_along_last_axis_dynamic
func.func @take_along_last_axis_dynamic(%x: tensor<?x8xf32>, %i: tensor<?x2xi32>, %s: tensor<4x8xi64>, %j: tensor<2x3xi64>) -> (tensor<?x2xf32>, tensor<2x3xi64>) {
  // CHECK: "mlc.take_along_axis"(%{{.*}}, %{{.*}}) {axis = -1 : i64} : (tensor<?x8xf32>, tensor<?x2xi32>) -> tensor<?x2xf32>
  %0 = "mlc.take_along_axis"(%x, %i) {axis = -1 : i64} : (tensor<?x8xf32>, tensor<?x2xi32>) -> tensor<?x2xf32>
  // CHECK: "mlc.take_along_axis"(%{{.*}}, %{{.*}}) {axis = 0 : i64} : (tensor<4x8xi64>, tensor<2x3xi64>) -> tensor<2x3xi64>
  %1 = "mlc.take_along_axis"(%s, %j) {axis = 0 : i64} : (tensor<4x8xi64>, tensor<2x3xi64>) -> tensor<2x3xi64>
  return %0, %1 : tensor<?x2xf32>, tensor<2x3xi64>
}
