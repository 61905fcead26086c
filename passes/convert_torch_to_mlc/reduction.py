"""torch reductions over dimensions -> mlc reduce_* ops."""

from ...dialects import reduction_ops
from .attributes import boolean, i64_array
from .patterns import NotConvertible, converts

REDUCTIONS = {
    "torch.aten.mean.dim": reduction_ops.ReduceMeanOp,
    "torch.aten.sum.dim_IntList": reduction_ops.ReduceSumOp,
    "torch.aten.amax": reduction_ops.ReduceMaxOp,
    "torch.aten.amin": reduction_ops.ReduceMinOp,
}


@converts(*REDUCTIONS)
def reduce(op):
    if len(op.op.operands) > 3 and not op.is_none(3):
        raise NotConvertible("reduction with a dtype argument")
    rank = op.operand_type(0).rank
    axes = list(range(rank)) if op.is_none(1) else op.ints(1) or list(range(rank))
    return REDUCTIONS[op.name](op.tensor(0), i64_array(axes), boolean(op.bool(2)), op.result_type()).result
