"""Scans: running sums, products and log-sum-exps along an axis (torch.cumsum,
torch.cumprod, torch.logcumsumexp).

`result[..., i, ...]` combines `input[..., j, ...]` for every `j <= i` along
`axis`; the result has the input's shape and element type.
"""

from torch_mlir import ir
from torch_mlir.dialects import ext
from torch_mlir.dialects.ext import Operand, Result

from .facts import FusionKind, Layout
from .op_base import MlcOp, VerifyError, int_attr, is_float, normalize_axis, ranked


class ScanOp(MlcOp):
    """Base of scans: same type in and out, `axis` in range.

    Each lowers to a generic with an extra reduction loop that reads its input at
    another index, which no fused kernel can share: it runs alone."""

    fusion_kind = FusionKind.OPAQUE
    layout_rule = Layout.FIXED
    input: Operand[ir.RankedTensorType]
    axis: ir.IntegerAttr
    result: Result[ir.RankedTensorType]

    def verify(self):
        input_type = ranked(self.input, "input")
        if input_type.rank == 0:
            raise VerifyError("input must have rank >= 1, got rank 0")
        normalize_axis(int_attr(self, "axis"), input_type.rank)
        if ranked(self.result, "result") != input_type:
            raise VerifyError(f"result type {self.result.type} must equal input type {input_type}")


class CumsumOp(ScanOp, name="cumsum", traits=[ext.Pure]):
    """The running sum along `axis`."""


class CumprodOp(ScanOp, name="cumprod", traits=[ext.Pure]):
    """The running product along `axis`."""


class LogcumsumexpOp(ScanOp, name="logcumsumexp", traits=[ext.Pure]):
    """log(cumsum(exp(x))) along `axis`, combined as logaddexp so that it neither
    overflows (x = 10000) nor loses small prefixes (x = [-10000, 10000]). Floats only."""

    def verify(self):
        super().verify()
        if not is_float(self.input.type.element_type):
            raise VerifyError(f"requires a floating-point tensor, got {self.input.type}")
