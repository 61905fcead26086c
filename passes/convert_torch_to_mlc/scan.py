"""torch.cumsum, cumprod and logcumsumexp -> mlc.cumsum, cumprod and logcumsumexp; a `dtype`
argument (and torch's int64 for integer inputs) is a cast first."""

from ...dialects import scan_ops
from ..graph import cast_to, i64
from .patterns import converts

SCANS = {"torch.aten.cumsum": scan_ops.CumsumOp, "torch.aten.cumprod": scan_ops.CumprodOp}


@converts("torch.aten.logcumsumexp", makes=scan_ops.LogcumsumexpOp, keep_whole=True)
def logcumsumexp(op):
    """Kept whole: torch-mlir's decomposition, log(cumsum(exp(x))), overflows."""
    result_type = op.result_type()
    x = cast_to(op.tensor("self_"), result_type.element_type)
    return scan_ops.LogcumsumexpOp(x, i64(op.int("dim") % result_type.rank), result_type).result


@converts(*SCANS, makes=SCANS)
def scan(op):
    result_type = op.result_type()
    x = cast_to(op.tensor(0), result_type.element_type)
    return SCANS[op.name](x, i64(op.int(1) % result_type.rank), result_type).result
