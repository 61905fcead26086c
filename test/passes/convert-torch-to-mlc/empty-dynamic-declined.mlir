// RUN: not mlc-opt %s --pass-pipeline='builtin.module(torch-func-backend-type-conversion, mlc-convert-torch-to-mlc)' 2>&1 | FileCheck %s

/// empty of a size known only at run time stays for the fallback, with the reason
/// (and so does the size it reads).

// CHECK: error: 2 torch op(s) of 2 kind(s) have no conversion to mlc:
// CHECK-NEXT: torch.aten.empty.memory_format  x1  at model.py:4  [empty of sizes computed at run time]
// CHECK-NEXT: torch.aten.size.int
func.func @negative_empty_dynamic(%arg0: !torch.vtensor<[?],f32>) -> !torch.vtensor<[?],f32> {
  %int0 = torch.constant.int 0
  %n = torch.aten.size.int %arg0, %int0 : !torch.vtensor<[?],f32>, !torch.int -> !torch.int
  %none = torch.constant.none
  %sizes = torch.prim.ListConstruct %n : (!torch.int) -> !torch.list<int>
  %0 = torch.aten.empty.memory_format %sizes, %none, %none, %none, %none, %none : !torch.list<int>, !torch.none, !torch.none, !torch.none, !torch.none, !torch.none -> !torch.vtensor<[?],f32> loc("model.py":4:0)
  return %0 : !torch.vtensor<[?],f32>
}
