"""torch.linalg.det and slogdet of small matrices -> mlc: LU with partial pivoting,
unrolled here over the columns (static sizes, at most MAX_SIZE), batched over the
leading axes.

Step k: the pivot row p is the first largest |A[i, k]| for i >= k (LAPACK's
choice); rows k and p swap (which flips the sign when p != k); the rows below k
lose their multiple of the pivot row. The determinant is the signed product of
the pivots. A zero pivot (a singular matrix) makes the determinant 0 and is
divided by 1 instead, so no NaN spreads into it.
"""

import numpy as np
from torch_mlir import ir

from ...dialects import elementwise_ops as ew
from ...dialects import indexing_ops, shape_ops
from ...dialects import reduction_ops as rd
from ...dialects.op_base import DYNAMIC, is_float
from ..constant_values import make_constant
from ..graph import boolean, i64, i64_array_attr, reshape, splat, tensor_type
from ..graph import broadcast_binary as _binary
from ..graph import broadcast_compare as _compare
from ..graph import broadcast_select as _select
from .patterns import NotConvertible, converts

MAX_SIZE = 32  # unrolled: n steps of about 20 ops each (32x32 compiles in about 15 s)


def _slice(value, axis, start, limit):
    shape = list(value.type.shape)
    starts, limits = [0] * len(shape), list(shape)
    starts[axis], limits[axis] = start, limit
    shape[axis] = limit - start
    return shape_ops.SliceOp(value, [], i64_array_attr(starts), i64_array_attr(limits), i64_array_attr([1] * len(shape)),
                             tensor_type(shape, value.type.element_type)).result


def _rows(n, predicate, k):
    """(n, 1) i1 constant: row index <predicate> k."""
    test = {"eq": np.equal, "ge": np.greater_equal, "gt": np.greater}[predicate]
    return make_constant(test(np.arange(n), k).reshape(n, 1), tensor_type([n, 1], ir.IntegerType.get_signless(1)), "rows")


def _pivots(a):
    """(sign, pivots): the permutation's sign (B..., 1, 1) and the n pivots of LU, each (B..., 1, 1)."""
    n, element_type = a.type.shape[-1], a.type.element_type
    rank = a.type.rank
    zero, one = splat(0.0, element_type), splat(1.0, element_type)
    row_ids = make_constant(np.arange(n).reshape(n, 1), tensor_type([n, 1], ir.IntegerType.get_signless(64)), "row_ids")
    sign = splat(1.0, element_type, [1] * rank)
    pivots = []
    for k in range(n):
        column = _slice(a, rank - 1, k, k + 1)  # (B..., n, 1)
        magnitude = _select(_rows(n, "ge", k), ew.AbsOp(column, column.type).result, splat(-1.0, element_type))
        pick_type = tensor_type([*magnitude.type.shape[:-2], 1, 1], ir.IntegerType.get_signless(64))
        p = indexing_ops.ArgmaxOp(magnitude, i64(rank - 2), boolean(True), pick_type).result
        at_p = _compare(row_ids, p, "eq")  # (B..., n, 1)
        row_p = rd.ReduceSumOp(_select(at_p, a, zero), i64_array_attr([rank - 2]), boolean(True),
                               tensor_type([*a.type.shape[:-2], 1, n], element_type)).result
        row_k = _slice(a, rank - 2, k, k + 1)
        a = _select(_rows(n, "eq", k), row_p, _select(at_p, row_k, a))
        sign = _select(_compare(p, splat(k, p.type.element_type), "ne"), _binary(ew.SubOp, zero, sign), sign)
        pivot = _slice(row_p, rank - 1, k, k + 1)  # (B..., 1, 1)
        pivots.append(pivot)
        if k == n - 1:
            break
        safe = _select(_compare(pivot, zero, "eq"), one, pivot)
        factors = _select(_rows(n, "gt", k), _binary(ew.DivOp, _slice(a, rank - 1, k, k + 1), safe), zero)
        a = _binary(ew.SubOp, a, _binary(ew.MulOp, factors, row_p))
    return sign, pivots


def _square(op):
    a = op.tensor("A")
    shape = list(a.type.shape)
    if not is_float(a.type.element_type) or len(shape) < 2 or DYNAMIC in shape:
        raise NotConvertible("determinant of a non-float, dynamic or lower-than-2-D tensor")
    if shape[-1] != shape[-2]:
        raise NotConvertible("determinant of a non-square matrix")
    if shape[-1] > MAX_SIZE:
        raise NotConvertible(f"determinant of a {shape[-1]}x{shape[-1]} matrix: mlc unrolls LU up to {MAX_SIZE}x{MAX_SIZE}")
    return a


@converts("torch.aten.linalg_det",
          makes=(indexing_ops.ArgmaxOp, rd.ReduceSumOp, shape_ops.SliceOp, ew.SelectOp, ew.CompareOp, ew.AbsOp,
                 ew.DivOp, ew.MulOp, ew.SubOp))
def det(op):
    a, result_type = _square(op), op.result_type()
    if a.type.shape[-1] == 0:
        return splat(1.0, result_type.element_type, result_type.shape)
    value, pivots = _pivots(a)
    for pivot in pivots:
        value = _binary(ew.MulOp, value, pivot)
    return reshape(value, result_type.shape)


@converts("torch.aten._linalg_slogdet", "torch.aten.linalg_slogdet",
          makes=(indexing_ops.ArgmaxOp, rd.ReduceSumOp, ew.SignOp, ew.LogOp, ew.AbsOp, ew.AddOp))
def slogdet(op):
    """(sign, log|det|): the signs of the pivots times the permutation's, the sum of
    their log magnitudes (-inf for a zero pivot, and sign 0). `_linalg_slogdet`'s LU
    factors and pivots must be unused."""
    if any(True for result in op.op.results[2:] for _ in result.uses):
        raise NotConvertible("_linalg_slogdet's LU factors or pivots are used")
    a = _square(op)
    sign_type, log_type = op.result_type(0), op.result_type(1)
    element_type = a.type.element_type
    if a.type.shape[-1] == 0:
        values = [splat(1.0, element_type, sign_type.shape), splat(0.0, element_type, log_type.shape)]
    else:
        sign, pivots = _pivots(a)
        log = splat(0.0, element_type)
        for pivot in pivots:
            sign = _binary(ew.MulOp, sign, ew.SignOp(pivot, pivot.type).result)
            log = _binary(ew.AddOp, log, ew.LogOp(ew.AbsOp(pivot, pivot.type).result, pivot.type).result)
        values = [reshape(sign, sign_type.shape), reshape(log, log_type.shape)]
    for index in range(2, len(op.op.results)):
        unused = op.result_type(index)
        if DYNAMIC in unused.shape:
            raise NotConvertible("_linalg_slogdet with dynamic LU results")
        values.append(make_constant(np.zeros(unused.shape), unused, "unused"))  # dies: no uses
    return values
