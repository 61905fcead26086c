"""torch's diagonal views and products -> mlc: diagonal, diag_embed, outer and
unfold, composed of gathers at constant positions, selects and reshapes.
"""

import numpy as np
from torch_mlir import ir

from ...dialects import data_ops, shape_ops
from ...dialects import elementwise_ops as ew
from ...dialects.op_base import DYNAMIC
from ..constant_values import make_constant, positions_constant
from ..graph import broadcast_binary, cast_to, i64, reshape, splat, tensor_type, transpose
from .patterns import NotConvertible, converts


def _i64():
    return ir.IntegerType.get_signless(64)


def _diagonal_length(rows: int, cols: int, offset: int) -> int:
    return max(0, min(rows, cols - offset) if offset >= 0 else min(rows + offset, cols))


@converts("torch.aten.diagonal", makes=(shape_ops.TransposeOp, shape_ops.ReshapeOp, shape_ops.GatherOp))
def diagonal(op):
    """dim1 and dim2 move last and flatten into one, read by a gather at the
    constant positions of the diagonal: (i + row0) * cols + i + col0."""
    x = op.tensor("self_")
    rank, shape = x.type.rank, list(x.type.shape)
    if DYNAMIC in shape:
        raise NotConvertible("diagonal of a tensor with dynamic sizes")
    dim1, dim2, offset = op.int("dim1") % rank, op.int("dim2") % rank, op.int("offset")
    if dim1 == dim2:
        raise NotConvertible("diagonal with dim1 == dim2")
    rest = [d for d in range(rank) if d not in (dim1, dim2)]
    rows, cols = shape[dim1], shape[dim2]
    length = _diagonal_length(rows, cols, offset)
    row0, col0 = max(0, -offset), max(0, offset)
    positions = (np.arange(length) + row0) * cols + np.arange(length) + col0
    moved = transpose(x, rest + [dim1, dim2]) if rest + [dim1, dim2] != list(range(rank)) else x
    flat = reshape(moved, [shape[d] for d in rest] + [rows * cols])
    indices = positions_constant(positions, "diagonal")
    return shape_ops.GatherOp(flat, indices, i64(len(rest)), op.result_type()).result


@converts("torch.aten.diag_embed", makes=(shape_ops.GatherOp, ew.SelectOp, shape_ops.TransposeOp))
def diag_embed(op):
    """The last dim spreads over an (m, m) matrix: a gather at the constant
    positions min(i, j), a select of the constant diagonal mask against 0, and a
    transpose that puts the matrix's dims at dim1 and dim2."""
    x = op.tensor("self_")
    if DYNAMIC in x.type.shape:
        raise NotConvertible("diag_embed of a tensor with dynamic sizes")
    rank, offset = x.type.rank + 1, op.int("offset")
    dim1, dim2 = op.int("dim1") % rank, op.int("dim2") % rank
    if dim1 == dim2:
        raise NotConvertible("diag_embed with dim1 == dim2")
    count = x.type.shape[-1]
    if count == 0:
        raise NotConvertible("diag_embed of an empty vector with an offset")
    size = count + abs(offset)
    rows, cols = np.indices((size, size))
    positions = np.clip(np.minimum(rows, cols), 0, max(count - 1, 0))
    mask = make_constant(cols - rows == offset, tensor_type([size, size], ir.IntegerType.get_signless(1)), "mask")
    indices = positions_constant(positions, "diag_embed")
    batch = list(x.type.shape[:-1])
    spread_type = tensor_type(batch + [size, size], x.type.element_type)
    spread = shape_ops.GatherOp(x, indices, i64(rank - 2), spread_type).result
    matrix = ew.SelectOp(mask, spread, splat(0, x.type.element_type), spread_type).result
    others = iter(range(rank - 2))
    permutation = [rank - 2 if d == dim1 else rank - 1 if d == dim2 else next(others) for d in range(rank)]
    return transpose(matrix, permutation) if permutation != list(range(rank)) else matrix


@converts("torch.aten.outer", makes=(shape_ops.ReshapeOp, ew.MulOp, data_ops.CastOp))
def outer(op):
    """outer(a, b): a as a column times b as a row, broadcast to (n, m)."""
    element_type = op.result_type().element_type
    if DYNAMIC in op.result_type().shape:
        raise NotConvertible("outer of vectors with dynamic lengths")
    column = reshape(cast_to(op.tensor("self_"), element_type), [op.operand_type("self_").shape[0], 1])
    row = reshape(cast_to(op.tensor("vec2"), element_type), [1, op.operand_type("vec2").shape[0]])
    return broadcast_binary(ew.MulOp, column, row)


@converts("torch.aten.unfold", makes=(shape_ops.GatherOp, shape_ops.TransposeOp, shape_ops.ReshapeOp))
def unfold(op):
    """Windows of `size` every `step` along a dim: a gather at the constant
    positions i * step + j, shaped (windows, size), whose window axis then moves last."""
    x = op.tensor("self_")
    if x.type.rank == 0:
        return reshape(x, op.result_type().shape)
    rank, size, step = x.type.rank, op.int("size"), op.int("step")
    dim = op.int("dimension") % rank
    length = x.type.shape[dim]
    if length == DYNAMIC:
        raise NotConvertible("unfold of a dynamic dimension")
    windows = (length - size) // step + 1
    positions = np.arange(windows)[:, None] * step + np.arange(size)[None, :]
    indices = positions_constant(positions, "unfold")
    shape = list(x.type.shape[:dim]) + [windows, size] + list(x.type.shape[dim + 1 :])
    gathered = shape_ops.GatherOp(x, indices, i64(dim), tensor_type(shape, x.type.element_type)).result
    permutation = [d for d in range(rank + 1) if d != dim + 1] + [dim + 1]
    return transpose(gathered, permutation) if dim + 1 != rank else gathered
