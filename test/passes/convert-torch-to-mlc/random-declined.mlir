// RUN: not mlc-opt %s --pass-pipeline='builtin.module(torch-func-backend-type-conversion, mlc-convert-torch-to-mlc)' 2>&1 | FileCheck %s

/// negative: a reversed range, a negative std and a bound known only at run time
/// stay torch ops, each with its reason (the size randint reads stays with it); so does
/// dropout's gradient with a mask broadcast to it.

// CHECK: error: 5 torch op(s) of 5 kind(s) have no conversion to mlc:
// CHECK-DAG: torch.aten.native_dropout_backward  x1  at {{.*}}[native_dropout_backward with a broadcast mask]
// CHECK-DAG: torch.aten.normal_functional  x1  at {{.*}}[normal_ with a negative std (-1.0)]
// CHECK-DAG: torch.aten.randint            x1  at {{.*}}[operand 'high' must be a constant (torch.constant.int)]
// CHECK-DAG: torch.aten.uniform            x1  at {{.*}}[uniform_ of an empty range [5.0, 2.0)]
func.func @negative_random(%arg0: !torch.vtensor<[?,4],f32>, %grad: !torch.vtensor<[5],f32>, %mask: !torch.vtensor<[1],i1>) -> (!torch.vtensor<[?,4],f32>, !torch.vtensor<[?,4],f32>, !torch.vtensor<[5],si64>, !torch.vtensor<[5],f32>) {
  %none = torch.constant.none
  %false = torch.constant.bool false
  %int0 = torch.constant.int 0
  %int4 = torch.constant.int 4
  %int5 = torch.constant.int 5
  %float2 = torch.constant.float 2.000000e+00
  %float5 = torch.constant.float 5.000000e+00
  %float-1 = torch.constant.float -1.000000e+00
  %cpu = torch.constant.device "cpu"
  %0 = torch.aten.uniform %arg0, %float5, %float2, %none : !torch.vtensor<[?,4],f32>, !torch.float, !torch.float, !torch.none -> !torch.vtensor<[?,4],f32>
  %1 = torch.aten.normal_functional %arg0, %float2, %float-1, %none : !torch.vtensor<[?,4],f32>, !torch.float, !torch.float, !torch.none -> !torch.vtensor<[?,4],f32>
  %n = torch.aten.size.int %arg0, %int0 : !torch.vtensor<[?,4],f32>, !torch.int -> !torch.int
  %five = torch.prim.ListConstruct %int5 : (!torch.int) -> !torch.list<int>
  %2 = torch.aten.randint %n, %five, %int4, %none, %cpu, %false : !torch.int, !torch.list<int>, !torch.int, !torch.none, !torch.Device, !torch.bool -> !torch.vtensor<[5],si64>
  %3 = torch.aten.native_dropout_backward %grad, %mask, %float2 : !torch.vtensor<[5],f32>, !torch.vtensor<[1],i1>, !torch.float -> !torch.vtensor<[5],f32>
  return %0, %1, %2, %3 : !torch.vtensor<[?,4],f32>, !torch.vtensor<[?,4],f32>, !torch.vtensor<[5],si64>, !torch.vtensor<[5],f32>
}
