"""Scans: running sums and products along an axis (torch.cumsum, torch.cumprod).

`result[..., i, ...]` combines `input[..., j, ...]` for every `j <= i` along
`axis`; the result has the input's shape and element type.
"""

from torch_mlir import ir
from torch_mlir.dialects.ext import Operand, Result

from .op_base import MlcOp, VerifyError, define_op, int_attr, normalize_axis, ranked


class ScanOp(MlcOp):
    """Base of scans: same type in and out, `axis` in range."""

    def verify(self):
        input_type = ranked(self.input, "input")
        if input_type.rank == 0:
            raise VerifyError("input must have rank >= 1, got rank 0")
        normalize_axis(int_attr(self, "axis"), input_type.rank)
        if ranked(self.result, "result") != input_type:
            raise VerifyError(f"result type {self.result.type} must equal input type {input_type}")


SCANS = {"cumsum": "sum", "cumprod": "product"}

SCAN_FIELDS = {"input": Operand[ir.RankedTensorType], "axis": ir.IntegerAttr, "result": Result[ir.RankedTensorType]}
SCAN_OP_CLASSES = {
    name: define_op(ScanOp, name, SCAN_FIELDS, f"The running {combines} along `axis`.", __name__)
    for name, combines in SCANS.items()
}
globals().update({cls.__name__: cls for cls in SCAN_OP_CLASSES.values()})
