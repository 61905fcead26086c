"""Data ops: constants (weights), ranges and element-type casts."""

from collections.abc import Sequence
from typing import Any

from torch_mlir import ir
from torch_mlir.dialects import ext
from torch_mlir.dialects.ext import Operand, Result

from .facts import Declined, FusionKind, Layout
from .op_base import DYNAMIC, MlcOp, VerifyError, expect_shape, ranked


class ConstantOp(MlcOp, name="constant", traits=[ext.Pure]):
    """A constant tensor, e.g. a weight.

    `value` is a `dense<...>` or `dense_resource<...>` elements attribute. Weights
    stay resource blobs: mlc never copies them element by element.
    """

    fusion_kind = Declined("a constant is data, not work: it stays outside fusion groups")
    layout_rule = Layout.FIXED

    value: Any
    result: Result[ir.RankedTensorType]

    def verify(self):
        value_type = getattr(self.value, "type", None)
        if not isinstance(value_type, ir.RankedTensorType):
            raise VerifyError(f"attribute 'value' must be a tensor elements attribute, got {self.value}")
        if value_type != self.result.type:
            raise VerifyError(f"result type {self.result.type} does not match value type {value_type}")


class CastOp(MlcOp, name="cast", traits=[ext.Pure]):
    """Converts each element to the result's element type (as torch's `.to(dtype)`).

    Float to integer truncates toward zero; integer to float rounds to nearest.
    """

    fusion_kind = FusionKind.ELEMENTWISE
    layout_rule = Layout.ELEMENTWISE

    input: Operand[ir.RankedTensorType]
    result: Result[ir.RankedTensorType]

    def verify(self):
        expect_shape(self.result, ranked(self.input, "input").shape, "result")


class IotaOp(MlcOp, name="iota", traits=[ext.Pure]):
    """0, 1, 2, ... along a 1-D result: torch.arange when its length is known at run
    time only (position ids of a dynamic sequence). A dynamic length is the `size` operand.
    """

    fusion_kind = FusionKind.OPAQUE
    layout_rule = Layout.FIXED

    size: Sequence[Operand[ir.IndexType]]
    result: Result[ir.RankedTensorType]

    def verify(self):
        shape = ranked(self.result, "result").shape
        if len(shape) != 1:
            raise VerifyError(f"result must be 1-D, got {self.result.type}")
        expected = 1 if shape[0] == DYNAMIC else 0
        if len(self.size) != expected:
            raise VerifyError(f"expected {expected} size operand(s) for result {self.result.type}, got {len(self.size)}")
