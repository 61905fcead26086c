"""`mlc-form-update-slice`: a scatter that replaces one block of its input, at an offset
known only at run time along one dimension, becomes `mlc.update_slice`.

A static key/value cache writes each decoded token at its position:
`cache.index_copy(2, position, row)` (transformers' StaticCache). torch decomposes
index_copy into index_put with an index tensor per dimension (aranges for the full
ones, the position for the other), and mlc converts that into a scatter of every
element at [N, K] positions. As a scatter in a dispatch, IREE first copied the whole
cache into the result, then wrote the row: GPT-2 copied its 24 caches, 7 MB, at every
decode step, and built the positions (four more dispatches). As `mlc.update_slice`,
left outside the dispatches, IREE writes the row into the cache's own buffer.

The positions must be, after constant folding, columns side by side (`mlc.concat`
along 1) of which one is a single run-time value broadcast to every row (the offset)
and the others constants, and together the row-major grid of a block: column d is
start_d + i_d, i_d counting 0..size_d-1 with the later columns counting fastest, and the
offset's column a block of size 1. The updates, [N] + input.shape[K:], are the block
itself. "replace" only: a grid names each position once, so no update competes.
"""

import math

import numpy as np
from torch_mlir import ir

from ..dialects import elementwise_ops as ew
from ..dialects import indexing_ops, shape_ops
from .constant_values import splat_of, value_of
from .graph import defining, i64, i64_array_attr, reshape
from .registry import register
from .rewriting import Pattern, PatternPass


def _columns(indices: ir.Value) -> list[ir.Value]:
    """The values placed side by side (through concats along axis 1) to make `indices`."""
    concat = defining(indices, shape_ops.ConcatOp)
    if concat is None or ir.IntegerAttr(concat.attributes["axis"]).value != 1:
        return [indices]
    return _columns(concat.lhs) + _columns(concat.rhs)


def _scalar_source(column: ir.Value, size: int) -> ir.Value | None:
    """The single-element value a column repeats in every row, or None. Steps that keep
    that value are passed through: reshapes, broadcasts, adding a constant 0 (torch's
    `arange(1) + position`), and torch's wrapping of a negative index (`index + size`
    where it is below 0), which `mlc.update_slice` does itself. So the offset is often a
    function argument, which IREE reads inside the update's own dispatch; computed in a
    dispatch of mlc's, it was read back to the host, and IREE then copied every cache."""
    value, seen_one = column, False
    while True:
        if value.type.has_static_shape and math.prod(value.type.shape) == 1:
            seen_one = True
        op = defining(value)
        if isinstance(op, (shape_ops.ReshapeOp, shape_ops.BroadcastOp)) and len(op.operation.operands) == 1:
            value = op.operation.operands[0]
        elif seen_one and isinstance(op, ew.AddOp) and _is_zero(op.lhs) and _same_numel_one(op.rhs):
            value = op.rhs
        elif seen_one and isinstance(op, ew.AddOp) and _is_zero(op.rhs) and _same_numel_one(op.lhs):
            value = op.lhs
        elif seen_one and (wrapped := _unwrapped(op, size)) is not None:
            value = wrapped
        else:
            return value if seen_one else None


def _is_zero(value: ir.Value) -> bool:
    return splat_of(value) == 0


def _same_numel_one(value: ir.Value) -> bool:
    return value.type.has_static_shape and math.prod(value.type.shape) == 1


def _unwrapped(op, size: int) -> ir.Value | None:
    """x where `op` is select(x < 0, x + size, x), torch's wrapping of an index."""
    if not isinstance(op, ew.SelectOp):
        return None
    compare, shifted, x = defining(op.condition, ew.CompareOp), defining(op.on_true, ew.AddOp), op.on_false
    if compare is None or shifted is None or ir.StringAttr(compare.attributes["predicate"]).value != "lt":
        return None
    if compare.lhs != x or splat_of(compare.rhs) != 0 or shifted.lhs != x or splat_of(shifted.rhs) != size:
        return None
    return x


def _block(grid: np.ndarray, offset_column: int, shape: list[int]) -> tuple[list[int], list[int]] | None:
    """(start, size) of the block whose row-major positions are `grid` ([N, K], the
    offset's column ignored and of size 1), or None where the rows are no such block
    or it does not fit in `shape`."""
    rows, depth = grid.shape
    start, size = [], []
    for d in range(depth):
        column = grid[:, d]
        low, high = (0, 0) if d == offset_column else (int(column.min()), int(column.max()))
        start.append(low)
        size.append(high - low + 1)
    if math.prod(size) != rows:
        return None
    counter = np.arange(rows)
    for d in range(depth):
        if d == offset_column:
            continue
        stride = math.prod(size[d + 1:])
        if start[d] < 0 or start[d] + size[d] > shape[d] or not np.array_equal(grid[:, d], start[d] + counter // stride % size[d]):
            return None
    return start, size


class ScatterOfBlock(Pattern):
    op = indexing_ops.ScatterOp
    statistic = "scatters made update_slice"

    def match(self, op):
        input_type = op.input.type
        if ir.StringAttr(op.attributes["combine"]).value != "replace" or not input_type.has_static_shape:
            return None
        columns = _columns(op.indices)
        if any(c.type.shape[1] != 1 and value_of(c) is None for c in columns):
            return None  # only one-wide columns are run-time values
        dynamic = [i for i, c in enumerate(columns) if value_of(c) is None]
        if len(dynamic) != 1:
            return None
        rows = op.indices.type.shape[0]
        parts = [np.zeros((rows, 1), np.int64) if i == dynamic[0] else value_of(c).reshape(rows, -1)
                 for i, c in enumerate(columns)]
        axis = sum(part.shape[1] for part in parts[: dynamic[0]])
        offset = _scalar_source(columns[dynamic[0]], input_type.shape[axis])
        if offset is None:
            return None
        block = _block(np.concatenate(parts, axis=1).astype(np.int64), axis, list(input_type.shape))
        if block is None:
            return None
        start, size = block
        return offset, axis, start, size

    def rewrite(self, op, matched):
        offset, axis, start, size = matched
        shape = list(op.input.type.shape)
        depth = len(size)
        update = reshape(op.updates, size + shape[depth:])
        return indexing_ops.UpdateSliceOp(op.input, update, reshape(offset, []), i64(axis),
                                          i64_array_attr(start + [0] * (len(shape) - depth)), op.input.type).result


@register
class FormUpdateSlice(PatternPass):
    """Scatters of one block at a run-time offset become `mlc.update_slice`."""

    name = "mlc-form-update-slice"

    def patterns(self):
        return [ScatterOfBlock()]

