"""torch's scatter-like ops -> `mlc.scatter`: index_put (which index_add,
index_copy and index_fill become), scatter, scatter_add and scatter_reduce; and
bincount -> `mlc.bincount`, which adds ones (or weights) at the positions its
input's values name, into a result whose length those values decide.

Each builds the [N, K] positions it writes and the [N, ...] updates, then one
`mlc.scatter`. scatter_reduce without `include_self` first resets the positions
it writes to the reduction's identity (a "replace" scatter of constants); its
mean is a sum divided by a count, itself a scatter of ones.
"""

import math

import numpy as np
from torch_mlir import ir

from ...dialects import data_ops, indexing_ops, shape_ops
from ...dialects import elementwise_ops as ew
from ...dialects.op_base import is_float
from ..constant_values import make_constant
from ..graph import cast_to, i64, i64_array_attr, reshape, splat, string, tensor_type
from .indexing import _wrapped
from .patterns import NotConvertible, converts


def _i64():
    return ir.IntegerType.get_signless(64)


def _scatter(x, positions, updates, combine: str):
    return indexing_ops.ScatterOp(x, positions, updates, string(combine), x.type).result


def _broadcast(value, shape):
    if list(value.type.shape) == list(shape):
        return value
    return shape_ops.BroadcastOp(value, [], tensor_type(shape, value.type.element_type)).result


def _concat_columns(columns):
    """[N, 1] columns side by side: [N, len(columns)]."""
    joined = columns[0]
    for column in columns[1:]:
        width = joined.type.shape[1] + column.type.shape[1]
        joined = shape_ops.ConcatOp(joined, column, i64(1), tensor_type([joined.type.shape[0], width], _i64())).result
    return joined


def _static(op, *keys):
    for key in keys:
        if any(d < 0 for d in op.operand_type(key).shape):
            raise NotConvertible(f"'{key.removesuffix('_')}' has a dynamic shape")


# --- index_put -------------------------------------------------------------------------


@converts("torch.aten.index_put.hacked_twin", "torch.aten.index_put", "torch.aten._index_put_impl",
          makes=indexing_ops.ScatterOp)
def index_put(op):
    """x[i0, i1, ...] = v (or += v): the index tensors broadcast together to B
    and address the leading dims; v broadcasts to B + the remaining dims."""
    _static(op, "self_", "values")
    producer = op.operand("indices").owner
    if any(getattr(v.owner, "name", "") == "torch.constant.none" for v in producer.operands):
        raise NotConvertible("index_put with None (a slice) among the index tensors")
    x = op.tensor("self_")
    indices = op.tensors("indices")
    if any(not isinstance(i.type.element_type, ir.IntegerType) or i.type.element_type.width == 1 for i in indices):
        raise NotConvertible("index_put with a boolean mask index")
    if any(d < 0 for i in indices for d in i.type.shape):
        raise NotConvertible("index_put with dynamically shaped indices")
    count = len(indices)
    shape = list(x.type.shape)
    batch = [int(d) for d in np.broadcast_shapes(*[tuple(i.type.shape) for i in indices])]
    rows = math.prod(batch)
    columns = []
    for d, index in enumerate(indices):
        index = _broadcast(_wrapped(cast_to(index, _i64()), shape[d]), batch)
        columns.append(reshape(index, [rows, 1]))
    values = _broadcast(cast_to(op.tensor("values"), x.type.element_type), batch + shape[count:])
    updates = reshape(values, [rows] + shape[count:])
    return _scatter(x, _concat_columns(columns), updates, "add" if op.bool("accumulate") else "replace")


# --- scatter, scatter_add, scatter_reduce ------------------------------------------------


def _along_dim(op, dim_key="dim"):
    """x, the [N, rank] positions of torch.scatter along dim (each coordinate of
    `index`, with the index value at dim), and N."""
    _static(op, "self_", "index")
    x = op.tensor("self_")
    rank = x.type.rank
    if rank == 0:
        raise NotConvertible("scatter into a 0-d tensor")
    axis = op.int(dim_key) % rank
    index = cast_to(op.tensor("index"), _i64())
    index_shape = list(index.type.shape)
    rows = math.prod(index_shape)
    grid = np.indices(index_shape, dtype=np.int64).reshape(rank, rows).T
    columns = []
    for d in range(rank):
        if d == axis:
            columns.append(reshape(index, [rows, 1]))
        else:
            column = np.ascontiguousarray(grid[:, d : d + 1])
            columns.append(make_constant(column, tensor_type([rows, 1], _i64()), "coordinates"))
    return x, _concat_columns(columns), index_shape


def _src_updates(op, index_shape, element_type):
    """src[:index.shape], flattened."""
    _static(op, "src")
    src = cast_to(op.tensor("src"), element_type)
    if list(src.type.shape) != index_shape:
        rank = len(index_shape)
        src = shape_ops.SliceOp(src, [], i64_array_attr([0] * rank), i64_array_attr(index_shape),
                                i64_array_attr([1] * rank), tensor_type(index_shape, element_type)).result
    return reshape(src, [math.prod(index_shape)])


@converts("torch.aten.scatter.src", "torch.aten.scatter_add", makes=indexing_ops.ScatterOp)
def scatter_src(op):
    x, positions, index_shape = _along_dim(op)
    updates = _src_updates(op, index_shape, x.type.element_type)
    return _scatter(x, positions, updates, "add" if op.name == "torch.aten.scatter_add" else "replace")


@converts("torch.aten.scatter.value", makes=indexing_ops.ScatterOp)
def scatter_value(op):
    x, positions, index_shape = _along_dim(op)
    element_type = x.type.element_type
    value = op.float("value") if is_float(element_type) else op.int("value")
    updates = splat(value, element_type, [math.prod(index_shape)])
    return _scatter(x, positions, updates, "replace")


_REDUCE_COMBINES = {"sum": "add", "mean": "add", "prod": "mul", "amax": "max", "amin": "min"}


def _identity(reduce: str, element_type: ir.Type):
    if reduce in ("sum", "mean"):
        return 0
    if reduce == "prod":
        return 1
    if is_float(element_type):
        return float("-inf") if reduce == "amax" else float("inf")
    info = np.iinfo(np.dtype(f"int{element_type.width}"))
    return int(info.min) if reduce == "amax" else int(info.max)


@converts("torch.aten.scatter_reduce.two", makes=(indexing_ops.ScatterOp, ew.DivOp, ew.FloorDivOp))
def scatter_reduce(op):
    """Without include_self, the written positions start at the reduction's
    identity; mean divides the sum by the count of values at each position
    (self counting as one where it is included or nothing is written)."""
    reduce = op.str("reduce")
    if reduce not in _REDUCE_COMBINES:
        raise NotConvertible(f"scatter_reduce with reduce '{reduce}'")
    x, positions, index_shape = _along_dim(op)
    element_type = x.type.element_type
    if isinstance(element_type, ir.IntegerType) and element_type.width == 1:
        raise NotConvertible("scatter_reduce of booleans")
    rows = math.prod(index_shape)
    updates = _src_updates(op, index_shape, element_type)
    include_self = op.bool("include_self")
    start = x
    if not include_self:
        start = _scatter(x, positions, splat(_identity(reduce, element_type), element_type, [rows]), "replace")
    result = _scatter(start, positions, updates, _REDUCE_COMBINES[reduce])
    if reduce != "mean":
        return result
    ones = splat(1, element_type, x.type.shape)
    if not include_self:
        ones = _scatter(ones, positions, splat(0, element_type, [rows]), "replace")
    count = _scatter(ones, positions, splat(1, element_type, [rows]), "add")
    divide = ew.DivOp if is_float(element_type) else ew.FloorDivOp
    return divide(result, count, x.type).result


# --- bincount ------------------------------------------------------------------------------


@converts("torch.aten.bincount", makes=(indexing_ops.BincountOp, data_ops.CastOp))
def bincount(op):
    """Weights take the result's element type first: torch's is f32 for f32 weights,
    f64 for any others."""
    minlength = op.int("minlength")
    if minlength < 0:
        raise NotConvertible(f"bincount with a negative minlength ({minlength}): torch raises")
    x = op.tensor("self_")
    if x.type.rank != 1 or not isinstance(x.type.element_type, ir.IntegerType) or x.type.element_type.width == 1:
        raise NotConvertible(f"bincount of {x.type}: torch counts 1-D integers only")
    result_type = op.result_type()
    weights = None if op.is_none("weights") else cast_to(op.tensor("weights"), result_type.element_type)
    return indexing_ops.BincountOp(x, i64(minlength), result_type, weights=weights).result
