// RUN: not mlc-opt %s --split-input-file --pass-pipeline='builtin.module(torch-func-backend-type-conversion, mlc-convert-torch-to-mlc)' 2>&1 | FileCheck %s

/// negative: sizes computed at run time that mlc cannot express are reported with
/// their reason (and the op stays), never converted wrongly.

/// x[-2:n] with n = x.size(0): a start from the end up to a computed limit.
// CHECK: torch.aten.slice.Tensor  x1  at model.py:4  [a slice from the end up to a computed size]
func.func @slice_from_end_to_computed(%arg0: !torch.vtensor<[?,8],f32>) -> !torch.vtensor<[?,8],f32> {
  %int0 = torch.constant.int 0
  %int-2 = torch.constant.int -2
  %int1 = torch.constant.int 1
  %n = torch.aten.size.int %arg0, %int0 : !torch.vtensor<[?,8],f32>, !torch.int -> !torch.int
  %0 = torch.aten.slice.Tensor %arg0, %int0, %int-2, %n, %int1 : !torch.vtensor<[?,8],f32>, !torch.int, !torch.int, !torch.int, !torch.int -> !torch.vtensor<[?,8],f32> loc("model.py":4:0)
  return %0 : !torch.vtensor<[?,8],f32>
}

// -----

/// arange(0, -n, -1): a decreasing range whose length is computed at run time.
// CHECK: torch.aten.arange.start_step  x1  at model.py:5  [a decreasing range of computed length]
func.func @decreasing_arange(%arg0: !torch.vtensor<[?],f32>) -> !torch.vtensor<[?],si64> {
  %int0 = torch.constant.int 0
  %int-1 = torch.constant.int -1
  %none = torch.constant.none
  %n = torch.aten.size.int %arg0, %int0 : !torch.vtensor<[?],f32>, !torch.int -> !torch.int
  %minus_n = torch.aten.neg.int %n : !torch.int -> !torch.int
  %0 = torch.aten.arange.start_step %int0, %minus_n, %int-1, %none, %none, %none, %none : !torch.int, !torch.int, !torch.int, !torch.none, !torch.none, !torch.none, !torch.none -> !torch.vtensor<[?],si64> loc("model.py":5:0)
  return %0 : !torch.vtensor<[?],si64>
}

// -----

/// A view whose dynamic size is computed by an op mlc's size arithmetic does not
/// know (a modulo).
// CHECK: torch.aten.view  x1  at model.py:6  [a size computed by torch.aten.remainder.int]
func.func @view_of_unknown_size_arithmetic(%arg0: !torch.vtensor<[?,8],f32>) -> !torch.vtensor<[?,8],f32> {
  %int0 = torch.constant.int 0
  %int8 = torch.constant.int 8
  %int3 = torch.constant.int 3
  %n = torch.aten.size.int %arg0, %int0 : !torch.vtensor<[?,8],f32>, !torch.int -> !torch.int
  %m = torch.aten.remainder.int %n, %int3 : !torch.int, !torch.int -> !torch.int
  %sizes = torch.prim.ListConstruct %m, %int8 : (!torch.int, !torch.int) -> !torch.list<int>
  %0 = torch.aten.view %arg0, %sizes : !torch.vtensor<[?,8],f32>, !torch.list<int> -> !torch.vtensor<[?,8],f32> loc("model.py":6:0)
  return %0 : !torch.vtensor<[?,8],f32>
}
