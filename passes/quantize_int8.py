"""`mlc-quantize-int8`: a float32 matmul by a constant weight multiplies int8 by int8,
summing in int32 (dynamic quantization, as `torch.ao.quantization.quantize_dynamic`).

    matmul(x, W)  ->  cast(matmul(q(x), Wq) : i32, f32) * sx * sw

- the weight, per output channel (column n of W [K, N]), at compile time:
  sw[n] = max|W[:, n]| / 127 and Wq = round(W / sw), int8 (a quarter of the bytes);
- the activation, per row (the last dimension), at run time: sx = max|x| / 127 over the
  row and q(x) = round(x / sx), int8.

The int8 product runs on IREE's int8 microkernel (AVX-512 VNNI's `vpdpbusd`): an
f32 [1, 4096] x [4096, 4096] matmul took 2.6-3.9 ms, the int8 one 0.58 ms, and an int8
weight widened to f32 inside the f32 kernel 2.3 ms (AMD EPYC, 2 cores). The error per
product is about 1/254 of each row's and column's largest magnitude, summed over K.

With `whole-rows` (set for a target whose matmul library runs them: llvm-cpu with mlc's
plugin), a single row ([1, K]: an LLM's decode step) becomes one `mlc.quantized_matmul`,
the same steps as one op, which the library runs in one call, where IREE's kernel needs
four dispatches before the product (the largest magnitude, the scale, the quantized row
and its pack), each short, each with its gap. With `whole-matrices` as well (set where
MKL's int8 GEMM runs on AMX), a matmul of several rows becomes one too: the library
quantizes the rows, multiplies and rescales in one call, and takes the bias, residual
and GELU after it (BERT-base's rescale, bias and GELU of 128x3072 took 0.75 ms as IREE's
dispatch, its quantization 0.38). Elsewhere the steps stay graph ops, which
mlc's fusion puts in dispatch regions of their own: left to IREE's own dispatches, the
row's scale, read broadcast, goes through mlc-guard-reduction-rereads' barrier, and IREE
waits on the host at each barrier (GPT-2's int8 decode step: 15-17 against 9 ms).

With `weight-only` (set for cuda, whose bf16 products run on the tensor cores and whose
int8 x int8 ones do not), the activation is not quantized: matmul(bf16(x), bf16(Wq)) * sw,
summing in f32. int8 is exact in bf16, IREE widens the weight inside the matmul's kernel,
and only x rounds: on an H200 up to 3.3x faster than int8 x int8, and nearer f32.

A matmul whose weight is not a constant (attention's products), or not f32 [K, N],
is left as it is: run after constant folding, which makes the transposed weights of
Linear layers and convolutions-as-matmuls constants.
"""

import dataclasses

import numpy as np
from torch_mlir import ir

from ..dialects import compute_ops, elementwise_ops, reduction_ops
from . import constant_values
from .graph import boolean, broadcast_binary, cast_to, f64, i64_array_attr, splat, tensor_type
from .registry import register
from .rewriting import Pattern, PatternPass

LEVELS = 127  # symmetric: -127..127, so that -x quantizes to -q(x)


def quantized_weight(weight: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(int8 weight, f32 scale per column) of an f32 [K, N] weight."""
    scale = np.abs(weight).max(axis=0) / LEVELS
    scale = np.where(scale > 0, scale, 1).astype(np.float32)  # a zero column stays zero
    return np.clip(np.rint(weight / scale), -LEVELS, LEVELS).astype(np.int8), scale


def _row_scale(x: ir.Value) -> ir.Value:
    """max|x| / 127 over the last dimension, kept ([..., M, 1]); never 0."""
    magnitude = elementwise_ops.AbsOp(x, x.type).result
    shape = [*x.type.shape[:-1], 1]
    peak = reduction_ops.ReduceMaxOp(magnitude, i64_array_attr([-1]), boolean(True),
                                     tensor_type(shape, x.type.element_type)).result
    floor = splat(np.finfo(np.float32).tiny * LEVELS, x.type.element_type)
    return broadcast_binary(elementwise_ops.DivOp, broadcast_binary(elementwise_ops.MaximumOp, peak, floor),
                            splat(LEVELS, x.type.element_type))


def _quantized_rows(x: ir.Value, scale: ir.Value) -> ir.Value:
    scaled = broadcast_binary(elementwise_ops.DivOp, x, scale)
    rounded = elementwise_ops.RoundOp(scaled, scaled.type).result
    bounded = elementwise_ops.ClampOp(rounded, f64(-LEVELS), f64(LEVELS), rounded.type).result
    return cast_to(bounded, ir.IntegerType.get_signless(8))


class QuantizeMatmul(Pattern):
    """matmul(x, W) : f32, W a constant -> the int8 product, rescaled."""

    op = compute_ops.MatmulOp
    statistic = "matmuls in int8"

    def __init__(self, whole_rows: bool = False, whole_matrices: bool = False, weight_only: bool = False):
        self.whole_rows, self.whole_matrices, self.weight_only = whole_rows, whole_matrices, weight_only
        if weight_only:
            self.statistic = "matmuls by int8 weights, in bf16"

    def match(self, matmul):
        f32 = ir.F32Type.get()
        rhs = matmul.rhs
        if any(t != f32 for t in (matmul.lhs.type.element_type, rhs.type.element_type, matmul.result.type.element_type)):
            return None
        if rhs.type.rank != 2 or not rhs.type.has_static_shape or matmul.lhs.type.shape[-1] == 1:
            return None
        weight = constant_values.value_of(rhs)
        return None if weight is None else np.asarray(weight, dtype=np.float32)

    def rewrite(self, matmul, weight) -> ir.Value:
        i8, i32, f32 = ir.IntegerType.get_signless(8), ir.IntegerType.get_signless(32), ir.F32Type.get()
        wq, w_scale = quantized_weight(weight)
        x = matmul.lhs
        weight_int8 = constant_values.make_constant(wq, tensor_type(wq.shape, i8), "weight_int8")
        weight_scale = constant_values.make_constant(w_scale, tensor_type(w_scale.shape, f32), "weight_scale")
        if self.weight_only:  # int8 is exact in bf16 (8 bits of significand): only x rounds
            bf16 = ir.BF16Type.get()
            product = compute_ops.MatmulOp(cast_to(x, bf16), cast_to(weight_int8, bf16), matmul.result.type).result
            return broadcast_binary(elementwise_ops.MulOp, product, weight_scale)
        rows = list(x.type.shape[:-1])
        if self.whole_rows and (rows == [1] or self.whole_matrices and len(rows) == 1):
            return compute_ops.QuantizedMatmulOp(x, weight_int8, weight_scale, matmul.result.type).result
        x_scale = _row_scale(x)
        product = compute_ops.MatmulOp(_quantized_rows(x, x_scale), weight_int8,
                                       tensor_type(matmul.result.type.shape, i32)).result
        rows = broadcast_binary(elementwise_ops.MulOp, cast_to(product, f32), x_scale)
        return broadcast_binary(elementwise_ops.MulOp, rows, weight_scale)


@register
class QuantizeInt8(PatternPass):
    """Multiplies f32 matmuls by constant weights in int8, summing in int32."""

    name = "mlc-quantize-int8"
    whole_rows: bool = dataclasses.field(
        default=False, metadata={"help": "a single row becomes one mlc.quantized_matmul (a target whose matmul "
                                         "library runs it whole)"})
    whole_matrices: bool = dataclasses.field(
        default=False, metadata={"help": "with whole-rows, a matmul of several rows too (a target whose library "
                                         "multiplies int8 faster than IREE's kernel at every size: AMX)"})
    weight_only: bool = dataclasses.field(
        default=False, metadata={"help": "the activations stay bf16: matmul(bf16(x), bf16(Wq)) * sw, summing in f32 "
                                         "(a target with bf16 products and no fast int8 ones: cuda)"})

    def patterns(self) -> list[Pattern]:
        return [QuantizeMatmul(self.whole_rows, self.whole_matrices, self.weight_only)]
