"""cumsum, cumprod and logcumsumexp -> one `linalg.generic` with an extra reduction loop j
along the axis: `result[i] = combine over j <= i of input[j]`, the other j
contributing the identity (0, 1 or -inf).

Quadratic in the scanned length, but a single parallel kernel that IREE tiles
like any reduction; the elements are combined in index order, as torch's loop.
"""

import math as pymath

from torch_mlir.dialects import arith, linalg, math

from ...dialects import scan_ops as scan
from ...dialects.op_base import int_attr, is_float, normalize_axis
from ..op_registry import lowers
from .builders import PARALLEL, REDUCTION, constant, dims_map, filled, generic, sizes


def _logaddexp(accumulated, value):
    """log(exp(a) + exp(b)) as max + log1p(exp(min - max)); -inf adds nothing (and
    -inf - -inf would be NaN)."""
    high, low = arith.maximumf(accumulated, value), arith.minimumf(accumulated, value)
    summed = arith.addf(high, math.log1p(math.exp(arith.subf(low, high))))
    nothing = arith.cmpf(arith.CmpFPredicate.OEQ, low, constant(low.type, -pymath.inf))
    return arith.select(nothing, high, summed)


# name -> (identity, float combiner, integer combiner)
COMBINERS = {
    scan.CumsumOp: (0, arith.addf, arith.addi),
    scan.CumprodOp: (1, arith.mulf, arith.muli),
    scan.LogcumsumexpOp: (-pymath.inf, _logaddexp, None),
}


@lowers(*COMBINERS)
def _lower_scan(op):
    x = op.input
    rank = x.type.rank
    axis = normalize_axis(int_attr(op, "axis"), rank)
    identity_value, float_combine, int_combine = COMBINERS[type(op)]
    element_type = x.type.element_type
    combine = float_combine if is_float(element_type) else int_combine
    read_at_j = dims_map(rank + 1, [rank if d == axis else d for d in range(rank)])
    maps = [read_at_j, dims_map(rank + 1, range(rank))]
    init = filled(sizes(x), element_type, identity_value)

    def body(value, accumulator):
        j, i = linalg.IndexOp(rank).result, linalg.IndexOp(axis).result
        counted = arith.cmpi(arith.CmpIPredicate.ule, j, i)
        return combine(accumulator, arith.select(counted, value, constant(element_type, identity_value)))

    return generic([x], init, maps, [PARALLEL] * rank + [REDUCTION], body)
