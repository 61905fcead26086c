"""torch.aten.convolution in 1, 2 and 3 spatial dims, plain and transposed -> mlc.

1-D is conv2d of a height-1 image (reshapes around it), 2-D is mlc.conv2d and
3-D mlc.conv3d, each with groups (depthwise included).

A transposed convolution is the plain convolution, stride 1, of the input with
`stride - 1` zeros inserted between its elements (a reshape, a pad and a slice per
axis), padded by `dilation * (kernel - 1) - padding` on each side and
`output_padding` more at the end (a slice where that is negative), with the kernel
flipped along its spatial axes and its in/out channels swapped within each group.
"""

import numpy as np
from torch_mlir import ir

from ...dialects import compute_ops, shape_ops
from ...dialects.op_base import DYNAMIC
from ..constant_values import positions_constant
from ..graph import f64, i64, i64_array_attr, reshape, tensor_type, transpose
from .patterns import NotConvertible, converts
from .sizes import dim

MAKES = (compute_ops.Conv2dOp, compute_ops.Conv3dOp, shape_ops.ReshapeOp, shape_ops.PadOp, shape_ops.SliceOp,
         shape_ops.TransposeOp, shape_ops.GatherOp)


def _per_axis(values, spatial):
    """torch lets one value stand for every spatial axis."""
    values = list(values)
    return values * spatial if len(values) == 1 else values


def _reshaped(value, shape):
    """`value` viewed as `shape`; only the batch (dimension 0, kept) may be dynamic."""
    if DYNAMIC in value.type.shape[1:] or DYNAMIC in shape[1:]:
        raise NotConvertible("a convolution with a dynamic size other than the batch")
    return reshape(value, shape, [dim(value, 0)] if shape[0] == DYNAMIC else [])


def convolve(x, weight, bias, stride, padding_pairs, dilation, groups, result_type):
    """The plain convolution over x's spatial axes (1, 2 or 3); `padding_pairs` [low, high] per axis."""
    spatial = x.type.rank - 2
    if spatial == 3:
        return compute_ops.Conv3dOp(
            x, weight, i64_array_attr(stride), i64_array_attr(padding_pairs), i64_array_attr(dilation), i64(groups),
            result_type, bias=bias,
        ).result
    if spatial == 2:
        return compute_ops.Conv2dOp(
            x, weight, i64_array_attr(stride), i64_array_attr(padding_pairs), i64_array_attr(dilation), i64(groups),
            ir.StringAttr.get("NCHW"), result_type, bias=bias,
        ).result
    if spatial != 1:
        raise NotConvertible(f"convolution over {spatial} spatial dims")
    (n, c, length), (f, cg, k), out = x.type.shape, weight.type.shape, result_type.shape
    image = _reshaped(x, [n, c, 1, length])
    kernel = reshape(weight, [f, cg, 1, k]) if DYNAMIC not in weight.type.shape else None
    if kernel is None:
        raise NotConvertible("a 1-D convolution weight with dynamic sizes")
    pooled_type = tensor_type([out[0], out[1], 1, out[2]], result_type.element_type)
    result = compute_ops.Conv2dOp(
        image, kernel, i64_array_attr([1, stride[0]]), i64_array_attr([0, 0, *padding_pairs]),
        i64_array_attr([1, dilation[0]]), i64(groups), ir.StringAttr.get("NCHW"), pooled_type, bias=bias,
    ).result
    return _reshaped(result, list(out))


def _slice(value, axis, start, limit):
    shape = list(value.type.shape)
    starts, limits = [0] * len(shape), list(shape)
    starts[axis], limits[axis] = start, limit
    shape[axis] = limit - start
    return shape_ops.SliceOp(value, [], i64_array_attr(starts), i64_array_attr(limits), i64_array_attr([1] * len(shape)),
                             tensor_type(shape, value.type.element_type)).result


def _zeros_between(value, axis, stride):
    """`stride - 1` zeros between consecutive elements along `axis`: [.., L, ..] ->
    [.., L, 1, ..] -> padded [.., L, stride, ..] -> [.., L * stride, ..] -> the first (L-1)*stride+1."""
    shape = list(value.type.shape)
    length = shape[axis]
    split = _reshaped(value, shape[: axis + 1] + [1] + shape[axis + 1 :])
    low, high = [0] * (len(shape) + 1), [0] * (len(shape) + 1)
    high[axis + 1] = stride - 1
    padded_shape = shape[: axis + 1] + [stride] + shape[axis + 1 :]
    padded = shape_ops.PadOp(split, i64_array_attr(low), i64_array_attr(high), f64(0.0),
                             tensor_type(padded_shape, value.type.element_type)).result
    merged = _reshaped(padded, shape[:axis] + [length * stride] + shape[axis + 1 :])
    return _slice(merged, axis, 0, (length - 1) * stride + 1)


def _flipped(value, axis):
    size = value.type.shape[axis]
    positions = positions_constant(np.arange(size - 1, -1, -1), "flip")
    return shape_ops.GatherOp(value, positions, i64(axis), value.type).result


def _transposed_weight(weight, groups):
    """[G * Cin/G, Cout/G, K...] -> [G * Cout/G, Cin/G, K...] flipped along each K."""
    cin, cout_g, *kernel = weight.type.shape
    if DYNAMIC in weight.type.shape:
        raise NotConvertible("a transposed convolution weight with dynamic sizes")
    w = reshape(weight, [groups, cin // groups, cout_g, *kernel])
    w = transpose(w, [0, 2, 1] + list(range(3, 3 + len(kernel))))
    w = reshape(w, [groups * cout_g, cin // groups, *kernel])
    for axis in range(2, 2 + len(kernel)):
        if w.type.shape[axis] > 1:
            w = _flipped(w, axis)
    return w


def transposed_convolution(x, weight, bias, stride, padding, dilation, output_padding, groups, result_type):
    spatial = x.type.rank - 2
    kernel = weight.type.shape[2:]
    pairs = []
    for i in range(spatial):
        axis = 2 + i
        if stride[i] > 1:
            x = _zeros_between(x, axis, stride[i])
        low = dilation[i] * (kernel[i] - 1) - padding[i]
        high = low + output_padding[i]
        if low < 0 or high < 0:  # more padding than the kernel reaches: crop instead
            x = _slice(x, axis, max(0, -low), x.type.shape[axis] - max(0, -high))
        pairs += [max(0, low), max(0, high)]
    w = _transposed_weight(weight, groups)
    return convolve(x, w, bias, [1] * spatial, pairs, dilation, groups, result_type)


@converts("torch.aten.convolution", makes=MAKES)
def convolution(op):
    x_type = op.operand_type("input")
    spatial = x_type.rank - 2
    if spatial not in (1, 2, 3):
        raise NotConvertible(f"convolution of a rank-{x_type.rank} input")
    stride, padding, dilation = (_per_axis(op.ints(name), spatial) for name in ("stride", "padding", "dilation"))
    groups = op.int("groups")
    bias = None if op.is_none("bias") else op.tensor("bias")
    x, weight = op.tensor("input"), op.tensor("weight")
    if op.bool("transposed"):
        output_padding = _per_axis(op.ints("output_padding"), spatial)
        return transposed_convolution(x, weight, bias, stride, padding, dilation, output_padding, groups, op.result_type())
    pairs = [p for p in padding for _ in range(2)]
    return convolve(x, weight, bias, stride, pairs, dilation, groups, op.result_type())
