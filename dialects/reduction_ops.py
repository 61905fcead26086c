"""Reductions over a set of axes: sum, mean, max, min and product.

`axes` lists the reduced dimensions (negative counts from the end); with
`keepdim` they stay as size-1 dimensions, as in torch.
"""

from typing import Any

from torch_mlir import ir
from torch_mlir.dialects import ext
from torch_mlir.dialects.ext import Operand, Result

from .op_base import (
    MlcOp,
    VerifyError,
    bool_attr,
    define_op,
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

    float_only = False

    def verify(self):
        input_type = ranked(self.input, "input")
        axes = normalize_axes(i64_array(self, "axes"), input_type.rank)
        if not axes:
            raise VerifyError("attribute 'axes' must name at least one axis")
        if self.float_only and not is_float(input_type.element_type):
            raise VerifyError(f"requires a floating-point tensor, got {input_type}")
        expect_shape(self.result, reduced_shape(input_type.shape, axes, bool_attr(self, "keepdim")), "result")
        expect_element_type(self.result, input_type.element_type, "result")


REDUCTIONS = {
    "reduce_sum": ("sum", False),
    "reduce_mean": ("arithmetic mean", True),
    "reduce_max": ("maximum", False),
    "reduce_min": ("minimum", False),
    "reduce_prod": ("product", False),
}


REDUCTION_FIELDS = {
    "input": Operand[ir.RankedTensorType],
    "axes": Any,
    "keepdim": Any,
    "result": Result[ir.RankedTensorType],
}
REDUCTION_OP_CLASSES = {
    name: define_op(ReductionOp, name, REDUCTION_FIELDS, f"The {computes} over `axes`.", __name__, float_only=float_only)
    for name, (computes, float_only) in REDUCTIONS.items()
}
globals().update({cls.__name__: cls for cls in REDUCTION_OP_CLASSES.values()})
