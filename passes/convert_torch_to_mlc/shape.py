"""torch view, layout and indexing ops -> mlc reshape, transpose, broadcast,
concat, slice, gather and pad."""

import math
import re

import numpy as np
from torch_mlir import ir

from ...dialects import elementwise_ops as ew
from ...dialects import shape_ops
from ...dialects.op_base import DYNAMIC
from ..constant_values import make_constant, positions_constant
from ..graph import f64, i64, i64_array_attr, reshape, slice_along, tensor_type
from .patterns import NotConvertible, TorchOp, converts
from .sizes import check_size, element_count_of_dims, size_value, view_sizes
from .sizes import dim as dim_of


@converts("torch.aten.unsqueeze", "torch.aten.squeeze.dim", "torch.aten.squeeze", makes=shape_ops.ReshapeOp)
def reshape_family(op):
    """All of these keep the row-major order; torch already inferred the result shape."""
    return reshape(op.tensor("self_"), op.result_type().shape)


@converts("torch.aten.flatten.using_ints", makes=shape_ops.ReshapeOp, keep_whole=True)
def flatten(op):
    """A reshape; a flattened size that is dynamic is the product of the input's."""
    source, shape = op.tensor("self_"), op.result_type().shape
    if DYNAMIC not in shape:
        return reshape(source, shape)
    rank = max(source.type.rank, 1)
    start, end = op.int("start_dim") % rank, op.int("end_dim") % rank
    sizes = []
    for d, size in enumerate(shape):
        if size == DYNAMIC:
            first, last = (start, end) if d == start else (d, d) if d < start else (d + end - start,) * 2
            sizes.append(element_count_of_dims(source, range(first, last + 1)))
    return reshape(source, shape, sizes)


@converts("torch.aten.view", "torch.aten.reshape", "torch.aten._unsafe_view", "torch.aten.unflatten.int",
          makes=shape_ops.ReshapeOp, keep_whole=True)
def view(op):
    """As the reshapes above; dynamic result sizes are computed from torch's size list."""
    shape = op.result_type().shape
    source = op.tensor("self_")
    if DYNAMIC not in shape:
        return reshape(source, shape)
    if op.name == "torch.aten.unflatten.int":
        return reshape(source, shape)
    return reshape(source, shape, view_sizes(op.operand(1), source, shape))


@converts("torch.prims.collapse", "torch.prims.split_dim", makes=shape_ops.ReshapeOp)
def collapse_split_dim(op):
    """torch-mlir's prims for pixel_shuffle and channel_shuffle: dims start..end
    merged into one, or one dim split in two; reshapes to the result type."""
    shape = op.result_type().shape
    if DYNAMIC in shape:
        raise NotConvertible(f"{op.name.removeprefix('torch.')} with dynamic sizes")
    return reshape(op.tensor("a"), shape)


@converts("torch.aten.contiguous", "torch.aten.clone", "torch.aten.detach", "torch.aten.alias", makes=())
def identity(op):
    return op.tensor("self_")


def _transpose(op, permutation):
    return shape_ops.TransposeOp(op.tensor("self_"), i64_array_attr(permutation), op.result_type()).result


@converts("torch.aten.transpose.int", makes=shape_ops.TransposeOp)
def transpose(op):
    rank = op.operand_type("self_").rank
    a, b = op.int("dim0") % rank, op.int("dim1") % rank
    permutation = list(range(rank))
    permutation[a], permutation[b] = permutation[b], permutation[a]
    return _transpose(op, permutation)


@converts("torch.aten.permute", makes=shape_ops.TransposeOp)
def permute(op):
    rank = op.operand_type("self_").rank
    return _transpose(op, [d % rank for d in op.ints("dims")])


@converts("torch.aten.t", "torch.aten.numpy_T", makes=shape_ops.TransposeOp)
def t(op):
    return _transpose(op, list(reversed(range(op.operand_type("self_").rank))))


@converts("torch.aten.expand", "torch.aten.broadcast_to", makes=shape_ops.BroadcastOp)
def expand(op):
    """Dynamic result sizes come from torch's size list (-1: the input's own size)."""
    result_type = op.result_type()
    if DYNAMIC not in result_type.shape:
        return shape_ops.BroadcastOp(op.tensor("self_"), [], result_type).result
    elements = _list_elements(op.operand("size"))
    keep = [_is_constant_int(e) and op_int_value(e) == -1 for e in elements]
    for element, kept, size in zip(elements, keep, result_type.shape):
        if size == DYNAMIC and not kept:
            check_size(element)  # before anything is built
    source = op.tensor("self_")
    offset = result_type.rank - source.type.rank
    sizes = [dim_of(source, d - offset) if kept else size_value(element)
             for d, (element, kept, size) in enumerate(zip(elements, keep, result_type.shape)) if size == DYNAMIC]
    return shape_ops.BroadcastOp(source, sizes, result_type).result


def _list_elements(value) -> list:
    owner = value.owner
    if isinstance(owner, ir.Block) or owner.operation.name != "torch.prim.ListConstruct":
        raise NotConvertible("sizes that are not a list")
    return list(owner.operation.operands)


def op_int_value(value) -> int:
    return ir.IntegerAttr(value.owner.operation.attributes["value"]).value


def _slice_bounds(size, start, end, step):
    """torch's clamping of slice bounds, with negative indices from the end. On a
    dynamic size, bounds must count from the start; a limit of `?` means the end."""
    if size == DYNAMIC:
        if (start or 0) < 0 or (end is not None and end < 0):
            raise NotConvertible("a slice from the end of a dynamic dimension")
        return start or 0, DYNAMIC if end is None or end >= 2**62 else end, step
    start = 0 if start is None else start + size if start < 0 else start
    end = size if end is None else end + size if end < 0 else end
    return max(0, min(start, size)), max(0, min(end, size)), step


@converts("torch.aten.slice.Tensor", makes=shape_ops.SliceOp)
def slice_(op):
    input_type = op.operand_type("self_")
    dim = op.int("dim") % input_type.rank
    start = None if op.is_none("start") else op.int("start")
    if op.is_none("end") or _is_constant_int(op.operand("end")):
        end, computed_end = None if op.is_none("end") else op.int("end"), []
    else:  # a size computed at run time (`x[:, :seq]`): the limit is an index operand
        if (start or 0) < 0:
            raise NotConvertible("a slice from the end up to a computed size")
        end, computed_end = DYNAMIC, [size_value(op.operand("end"))]
    if computed_end:
        lo, hi, step = start or 0, DYNAMIC, op.int("step")
    else:
        lo, hi, step = _slice_bounds(input_type.shape[dim], start, end, op.int("step"))
    hi = hi if hi == DYNAMIC else max(hi, lo)
    starts, limits, strides = [0] * input_type.rank, list(input_type.shape), [1] * input_type.rank
    starts[dim], limits[dim], strides[dim] = lo, hi, step
    given = []  # with a computed limit, every '?' limit is an operand: the others are their sizes
    if computed_end:
        given = [computed_end[0] if d == dim else dim_of(op.tensor("self_"), d)
                 for d in range(input_type.rank) if limits[d] == DYNAMIC]
    return shape_ops.SliceOp(op.tensor("self_"), given, i64_array_attr(starts), i64_array_attr(limits), i64_array_attr(strides),
                             op.result_type()).result


@converts("torch.aten.slice_scatter", makes=(shape_ops.GatherOp, ew.SelectOp))
def slice_scatter(op):
    """self with self[..., start:end:step, ...] replaced by src (the slice's length
    is src's, from start): src gathered along dim at the constant positions
    (p - start) / step, and a select of the constant mask of the slice's positions
    between it and self."""
    x, src = op.tensor("self_"), op.tensor("src")
    if DYNAMIC in x.type.shape or DYNAMIC in src.type.shape:
        raise NotConvertible("slice_scatter with dynamic sizes")
    rank = x.type.rank
    dim = op.int("dim") % rank
    size = x.type.shape[dim]
    start = None if op.is_none("start") else op.int("start")
    lo, _, step = _slice_bounds(size, start, None, op.int("step"))
    count = src.type.shape[dim]  # not `end`: select_scatter's decomposition gives index -1 the end 0
    if count == 0:
        return x
    if step <= 0 or lo + (count - 1) * step >= size:
        raise NotConvertible("slice_scatter whose src does not fit the slice")
    taken = np.zeros(size, dtype=bool)
    taken[lo : lo + count * step : step] = True
    positions = np.where(taken, (np.arange(size) - lo) // step, 0)
    indices = positions_constant(positions, "slice_scatter")
    spread = shape_ops.GatherOp(src, indices, i64(dim), x.type).result
    mask_shape = [size if d == dim else 1 for d in range(rank)]
    mask = make_constant(taken.reshape(mask_shape), tensor_type(mask_shape, ir.IntegerType.get_signless(1)), "mask")
    return ew.SelectOp(mask, spread, x, x.type).result


def refine_slice_types(module: ir.Operation) -> None:
    """Static result types for slices whose bounds are constants on a static size:
    torch-mlir leaves `?` for some (roll's `x[-1:]`), and the `?` would then reach
    mlc's concats and IREE. Runs before any conversion, so every user sees the type."""
    def visit(operation):
        if operation.name == "torch.aten.slice.Tensor":
            _refine_slice(TorchOp(operation))
        return ir.WalkResult.ADVANCE

    module.walk(visit)


def _refine_slice(op) -> None:
    text = str(op.op.results[0].type)
    sizes = re.match(r"!torch\.vtensor<\[([^\]]*)\]", text)
    input_type = op.operand_type("self_")
    if sizes is None or "?" not in sizes.group(1) or DYNAMIC in input_type.shape:
        return
    if not all(op.is_none(key) or _is_constant_int(op.operand(key)) for key in ("start", "end")):
        return
    if not _is_constant_int(op.operand("dim")) or not _is_constant_int(op.operand("step")):
        return
    dim = op.int("dim") % input_type.rank
    start = None if op.is_none("start") else op.int("start")
    end = None if op.is_none("end") else op.int("end")
    lo, hi, step = _slice_bounds(input_type.shape[dim], start, end, op.int("step"))
    shape = list(input_type.shape)
    shape[dim] = max(0, -(-(hi - lo) // step))
    refined = text.replace(f"[{sizes.group(1)}]", f"[{','.join(map(str, shape))}]", 1)
    op.op.results[0].set_type(ir.Type.parse(refined))


def _is_constant_int(value) -> bool:
    owner = value.owner
    return not isinstance(owner, ir.Block) and owner.operation.name == "torch.constant.int"


@converts("torch.aten.roll", makes=(shape_ops.SliceOp, shape_ops.ConcatOp))
def roll(op):
    """The last `shift` elements along a dim move to its front: two slices and a concat
    per dim; without dims, along the flattened tensor."""
    x, shifts, dims = op.tensor("self_"), op.ints("shifts"), op.ints("dims")
    shape = list(x.type.shape)
    if DYNAMIC in shape:
        raise NotConvertible("roll of a tensor with dynamic sizes")
    if not dims:
        x, dims = reshape(x, [math.prod(shape)]), [0]
    for shift, dim in zip(shifts, dims):
        dim = dim % x.type.rank
        size = x.type.shape[dim]
        if size and shift % size:
            cut = size - shift % size
            tail, head = slice_along(x, dim, cut, size), slice_along(x, dim, 0, cut)
            x = shape_ops.ConcatOp(tail, head, i64(dim), x.type).result
    return reshape(x, shape)


@converts("torch.aten.select.int", makes=shape_ops.SliceOp)
def select(op):
    """x.select(dim, i) is a size-1 slice without the dimension."""
    input_type = op.operand_type("self_")
    dim = op.int("dim") % input_type.rank
    index = op.int("index") % input_type.shape[dim]
    starts, limits = [0] * input_type.rank, list(input_type.shape)
    starts[dim], limits[dim] = index, index + 1
    sliced_shape = list(input_type.shape)
    sliced_shape[dim] = 1
    sliced = shape_ops.SliceOp(
        op.tensor("self_"), [], i64_array_attr(starts), i64_array_attr(limits), i64_array_attr([1] * input_type.rank),
        tensor_type(sliced_shape, input_type.element_type),
    ).result
    return reshape(sliced, op.result_type().shape)


@converts("torch.aten.cat", makes=shape_ops.ConcatOp)
def cat(op):
    """n inputs become a chain of binary concats (see mlc.concat); the last link
    takes torch's result type, the others their partial sums."""
    inputs = [v for v in op.tensors("tensors") if not (v.type.rank == 1 and v.type.shape[0] == 0)]  # torch skips empty 1-D
    result_type = op.result_type()
    axis = op.int("dim") % result_type.rank
    joined = inputs[0]
    for index, value in enumerate(inputs[1:], start=2):
        if index == len(inputs):
            link_type = result_type
        else:
            shape = list(result_type.shape)
            lengths = (joined.type.shape[axis], value.type.shape[axis])
            shape[axis] = DYNAMIC if DYNAMIC in lengths else sum(lengths)
            link_type = tensor_type(shape, result_type.element_type)
        joined = shape_ops.ConcatOp(joined, value, i64(axis), link_type).result
    return joined


@converts("torch.aten.embedding", makes=shape_ops.GatherOp, keep_whole=True)
def embedding(op):
    return shape_ops.GatherOp(op.tensor("weight"), op.tensor("indices"), i64(0), op.result_type()).result


@converts("torch.aten.index_select", makes=shape_ops.GatherOp)
def index_select(op):
    rank = op.operand_type("self_").rank
    return shape_ops.GatherOp(op.tensor("self_"), op.tensor("index"), i64(op.int("dim") % rank), op.result_type()).result


@converts("torch.aten.gather", makes=shape_ops.TakeAlongAxisOp)
def gather(op):
    if op.bool("sparse_grad"):
        raise NotConvertible("gather with sparse_grad")
    rank = op.operand_type("self_").rank
    return shape_ops.TakeAlongAxisOp(op.tensor("self_"), op.tensor("index"), i64(op.int("dim") % rank), op.result_type()).result


@converts("torch.aten.constant_pad_nd", makes=shape_ops.PadOp)
def constant_pad(op):
    """torch lists pads from the last dimension backwards: (left, right, top, bottom, ...)."""
    pads = op.ints("pad")
    rank = op.operand_type("self_").rank
    if min(pads, default=0) < 0:
        raise NotConvertible("negative padding (cropping)")
    low, high = [0] * rank, [0] * rank
    for i in range(len(pads) // 2):
        low[rank - 1 - i], high[rank - 1 - i] = pads[2 * i], pads[2 * i + 1]
    value = 0.0 if op.is_none("value") else op.float("value")
    return shape_ops.PadOp(op.tensor("self_"), i64_array_attr(low), i64_array_attr(high), f64(value), op.result_type()).result


def _reflected(positions: np.ndarray, size: int) -> np.ndarray:
    positions = np.abs(positions)
    return np.where(positions >= size, 2 * (size - 1) - positions, positions)


_EDGE_POSITIONS = {"reflection": _reflected, "replication": lambda positions, size: np.clip(positions, 0, size - 1)}


@converts("torch.aten.reflection_pad1d", "torch.aten.reflection_pad2d", "torch.aten.reflection_pad3d",
          "torch.aten.replication_pad1d", "torch.aten.replication_pad2d", "torch.aten.replication_pad3d",
          makes=shape_ops.GatherOp)
def edge_pad(op):
    """One gather per padded dim (torch lists pads from the last dim backwards) at
    the constant positions -left .. size + right, reflected at the edges or clamped
    to them."""
    x = op.tensor("self_")
    pads = op.ints("padding")
    kind = op.name.split(".")[2].split("_")[0]
    for i in range(len(pads) // 2):
        dim = x.type.rank - 1 - i
        size, left, right = x.type.shape[dim], pads[2 * i], pads[2 * i + 1]
        if size == DYNAMIC:
            raise NotConvertible(f"{kind} padding of a dynamic dimension")
        if size == 0 or (kind == "reflection" and max(left, right) >= size):
            raise NotConvertible(f"{kind} padding as wide as the dimension")
        if left == right == 0:
            continue
        positions = _EDGE_POSITIONS[kind](np.arange(-left, size + right), size)
        shape = list(x.type.shape)
        shape[dim] = len(positions)
        indices = positions_constant(positions, f"{kind}_pad")
        x = shape_ops.GatherOp(x, indices, i64(dim), tensor_type(shape, x.type.element_type)).result
    return x
