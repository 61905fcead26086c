// RUN: mlc-opt %s --split-input-file --pass-pipeline='builtin.module(torch-func-backend-type-conversion, mlc-convert-torch-to-mlc, func.func(torch-finalizing-backend-type-conversion))' | FileCheck %s

/// adaptive max pooling with its indices used, over uneven windows: the plane
/// flattened, every output's window gathered at constant flat positions, an argmax
/// over the window, the value taken there and the position looked up in the table.
/// (Equal windows are mlc.max_pool_nd + mlc.max_pool_indices, see pooling-nd.mlir;
/// a dynamic batch declines, see pooling-nd-declined.mlir.)

/// 8 -> 3: windows [0, 3), [2, 6), [5, 8), the short ones repeating their last position.

// CHECK-LABEL: func.func @adaptive_max_pool1d_8_to_3
// CHECK-SAME: (%[[X:.*]]: tensor<2x4x8xf32>)
// CHECK-DAG: %[[TABLE:.*]] = "mlc.constant"() {value = dense<{{\[\[}}0, 1, 2, 2], [2, 3, 4, 5], [5, 6, 7, 7]]> : tensor<3x4xi32>}
// CHECK: %[[WINDOWS:.*]] = "mlc.gather"(%[[X]], %[[TABLE]]) {axis = 2 : i64} : (tensor<2x4x8xf32>, tensor<3x4xi32>) -> tensor<2x4x3x4xf32>
// CHECK: %[[ARG:.*]] = "mlc.argmax"(%[[WINDOWS]]) {axis = 3 : i64, keepdim = true} : (tensor<2x4x3x4xf32>) -> tensor<2x4x3x1xi64>
// CHECK: %[[VALUES:.*]] = "mlc.take_along_axis"(%[[WINDOWS]], %[[ARG]]) {axis = 3 : i64}
// CHECK: %[[AT:.*]] = "mlc.add"(%[[ARG]], %{{.*}}) : (tensor<2x4x3x1xi64>, tensor<3x1xi64>) -> tensor<2x4x3x1xi64>
// CHECK: %[[POS:.*]] = "mlc.gather"(%{{.*}}, %[[AT]]) {axis = 0 : i64} : (tensor<12xi64>, tensor<2x4x3x1xi64>) -> tensor<2x4x3x1xi64>
// CHECK-DAG: %[[V:.*]] = "mlc.reshape"(%[[VALUES]]) : (tensor<2x4x3x1xf32>) -> tensor<2x4x3xf32>
// CHECK-DAG: %[[I:.*]] = "mlc.reshape"(%[[POS]]) : (tensor<2x4x3x1xi64>) -> tensor<2x4x3xi64>
// CHECK: return %[[V]], %[[I]]
// CHECK-NOT: torch.aten
func.func @adaptive_max_pool1d_8_to_3(%x: !torch.vtensor<[2,4,8],f32>) -> (!torch.vtensor<[2,4,3],f32>, !torch.vtensor<[2,4,3],si64>) {
  %int3 = torch.constant.int 3
  %size = torch.prim.ListConstruct %int3 : (!torch.int) -> !torch.list<int>
  %0:2 = torch.aten.adaptive_max_pool1d %x, %size : !torch.vtensor<[2,4,8],f32>, !torch.list<int> -> !torch.vtensor<[2,4,3],f32>, !torch.vtensor<[2,4,3],si64>
  return %0#0, %0#1 : !torch.vtensor<[2,4,3],f32>, !torch.vtensor<[2,4,3],si64>
}

// -----

/// 2-D, 3x3 -> 2x2: windows rows {0,1},{1,2} by columns {0,1},{1,2}, flat row-major.

// CHECK-LABEL: func.func @adaptive_max_pool2d_unbatched
// CHECK-SAME: (%[[X:.*]]: tensor<2x3x3xf32>)
// CHECK-DAG: %[[FLAT:.*]] = "mlc.reshape"(%[[X]]) : (tensor<2x3x3xf32>) -> tensor<2x9xf32>
// CHECK-DAG: %[[TABLE:.*]] = "mlc.constant"() {value = dense<{{\[\[\[}}0, 1, 3, 4], [1, 2, 4, 5]], {{\[\[}}3, 4, 6, 7], [4, 5, 7, 8]]]> : tensor<2x2x4xi32>}
// CHECK: "mlc.gather"(%[[FLAT]], %[[TABLE]]) {axis = 1 : i64} : (tensor<2x9xf32>, tensor<2x2x4xi32>) -> tensor<2x2x2x4xf32>
// CHECK: "mlc.argmax"({{.*}}) {axis = 3 : i64, keepdim = true}
// CHECK-NOT: torch.aten
func.func @adaptive_max_pool2d_unbatched(%x: !torch.vtensor<[2,3,3],f32>) -> (!torch.vtensor<[2,2,2],f32>, !torch.vtensor<[2,2,2],si64>) {
  %int2 = torch.constant.int 2
  %size = torch.prim.ListConstruct %int2, %int2 : (!torch.int, !torch.int) -> !torch.list<int>
  %0:2 = torch.aten.adaptive_max_pool2d %x, %size : !torch.vtensor<[2,3,3],f32>, !torch.list<int> -> !torch.vtensor<[2,2,2],f32>, !torch.vtensor<[2,2,2],si64>
  return %0#0, %0#1 : !torch.vtensor<[2,2,2],f32>, !torch.vtensor<[2,2,2],si64>
}
