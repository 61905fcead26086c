"""torch's 1-D pooling, uneven adaptive average pooling and interpolation
(nearest, bilinear) -> mlc.

1-D pooling is 2-D pooling of a height-1 image. The others are separable: along
each spatial axis, the positions read and their weights depend on the sizes
only, so they are constants computed here (in float32, as torch computes them)
and applied by `mlc.gather` (+ mul/add or a reduction).
"""


import numpy as np
from torch_mlir import ir

from ...dialects import compute_ops, reduction_ops, shape_ops
from ...dialects import elementwise_ops as ew
from ...dialects.op_base import DYNAMIC
from ..constant_values import make_constant, positions_constant
from ..graph import boolean, i64, i64_array_attr, reshape, string, tensor_type
from ..graph import broadcast_binary as _binary
from .patterns import NotConvertible, converts


def _height_one(op, value):
    """[N, C, L] -> [N, C, 1, L]."""
    n, c, length = value.type.shape
    return reshape(value, [n, c, 1, length])


def _pool1d_type(op):
    n, c, length = op.result_type().shape
    return tensor_type([n, c, 1, length], op.result_type().element_type)


def _check_pool1d_shape(op, kernel, stride, padding, dilation):
    """Declines a 1-D pool whose result length is not what its window gives. torch-mlir
    decomposes adaptive_avg_pool1d into such an avg_pool1d (kernel 1, the output size
    of the adaptive pool) behind an always-failing assertion; built from it, the mlc op
    failed its verifier (and a height-1 reshape of a `?` length lost its size)."""
    length, out = op.operand_type("self_").shape[-1], op.result_type().shape[-1]
    if length == DYNAMIC:
        raise NotConvertible("1-D pooling of a dynamic length")
    expected = compute_ops.window_output_size(length, kernel, stride, padding, padding, dilation, op.bool("ceil_mode"))
    if out != expected:
        raise NotConvertible(f"result length {out} is not the window's {expected}")


@converts("torch.aten.max_pool1d", makes=compute_ops.MaxPool2dOp)
def max_pool1d(op):
    if op.operand_type("self_").rank != 3:
        raise NotConvertible("unbatched max_pool1d input")
    (kernel,), (padding,), (dilation,) = op.ints("kernel_size"), op.ints("padding"), op.ints("dilation")
    stride = (op.ints("stride") or [kernel])[0]
    _check_pool1d_shape(op, kernel, stride, padding, dilation)
    pooled = compute_ops.MaxPool2dOp(
        _height_one(op, op.tensor("self_")), i64_array_attr([1, kernel]), i64_array_attr([1, stride]), i64_array_attr([0, 0, padding, padding]),
        i64_array_attr([1, dilation]), boolean(op.bool("ceil_mode")), string("NCHW"), _pool1d_type(op),
    ).result
    return reshape(pooled, op.result_type().shape)


@converts("torch.aten.avg_pool1d", makes=(compute_ops.AvgPool2dOp, compute_ops.AvgPoolNdOp))
def avg_pool1d(op):
    """Integers: mlc.avg_pool_nd, which divides with truncation as torch does."""
    if op.operand_type("self_").rank != 3:
        raise NotConvertible("unbatched avg_pool1d input")
    (kernel,), (padding,) = op.ints("kernel_size"), op.ints("padding")
    stride = (op.ints("stride") or [kernel])[0]
    _check_pool1d_shape(op, kernel, stride, padding, 1)
    if not ew.is_float(op.operand_type("self_").element_type):
        return compute_ops.AvgPoolNdOp(
            op.tensor("self_"), i64_array_attr([kernel]), i64_array_attr([stride]), i64_array_attr([padding, padding]),
            boolean(op.bool("ceil_mode")), boolean(op.bool("count_include_pad")), i64(0), op.result_type(),
        ).result
    pooled = compute_ops.AvgPool2dOp(
        _height_one(op, op.tensor("self_")), i64_array_attr([1, kernel]), i64_array_attr([1, stride]), i64_array_attr([0, 0, padding, padding]),
        boolean(op.bool("ceil_mode")), boolean(op.bool("count_include_pad")), string("NCHW"), _pool1d_type(op),
    ).result
    return reshape(pooled, op.result_type().shape)


# --- per-axis resampling by gathers ---------------------------------------------------------


def _weights(values, axis, rank, element_type):
    """Weights of the output positions along `axis`, shaped to broadcast there."""
    shape = [len(values)] + [1] * (rank - 1 - axis)
    return make_constant(np.asarray(values, dtype=np.float32).reshape(shape), tensor_type(shape, element_type), "weights")


def _gather(value, positions, axis):
    positions = np.asarray(positions)
    index = positions_constant(positions)
    shape = list(value.type.shape[:axis]) + list(positions.shape) + list(value.type.shape[axis + 1 :])
    return shape_ops.GatherOp(value, index, i64(axis), tensor_type(shape, value.type.element_type)).result


def adaptive_avg_pool(value, axis, out):
    """Output i averages input[floor(i*n/out) : ceil((i+1)*n/out)]: a gather of
    [out, widest window] positions (short windows repeat their last one, weight
    0), times 1/length, summed over the window."""
    size = value.type.shape[axis]
    starts = [(i * size) // out for i in range(out)]
    ends = [-(-((i + 1) * size) // out) for i in range(out)]
    width = max(e - s for s, e in zip(starts, ends))
    positions = [[min(s + k, e - 1) for k in range(width)] for s, e in zip(starts, ends)]
    weights = [[1.0 / (e - s) if s + k < e else 0.0 for k in range(width)] for s, e in zip(starts, ends)]
    windows = _gather(value, positions, axis)
    rank = windows.type.rank
    weight_shape = [out, width] + [1] * (rank - 2 - axis)
    weight = make_constant(np.asarray(weights, np.float32).reshape(weight_shape),
                           tensor_type(weight_shape, value.type.element_type), "weights")
    weighted = _binary(ew.MulOp, windows, weight)
    shape = [d for i, d in enumerate(weighted.type.shape) if i != axis + 1]
    return reduction_ops.ReduceSumOp(weighted, i64_array_attr([axis + 1]), boolean(False),
                                     tensor_type(shape, value.type.element_type)).result


def _source_scale(size, out, align_corners, scale):
    """torch's area_pixel_compute_scale, in float32."""
    if align_corners:
        return np.float32((size - 1) / (out - 1)) if out > 1 else np.float32(0)
    return np.float32(1.0 / scale) if scale else np.float32(size / out)


def _nearest_positions(size, out, scale, shortcuts):
    """The positions eager's nearest upsampling reads: floor(i * f) in float32, f = 1 /
    scale for a positive scale, else size / out. Its 2-D kernel (ATen's nearest_idx)
    first copies an output of the input's size and reads i // 2 for one twice its size,
    whatever the scale (`shortcuts`); the 1-D and 3-D kernels do not."""
    if shortcuts and out == size:
        return list(range(out))
    if shortcuts and out == 2 * size:
        return [i // 2 for i in range(out)]
    factor = np.float32(1.0 / scale) if scale is not None and scale > 0 else np.float32(size) / np.float32(out)
    return [min(int(np.floor(np.float32(i) * factor)), size - 1) for i in range(out)]


def _nearest(value, axis, out, scale):
    positions = _nearest_positions(value.type.shape[axis], out, scale, shortcuts=value.type.rank == 4)
    if positions == list(range(value.type.shape[axis])):
        return value
    return _gather(value, positions, axis)


def _linear(value, axis, out, align_corners, scale):
    """lambda0 * x[i0] + lambda1 * x[i1], torch's source index and lambdas."""
    size = value.type.shape[axis]
    factor = _source_scale(size, out, align_corners, scale)
    low, high, lambda0, lambda1 = [], [], [], []
    for i in range(out):
        source = factor * np.float32(i) if align_corners else max(factor * (np.float32(i) + np.float32(0.5)) - np.float32(0.5), np.float32(0))
        i0 = int(source)
        low.append(i0)
        high.append(i0 + (1 if i0 < size - 1 else 0))
        lambda1.append(np.float32(source) - np.float32(i0))
        lambda0.append(np.float32(1) - lambda1[-1])
    rank, element_type = value.type.rank, value.type.element_type
    left = _binary(ew.MulOp, _gather(value, low, axis), _weights(lambda0, axis, rank, element_type))
    right = _binary(ew.MulOp, _gather(value, high, axis), _weights(lambda1, axis, rank, element_type))
    return _binary(ew.AddOp, left, right)


def _float_list(op, index):
    producer = op.operand(index).owner
    values = []
    for element in producer.operands:
        attr = element.owner.attributes["value"]
        values.append(ir.FloatAttr(attr).value if isinstance(attr, ir.FloatAttr) else float(ir.IntegerAttr(attr).value))
    return values


def _resample(value, result_type, mode, align_corners, scales):
    """Resamples each spatial axis (2, 3, ...) of `value` to the result's size, W first,
    as torch combines; `scales` holds one scale or None per spatial axis, or is None."""
    if not ew.is_float(value.type.element_type):
        raise NotConvertible("interpolation of an integer tensor")
    result_shape = result_type.shape
    if DYNAMIC in value.type.shape[2:] or DYNAMIC in result_shape[2:]:
        raise NotConvertible("interpolation of a dynamic spatial size: the positions read depend on it")
    for axis in reversed(range(2, value.type.rank)):
        scale = scales[axis - 2] if scales else None
        if mode == "nearest":
            value = _nearest(value, axis, result_shape[axis], scale)
        elif mode in ("bilinear", "linear"):
            value = _linear(value, axis, result_shape[axis], align_corners, scale)
        else:
            raise NotConvertible(f"interpolation mode '{mode}'")
    return value


@converts("torch.aten.__interpolate.size_list_scale_list", makes=shape_ops.GatherOp)
def interpolate(op):
    if not op.is_none("antialias") and op.bool("antialias"):
        raise NotConvertible("antialiased interpolation")
    if not op.is_none("recompute_scale_factor") and op.bool("recompute_scale_factor"):
        scales = None  # recompute_scale_factor: the sizes decide
    else:
        scales = None if op.is_none("scale_factor") else _float_list(op, 2)
    align_corners = False if op.is_none("align_corners") else op.bool("align_corners")
    return _resample(op.tensor("input"), op.result_type(), op.str("mode"), align_corners, scales)


@converts("torch.aten.upsample_bilinear2d.vec", "torch.aten.upsample_nearest2d.vec", makes=shape_ops.GatherOp)
def upsample(op):
    mode = "bilinear" if "bilinear" in op.name else "nearest"
    align_corners = op.bool("align_corners") if mode == "bilinear" else False
    scales = None if op.is_none("scale_factors") else _float_list(op, "scale_factors")
    return _resample(op.tensor("input"), op.result_type(), mode, align_corners, scales)


# the scales of the explicit overloads, one optional float per spatial axis
_NEAREST_SCALES = {"torch.aten.upsample_nearest1d": ("scales",),
                   "torch.aten.upsample_nearest2d": ("scales_h", "scales_w")}


@converts(*_NEAREST_SCALES, makes=shape_ops.GatherOp)
def upsample_nearest(op):
    """The explicit overloads (an output size and a scale or None per axis), which
    torch-mlir keeps as they are; F.interpolate's `.vec` form reaches mlc as
    __interpolate. A given scale decides the positions read, as in eager."""
    scales = [None if op.is_none(key) else op.float(key) for key in _NEAREST_SCALES[op.name]]
    return _resample(op.tensor("self_"), op.result_type(), "nearest", False, scales)
