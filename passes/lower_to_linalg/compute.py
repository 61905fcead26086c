"""matmul, conv2d and 2-D pooling -> linalg's named ops, which IREE tiles and
vectorizes best: matmul/batch_matmul, conv_2d_*, depthwise_conv_2d_* and
pooling_*. Padding becomes an explicit `tensor.pad` (zero for conv and avg
pool, -inf for max pool); accumulators start from `linalg.fill` or the bias.
"""

import math

from torch_mlir import ir
from torch_mlir.dialects import arith, linalg

from ...dialects import compute_ops as compute
from ...dialects.compute_ops import spatial_dims
from ...dialects.op_base import DYNAMIC, bool_attr, i64_array, int_attr, is_float
from .builders import (
    PARALLEL,
    Unsupported,
    broadcast_to,
    collapse,
    constant,
    dims_map,
    empty,
    expand,
    filled,
    generic,
    identity,
    pad,
    sizes,
)

# --- matmul --------------------------------------------------------------------


def _matmul_sizes(op) -> list:
    """Result sizes: batch dims broadcast (static, or dynamic in an operand), then M, N."""
    lhs, rhs, shape = op.lhs, op.rhs, op.result.type.shape
    lhs_sizes, rhs_sizes = sizes(lhs), sizes(rhs)
    result = [lhs_sizes[-2], rhs_sizes[-1]]
    for i in range(1, len(shape) - 1):
        if shape[-2 - i] != DYNAMIC:
            result.insert(0, shape[-2 - i])
            continue
        for operand, operand_sizes in ((lhs, lhs_sizes), (rhs, rhs_sizes)):
            if operand.type.rank >= 2 + i and operand.type.shape[-2 - i] == DYNAMIC:
                result.insert(0, operand_sizes[-2 - i])
                break
    return result


def _zeros(shape, element_type):
    return filled(shape, element_type, 0)


def _contraction_maps(batch_dims: int) -> list[ir.AffineMap]:
    """The default maps of linalg.matmul (0 batch dims) and batch_matmul (1), spelled
    out: built from Python they stay unset (only the parser fills them in), and
    IREE reading such bytecode crashes when it folds a transpose into the matmul."""
    rank = batch_dims + 3
    dims = [ir.AffineDimExpr.get(d) for d in range(rank)]
    batch, (m, n, k) = dims[:batch_dims], dims[batch_dims:]
    return [ir.AffineMap.get(rank, 0, batch + pair) for pair in ([m, k], [k, n], [m, n])]


def _lower_matmul(op):
    lhs, rhs = op.lhs, op.rhs
    element_type = op.result.type.element_type
    result_sizes = _matmul_sizes(op)
    if lhs.type.rank == 2 and rhs.type.rank == 2:
        init = _zeros(result_sizes, element_type)
        return linalg.matmul(lhs, rhs, outs=[init], indexing_maps=_contraction_maps(0))
    if rhs.type.rank == 2:
        # [..., M, K] x [K, N]: the batch folds into M, one plain matmul.
        groups = [list(range(lhs.type.rank - 1)), [lhs.type.rank - 1]]
        flat = collapse(lhs, groups)
        init = _zeros([sizes(flat)[0], result_sizes[-1]], element_type)
        product = linalg.matmul(flat, rhs, outs=[init], indexing_maps=_contraction_maps(0))
        return expand(product, result_sizes, groups)
    return _batch_matmul(lhs, rhs, result_sizes, element_type)


def _batch_matmul(lhs, rhs, result_sizes, element_type):
    """Broadcasts both operands to the full batch, folds it into one dimension,
    runs linalg.batch_matmul and unfolds the result."""
    batch = result_sizes[:-2]
    lhs = broadcast_to(lhs, batch + sizes(lhs)[-2:])
    rhs = broadcast_to(rhs, batch + sizes(rhs)[-2:])
    rank = len(result_sizes)
    groups = [list(range(rank - 2)), [rank - 2], [rank - 1]]
    if rank > 3:
        lhs, rhs = collapse(lhs, groups), collapse(rhs, groups)
    init = _zeros([sizes(lhs)[0], result_sizes[-2], result_sizes[-1]], element_type)
    product = linalg.batch_matmul(lhs, rhs, outs=[init], indexing_maps=_contraction_maps(1))
    return expand(product, result_sizes, groups) if rank > 3 else product


# --- conv2d ------------------------------------------------------------------


def _window(op):
    stride = i64_array(op, "stride")
    padding = i64_array(op, "padding")
    dilation = i64_array(op, "dilation") if "dilation" in op.attributes else [1, 1]
    return stride, padding, dilation


def _layout(op) -> str:
    return ir.StringAttr(op.layout).value


def _spatial_pad(value, layout, padding, padding_value):
    """Pads H and W by [top, bottom, left, right]."""
    top, bottom, left, right = padding
    low = [0, 0, top, left] if layout == "NCHW" else [0, top, left, 0]
    high = [0, 0, bottom, right] if layout == "NCHW" else [0, bottom, right, 0]
    return pad(value, low, high, padding_value)


def _result_sizes(op):
    """The result's sizes; only the batch dimension may be dynamic."""
    shape = list(op.result.type.shape)
    if DYNAMIC in shape[1:]:
        raise Unsupported("only the batch dimension may be dynamic")
    return sizes(op.input)[:1] + shape[1:]


def _accumulator(op, layout):
    """Zeros, or the bias broadcast along every dimension but the channels."""
    result_sizes = _result_sizes(op)
    element_type = op.result.type.element_type
    if op.bias is None:
        return _zeros(result_sizes, element_type)
    added = [0, 2, 3] if layout == "NCHW" else [0, 1, 2]
    return linalg.broadcast(op.bias, outs=[empty(result_sizes, element_type)], dimensions=added).results[0]


def _lower_conv2d(op):
    layout = _layout(op)
    stride, padding, dilation = _window(op)
    groups = int_attr(op, "groups")
    x = _spatial_pad(op.input, layout, padding, 0)
    init = _accumulator(op, layout)
    window = {"strides": stride, "dilations": dilation}
    channels = spatial_dims(op.input.type.shape, layout)[1]
    filters = spatial_dims(op.result.type.shape, layout)[1]
    if groups == 1:
        named = linalg.conv_2d_nchw_fchw if layout == "NCHW" else linalg.conv_2d_nhwc_hwcf
        return named(x, op.weight, outs=[init], **window)
    if groups == channels == filters:
        return _depthwise(x, op.weight, init, layout, window)
    return _grouped(x, op.weight, init, layout, groups, window)


def _depthwise(x, weight, init, layout, window):
    """One filter per channel: the weight's size-1 channel dimension folds away."""
    if layout == "NCHW":  # [C, 1, KH, KW] -> [C, KH, KW]
        return linalg.depthwise_conv_2d_nchw_chw(x, collapse(weight, [[0, 1], [2], [3]]), outs=[init], **window)
    # [KH, KW, 1, C] -> [KH, KW, C]
    return linalg.depthwise_conv_2d_nhwc_hwc(x, collapse(weight, [[0], [1], [2, 3]]), outs=[init], **window)


def _split_channels(value, axis, groups):
    """Expands dimension `axis` of size C into [groups, C / groups]."""
    value_sizes = sizes(value)
    new_sizes = value_sizes[:axis] + [groups, value_sizes[axis] // groups] + value_sizes[axis + 1 :]
    reassociation = [[d] for d in range(axis)] + [[axis, axis + 1]]
    reassociation += [[d + 1] for d in range(axis + 1, value.type.rank)]
    return expand(value, new_sizes, reassociation), reassociation


def _grouped(x, weight, init, layout, groups, window):
    """Channels split into groups: conv_2d_ngchw_gfchw (NCHW) or conv_2d_nhwgc_gfhwc
    (NHWC, whose KH x KW x C/G x F weight is transposed to G x F/G x KH x KW x C/G)."""
    if layout == "NCHW":
        x, _ = _split_channels(x, 1, groups)
        weight, _ = _split_channels(weight, 0, groups)
        init, groups_of_result = _split_channels(init, 1, groups)
        result = linalg.conv_2d_ngchw_gfchw(x, weight, outs=[init], **window)
        return collapse(result, groups_of_result)
    x, _ = _split_channels(x, 3, groups)
    weight, _ = _split_channels(weight, 3, groups)
    kh, kw, cg, g, fg = weight.type.shape
    transposed = empty([g, fg, kh, kw, cg], weight.type.element_type)
    weight = linalg.transpose(weight, outs=[transposed], permutation=[3, 4, 0, 1, 2]).results[0]
    init, groups_of_result = _split_channels(init, 3, groups)
    result = linalg.conv_2d_nhwgc_gfhwc(x, weight, outs=[init], **window)
    return collapse(result, groups_of_result)


# --- pooling -----------------------------------------------------------------


def _pool_padding(op, kernel, stride, padding, dilation):
    """[top, bottom, left, right], with the bottom/right grown so that every window
    ceil_mode asks for lies inside the padded input."""
    layout = _layout(op)
    _, _, h, w = spatial_dims(op.input.type.shape, layout)
    _, _, oh, ow = spatial_dims(op.result.type.shape, layout)
    if DYNAMIC in (h, w):
        raise Unsupported("pooling needs static spatial sizes")
    grown = list(padding)
    for axis, (size, out) in enumerate(((h, oh), (w, ow))):
        needed = (out - 1) * stride[axis] + dilation[axis] * (kernel[axis] - 1) + 1
        available = size + padding[2 * axis] + padding[2 * axis + 1]
        grown[2 * axis + 1] += max(0, needed - available)
    return grown


def _pool(op, named, padding_value, initial):
    layout = _layout(op)
    kernel = i64_array(op, "kernel")
    stride, padding, dilation = _window(op)
    padding = _pool_padding(op, kernel, stride, padding, dilation)
    x = _spatial_pad(op.input, layout, padding, padding_value)
    init = filled(_result_sizes(op), op.result.type.element_type, initial)
    window_shape = empty(kernel, op.result.type.element_type)
    return named(x, window_shape, outs=[init], strides=stride, dilations=dilation)


def _lower_max_pool2d(op):
    named = linalg.pooling_nchw_max if _layout(op) == "NCHW" else linalg.pooling_nhwc_max
    return _pool(op, named, -math.inf, -math.inf)


def _divisors(size, out, kernel, stride, pad_low, pad_high, count_include_pad) -> list[float]:
    """torch's avg_pool2d divisor along one axis, per output position: the window
    clipped to the padded input, or to the input alone without count_include_pad."""
    result = []
    for o in range(out):
        start = o * stride - pad_low
        end = min(start + kernel, size + pad_high)
        with_padding = end - start
        inside = min(end, size) - max(start, 0)
        divisor = with_padding if count_include_pad else inside
        result.append(float(divisor if divisor > 0 else 1))  # an empty window sums to 0
    return result


def _lower_avg_pool2d(op):
    if not is_float(op.result.type.element_type):
        raise Unsupported("average pooling needs a floating-point tensor")
    layout = _layout(op)
    named = linalg.pooling_nchw_sum if layout == "NCHW" else linalg.pooling_nhwc_sum
    total = _pool(op, named, 0.0, 0.0)
    kernel, (stride, padding, _) = i64_array(op, "kernel"), _window(op)
    _, _, h, w = spatial_dims(op.input.type.shape, layout)
    _, _, oh, ow = spatial_dims(op.result.type.shape, layout)
    include = bool_attr(op, "count_include_pad")
    rows = _divisors(h, oh, kernel[0], stride[0], padding[0], padding[1], include)
    cols = _divisors(w, ow, kernel[1], stride[1], padding[2], padding[3], include)
    return _divide_by_window(total, layout, rows, cols)


def _vector(values, element_type):
    type_ = ir.RankedTensorType.get([len(values)], element_type)
    attr = ir.DenseElementsAttr.get([ir.FloatAttr.get(element_type, v) for v in values], type_)
    return arith.constant(type_, attr)


def _divide_by_window(total, layout, rows, cols):
    """total / (rows[h] * cols[w]); a single scalar divisor when every window is alike."""
    element_type = total.type.element_type
    h_axis, w_axis = (2, 3) if layout == "NCHW" else (1, 2)
    init = empty(sizes(total), element_type)
    if len(set(rows)) == 1 and len(set(cols)) == 1:
        divisor = constant(element_type, rows[0] * cols[0])
        maps = [identity(4)] * 2
        return generic([total], init, maps, [PARALLEL] * 4, lambda s, _: arith.divf(s, divisor))
    inputs = [total, _vector(rows, element_type), _vector(cols, element_type)]
    maps = [identity(4), dims_map(4, [h_axis]), dims_map(4, [w_axis]), identity(4)]
    return generic(inputs, init, maps, [PARALLEL] * 4, lambda s, r, c, _: arith.divf(s, arith.mulf(r, c)))


LOWERINGS = {
    compute.MatmulOp: _lower_matmul,
    compute.Conv2dOp: _lower_conv2d,
    compute.MaxPool2dOp: _lower_max_pool2d,
    compute.AvgPool2dOp: _lower_avg_pool2d,
}
