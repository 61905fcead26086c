// RUN: mlc-opt %s --split-input-file | mlc-opt --split-input-file | FileCheck %s

/// mlc.update_slice round-trips: a block of `update` written into `input` along
/// `axis` from the run-time offset, from `start` along the other dimensions.

// CHECK-LABEL: func.func @cache_row
func.func @cache_row(%cache: tensor<1x12x96x64xf32>, %row: tensor<1x12x1x64xf32>, %at: tensor<i64>) -> tensor<1x12x96x64xf32> {
  // CHECK: "mlc.update_slice"(%{{.*}}, %{{.*}}, %{{.*}}) {axis = 2 : i64, start = array<i64: 0, 0, 0, 0>} : (tensor<1x12x96x64xf32>, tensor<1x12x1x64xf32>, tensor<i64>) -> tensor<1x12x96x64xf32>
  %0 = "mlc.update_slice"(%cache, %row, %at) {axis = 2 : i64, start = array<i64: 0, 0, 0, 0>} : (tensor<1x12x96x64xf32>, tensor<1x12x1x64xf32>, tensor<i64>) -> tensor<1x12x96x64xf32>
  return %0 : tensor<1x12x96x64xf32>
}

// -----

/// A block inside the other dimensions too; i32 offset, integer elements.

// CHECK-LABEL: func.func @inner_block
func.func @inner_block(%x: tensor<4x10xi64>, %u: tensor<2x3xi64>, %at: tensor<i32>) -> tensor<4x10xi64> {
  // CHECK: "mlc.update_slice"(%{{.*}}, %{{.*}}, %{{.*}}) {axis = 1 : i64, start = array<i64: 2, 0>}
  %0 = "mlc.update_slice"(%x, %u, %at) {axis = 1 : i64, start = array<i64: 2, 0>} : (tensor<4x10xi64>, tensor<2x3xi64>, tensor<i32>) -> tensor<4x10xi64>
  return %0 : tensor<4x10xi64>
}
