// RUN: not mlc-opt %s --split-input-file --pass-pipeline='builtin.module(torch-func-backend-type-conversion, mlc-convert-torch-to-mlc)' 2>&1 | FileCheck %s

/// negative: an assertion mlc cannot prove stays, and is reported with its message:
/// bincount's length is at least its minlength 7, not at least 8.

// CHECK: error: 5 torch op(s) of 5 kind(s) have no conversion to mlc:
// CHECK: torch.runtime.assert  x1  at {{.*}}[a run-time assertion mlc cannot prove at compile time: Runtime assertion failed for expression u0 >= 8]
func.func @negative_assertion_beyond_minlength(%arg0: !torch.vtensor<[4],si64>) -> !torch.vtensor<[?],si64> {
  %none = torch.constant.none
  %int0 = torch.constant.int 0
  %int7 = torch.constant.int 7
  %int8 = torch.constant.int 8
  %0 = torch.aten.bincount %arg0, %none, %int7 : !torch.vtensor<[4],si64>, !torch.none, !torch.int -> !torch.vtensor<[?],si64>
  %1 = torch.aten.size.int %0, %int0 : !torch.vtensor<[?],si64>, !torch.int -> !torch.int
  %2 = torch.aten.ge.int %1, %int8 : !torch.int, !torch.int -> !torch.bool
  %3 = torch.aten.Int.bool %2 : !torch.bool -> !torch.int
  %4 = torch.aten.Bool.int %3 : !torch.int -> !torch.bool
  torch.runtime.assert %4, "Runtime assertion failed for expression u0 >= 8"
  return %0 : !torch.vtensor<[?],si64>
}

// -----

/// negative: a negative minlength (torch raises) is declined.

// CHECK: error: 1 torch op(s) of 1 kind(s) have no conversion to mlc:
// CHECK: torch.aten.bincount  x1  at {{.*}}[bincount with a negative minlength (-1): torch raises]
func.func @negative_minlength(%arg0: !torch.vtensor<[4],si64>) -> !torch.vtensor<[?],si64> {
  %none = torch.constant.none
  %int-1 = torch.constant.int -1
  %0 = torch.aten.bincount %arg0, %none, %int-1 : !torch.vtensor<[4],si64>, !torch.none, !torch.int -> !torch.vtensor<[?],si64>
  return %0 : !torch.vtensor<[?],si64>
}

// -----

/// negative: booleans are declined (torch counts integers only).

// CHECK: error: 1 torch op(s) of 1 kind(s) have no conversion to mlc:
// CHECK: torch.aten.bincount  x1  at {{.*}}[bincount of tensor<4xi1>: torch counts 1-D integers only]
func.func @negative_booleans(%arg0: !torch.vtensor<[4],i1>) -> !torch.vtensor<[?],si64> {
  %none = torch.constant.none
  %int0 = torch.constant.int 0
  %0 = torch.aten.bincount %arg0, %none, %int0 : !torch.vtensor<[4],i1>, !torch.none, !torch.int -> !torch.vtensor<[?],si64>
  return %0 : !torch.vtensor<[?],si64>
}
