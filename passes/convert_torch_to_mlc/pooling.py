"""torch's pooling beyond 2-D floats -> mlc: 3-D max/avg pooling, max pooling with
indices in 1 to 3 dims, integer average pooling and divisor_override, adaptive
average pooling in 1-D and 3-D and adaptive max pooling in 1 to 3 dims.

The N-D ops (mlc.max_pool_nd, mlc.avg_pool_nd, mlc.max_pool_indices) take the
batched N x C x spatial... layout; an unbatched input is C planes of one channel here.
Adaptive pooling: equal windows (the input size a multiple of the output's) are a
plain pool; others are gathers of each output's window positions along each axis
(see resampling.adaptive_avg_pool), for max pooling with the window padded by
repeating its last position, which does not change a maximum.
"""

import numpy as np
from torch_mlir import ir

from ...dialects import compute_ops, indexing_ops, reduction_ops, shape_ops
from ...dialects import elementwise_ops as ew
from ...dialects.op_base import DYNAMIC, is_float
from ..constant_values import make_constant, positions_constant
from ..graph import boolean, broadcast_binary, cast_to, i64, i64_array_attr, reshape, tensor_type
from .patterns import NotConvertible, converts
from .resampling import adaptive_avg_pool


def _per_axis(values, spatial, what):
    values = list(values)
    if len(values) == 1:
        return values * spatial
    if len(values) != spatial:
        raise NotConvertible(f"{what} has {len(values)} values for {spatial} spatial dims")
    return values


def batched(op, spatial, name="self_"):
    """(input with a batch dimension, whether one was added). mlc's pooling ops take
    N x C x spatial...; an unbatched C x spatial... input is pooled as C planes of one
    channel (each plane is pooled alone), so that a dynamic channel count is the batch,
    the one size the pooling lowerings take dynamic."""
    x = op.tensor(name)
    if x.type.rank == spatial + 2:
        return x, False
    if x.type.rank != spatial + 1:
        raise NotConvertible(f"input of rank {x.type.rank} for {spatial}-D pooling")
    return reshape(x, _unit_channel(x.type.shape)), True


def _unit_channel(shape):
    return [shape[0], 1, *shape[1:]]


def batched_result_type(op, index, added_batch):
    """The type of result `index` as pooled from `batched`'s input."""
    result = op.result_type(index)
    return tensor_type(_unit_channel(result.shape), result.element_type) if added_batch else result


def unbatched(value, op, index, added_batch):
    """`value` without the unit channel `batched` added, as result `index` is typed."""
    return reshape(value, op.result_type(index).shape) if added_batch else value


def _window(op, spatial, dilation=True):
    kernel = _per_axis(op.ints("kernel_size"), spatial, "kernel_size")
    stride = _per_axis(op.ints("stride") or kernel, spatial, "stride")
    padding = _per_axis(op.ints("padding"), spatial, "padding")
    pairs = [p for p in padding for _ in range(2)]
    dilations = _per_axis(op.ints("dilation"), spatial, "dilation") if dilation else None
    return kernel, stride, pairs, dilations


def _spatial(op) -> int:
    return int(op.name.split("max_pool")[-1][0]) if "max_pool" in op.name else int(op.name.split("avg_pool")[-1][0])


@converts("torch.aten.max_pool1d_with_indices", "torch.aten.max_pool2d_with_indices", "torch.aten.max_pool3d_with_indices",
          "torch.aten.max_pool3d", makes=(compute_ops.MaxPoolNdOp, compute_ops.MaxPoolIndicesOp), keep_whole=True)
def max_pool_with_indices(op):
    """The values (mlc.max_pool_nd) and, for *_with_indices, the flat positions
    (mlc.max_pool_indices); an unused half dies."""
    spatial = _spatial(op)
    x, added = batched(op, spatial)
    kernel, stride, pairs, dilation = _window(op, spatial)
    attrs = [i64_array_attr(kernel), i64_array_attr(stride), i64_array_attr(pairs), i64_array_attr(dilation),
             boolean(op.bool("ceil_mode"))]
    values = compute_ops.MaxPoolNdOp(x, *attrs, batched_result_type(op, 0, added)).result
    if not op.name.endswith("with_indices"):
        return unbatched(values, op, 0, added)
    indices = compute_ops.MaxPoolIndicesOp(x, *attrs, batched_result_type(op, 1, added)).result
    return [unbatched(values, op, 0, added), unbatched(indices, op, 1, added)]


def avg_pool_nd(op, spatial):
    """avg_pool{1,2,3}d as mlc.avg_pool_nd (integers, divisor_override, 3-D)."""
    x, added = batched(op, spatial)
    kernel, stride, pairs, _ = _window(op, spatial, dilation=False)
    divisor = 0 if spatial == 1 or op.is_none("divisor_override") else op.int("divisor_override")
    if divisor < 0 or (divisor == 0 and spatial > 1 and not op.is_none("divisor_override")):
        raise NotConvertible(f"divisor_override {divisor}")
    pooled = compute_ops.AvgPoolNdOp(
        x, i64_array_attr(kernel), i64_array_attr(stride), i64_array_attr(pairs), boolean(op.bool("ceil_mode")),
        boolean(op.bool("count_include_pad")), i64(divisor), batched_result_type(op, 0, added),
    ).result
    return unbatched(pooled, op, 0, added)


@converts("torch.aten.avg_pool3d", makes=compute_ops.AvgPoolNdOp, keep_whole=True)
def avg_pool3d(op):
    return avg_pool_nd(op, 3)


# --- adaptive pooling ------------------------------------------------------------------------


def _adaptive_sizes(op, spatial):
    x_type = op.operand_type("self_")
    sizes = list(x_type.shape[-spatial:])
    outs = list(op.ints("output_size"))
    if len(outs) != spatial:
        raise NotConvertible(f"output_size {outs} for {spatial} spatial dims")
    if DYNAMIC in sizes:
        raise NotConvertible("adaptive pooling of a dynamic spatial size")
    if x_type.rank not in (spatial + 1, spatial + 2):
        raise NotConvertible(f"input of rank {x_type.rank} for {spatial}-D adaptive pooling")
    return sizes, outs


@converts("torch.aten.adaptive_avg_pool1d", "torch.aten.adaptive_avg_pool3d",
          makes=(compute_ops.AvgPoolNdOp, reduction_ops.ReduceSumOp, shape_ops.GatherOp), keep_whole=True)
def adaptive_avg_pool_nd(op):
    """Equal windows: one mlc.avg_pool_nd; otherwise a weighted gather and sum per axis."""
    spatial = 1 if "1d" in op.name else 3
    sizes, outs = _adaptive_sizes(op, spatial)
    if not is_float(op.operand_type("self_").element_type):
        raise NotConvertible("adaptive average pooling of integers")
    if all(s % o == 0 for s, o in zip(sizes, outs)):
        x, added = batched(op, spatial)
        kernel = [s // o for s, o in zip(sizes, outs)]
        pooled = compute_ops.AvgPoolNdOp(
            x, i64_array_attr(kernel), i64_array_attr(kernel), i64_array_attr([0] * 2 * spatial), boolean(False),
            boolean(True), i64(0), batched_result_type(op, 0, added),
        ).result
        return unbatched(pooled, op, 0, added)
    value = op.tensor("self_")
    rank = value.type.rank
    for i in reversed(range(spatial)):
        value = adaptive_avg_pool(value, rank - spatial + i, outs[i])
    return value


def _window_positions(size, out):
    """torch's adaptive windows [floor(i*n/out), ceil((i+1)*n/out)), as [out, widest]
    positions, a short window repeating its last one."""
    starts = [(i * size) // out for i in range(out)]
    ends = [-(-((i + 1) * size) // out) for i in range(out)]
    width = max(e - s for s, e in zip(starts, ends))
    return np.asarray([[min(s + k, e - 1) for k in range(width)] for s, e in zip(starts, ends)], dtype=np.int64)


def _window_table(sizes, outs):
    """[*outs, K] flat input-plane positions of each output's window, K the product of the
    widest windows per axis, in row-major window order."""
    per_axis = [_window_positions(s, o) for s, o in zip(sizes, outs)]
    strides = [int(np.prod(sizes[i + 1 :], dtype=np.int64)) for i in range(len(sizes))]
    spatial = len(sizes)
    table = np.zeros([1] * (2 * spatial), np.int64)
    for i, (positions, stride) in enumerate(zip(per_axis, strides)):
        shape = [1] * (2 * spatial)
        shape[i], shape[spatial + i] = positions.shape
        table = table + (positions * stride).reshape(shape)
    return table.reshape(list(outs) + [-1])


def _adaptive_max_pool_with_indices(x, sizes, outs, values_type, indices_type):
    """Uneven windows with indices: the input plane flattened, each output's whole window
    gathered from it (a [*outs, K] table of flat positions), argmax over the window (the
    first maximum in row-major order, or the first NaN, as torch), and the index and
    value read at that position."""
    spatial, rank = len(sizes), x.type.rank
    if DYNAMIC in x.type.shape:
        raise NotConvertible("adaptive max pooling indices with uneven windows of a dynamic batch")
    batch = list(x.type.shape[: rank - spatial])
    plane = int(np.prod(sizes))
    i64_type = ir.IntegerType.get_signless(64)
    table = _window_table(sizes, outs)
    flat = reshape(x, batch + [plane])
    index = positions_constant(table, "windows")
    windows_shape = batch + list(table.shape)
    windows = shape_ops.GatherOp(flat, index, i64(len(batch)), tensor_type(windows_shape, x.type.element_type)).result
    last = len(windows_shape) - 1
    picked_shape = batch + list(outs) + [1]
    picked = indexing_ops.ArgmaxOp(windows, i64(last), boolean(True), tensor_type(picked_shape, i64_type)).result
    values = shape_ops.TakeAlongAxisOp(windows, picked, i64(last), tensor_type(picked_shape, x.type.element_type)).result
    # the flat position: table[outs..., picked] as table.flat[row * K + picked]
    width = table.shape[-1]
    rows = np.arange(int(np.prod(outs)), dtype=np.int64).reshape(list(outs) + [1]) * width
    row_starts = make_constant(rows, tensor_type(list(rows.shape), i64_type), "window_rows")
    at = broadcast_binary(ew.AddOp, picked, row_starts)
    table_flat = make_constant(table.reshape(-1), tensor_type([table.size], i64_type), "windows_flat")
    positions = shape_ops.GatherOp(table_flat, at, i64(0), tensor_type(picked_shape, i64_type)).result
    return [reshape(values, values_type.shape), cast_to(reshape(positions, indices_type.shape), indices_type.element_type)]


@converts("torch.aten.adaptive_max_pool1d", "torch.aten.adaptive_max_pool2d", "torch.aten.adaptive_max_pool3d",
          makes=(shape_ops.GatherOp, reduction_ops.ReduceMaxOp, compute_ops.MaxPoolNdOp, compute_ops.MaxPoolIndicesOp,
                 indexing_ops.ArgmaxOp, shape_ops.TakeAlongAxisOp, shape_ops.ReshapeOp, ew.AddOp),
          keep_whole=True)
def adaptive_max_pool(op):
    """Equal windows: mlc.max_pool_nd and mlc.max_pool_indices. Uneven windows:
    without indices, per axis a gather of the windows and a max over them; with
    indices (torch's flat position in the input plane), each whole window gathered
    from the flattened plane and an argmax over it."""
    spatial = int(op.name[-2])
    sizes, outs = _adaptive_sizes(op, spatial)
    if all(s % o == 0 for s, o in zip(sizes, outs)):
        x, added = batched(op, spatial)
        kernel = [s // o for s, o in zip(sizes, outs)]
        attrs = [i64_array_attr(kernel), i64_array_attr(kernel), i64_array_attr([0] * 2 * spatial),
                 i64_array_attr([1] * spatial), boolean(False)]
        values = compute_ops.MaxPoolNdOp(x, *attrs, batched_result_type(op, 0, added)).result
        indices = compute_ops.MaxPoolIndicesOp(x, *attrs, batched_result_type(op, 1, added)).result
        return [unbatched(values, op, 0, added), unbatched(indices, op, 1, added)]
    indices_type = op.result_type(1)
    if any(True for _ in op.op.results[1].uses) or DYNAMIC in indices_type.shape:
        return _adaptive_max_pool_with_indices(op.tensor("self_"), sizes, outs, op.result_type(0), indices_type)
    value = op.tensor("self_")
    rank = value.type.rank
    for i in reversed(range(spatial)):
        axis = rank - spatial + i
        positions = _window_positions(sizes[i], outs[i])
        index = positions_constant(positions, "windows")
        shape = list(value.type.shape[:axis]) + list(positions.shape) + list(value.type.shape[axis + 1 :])
        windows = shape_ops.GatherOp(value, index, i64(axis), tensor_type(shape, value.type.element_type)).result
        shape.pop(axis + 1)
        value = reduction_ops.ReduceMaxOp(windows, i64_array_attr([axis + 1]), boolean(False),
                                          tensor_type(shape, value.type.element_type)).result
    unused = make_constant(np.zeros(indices_type.shape, np.int64), indices_type, "unused_indices")  # dies: no uses
    return [value, unused]
