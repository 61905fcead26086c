"""torch.aten.embedding_bag -> mlc: a gather of the rows, then a masked reduction
per bag.

Bag b holds the indices at positions offsets[b] <= i < end[b] (end[b] is the next
offset, or the number of indices for the last bag without `include_last_offset`).
The offsets may be a run-time tensor (OpInfo's are; F.embedding_bag's 2-D input
makes them an arange): the membership of every position in every bag is a (bags,
indices) comparison, and each bag's value is a reduce_sum / reduce_max over the
gathered rows where the bag's mask holds. An index equal to `padding_idx` is in
no bag (it neither adds nor counts for the mean). An empty bag is 0 in every mode.
Offsets known to be 0, L, 2L, ... (a 2-D input's arange) make the bags the rows of
a (bags, L) view instead: no mask over every (bag, index) pair.

With `include_last_offset`, torch documents the last offset as the number of
indices; its CPU kernel is inconsistent across modes when it is not.
"""

import math

import numpy as np
from torch_mlir import ir

from ...dialects import elementwise_ops as ew
from ...dialects import reduction_ops as rd
from ...dialects import shape_ops
from ...dialects.op_base import DYNAMIC, is_float
from ..constant_values import make_constant, value_of
from ..graph import boolean, cast_to, i64, i64_array_attr, reshape, splat, tensor_type
from ..graph import broadcast_binary as _binary
from ..graph import broadcast_compare as _compare
from ..graph import broadcast_select as _select
from .patterns import NotConvertible, TorchOp, converts

SUM, MEAN, MAX = 0, 1, 2


def _i1():
    return ir.IntegerType.get_signless(1)


def _slice(value, start, limit):
    return shape_ops.SliceOp(value, [], i64_array_attr([start]), i64_array_attr([limit]), i64_array_attr([1]),
                             tensor_type([limit - start], value.type.element_type)).result


def _reduce(cls, value, axis):
    shape = rd.reduced_shape(list(value.type.shape), [axis], False)
    return cls(value, i64_array_attr([axis]), boolean(False), tensor_type(shape, value.type.element_type)).result


def _even_bag_length(op, count, bags):
    """L when the offsets are the constants 0, L, ..., (bags - 1) L with bags * L = count."""
    offsets = op.operand("offsets")
    producer = offsets.owner if not isinstance(offsets.owner, ir.Block) else None
    if producer is None:
        return None
    starts = None
    if producer.name == "torch.aten.arange.start_step":
        arange = TorchOp(producer)
        try:
            start, end, step = arange.int("start"), arange.int("end"), arange.int("step")
        except NotConvertible:
            return None
        starts = np.arange(start, end, step)
    elif producer.name == "torch_c.from_builtin_tensor":
        starts = value_of(producer.operands[0])
    if starts is None or bags == 0 or count % bags or len(starts) < bags:
        return None
    length = count // bags
    return length if np.array_equal(starts[:bags], np.arange(bags) * length) else None


def _bag_mask(offsets, indices, include_last_offset, padding_idx):
    """(bags, indices) i1: whether position i is in bag b."""
    count, given = indices.type.shape[0], offsets.type.shape[0]
    bags = given - 1 if include_last_offset else given
    starts = _slice(offsets, 0, bags)
    ends = _slice(offsets, 1, given)
    if not include_last_offset:
        ends = shape_ops.ConcatOp(ends, splat(count, offsets.type.element_type, [1]), i64(0), starts.type).result
    positions = make_constant(np.arange(count), tensor_type([1, count], offsets.type.element_type), "positions")
    after_start = _compare(positions, reshape(starts, [bags, 1]), "ge")
    before_end = _compare(positions, reshape(ends, [bags, 1]), "lt")
    mask = _select(after_start, before_end, splat(0, _i1()))
    if padding_idx is not None:
        kept = _compare(reshape(indices, [1, count]), splat(padding_idx, indices.type.element_type), "ne")
        mask = _select(kept, mask, splat(0, _i1()))
    return mask


@converts("torch.aten.embedding_bag.padding_idx",
          makes=(shape_ops.GatherOp, ew.CompareOp, ew.SelectOp, rd.ReduceSumOp, rd.ReduceMaxOp), keep_whole=True)
def embedding_bag(op):
    """Result 0 (the bags); the others (offset2bag, bag sizes, max indices) serve
    the backward and must be unused."""
    if any(True for result in op.op.results[1:] for _ in result.uses):
        raise NotConvertible("embedding_bag's offset2bag, bag_size or max_indices results are used")
    weight, indices, offsets = op.tensor("weight"), op.tensor("indices"), op.tensor("offsets")
    mode, include_last_offset = op.int("mode"), op.bool("include_last_offset")
    padding_idx = None if op.is_none("padding_idx") else op.int("padding_idx")
    result_type = op.result_type(0)
    element_type = weight.type.element_type
    if not is_float(element_type) or weight.type.rank != 2 or indices.type.rank != 1 or offsets.type.rank != 1:
        raise NotConvertible("embedding_bag of a float 2-D weight, 1-D indices and 1-D offsets only")
    if DYNAMIC in [*indices.type.shape, *offsets.type.shape, *result_type.shape]:
        raise NotConvertible("embedding_bag with a dynamic number of indices or bags")
    if mode not in (SUM, MEAN, MAX):
        raise NotConvertible(f"embedding_bag mode {mode}")
    if padding_idx is not None and padding_idx < 0:
        padding_idx += weight.type.shape[0]
    if offsets.type.element_type != indices.type.element_type:
        offsets = cast_to(offsets, indices.type.element_type)
    count = indices.type.shape[0]
    bags = offsets.type.shape[0] - (1 if include_last_offset else 0)
    if bags < 0:
        raise NotConvertible("embedding_bag with include_last_offset and no offsets")
    dim = weight.type.shape[1]

    rows = shape_ops.GatherOp(weight, indices, i64(0), tensor_type([count, dim], element_type)).result
    if not op.is_none("per_sample_weights"):
        if mode != SUM:
            raise NotConvertible("per_sample_weights outside mode 'sum'")  # torch rejects it too
        rows = _binary(ew.MulOp, rows, reshape(cast_to(op.tensor("per_sample_weights"), element_type), [count, 1]))
    length = None if include_last_offset else _even_bag_length(op, count, bags)
    if length is not None:  # bag b is positions b L ... (b + 1) L - 1
        mask = splat(1, _i1(), [bags, length, 1])
        if padding_idx is not None:
            mask = _compare(reshape(indices, [bags, length, 1]), splat(padding_idx, indices.type.element_type), "ne")
        rows = reshape(rows, [bags, length, dim])
    else:
        mask = reshape(_bag_mask(offsets, indices, include_last_offset, padding_idx), [bags, count, 1])
        rows = reshape(rows, [1, count, dim])
    if mode == MAX:
        picked = _select(mask, rows, splat(-math.inf, element_type))
        value = _reduce(rd.ReduceMaxOp, picked, 1)
        nonempty = _reduce(rd.ReduceMaxOp, cast_to(mask, element_type), 1)  # (bags, 1): 1 where the bag has a row
        value = _select(_compare(nonempty, splat(0.0, element_type), "gt"), value, splat(0.0, element_type))
    else:
        value = _reduce(rd.ReduceSumOp, _select(mask, rows, splat(0.0, element_type)), 1)
        if mode == MEAN:
            sizes = _reduce(rd.ReduceSumOp, cast_to(mask, element_type), 1)
            sizes = _binary(ew.MaximumOp, sizes, splat(1.0, element_type))
            value = _binary(ew.DivOp, value, sizes)
    value = reshape(value, result_type.shape)
    unused = [make_constant(np.zeros(op.result_type(i).shape), op.result_type(i), "unused") for i in (1, 2, 3)]
    return [value, *unused]  # the unused results die with no uses
