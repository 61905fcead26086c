"""torch's index-computing and index-reading ops -> mlc: max/min along a dim
(values and indices), sort, advanced indexing (`x[idx]`), flip, and tril/triu.

Advanced indexing, flip and tril/triu compose existing ops: the positions they
read are integer tensors (constants where torch's are), then one `mlc.gather`
or `mlc.select`.
"""

import math

import numpy as np
from torch_mlir import ir

from ...dialects import elementwise_ops as ew
from ...dialects import indexing_ops, reduction_ops, shape_ops
from ..constant_values import make_constant, positions_constant
from ..graph import boolean, cast_to, i64, i64_array_attr, reshape, splat, string, tensor_type
from .patterns import NotConvertible, converts

I64 = "i64"


def _i64():
    return ir.IntegerType.get_signless(64)


@converts("torch.aten.max.dim", "torch.aten.min.dim",
          makes=(indexing_ops.ArgmaxOp, indexing_ops.ArgminOp, reduction_ops.ReduceMaxOp, reduction_ops.ReduceMinOp))
def max_min_dim(op):
    """(values, indices): a reduce_max/min and an argmax/argmin; an unused half dies."""
    rank = op.operand_type("self_").rank
    axis, keepdim = op.int("dim") % rank, op.bool("keepdim")
    largest = op.name == "torch.aten.max.dim"
    reduce_cls = reduction_ops.ReduceMaxOp if largest else reduction_ops.ReduceMinOp
    arg_cls = indexing_ops.ArgmaxOp if largest else indexing_ops.ArgminOp
    values = reduce_cls(op.tensor("self_"), i64_array_attr([axis]), boolean(keepdim), op.result_type(0)).result
    indices = arg_cls(op.tensor("self_"), i64(axis), boolean(keepdim), op.result_type(1)).result
    return [values, indices]


@converts("torch.aten.argmax", "torch.aten.argmin", makes=(indexing_ops.ArgmaxOp, indexing_ops.ArgminOp))
def argmax(op):
    """With no dim, the index into the flattened input."""
    x = op.tensor("self_")
    keepdim = op.bool("keepdim")
    cls = indexing_ops.ArgmaxOp if op.name == "torch.aten.argmax" else indexing_ops.ArgminOp
    if op.is_none("dim"):
        flat = reshape(x, [math.prod(x.type.shape)])
        index = cls(flat, i64(0), boolean(keepdim), tensor_type([1] if keepdim else [], _i64())).result
        return reshape(index, op.result_type().shape)
    return cls(x, i64(op.int("dim") % x.type.rank), boolean(keepdim), op.result_type()).result


@converts("torch.aten.sort", makes=(indexing_ops.ArgsortOp, shape_ops.TakeAlongAxisOp))
def sort(op):
    """(values, indices): argsort, then the values read through the indices."""
    x = op.tensor("self_")
    axis = op.int("dim") % x.type.rank
    indices = indexing_ops.ArgsortOp(x, i64(axis), boolean(op.bool("descending")), op.result_type(1)).result
    values = shape_ops.TakeAlongAxisOp(x, indices, i64(axis), op.result_type(0)).result
    return [values, indices]


def _wrapped(index, size):
    """Negative indices count from the end, as torch's: index + size where index < 0."""
    boolean_type = tensor_type(index.type.shape, ir.IntegerType.get_signless(1))
    negative = ew.CompareOp(index, splat(0, index.type.element_type), string("lt"), boolean_type).result
    shifted = ew.AddOp(index, splat(size, index.type.element_type), index.type).result
    return ew.SelectOp(negative, shifted, index, index.type).result


def _broadcast_add(lhs, rhs):
    shape = ew.broadcast_shapes(lhs.type.shape, rhs.type.shape)
    return ew.AddOp(lhs, rhs, tensor_type(shape, lhs.type.element_type)).result


@converts("torch.aten.index.Tensor_hacked_twin", "torch.aten.index.Tensor", makes=shape_ops.GatherOp)
def index_tensor(op):
    """x[i0, i1, ...]: the index tensors broadcast together and pick along the
    leading dims; those dims flatten into one, read by one gather at
    sum(i_d * stride_d)."""
    input_type = op.operand_type("self_")
    producer = op.operand("indices").owner
    if any(getattr(v.owner, "name", "") == "torch.constant.none" for v in producer.operands):
        raise NotConvertible("indexing with None (a slice) between index tensors")
    indices = op.tensors("indices")
    count = len(indices)
    leading = input_type.shape[:count]
    if any(d < 0 for d in leading):
        raise NotConvertible("advanced indexing of a dynamic dimension")
    linear = None
    for d, index in enumerate(indices):
        index = _wrapped(cast_to(index, _i64()), leading[d])
        stride = math.prod(leading[d + 1 :])
        if stride != 1:
            index = ew.MulOp(index, splat(stride, _i64()), index.type).result
        linear = index if linear is None else _broadcast_add(linear, index)
    flat = reshape(op.tensor("self_"), [math.prod(leading)] + list(input_type.shape[count:]))
    return shape_ops.GatherOp(flat, linear, i64(0), op.result_type()).result


@converts("torch.aten.flip", makes=shape_ops.GatherOp)
def flip(op):
    """One gather per flipped dim, at the constant indices n-1, ..., 0."""
    x = op.tensor("self_")
    for axis in sorted({d % x.type.rank for d in op.ints("dims")}):
        size = x.type.shape[axis]
        if size < 0:
            raise NotConvertible("flip of a dynamic dimension")
        reversed_indices = positions_constant(np.arange(size - 1, -1, -1), "flip")
        x = shape_ops.GatherOp(x, reversed_indices, i64(axis), x.type).result
    return x


@converts("torch.aten.tril", "torch.aten.triu", makes=ew.SelectOp)
def triangle(op):
    """select(mask, x, 0), the mask a constant over the last two dims."""
    x = op.tensor("self_")
    rows, cols = x.type.shape[-2:]
    if rows < 0 or cols < 0:
        raise NotConvertible("tril/triu of a dynamic matrix")
    keep = np.tril if op.name == "torch.aten.tril" else np.triu
    mask_array = keep(np.ones((rows, cols), dtype=bool), op.int("diagonal"))
    mask = make_constant(mask_array, tensor_type([rows, cols], ir.IntegerType.get_signless(1)), "mask")
    return ew.SelectOp(mask, x, splat(0, x.type.element_type), x.type).result
