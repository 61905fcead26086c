"""`mlc-conv-to-matmul`: an NHWC convolution with few output pixels becomes a matmul
of its windows with its weight, which IREE's data tiling runs on its mmt4d
microkernels.

    conv(x, W) + b  ->  reshape(matmul(reshape(im2col(x), [P, KH*KW*C]), reshape(W, [KH*KW*C, F])) + b)

with P = N * OH * OW output pixels. IREE's direct convolution code keeps few
workgroups busy when the output has few pixels and many channels. Measured on a
2-core Xeon (benchmarks/conv_strategies.py), ResNet's 3x3 convolutions at 7x7 and 14x14
pixels ran 1.5-1.7x faster as im2col + matmul, those at 28x28 and 56x56 1.5-4x
slower; so a convolution is rewritten when P <= `max-pixels`. Where a CPU measured
otherwise its target sets it: llvm-cpu on an x86 CPU without AVX-512 takes 1024
(driver/backends/cpu_instructions.py). A 1x1 convolution without padding needs no window copy: its input, subsampled by a strided
mlc.slice, viewed as [P, C] is the matmul's left operand.

The weight's reshape folds at compile time (`mlc-fold-constants`), and
`mlc-sink-reshapes` moves the result's reshape below the bias, activation and
residual add, so they fuse with the matmul. Grouped convolutions, NCHW and dynamic
shapes keep the direct convolution. Exact: the same products are summed, in
another order.
"""

import dataclasses
import math

from torch_mlir import ir

from ..dialects import compute_ops, elementwise_ops, shape_ops
from ..dialects.op_base import i64_array
from .graph import i64_array_attr, reshape, tensor_type
from .registry import register
from .rewriting import Pattern, PatternPass


def _is_pointwise(conv) -> bool:
    """A 1x1 window without padding: the input, subsampled by the stride, is the matmul's rows."""
    return list(conv.weight.type.shape[:2]) == [1, 1] and not any(i64_array(conv, "padding"))


def _windows(conv) -> ir.Value:
    """The input's windows as matmul rows [P, KH*KW*C]."""
    x = conv.input
    kh, kw, channels, _ = conv.weight.type.shape
    n, oh, ow, _ = conv.result.type.shape
    if _is_pointwise(conv):
        stride = i64_array(conv, "stride")
        if [oh, ow] != list(x.type.shape[1:3]):  # a stride over a dim of size 1 subsamples nothing
            x = shape_ops.SliceOp(x, [], i64_array_attr([0] * 4), i64_array_attr(list(x.type.shape)),
                                  i64_array_attr([1, *stride, 1]),
                                  tensor_type([n, oh, ow, channels], x.type.element_type)).result
        return reshape(x, [n * oh * ow, channels])
    attributes = {name: conv.attributes[name] for name in ("stride", "padding", "dilation")}
    rows = shape_ops.Im2colOp(x, i64_array_attr([kh, kw]), attributes["stride"], attributes["padding"],
                              attributes["dilation"], tensor_type([n, oh, ow, kh * kw * channels], x.type.element_type))
    return reshape(rows.result, [n * oh * ow, kh * kw * channels])


def refusal(conv, max_pixels: int) -> str | None:
    """Why `conv` stays a convolution, or None when it becomes a matmul."""
    if conv.attributes["layout"].value != "NHWC" or conv.attributes["groups"].value != 1:
        return "kept (NCHW or grouped)"
    if not conv.input.type.has_static_shape or not conv.result.type.has_static_shape:
        return "kept (dynamic shape)"
    if math.prod(conv.result.type.shape[:3]) > max_pixels:
        return "kept (more pixels than max-pixels)"
    return None


class ConvAsMatmul(Pattern):
    """conv(x, W) + b -> reshape(matmul(windows(x), reshape(W)) + b)."""

    op = compute_ops.Conv2dOp

    def __init__(self, max_pixels: int):
        self.max_pixels = max_pixels

    def match(self, conv):
        return None if refusal(conv, self.max_pixels) else conv

    def rewrite(self, conv, _) -> ir.Value:
        kh, kw, channels, filters = conv.weight.type.shape
        n, oh, ow, _ = conv.result.type.shape
        rows = _windows(conv)
        weight = reshape(conv.weight, [kh * kw * channels, filters])
        product = compute_ops.MatmulOp(rows, weight, tensor_type([n * oh * ow, filters], conv.result.type.element_type)).result
        if conv.bias is not None:
            product = elementwise_ops.AddOp(product, conv.bias, product.type).result
        return reshape(product, [n, oh, ow, filters])

    def counted_as(self, conv, _) -> str:
        return "1x1 convolutions to matmul" if _is_pointwise(conv) else "convolutions to im2col + matmul"


@register
class ConvToMatmul(PatternPass):
    """Rewrites NHWC convolutions with few output pixels as im2col + matmul."""

    name = "mlc-conv-to-matmul"
    max_pixels: int = dataclasses.field(
        default=256, metadata={"help": "rewrite a convolution when N*OH*OW is at most this (0: never)"})

    def patterns(self) -> list[Pattern]:
        return [ConvAsMatmul(self.max_pixels)]

    def finish(self, module: ir.Operation) -> None:
        def count_kept(op):
            if isinstance(op.opview, compute_ops.Conv2dOp):
                self.count(refusal(op.opview, self.max_pixels))
            return ir.WalkResult.ADVANCE

        module.walk(count_kept)
