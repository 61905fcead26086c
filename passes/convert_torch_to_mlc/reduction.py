"""torch reductions over dimensions -> mlc reduce_* ops; variance and standard deviation."""

import math

from ...dialects import elementwise_ops, reduction_ops
from ...dialects.op_base import is_float
from ..graph import (
    boolean,
    broadcast_binary,
    broadcast_compare,
    broadcast_select,
    cast_to,
    i64_array_attr,
    reshape,
    splat,
    tensor_type,
)
from .patterns import NotConvertible, converts

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


# (dims, correction, keepdim) of each form: `correction` a number, `unbiased` a bool (1 or 0),
# or neither (every dimension, unbiased, not kept).
VARIANCES = {
    "torch.aten.var.correction": (1, "correction", 3), "torch.aten.std.correction": (1, "correction", 3),
    "torch.aten.var_mean.correction": (1, "correction", 3), "torch.aten.var.dim": (1, "unbiased", 3),
    "torch.aten.std.dim": (1, "unbiased", 3), "torch.aten.var_mean.dim": (1, "unbiased", 3),
    "torch.aten.var": (None, "unbiased", None), "torch.aten.std": (None, "unbiased", None),
}


@converts(*VARIANCES, makes=(reduction_ops.ReduceMeanOp, reduction_ops.ReduceSumOp, elementwise_ops.SubOp,
                             elementwise_ops.MulOp, elementwise_ops.DivOp, elementwise_ops.SqrtOp,
                             elementwise_ops.CompareOp, elementwise_ops.SelectOp), keep_whole=True)
def variance(op):
    """sum((x - mean)^2) / (n - correction), in the input's type: var, its square root
    (std), or (var, mean). Kept whole: torch-mlir's decomposition computes in float64,
    which a float32 model must not need (vulkan-spirv refuses float64)."""
    x = op.tensor(0)
    shape, element_type = list(x.type.shape), x.type.element_type
    if not is_float(element_type) or x.type.rank == 0:
        raise NotConvertible("the variance of a non-float or 0-d tensor")
    dims, correction_kind, keepdim_at = VARIANCES[op.name]
    every = list(range(len(shape)))
    axes = every if dims is None or op.is_none(dims) else [a % len(shape) for a in op.ints(dims)] or every
    if any(shape[a] < 0 for a in axes):
        raise NotConvertible("the variance over a dynamically sized dimension")
    correction_at = 1 if dims is None else 2
    if op.is_none(correction_at):
        correction = 1.0
    else:
        correction = op.float(correction_at) if correction_kind == "correction" else float(op.bool(correction_at))
    keepdim = False if keepdim_at is None else op.bool(keepdim_at)
    kept = [1 if a in axes else size for a, size in enumerate(shape)]
    mean = reduction_ops.ReduceMeanOp(x, i64_array_attr(axes), boolean(True), tensor_type(kept, element_type)).result
    centered = broadcast_binary(elementwise_ops.SubOp, x, mean)
    squares = elementwise_ops.MulOp(centered, centered, centered.type).result
    reduced_type = op.result_type(0)
    total = reduction_ops.ReduceSumOp(squares, i64_array_attr(axes), boolean(keepdim), reduced_type).result
    count = math.prod(shape[a] for a in axes)
    if count - correction > 0:
        result = broadcast_binary(elementwise_ops.DivOp, total, splat(count - correction, element_type))
    else:  # torch divides by 0: NaN where the sum is 0, inf elsewhere; spelled out, not left to a GPU's 0 / 0
        zero = broadcast_compare(total, splat(0.0, element_type), "eq")
        result = broadcast_select(zero, splat(math.nan, element_type), splat(math.inf, element_type))
    if op.name.startswith("torch.aten.std"):
        return elementwise_ops.SqrtOp(result, result.type).result
    if op.name.startswith("torch.aten.var_mean"):
        return [result, mean if keepdim else reshape(mean, reduced_type.shape)]
    return result
