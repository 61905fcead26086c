// RUN: not mlc-opt %s --pass-pipeline='builtin.module(torch-func-backend-type-conversion, mlc-convert-torch-to-mlc)' 2>&1 | FileCheck %s --check-prefix=DECLINED

/// A scale known only at run time is not converted, and the error names the operand.
// DECLINED: model.py:7:0: error: 1 torch op(s) of 1 kind(s) have no conversion to mlc:
// DECLINED-NEXT: torch.quantized_decomposed.quantize_per_tensor  x1  at model.py:7  [operand 1 must be a constant (torch.constant.float or torch.constant.int)]
func.func @runtime_scale(%x: !torch.vtensor<[8,4],f32>, %scale: !torch.float) -> !torch.vtensor<[8,4],si8> {
  %zp = torch.constant.int 0
  %qmin = torch.constant.int -128
  %qmax = torch.constant.int 127
  %int8 = torch.constant.int 1
  %0 = torch.quantized_decomposed.quantize_per_tensor %x, %scale, %zp, %qmin, %qmax, %int8 : !torch.vtensor<[8,4],f32>, !torch.float, !torch.int, !torch.int, !torch.int, !torch.int -> !torch.vtensor<[8,4],si8> loc("model.py":7:0)
  return %0 : !torch.vtensor<[8,4],si8>
}
