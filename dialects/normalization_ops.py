"""Normalization ops: softmax, layer_norm and inference-time batch_norm."""

from typing import Any

from torch_mlir import ir
from torch_mlir.dialects import ext
from torch_mlir.dialects.ext import Operand, Result

from .facts import Declined, FusionKind, Layout
from .op_base import (
    MlcOp,
    VerifyError,
    bool_attr,
    expect_same_element_type,
    expect_shape,
    float_attr,
    int_attr,
    is_float,
    normalize_axis,
    ranked,
)


def expect_float_tensor(value, what):
    type_ = ranked(value, what)
    if not is_float(type_.element_type):
        raise VerifyError(f"{what} must be a floating-point tensor, got {type_}")
    return type_


def expect_positive_epsilon(op):
    if float_attr(op, "epsilon") <= 0:
        raise VerifyError(f"epsilon must be positive, got {op.epsilon}")


class SoftmaxOp(MlcOp, name="softmax", traits=[ext.Pure]):
    """`exp(x - max) / sum(exp(x - max))` along `axis`: the numerically stable form."""

    fusion_kind = FusionKind.REDUCTION
    layout_rule = Layout.FIXED

    input: Operand[ir.RankedTensorType]
    axis: ir.IntegerAttr
    result: Result[ir.RankedTensorType]

    def verify(self):
        input_type = expect_float_tensor(self.input, "input")
        normalize_axis(int_attr(self, "axis"), input_type.rank)
        if self.result.type != input_type:
            raise VerifyError(f"result type {self.result.type} must equal input type {input_type}")


class LayerNormOp(MlcOp, name="layer_norm", traits=[ext.Pure]):
    """`(x - mean) / sqrt(var + epsilon) * weight + bias` over the dimensions from `axis` on.

    The variance is biased (divides by N), as torch's LayerNorm. `weight` and `bias`
    have the normalized shape, `input.shape[axis:]`. With `library`, mlc's matmul plugin
    normalizes the rows, on its own threads (mlc-library-layer-norms): f32 of static
    shape, and a dispatch of its own.
    """

    fusion_kind = FusionKind.REDUCTION
    layout_rule = Layout.FIXED

    input: Operand[ir.RankedTensorType]
    weight: Operand[ir.RankedTensorType]
    bias: Operand[ir.RankedTensorType]
    axis: ir.IntegerAttr
    epsilon: ir.FloatAttr
    library: Any
    result: Result[ir.RankedTensorType]

    def fusion(self):
        if bool_attr(self, "library"):
            return Declined("on the library, the plugin's call normalizes the rows whole (passes/library_layer_norms.py)")
        return self.fusion_kind

    def verify(self):
        input_type = expect_float_tensor(self.input, "input")
        axis = normalize_axis(int_attr(self, "axis"), input_type.rank)
        expect_positive_epsilon(self)
        expect_same_element_type([self.input, self.weight, self.bias], "input, weight and bias")
        normalized = input_type.shape[axis:]
        expect_shape(self.weight, normalized, "weight")
        expect_shape(self.bias, normalized, "bias")
        if self.result.type != input_type:
            raise VerifyError(f"result type {self.result.type} must equal input type {input_type}")
        if bool_attr(self, "library") and not (str(input_type.element_type) == "f32" and input_type.has_static_shape):
            raise VerifyError(f"on the library (library = true), the input must be f32 of static shape, got {input_type}")


class BatchNormOp(MlcOp, name="batch_norm", traits=[ext.Pure]):
    """Inference batch norm: `(x - mean) / sqrt(variance + epsilon) * scale + offset`.

    `mean`, `variance`, `scale` and `offset` are per channel; `axis` names the
    channel dimension (1 for NCHW, 3 for NHWC).
    """

    fusion_kind = FusionKind.BROADCAST
    layout_rule = Layout.CHANNEL_AXIS

    input: Operand[ir.RankedTensorType]
    scale: Operand[ir.RankedTensorType]
    offset: Operand[ir.RankedTensorType]
    mean: Operand[ir.RankedTensorType]
    variance: Operand[ir.RankedTensorType]
    axis: ir.IntegerAttr
    epsilon: ir.FloatAttr
    result: Result[ir.RankedTensorType]

    def verify(self):
        input_type = expect_float_tensor(self.input, "input")
        if input_type.rank == 0:
            raise VerifyError("input must have a channel dimension, got rank 0")
        axis = normalize_axis(int_attr(self, "axis"), input_type.rank)
        expect_positive_epsilon(self)
        params = [self.scale, self.offset, self.mean, self.variance]
        expect_same_element_type([self.input] + params, "input and statistics")
        channels = input_type.shape[axis]
        for name, value in zip(("scale", "offset", "mean", "variance"), params):
            expect_shape(value, [channels], name)
        if self.result.type != input_type:
            raise VerifyError(f"result type {self.result.type} must equal input type {input_type}")
