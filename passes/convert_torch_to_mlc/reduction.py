"""torch reductions over dimensions -> mlc reduce_* ops."""

from ...dialects import reduction_ops
from ..graph import boolean, cast_to, i64_array_attr
from .patterns import converts

REDUCTIONS = {
    "torch.aten.mean.dim": reduction_ops.ReduceMeanOp,
    "torch.aten.sum.dim_IntList": reduction_ops.ReduceSumOp,
    "torch.aten.amax": reduction_ops.ReduceMaxOp,
    "torch.aten.amin": reduction_ops.ReduceMinOp,
}


@converts(*REDUCTIONS, makes=REDUCTIONS)
def reduce(op):
    """The input is first cast to the result's type: torch sums bools and ints into
    int64, and a `dtype` argument names the type to reduce in."""
    rank = op.operand_type(0).rank
    axes = list(range(rank)) if op.is_none(1) else op.ints(1) or list(range(rank))
    result_type = op.result_type()
    x = cast_to(op.tensor(0), result_type.element_type)
    if rank == 0:  # a 0-d tensor reduces to itself (nansum, mse_loss of scalars)
        return x
    return REDUCTIONS[op.name](x, i64_array_attr(axes), boolean(op.bool(2)), result_type).result
