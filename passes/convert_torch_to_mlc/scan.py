"""torch.cumsum and torch.cumprod -> mlc.cumsum and mlc.cumprod; a `dtype`
argument (and torch's int64 for integer inputs) is a cast first."""

from ...dialects import scan_ops
from ..graph import cast_to, i64
from .patterns import converts

SCANS = {"torch.aten.cumsum": scan_ops.CumsumOp, "torch.aten.cumprod": scan_ops.CumprodOp}


@converts(*SCANS, makes=SCANS)
def scan(op):
    result_type = op.result_type()
    x = cast_to(op.tensor(0), result_type.element_type)
    return SCANS[op.name](x, i64(op.int(1) % result_type.rank), result_type).result
