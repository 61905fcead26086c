// RUN: mlc-opt %s --split-input-file --pass-pipeline='builtin.module(torch-func-backend-type-conversion, mlc-convert-torch-to-mlc, func.func(torch-finalizing-backend-type-conversion))' | FileCheck %s

/// torch's random ops as torch.export and torch-mlir give them. Each op's seed is
/// drawn from torch's generator as it is converted: the checks match any seed.

/// x.uniform_(2, 5), and torch.rand_like(x) twice: two ops, two seeds.

// CHECK-LABEL: func.func @uniform
// CHECK:      %[[A:.*]] = "mlc.random_uniform"() {high = 5.000000e+00 : f64, low = 2.000000e+00 : f64, seed = {{-?[0-9]+}} : i64} : () -> tensor<3x4xf32>
// CHECK:      "mlc.random_uniform"() {high = 1.000000e+00 : f64, low = 0.000000e+00 : f64, seed = [[SEED:-?[0-9]+]] : i64} : () -> tensor<3x4xf32>
// CHECK-NOT:  seed = [[SEED]] :
// CHECK:      "mlc.random_uniform"() {high = 1.000000e+00 : f64, low = 0.000000e+00 : f64, seed = {{-?[0-9]+}} : i64} : () -> tensor<3x4xf32>
// CHECK-NOT:  torch.aten.uniform
func.func @uniform(%arg0: !torch.vtensor<[3,4],f32>) -> (!torch.vtensor<[3,4],f32>, !torch.vtensor<[3,4],f32>, !torch.vtensor<[3,4],f32>) {
  %none = torch.constant.none
  %float0 = torch.constant.float 0.000000e+00
  %float1 = torch.constant.float 1.000000e+00
  %float2 = torch.constant.float 2.000000e+00
  %float5 = torch.constant.float 5.000000e+00
  %0 = torch.aten.uniform %arg0, %float2, %float5, %none : !torch.vtensor<[3,4],f32>, !torch.float, !torch.float, !torch.none -> !torch.vtensor<[3,4],f32>
  %1 = torch.aten.uniform %arg0, %float0, %float1, %none : !torch.vtensor<[3,4],f32>, !torch.float, !torch.float, !torch.none -> !torch.vtensor<[3,4],f32>
  %2 = torch.aten.uniform %arg0, %float0, %float1, %none : !torch.vtensor<[3,4],f32>, !torch.float, !torch.float, !torch.none -> !torch.vtensor<[3,4],f32>
  return %0, %1, %2 : !torch.vtensor<[3,4],f32>, !torch.vtensor<[3,4],f32>, !torch.vtensor<[3,4],f32>
}

// -----

/// torch.bernoulli(x, 0.3), as torch-mlir decomposes it: an f64 uniform below p.

// CHECK-LABEL: func.func @bernoulli
// CHECK:      %[[U:.*]] = "mlc.random_uniform"() {{.*}} : () -> tensor<3x4xf64>
// CHECK:      %[[B:.*]] = "mlc.compare"(%[[U]], %{{.*}}) {predicate = "lt"}
// CHECK:      "mlc.cast"(%[[B]]) : (tensor<3x4xi1>) -> tensor<3x4xf32>
func.func @bernoulli(%arg0: !torch.vtensor<[3,4],f32>) -> !torch.vtensor<[3,4],f32> {
  %p = torch.vtensor.literal(dense<3.000000e-01> : tensor<f64>) : !torch.vtensor<[],f64>
  %int6 = torch.constant.int 6
  %int7 = torch.constant.int 7
  %false = torch.constant.bool false
  %none = torch.constant.none
  %float0 = torch.constant.float 0.000000e+00
  %float1 = torch.constant.float 1.000000e+00
  %0 = torch.aten.to.dtype %arg0, %int7, %false, %false, %none : !torch.vtensor<[3,4],f32>, !torch.int, !torch.bool, !torch.bool, !torch.none -> !torch.vtensor<[3,4],f64>
  %1 = torch.aten.uniform %0, %float0, %float1, %none : !torch.vtensor<[3,4],f64>, !torch.float, !torch.float, !torch.none -> !torch.vtensor<[3,4],f64>
  %2 = torch.aten.lt.Tensor %1, %p : !torch.vtensor<[3,4],f64>, !torch.vtensor<[],f64> -> !torch.vtensor<[3,4],i1>
  %3 = torch.aten.to.dtype %2, %int6, %false, %false, %none : !torch.vtensor<[3,4],i1>, !torch.int, !torch.bool, !torch.bool, !torch.none -> !torch.vtensor<[3,4],f32>
  return %3 : !torch.vtensor<[3,4],f32>
}

// -----

/// torch.randn(3, 4), torch.randn_like(x) and x.normal_(1, 2) of a dynamic x: kept
/// whole by torch-mlir; the dynamic size is x's.

// CHECK-LABEL: func.func @normal
// CHECK-SAME: (%[[X:.*]]: tensor<?x4xf32>)
// CHECK:      "mlc.random_normal"() {mean = 0.000000e+00 : f64, seed = {{-?[0-9]+}} : i64, std = 1.000000e+00 : f64} : () -> tensor<3x4xf32>
// CHECK:      %[[N:.*]] = tensor.dim %[[X]], %{{.*}} : tensor<?x4xf32>
// CHECK:      "mlc.random_normal"(%[[N]]) {mean = 0.000000e+00 : f64, seed = {{-?[0-9]+}} : i64, std = 1.000000e+00 : f64} : (index) -> tensor<?x4xf32>
// CHECK:      "mlc.random_normal"(%{{.*}}) {mean = 1.000000e+00 : f64, seed = {{-?[0-9]+}} : i64, std = 2.000000e+00 : f64} : (index) -> tensor<?x4xf32>
func.func @normal(%arg0: !torch.vtensor<[?,4],f32>) -> (!torch.vtensor<[3,4],f32>, !torch.vtensor<[?,4],f32>, !torch.vtensor<[?,4],f32>) {
  %float1 = torch.constant.float 1.000000e+00
  %float2 = torch.constant.float 2.000000e+00
  %false = torch.constant.bool false
  %none = torch.constant.none
  %int3 = torch.constant.int 3
  %int4 = torch.constant.int 4
  %cpu = torch.constant.device "cpu"
  %sizes = torch.prim.ListConstruct %int3, %int4 : (!torch.int, !torch.int) -> !torch.list<int>
  %0 = torch.aten.randn %sizes, %none, %none, %cpu, %false : !torch.list<int>, !torch.none, !torch.none, !torch.Device, !torch.bool -> !torch.vtensor<[3,4],f32>
  %1 = torch.aten.randn_like %arg0, %none, %none, %none, %false, %none : !torch.vtensor<[?,4],f32>, !torch.none, !torch.none, !torch.none, !torch.bool, !torch.none -> !torch.vtensor<[?,4],f32>
  %2 = torch.aten.normal_functional %arg0, %float1, %float2, %none : !torch.vtensor<[?,4],f32>, !torch.float, !torch.float, !torch.none -> !torch.vtensor<[?,4],f32>
  return %0, %1, %2 : !torch.vtensor<[3,4],f32>, !torch.vtensor<[?,4],f32>, !torch.vtensor<[?,4],f32>
}

// -----

/// torch.rand_like(x) of a dynamic x, as torch-mlir gives it: the uniform of a
/// broadcast zero takes its size from the size list; the broadcast is dead.

// CHECK-LABEL: func.func @uniform_of_broadcast
// CHECK-SAME: (%[[X:.*]]: tensor<?x4xf32>)
// CHECK:      %[[N:.*]] = tensor.dim %[[X]], %{{.*}} : tensor<?x4xf32>
// CHECK-NEXT: %[[R:.*]] = "mlc.random_uniform"(%[[N]]) {{.*}} : (index) -> tensor<?x4xf32>
// CHECK-NEXT: return %[[R]]
func.func @uniform_of_broadcast(%arg0: !torch.vtensor<[?,4],f32>) -> !torch.vtensor<[?,4],f32> {
  %int0 = torch.constant.int 0
  %int4 = torch.constant.int 4
  %none = torch.constant.none
  %float0 = torch.constant.float 0.000000e+00
  %float1 = torch.constant.float 1.000000e+00
  %zero = torch.vtensor.literal(dense<0.000000e+00> : tensor<f32>) : !torch.vtensor<[],f32>
  %n = torch.aten.size.int %arg0, %int0 : !torch.vtensor<[?,4],f32>, !torch.int -> !torch.int
  %sizes = torch.prim.ListConstruct %n, %int4 : (!torch.int, !torch.int) -> !torch.list<int>
  %0 = torch.aten.broadcast_to %zero, %sizes : !torch.vtensor<[],f32>, !torch.list<int> -> !torch.vtensor<[?,4],f32>
  %1 = torch.aten.uniform %0, %float0, %float1, %none : !torch.vtensor<[?,4],f32>, !torch.float, !torch.float, !torch.none -> !torch.vtensor<[?,4],f32>
  return %1 : !torch.vtensor<[?,4],f32>
}

// -----

/// torch.randint(2, 9, (3, 4)) and torch.randint(10, (5,), dtype=torch.float32).

// CHECK-LABEL: func.func @randint
// CHECK:      "mlc.random_int"() {high = 9 : i64, low = 2 : i64, seed = {{-?[0-9]+}} : i64} : () -> tensor<3x4xi64>
// CHECK:      "mlc.random_int"() {high = 10 : i64, low = 0 : i64, seed = {{-?[0-9]+}} : i64} : () -> tensor<5xf32>
func.func @randint() -> (!torch.vtensor<[3,4],si64>, !torch.vtensor<[5],f32>) {
  %int2 = torch.constant.int 2
  %int3 = torch.constant.int 3
  %int4 = torch.constant.int 4
  %int5 = torch.constant.int 5
  %int6 = torch.constant.int 6
  %int9 = torch.constant.int 9
  %int10 = torch.constant.int 10
  %false = torch.constant.bool false
  %none = torch.constant.none
  %cpu = torch.constant.device "cpu"
  %sizes = torch.prim.ListConstruct %int3, %int4 : (!torch.int, !torch.int) -> !torch.list<int>
  %0 = torch.aten.randint.low %int2, %int9, %sizes, %int4, %none, %cpu, %false : !torch.int, !torch.int, !torch.list<int>, !torch.int, !torch.none, !torch.Device, !torch.bool -> !torch.vtensor<[3,4],si64>
  %five = torch.prim.ListConstruct %int5 : (!torch.int) -> !torch.list<int>
  %1 = torch.aten.randint %int10, %five, %int6, %none, %cpu, %false : !torch.int, !torch.list<int>, !torch.int, !torch.none, !torch.Device, !torch.bool -> !torch.vtensor<[5],f32>
  return %0, %1 : !torch.vtensor<[3,4],si64>, !torch.vtensor<[5],f32>
}
