"""Reductions over a set of axes: sum, mean, max, min and product.

`axes` lists the reduced dimensions (negative counts from the end); with
`keepdim` they stay as size-1 dimensions, as in torch.
"""

from typing import Any

from torch_mlir import ir
from torch_mlir.dialects import ext
from torch_mlir.dialects.ext import Operand, Result

from .facts import FusionKind, Layout
from .op_base import (
    MlcOp,
    VerifyError,
    bool_attr,
    expect_element_type,
    expect_shape,
    i64_array,
    is_float,
    normalize_axes,
    ranked,
)


def reduced_shape(shape, axes, keepdim) -> list[int]:
    if keepdim:
        return [1 if i in axes else d for i, d in enumerate(shape)]
    return [d for i, d in enumerate(shape) if i not in axes]


class ReductionOp(MlcOp):
    """Base of reductions; the result keeps the input's element type."""

    fusion_kind = FusionKind.REDUCTION
    layout_rule = Layout.KEEPDIM_REDUCTION
    float_only = False
    input: Operand[ir.RankedTensorType]
    axes: Any
    keepdim: Any
    result: Result[ir.RankedTensorType]

    def verify(self):
        input_type = ranked(self.input, "input")
        axes = normalize_axes(i64_array(self, "axes"), input_type.rank)
        if not axes:
            raise VerifyError("attribute 'axes' must name at least one axis")
        if self.float_only and not is_float(input_type.element_type):
            raise VerifyError(f"requires a floating-point tensor, got {input_type}")
        expect_shape(self.result, reduced_shape(input_type.shape, axes, bool_attr(self, "keepdim")), "result")
        expect_element_type(self.result, input_type.element_type, "result")


class ReduceSumOp(ReductionOp, name="reduce_sum", traits=[ext.Pure]):
    """The sum over `axes`."""


class ReduceMeanOp(ReductionOp, name="reduce_mean", traits=[ext.Pure]):
    """The arithmetic mean over `axes`."""

    float_only = True


class ReduceMaxOp(ReductionOp, name="reduce_max", traits=[ext.Pure]):
    """The maximum over `axes`."""


class ReduceMinOp(ReductionOp, name="reduce_min", traits=[ext.Pure]):
    """The minimum over `axes`."""


class ReduceProdOp(ReductionOp, name="reduce_prod", traits=[ext.Pure]):
    """The product over `axes`."""
