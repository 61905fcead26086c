// RUN: mlc-opt %s --split-input-file --pass-pipeline='builtin.module(torch-func-backend-type-conversion, mlc-convert-torch-to-mlc, func.func(torch-finalizing-backend-type-conversion))' | FileCheck %s

/// bincount -> mlc.bincount; the size query torch.export leaves on its result dies.

// CHECK-LABEL: func.func @bincount_counts
// CHECK-SAME: (%[[X:.*]]: tensor<4xi64>)
// CHECK: %[[B:.*]] = "mlc.bincount"(%[[X]]) {minlength = 0 : i64} : (tensor<4xi64>) -> tensor<?xi64>
// CHECK: return %[[B]]
// CHECK-NOT: torch.
func.func @bincount_counts(%arg0: !torch.vtensor<[4],si64>) -> !torch.vtensor<[?],si64> {
  %none = torch.constant.none
  %int0 = torch.constant.int 0
  %0 = torch.aten.bincount %arg0, %none, %int0 : !torch.vtensor<[4],si64>, !torch.none, !torch.int -> !torch.vtensor<[?],si64>
  %1 = torch.aten.size.int %0, %int0 : !torch.vtensor<[?],si64>, !torch.int -> !torch.int
  return %0 : !torch.vtensor<[?],si64>
}

// -----

/// f16 weights count in f64, as torch declares: a cast first. torch.export's
/// assertion "u0 >= 7" on the length holds (it is at least minlength): dropped.

// CHECK-LABEL: func.func @bincount_weights_minlength
// CHECK-SAME: (%[[X:.*]]: tensor<4xi64>, %[[W:.*]]: tensor<4xf16>)
// CHECK: %[[W64:.*]] = "mlc.cast"(%[[W]]) : (tensor<4xf16>) -> tensor<4xf64>
// CHECK: %[[B:.*]] = "mlc.bincount"(%[[X]], %[[W64]]) {minlength = 7 : i64} : (tensor<4xi64>, tensor<4xf64>) -> tensor<?xf64>
// CHECK: return %[[B]]
// CHECK-NOT: torch.
func.func @bincount_weights_minlength(%arg0: !torch.vtensor<[4],si64>, %arg1: !torch.vtensor<[4],f16>) -> !torch.vtensor<[?],f64> {
  %int0 = torch.constant.int 0
  %int7 = torch.constant.int 7
  %0 = torch.aten.bincount %arg0, %arg1, %int7 : !torch.vtensor<[4],si64>, !torch.vtensor<[4],f16>, !torch.int -> !torch.vtensor<[?],f64>
  %1 = torch.aten.size.int %0, %int0 : !torch.vtensor<[?],f64>, !torch.int -> !torch.int
  %2 = torch.aten.ge.int %1, %int7 : !torch.int, !torch.int -> !torch.bool
  %3 = torch.aten.Int.bool %2 : !torch.bool -> !torch.int
  %4 = torch.aten.Bool.int %3 : !torch.int -> !torch.bool
  torch.runtime.assert %4, "Runtime assertion failed for expression u0 >= 7 on node 'ge_1'"
  return %0 : !torch.vtensor<[?],f64>
}

// -----

/// f32 weights count in f32: no cast. A size is never negative: "u0 >= 0" is dropped.

// CHECK-LABEL: func.func @bincount_f32_weights
// CHECK-NOT: mlc.cast
// CHECK: "mlc.bincount"(%{{.*}}, %{{.*}}) {minlength = 0 : i64} : (tensor<5xi32>, tensor<5xf32>) -> tensor<?xf32>
// CHECK-NOT: torch.
func.func @bincount_f32_weights(%arg0: !torch.vtensor<[5],si32>, %arg1: !torch.vtensor<[5],f32>) -> !torch.vtensor<[?],f32> {
  %int0 = torch.constant.int 0
  %0 = torch.aten.bincount %arg0, %arg1, %int0 : !torch.vtensor<[5],si32>, !torch.vtensor<[5],f32>, !torch.int -> !torch.vtensor<[?],f32>
  %1 = torch.aten.size.int %0, %int0 : !torch.vtensor<[?],f32>, !torch.int -> !torch.int
  %2 = torch.aten.ge.int %1, %int0 : !torch.int, !torch.int -> !torch.bool
  %3 = torch.aten.Int.bool %2 : !torch.bool -> !torch.int
  %4 = torch.aten.Bool.int %3 : !torch.int -> !torch.bool
  torch.runtime.assert %4, "Runtime assertion failed for expression u0 >= 0 on node 'ge'"
  return %0 : !torch.vtensor<[?],f32>
}
