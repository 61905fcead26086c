"""Reductions -> a `linalg.generic` with reduction iterators into a filled
accumulator (0 for sum, -inf for max, +inf for min, 1 for product); mean then divides by the
number of reduced elements. `keepdim` re-inserts the reduced dimensions as
size-1 ones with `tensor.expand_shape`.
"""

import math

from torch_mlir.dialects import arith

from ...dialects import reduction_ops as reduction
from ...dialects.op_base import DYNAMIC, bool_attr, i64_array, is_float, normalize_axes
from ..op_registry import lowers
from .builders import Unsupported, constant, elementwise, expand, is_bool, reduce, sizes

# name -> (initial value, float combiner, integer combiner, bool combiner)
COMBINERS = {
    reduction.ReduceSumOp: (0.0, arith.addf, arith.addi, arith.addi),
    reduction.ReduceMeanOp: (0.0, arith.addf, None, None),
    reduction.ReduceMaxOp: (-math.inf, arith.maximumf, arith.maxsi, arith.ori),
    reduction.ReduceMinOp: (math.inf, arith.minimumf, arith.minsi, arith.andi),
    reduction.ReduceProdOp: (1.0, arith.mulf, arith.muli, arith.andi),
}


def keepdim_groups(rank: int, axes: list[int]) -> list[list[int]]:
    """How the kept dimensions expand back to full rank: each reduced dimension
    joins the group of the kept one before it (leading ones join the first)."""
    kept = [d for d in range(rank) if d not in axes]
    if not kept:
        return []
    groups = [[d] for d in kept]
    for d in axes:
        owner = max((i for i, k in enumerate(kept) if k < d), default=0)
        groups[owner].append(d)
    return [sorted(g) for g in groups]


def _with_keepdim(value, input_value, axes):
    rank = input_value.type.rank
    value_sizes = iter(sizes(value))
    full_sizes = [1 if d in axes else next(value_sizes) for d in range(rank)]
    return expand(value, full_sizes, keepdim_groups(rank, axes))


@lowers(*COMBINERS)
def _lower_reduction(op):
    kind = type(op)
    x = op.input
    axes = normalize_axes(i64_array(op, "axes"), x.type.rank)
    initial, float_combine, int_combine, bool_combine = COMBINERS[kind]
    element_type = x.type.element_type
    if is_float(element_type):
        combine = float_combine
    else:
        combine = bool_combine if is_bool(element_type) else int_combine
    result = reduce([x], x.type.rank, axes, initial, combine)
    if kind is reduction.ReduceMeanOp:
        result = _divide(result, [x.type.shape[d] for d in axes])
    return _with_keepdim(result, x, axes) if bool_attr(op, "keepdim") else result


def _divide(total, reduced_shape):
    """total / N, N being the static number of reduced elements."""
    if DYNAMIC in reduced_shape:
        raise Unsupported("mean over a dynamic dimension")
    count = constant(total.type.element_type, math.prod(reduced_shape))
    return elementwise([total], total.type, lambda s: arith.divf(s, count))
