// RUN: not mlc-opt %s --pass-pipeline='builtin.module(torch-func-backend-type-conversion, mlc-convert-torch-to-mlc)' 2>&1 | FileCheck %s

/// negative: unsigned ops mlc's signed ops cannot compute are left to the fallback,
/// each with its reason: uint64 has no wider signed type, an op not known to be right
/// on widened operands (max pooling) stays signed-only, and a 0-d int64 tensor would
/// be wrapped into uint8 by torch's promotion, which widening does not do.

// CHECK: error: 3 torch op(s) of 3 kind(s) have no conversion to mlc:
// CHECK-DAG: torch.aten.minimum  x1  at {{.*}}[uint64: no wider signed type to compute it in]
// CHECK-DAG: torch.aten.max_pool2d  x1  at {{.*}}[unsigned integers: mlc's integer ops are signed]
// CHECK-DAG: torch.aten.maximum  x1  at {{.*}}[an unsigned tensor with a 0-d signed one, which torch wraps into the unsigned type]
func.func @negative_uint64(%arg0: !torch.vtensor<[4],ui64>, %arg1: !torch.vtensor<[4],ui64>) -> !torch.vtensor<[4],ui64> {
  %0 = torch.aten.minimum %arg0, %arg1 : !torch.vtensor<[4],ui64>, !torch.vtensor<[4],ui64> -> !torch.vtensor<[4],ui64>
  return %0 : !torch.vtensor<[4],ui64>
}

func.func @negative_max_pool_uint8(%arg0: !torch.vtensor<[1,1,2,2],ui8>) -> !torch.vtensor<[1,1,1,1],ui8> {
  %int2 = torch.constant.int 2
  %int0 = torch.constant.int 0
  %int1 = torch.constant.int 1
  %false = torch.constant.bool false
  %kernel = torch.prim.ListConstruct %int2, %int2 : (!torch.int, !torch.int) -> !torch.list<int>
  %stride = torch.prim.ListConstruct %int2, %int2 : (!torch.int, !torch.int) -> !torch.list<int>
  %padding = torch.prim.ListConstruct %int0, %int0 : (!torch.int, !torch.int) -> !torch.list<int>
  %dilation = torch.prim.ListConstruct %int1, %int1 : (!torch.int, !torch.int) -> !torch.list<int>
  %0 = torch.aten.max_pool2d %arg0, %kernel, %stride, %padding, %dilation, %false : !torch.vtensor<[1,1,2,2],ui8>, !torch.list<int>, !torch.list<int>, !torch.list<int>, !torch.list<int>, !torch.bool -> !torch.vtensor<[1,1,1,1],ui8>
  return %0 : !torch.vtensor<[1,1,1,1],ui8>
}

func.func @negative_uint8_with_0d_int64(%arg0: !torch.vtensor<[4],ui8>, %arg1: !torch.vtensor<[],si64>) -> !torch.vtensor<[4],ui8> {
  %0 = torch.aten.maximum %arg0, %arg1 : !torch.vtensor<[4],ui8>, !torch.vtensor<[],si64> -> !torch.vtensor<[4],ui8>
  return %0 : !torch.vtensor<[4],ui8>
}
