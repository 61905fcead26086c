"""matmul, conv2d and 2-D pooling -> linalg's named ops, which IREE tiles and
vectorizes best: matmul/batch_matmul, conv_2d_*, depthwise_conv_2d_* and
pooling_*. Padding becomes an explicit `tensor.pad` (zero for conv and avg
pool, -inf for max pool); accumulators start from `linalg.fill` or the bias.
"""

import math

import numpy as np
from torch_mlir import ir
from torch_mlir.dialects import arith, linalg, tensor
from torch_mlir.dialects import math as mlir_math

from ...dialects import compute_ops as compute
from ...dialects.compute_ops import spatial_dims
from ...dialects.op_base import DYNAMIC, bool_attr, i64_array, int_attr, is_float
from ..constant_values import attribute_value, constant_attribute, resource_name
from ..op_registry import lowers
from .builders import (
    PARALLEL,
    REDUCTION,
    Unsupported,
    broadcast_to,
    collapse,
    constant,
    dims_map,
    elementwise,
    empty,
    expand,
    filled,
    generic,
    identity,
    pad,
    reduce,
    sizes,
)
from .data import convert

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


@lowers(compute.MatmulOp)
def _lower_matmul(op):
    lhs, rhs = op.lhs, op.rhs
    element_type = op.result.type.element_type
    if lhs.type.shape[-1] == 1:
        return _outer_product(op)
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


def _outer_product(op):
    """A matmul over K = 1 is [..., M, 1] * [..., 1, N], broadcast: one parallel
    generic, no reduction. As a contraction, IREE 3.13's data tiling computed a K = 1
    batch_matmul fed by a strided convolution wrong on llvm-cpu (random programs,
    seed 7003), and packing a K = 1 operand for a microkernel wins nothing."""
    result_type = op.result.type
    element_type = result_type.element_type
    multiply = arith.mulf if is_float(element_type) else arith.muli

    def widened(x):  # bf16 operands of an f32 product
        return x if x.type == element_type else convert(x, element_type)

    return elementwise([op.lhs, op.rhs], result_type, lambda a, b: multiply(widened(a), widened(b)))


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


# --- quantized_matmul ----------------------------------------------------------

# The attribute that marks the steps of a lowered mlc.quantized_matmul, so that the matmul
# library can take them whole (passes/library_matmuls.py): "quantize" on the generic that
# makes the int8 rows (inputs: the f32 rows, their scales), "product" on the int8 matmul,
# "rescale" on the generic that makes the f32 result (inputs: the product, the rows'
# scales, the columns' scales).
QUANTIZED_STEP = "mlc.quantized_matmul"
QUANTIZED_LEVELS = 127  # passes/quantize_int8.py's LEVELS


@lowers(compute.QuantizedMatmulOp)
def _lower_quantized_matmul(op):
    """The steps of mlc-quantize-int8's graph (abs, row max, scale, round, clamp, cast,
    int8 matmul, rescale) as linalg ops; three are marked with QUANTIZED_STEP."""
    f32, i8, i32 = ir.F32Type.get(), ir.IntegerType.get_signless(8), ir.IntegerType.get_signless(32)
    x, weight, column_scale = op.lhs, op.weight, op.scale
    (m, _), n = x.type.shape, weight.type.shape[1]
    peak = reduce([x], 2, [1], 0.0, lambda value, largest: arith.maximumf(largest, mlir_math.absf(value)))
    floor = float(np.float32(np.finfo(np.float32).tiny) * np.float32(QUANTIZED_LEVELS))
    row_scale = elementwise([peak], ir.RankedTensorType.get([m], f32),
                            lambda p: arith.divf(arith.maximumf(p, constant(f32, floor)), constant(f32, QUANTIZED_LEVELS)))
    rows = dims_map(2, [0])

    def quantize(value, scale, _):
        rounded = mlir_math.roundeven(arith.divf(value, scale))
        bounded = arith.minimumf(arith.maximumf(rounded, constant(f32, -QUANTIZED_LEVELS)), constant(f32, QUANTIZED_LEVELS))
        return convert(bounded, i8)

    quantized = generic([x, row_scale], empty([m, x.type.shape[1]], i8), [identity(2), rows, identity(2)],
                        [PARALLEL] * 2, quantize)
    product = linalg.matmul(quantized, weight, outs=[_zeros([m, n], i32)], indexing_maps=_contraction_maps(0))

    def rescale(total, scale, column, _):
        return arith.mulf(arith.mulf(convert(total, f32), scale), column)

    result = generic([product, row_scale, column_scale], empty([m, n], f32), [identity(2), rows, dims_map(2, [1]),
                     identity(2)], [PARALLEL] * 2, rescale)
    for value, step in ((quantized, "quantize"), (product, "product"), (result, "rescale")):
        value.owner.attributes[QUANTIZED_STEP] = ir.StringAttr.get(step)
    return result


# --- conv2d ------------------------------------------------------------------


def _window(op):
    stride = i64_array(op, "stride")
    padding = i64_array(op, "padding")
    dilation = i64_array(op, "dilation") if "dilation" in op.attributes else [1, 1]
    return stride, padding, dilation


def _layout(op) -> str:
    return ir.StringAttr(op.layout).value


def _read_input(x, padded, axes: list[int], kernels: list[int], outputs: list[int], stride, dilation, padding_value):
    """`x` padded by `padded` ([low, high] per spatial axis), then cut to exactly the extent
    the windows read, (out - 1) * stride + dilation * (kernel - 1) + 1 per axis: padding
    no window reaches is not added, and trailing input rows no window reaches are cut.
    IREE 3.13 folds a convolution's unit output dimension (one output frame) as if the
    input had exactly that extent, and otherwise emits an invalid linalg.generic
    (torchvision's r3d_18: a stride-2 Conv3d from two frames to one)."""
    rank = x.type.rank
    low, high, extents = [0] * rank, [0] * rank, list(x.type.shape)
    for i, axis in enumerate(axes):
        read = (outputs[i] - 1) * stride[i] + dilation[i] * (kernels[i] - 1) + 1
        low[axis] = padded[2 * i]
        high[axis] = max(0, read - x.type.shape[axis] - low[axis])
        extents[axis] = read
    padded_x = pad(x, low, high, padding_value)
    if list(padded_x.type.shape) == extents:
        return padded_x
    batch = [] if extents[0] != DYNAMIC else sizes(padded_x)[:1]  # the one size that may be dynamic
    cut = ir.RankedTensorType.get(extents, x.type.element_type)
    return tensor.extract_slice(cut, padded_x, [], batch, [], [0] * rank, extents, [1] * rank)


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


@lowers(compute.Conv2dOp)
def _lower_conv2d(op):
    layout = _layout(op)
    stride, padding, dilation = _window(op)
    groups = int_attr(op, "groups")
    init = _accumulator(op, layout)  # first: it refuses dynamic sizes past the batch
    axes, kernel_axes = ([2, 3], [2, 3]) if layout == "NCHW" else ([1, 2], [0, 1])
    x = _read_input(op.input, padding, axes, [op.weight.type.shape[a] for a in kernel_axes],
                    [op.result.type.shape[a] for a in axes], stride, dilation, 0)
    window = {"strides": stride, "dilations": dilation}
    channels = spatial_dims(op.input.type.shape, layout)[1]
    filters = spatial_dims(op.result.type.shape, layout)[1]
    if groups == 1 and _one_window(op, axes, dilation):
        return _one_window_matmul(x, op.weight, init, layout)
    if groups == 1:
        named = linalg.conv_2d_nchw_fchw if layout == "NCHW" else linalg.conv_2d_nhwc_hwcf
        return named(x, op.weight, outs=[init], **window)
    if groups == channels == filters:
        return _depthwise(x, op.weight, init, layout, window)
    return _grouped(x, op.weight, init, layout, groups, window, op.bias, op)


def _one_window(op, axes, dilation) -> bool:
    """Whether the convolution has one output position, its window the whole input read."""
    return all(op.result.type.shape[a] == 1 for a in axes) and list(dilation) == [1, 1]


def _one_window_matmul(x, weight, init, layout):
    """A convolution with one output position is a matmul over channels x window: one
    reduction dimension where linalg's convolution has three. IREE 3.13's CPU code is
    wrong for a reduction over several dimensions fused with a consumer that reads its
    result twice through different maps (a stride-2 conv1d's [B, F, 1] output times its
    transpose; random programs, seed 7003)."""
    if layout == "NCHW":  # [N, C, KH, KW] . [F, C, KH, KW] -> [N, F]
        lhs, rhs, maps = collapse(x, [[0], [1, 2, 3]]), collapse(weight, [[0], [1, 2, 3]]), _transposed_b_maps()
        groups = [[0], [1, 2, 3]]
    else:  # [N, KH, KW, C] . [KH, KW, C, F] -> [N, F]
        lhs, rhs, maps = collapse(x, [[0], [1, 2, 3]]), collapse(weight, [[0, 1, 2], [3]]), _contraction_maps(0)
        groups = [[0, 1, 2], [3]]
    product = linalg.matmul(lhs, rhs, outs=[collapse(init, groups)], indexing_maps=maps)
    return expand(product, sizes(init), groups)


def _transposed_b_maps() -> list[ir.AffineMap]:
    m, n, k = (ir.AffineDimExpr.get(d) for d in range(3))
    return [ir.AffineMap.get(3, 0, pair) for pair in ([m, k], [n, k], [m, n])]


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


def _split_accumulator(init, bias, axis, groups):
    """`init` with its channels (`axis`) split into [groups, C / groups]. A bias is
    broadcast into the split shape directly: IREE cannot compile the expand_shape of
    a broadcast result feeding a grouped convolution ("write affecting operations on
    global resources")."""
    if bias is None:
        return _split_channels(init, axis, groups)
    split, reassociation = _split_channels(init, axis, groups)
    bias, _ = _split_channels(bias, 0, groups)
    added = [d for d in range(split.type.rank) if d not in (axis, axis + 1)]
    element_type = init.type.element_type
    return linalg.broadcast(bias, outs=[empty(sizes(split), element_type)], dimensions=added).results[0], reassociation


def _grouped(x, weight, init, layout, groups, window, bias, conv):
    """Channels split into groups: conv_2d_ngchw_gfchw (NCHW) or conv_2d_nhwgc_gfhwc
    (NHWC, whose KH x KW x C/G x F weight is transposed to G x F/G x KH x KW x C/G)."""
    if layout == "NCHW":
        x, _ = _split_channels(x, 1, groups)
        weight, _ = _split_channels(weight, 0, groups)
        init, groups_of_result = _split_accumulator(init, bias, 1, groups)
        result = linalg.conv_2d_ngchw_gfchw(x, weight, outs=[init], **window)
        return collapse(result, groups_of_result)
    x, _ = _split_channels(x, 3, groups)
    weight = _weight_by_group(weight, groups, conv)
    init, groups_of_result = _split_accumulator(init, bias, 3, groups)
    result = linalg.conv_2d_nhwgc_gfhwc(x, weight, outs=[init], **window)
    return collapse(result, groups_of_result)


def _weight_by_group(weight, groups, conv):
    """The NHWC weight KH x KW x C/G x F as G x F/G x KH x KW x C/G, the order
    conv_2d_nhwgc_gfhwc reads, reordered outside the dispatch of `conv`: IREE 3.13's
    SPIR-V code computes garbage for a grouped convolution whose dispatch transposes
    its weight (random programs, seed 70012). A constant weight is reordered here, at
    compile time; another one right before `conv`'s fusion group, where it is defined
    outside it, which also lets IREE hoist it out of every call."""
    kh, kw, cg, filters = weight.type.shape
    by_group = [groups, filters // groups, kh, kw, cg]
    owner = None if isinstance(weight.owner, ir.Block) else weight.owner.operation
    constant = owner is not None and owner.name in ("arith.constant", "mlc.constant")
    array = attribute_value(owner, weight.type) if constant else None
    if array is not None:
        reordered = array.reshape(kh, kw, cg, groups, filters // groups).transpose(3, 4, 0, 1, 2)
        type_ = ir.RankedTensorType.get(by_group, weight.type.element_type)
        name = (resource_name(owner.attributes["value"]) or "weight") + ".by_group"
        return arith.constant(type_, constant_attribute(reordered, type_, name))
    with ir.InsertionPoint(_group_outside(conv, weight) or conv.operation):
        split, _ = _split_channels(weight, 3, groups)
        transposed = empty(by_group, weight.type.element_type)
        return linalg.transpose(split, outs=[transposed], permutation=[3, 4, 0, 1, 2]).results[0]


def _group_outside(op, value) -> ir.Operation | None:
    """The fusion group holding `op`, when `value` is defined outside it; else None."""
    group = op.operation.parent
    if group is None or group.name != "mlc.fusion_group":
        return None
    owner = value.owner
    where = owner.owner if isinstance(owner, ir.Block) else owner.operation.parent
    return None if where == group else group


# --- pooling -----------------------------------------------------------------


def _pool_input(op, axes, kernel, stride, padding, dilation, padding_value):
    """The input padded, and cut, to exactly what the windows read (`_read_input`):
    the high side grows for ceil_mode, and trailing rows no window reaches go."""
    spatial = [op.input.type.shape[a] for a in axes]
    if DYNAMIC in spatial:
        raise Unsupported("pooling needs static spatial sizes")
    outputs = [op.result.type.shape[a] for a in axes]
    return _read_input(op.input, padding, axes, kernel, outputs, stride, dilation, padding_value)


def _pool(op, named, padding_value, initial):
    layout = _layout(op)
    kernel = i64_array(op, "kernel")
    stride, padding, dilation = _window(op)
    axes = [2, 3] if layout == "NCHW" else [1, 2]
    x = _pool_input(op, axes, kernel, stride, padding, dilation, padding_value)
    init = filled(_result_sizes(op), op.result.type.element_type, initial)
    window_shape = empty(kernel, op.result.type.element_type)
    return named(x, window_shape, outs=[init], strides=stride, dilations=dilation)


@lowers(compute.MaxPool2dOp)
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


@lowers(compute.AvgPool2dOp)
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


# --- N-D windows: conv3d, max_pool_nd, max_pool_indices, avg_pool_nd ----------------------
#
# NC + spatial layout. conv3d uses linalg's named NCDHW ops where there is one
# (groups 1, depthwise); grouped conv3d and pooling of any spatial rank are
# `linalg.generic`s whose loops are (batch, channels..., outputs..., window...),
# the input read at output * stride + window * dilation of the padded input.


def _window_read(rank, first_output, first_window, stride, dilation, leading) -> ir.AffineMap:
    """(d...) -> (leading..., o_i * stride_i + k_i * dilation_i for each spatial axis)."""
    d = ir.AffineDimExpr.get
    spatial = [d(first_output + i) * stride[i] + d(first_window + i) * dilation[i] for i in range(len(stride))]
    return ir.AffineMap.get(rank, 0, [d(x) for x in leading] + spatial)


def _multiply_add(x, w, acc):
    if is_float(acc.type):
        return arith.addf(acc, arith.mulf(x, w))
    return arith.addi(acc, arith.muli(x, w))


@lowers(compute.Conv3dOp)
def _lower_conv3d(op):
    stride, padding, dilation = i64_array(op, "stride"), i64_array(op, "padding"), i64_array(op, "dilation")
    groups = int_attr(op, "groups")
    init = _accumulator_nd(op)  # first: it refuses dynamic sizes past the batch
    axes = [2, 3, 4]
    x = _read_input(op.input, padding, axes, list(op.weight.type.shape[2:]), [op.result.type.shape[a] for a in axes],
                    stride, dilation, 0)
    channels, filters = op.input.type.shape[1], op.result.type.shape[1]
    window = {"strides": stride, "dilations": dilation}
    if groups == 1:
        return linalg.conv_3d_ncdhw_fcdhw(x, op.weight, outs=[init], **window)
    if groups == channels == filters:  # [C, 1, KD, KH, KW] -> [C, KD, KH, KW]
        weight = collapse(op.weight, [[0, 1], [2], [3], [4]])
        return linalg.depthwise_conv_3d_ncdhw_cdhw(x, weight, outs=[init], **window)
    # grouped: x [N, G, C/G, D, H, W], weight [G, F/G, C/G, K...], result [N, G, F/G, O...];
    # loops (n, g, f, od, oh, ow, c, kd, kh, kw)
    x, _ = _split_channels(x, 1, groups)
    weight, _ = _split_channels(op.weight, 0, groups)
    init, groups_of_result = _split_accumulator(init, op.bias, 1, groups)
    maps = [
        _window_read(10, 3, 7, stride, dilation, leading=[0, 1, 6]),
        dims_map(10, [1, 2, 6, 7, 8, 9]),
        dims_map(10, [0, 1, 2, 3, 4, 5]),
    ]
    iterators = [PARALLEL] * 6 + [REDUCTION] * 4
    result = generic([x, weight], init, maps, iterators, _multiply_add)
    return collapse(result, groups_of_result)


def _accumulator_nd(op):
    result_sizes = _result_sizes(op)
    element_type = op.result.type.element_type
    if op.bias is None:
        return _zeros(result_sizes, element_type)
    added = [d for d in range(len(result_sizes)) if d != 1]
    return linalg.broadcast(op.bias, outs=[empty(result_sizes, element_type)], dimensions=added).results[0]


def _nd_window(op):
    """(kernel, stride, padding, dilation) of a pool over axes 2, 3, ..."""
    kernel, stride, padding = i64_array(op, "kernel"), i64_array(op, "stride"), i64_array(op, "padding")
    dilation = i64_array(op, "dilation") if "dilation" in op.attributes else [1] * len(kernel)
    return kernel, stride, padding, dilation


def _nd_pool_input(op, padding_value):
    kernel, stride, padding, dilation = _nd_window(op)
    axes = list(range(2, 2 + len(kernel)))
    return _pool_input(op, axes, kernel, stride, padding, dilation, padding_value)


def _pool_generic(op, inputs_padded, inits, body):
    """The pooling loops (n, c, outputs..., window...) over the padded input;
    `body(x, window_element, *accumulators)` returns the new accumulators."""
    kernel, stride, _, dilation = _nd_window(op)
    spatial = len(kernel)
    loops = 2 + 2 * spatial
    window_shape = empty(kernel, op.input.type.element_type)
    maps = [
        _window_read(loops, 2, 2 + spatial, stride, dilation, leading=[0, 1]),
        dims_map(loops, range(2 + spatial, loops)),
    ] + [dims_map(loops, range(2 + spatial))] * len(inits)
    iterators = [PARALLEL] * (2 + spatial) + [REDUCTION] * spatial
    op_ = linalg.GenericOp_([inputs_padded, window_shape], list(inits), maps,
                            [getattr(linalg.IteratorType, it) for it in iterators])
    block = op_.regions[0].blocks[0]
    with ir.InsertionPoint(block):
        linalg.YieldOp(list(body(*block.arguments)))
    return op_.results


@lowers(compute.MaxPoolNdOp)
def _lower_max_pool_nd(op):
    x = _nd_pool_input(op, -math.inf)
    element_type = op.result.type.element_type
    init = filled(_result_sizes(op), element_type, -math.inf)

    def body(value, _window, best):
        if is_float(element_type):
            return [arith.maximumf(value, best)]
        return [arith.maxsi(value, best)]

    return _pool_generic(op, x, [init], body)[0]


def _is_nan(x):
    return arith.cmpf(arith.CmpFPredicate.UNO, x, x)


@lowers(compute.MaxPoolIndicesOp)
def _lower_max_pool_indices(op):
    """Two accumulators, the best value and its flat position; positions in the
    padding never count. The choice does not depend on the visiting order: a larger
    value wins, a NaN beats a number, equal values go to the smaller position and
    NaNs to the larger (torch scans in order, taking `v > best || isnan(v)`)."""
    kernel, stride, padding, dilation = _nd_window(op)
    spatial = len(kernel)
    sizes_in = op.input.type.shape[2:]
    x = _nd_pool_input(op, -math.inf)
    element_type = op.input.type.element_type
    i64 = op.result.type.element_type
    result_sizes = _result_sizes(op)
    best = filled(result_sizes, element_type, -math.inf)
    best_position = filled(result_sizes, i64, math.inf)

    def body(value, _window, best_value, best_at):
        position, inside = constant(i64, 0), constant(ir.IntegerType.get_signless(1), 1)
        for i in range(spatial):
            o = arith.index_cast(i64, linalg.IndexOp(2 + i).result)
            k = arith.index_cast(i64, linalg.IndexOp(2 + spatial + i).result)
            at = arith.subi(arith.addi(arith.muli(o, constant(i64, stride[i])), arith.muli(k, constant(i64, dilation[i]))),
                            constant(i64, padding[2 * i]))
            inside = arith.andi(inside, arith.andi(arith.cmpi(arith.CmpIPredicate.sge, at, constant(i64, 0)),
                                                   arith.cmpi(arith.CmpIPredicate.slt, at, constant(i64, sizes_in[i]))))
            position = arith.addi(arith.muli(position, constant(i64, sizes_in[i])), at)
        earlier = arith.cmpi(arith.CmpIPredicate.slt, position, best_at)
        if is_float(element_type):
            nan, best_nan = _is_nan(value), _is_nan(best_value)
            larger = arith.cmpf(arith.CmpFPredicate.OGT, value, best_value)
            equal = arith.cmpf(arith.CmpFPredicate.OEQ, value, best_value)
            later = arith.cmpi(arith.CmpIPredicate.sgt, position, best_at)
            nan_beats = arith.andi(nan, arith.xori(best_nan, constant(best_nan.type, 1)))
            nan_tie = arith.andi(arith.andi(nan, best_nan), later)
            # the first in-bounds element replaces the initial -inf even when it is -inf
            unset = arith.cmpi(arith.CmpIPredicate.eq, best_at, constant(i64, math.inf))
            take = arith.ori(arith.ori(larger, nan_beats), arith.ori(nan_tie, arith.andi(equal, earlier)))
            take = arith.ori(take, unset)
        else:
            larger = arith.cmpi(arith.CmpIPredicate.sgt, value, best_value)
            equal = arith.cmpi(arith.CmpIPredicate.eq, value, best_value)
            take = arith.ori(larger, arith.andi(equal, earlier))
        take = arith.andi(inside, take)
        return [arith.select(take, value, best_value), arith.select(take, position, best_at)]

    return _pool_generic(op, x, [best, best_position], body)[1]


@lowers(compute.AvgPoolNdOp)
def _lower_avg_pool_nd(op):
    """A sum over each window, then a division by the window's divisor (divsi for
    integers: torch truncates); the divisors are a constant over the output positions."""
    kernel, stride, padding, _ = _nd_window(op)
    element_type = op.result.type.element_type
    x = _nd_pool_input(op, 0)
    init = _zeros(_result_sizes(op), element_type)
    add = arith.addf if is_float(element_type) else arith.addi
    total = _pool_generic(op, x, [init], lambda value, _window, acc: [add(acc, value)])[0]
    override = int_attr(op, "divisor")
    include = bool_attr(op, "count_include_pad")
    spatial_in, spatial_out = op.input.type.shape[2:], op.result.type.shape[2:]
    if override:
        divisors = np.full(spatial_out, override, dtype=np.int64)
    else:
        axes = [_divisors(spatial_in[i], spatial_out[i], kernel[i], stride[i], padding[2 * i], padding[2 * i + 1], include)
                for i in range(len(kernel))]
        divisors = np.ones(spatial_out, dtype=np.int64)
        for i, axis in enumerate(axes):
            shape = [1] * len(kernel)
            shape[i] = len(axis)
            divisors = divisors * np.asarray(axis, dtype=np.int64).reshape(shape)
    rank = op.result.type.rank
    out_maps = identity(rank)
    result = empty(sizes(total), element_type)
    if len(np.unique(divisors)) == 1:
        divisor = constant(element_type, int(divisors.flat[0]))
        divide = (lambda s, _: arith.divf(s, divisor)) if is_float(element_type) else (lambda s, _: arith.divsi(s, divisor))
        return generic([total], result, [out_maps, out_maps], [PARALLEL] * rank, divide)
    divisor_type = ir.RankedTensorType.get(list(spatial_out), element_type)
    values = divisors.astype(np.float64 if is_float(element_type) else np.int64)
    attrs = [ir.FloatAttr.get(element_type, float(v)) if is_float(element_type) else ir.IntegerAttr.get(element_type, int(v))
             for v in values.flat]
    table = arith.constant(divisor_type, ir.DenseElementsAttr.get(attrs, divisor_type))
    divide = arith.divf if is_float(element_type) else arith.divsi
    maps = [out_maps, dims_map(rank, range(2, rank)), out_maps]
    return generic([total, table], result, maps, [PARALLEL] * rank, lambda s, d, _: divide(s, d))
