"""Shape ops -> tensor ops where one exists (collapse/expand_shape, extract and
insert_slice, pad), `linalg.transpose`, and a `linalg.generic` for broadcast and
gather (the gather reads its input with `tensor.extract` at the loaded index).
"""

import math

from torch_mlir import ir
from torch_mlir.dialects import arith, linalg, tensor

from ...dialects import shape_ops
from ...dialects.op_base import DYNAMIC, float_attr, i64_array, int_attr, normalize_axis
from ..op_registry import lowers
from .builders import (
    PARALLEL,
    Unsupported,
    broadcast_sizes,
    broadcast_to,
    collapse,
    dims_map,
    empty,
    expand,
    generic,
    identity,
    index,
    pad,
    sizes,
)

# --- reshape -----------------------------------------------------------------


def reassociation(source: list[int], target: list[int]) -> list[list[int]] | None:
    """Groups of consecutive `source` dims whose products are the `target` dims
    (len(source) >= len(target)); None when the reshape is no pure collapse.
    A dynamic dimension must map one-to-one onto a dynamic one (with unit ones)."""
    groups, d = [], 0
    for size in target:
        if d == len(source):
            return None
        group, product = [d], source[d]
        d += 1
        if size == DYNAMIC:
            while product == 1 and d < len(source):  # unit dimensions before it join its group
                group.append(d)
                product = source[d]
                d += 1
            if product != DYNAMIC:
                return None
        elif product == DYNAMIC:
            return None
        else:
            while product < size and d < len(source) and source[d] != DYNAMIC:
                group.append(d)
                product *= source[d]
                d += 1
            if product != size:
                return None
        groups.append(group)
    if any(s != 1 for s in source[d:]):
        return None
    if groups:
        groups[-1] += range(d, len(source))
    return groups


def _expanded_sizes(value, shape, groups):
    """Target sizes for expand_shape; a dynamic one is its source dimension's size."""
    value_sizes = sizes(value)
    result = list(shape)
    for source_dim, group in enumerate(groups):
        for d in group:
            if shape[d] == DYNAMIC:
                result[d] = value_sizes[source_dim]
    return result


def _regroups_behind_batch(source: list[int], target: list[int]) -> bool:
    """Whether a reshape keeps a dynamic first dimension and regroups the static rest."""
    rest_static = DYNAMIC not in source[1:] and DYNAMIC not in target[1:]
    return (len(source) > 1 and len(target) > 1 and source[0] == target[0] == DYNAMIC and rest_static
            and math.prod(source[1:]) == math.prod(target[1:]))


@lowers(shape_ops.ReshapeOp)
def _lower_reshape(op):
    x = op.input
    source, target = list(x.type.shape), list(op.result.type.shape)
    given = list(op.sizes)
    if given:  # sizes a view computed: through one dimension, which trusts nothing to the types
        flat = collapse(x, [list(range(len(source)))])
        dynamic = iter(given)
        return expand(flat, [next(dynamic) if s == DYNAMIC else s for s in target], [list(range(len(target)))])
    if source == target:
        return x
    if len(source) >= len(target) and (groups := reassociation(source, target)) is not None:
        return collapse(x, groups)
    if len(source) < len(target) and (groups := reassociation(target, source)) is not None:
        return expand(x, _expanded_sizes(x, target, groups), groups)
    if _regroups_behind_batch(source, target):  # [?, 4, 5, 5] -> [?, 2, 50]: through [?, 100]
        flat = collapse(x, [[0], list(range(1, len(source)))])
        return expand(flat, [sizes(x)[0], *target[1:]], [[0], list(range(1, len(target)))])
    if target.count(DYNAMIC) == 1:  # [16, ?, 128] -> [16, ?, 16] (MultiheadAttention's heads, batch dynamic)
        flat = collapse(x, [list(range(len(source)))])
        unknown = arith.divui(sizes(flat)[0], index(math.prod(s for s in target if s != DYNAMIC)))
        return expand(flat, [unknown if s == DYNAMIC else s for s in target], [list(range(len(target)))])
    if DYNAMIC in source or DYNAMIC in target:
        raise Unsupported("a dynamic reshape that is neither a collapse nor an expansion")
    flat = collapse(x, [list(range(len(source)))])
    return expand(flat, target, [list(range(len(target)))])


# --- permutations and broadcasts ---------------------------------------------------


VECTOR_LANES = 16  # f32 lanes of an AVX-512 register


@lowers(shape_ops.TransposeOp)
def _lower_transpose(op):
    x = op.input
    permutation = i64_array(op, "permutation")
    x_sizes = sizes(x)
    init = empty([x_sizes[p] for p in permutation], x.type.element_type)
    if _in_input_order(x.type.shape, permutation):
        # Loops over the input's dims, writing through the permuted map.
        return generic([x], init, [identity(len(permutation)), dims_map(len(permutation), permutation)],
                       [PARALLEL] * len(permutation), lambda value, _: value)
    return linalg.transpose(x, outs=[init], permutation=permutation).results[0]


def _in_input_order(shape: list[int], permutation: list[int]) -> bool:
    """Whether a transpose should loop in its input's order: when the input's last
    dimension fills whole vectors and the output's does not. IREE vectorizes the
    innermost loop; `linalg.transpose` loops in the output's order, and IREE 3.13 does
    not reorder it inside mlc's dispatch regions. Attention's keys, [12, 197, 64] ->
    [12, 64, 197], took 1.0-1.36 ms per layer of ViT-B/16 in the output's order (197
    innermost), 0.12-0.16 ms in the input's (64 innermost)."""
    if not permutation or permutation[-1] == len(permutation) - 1 or DYNAMIC in shape:
        return False
    inner_in, inner_out = shape[-1], shape[permutation[-1]]
    return inner_in % VECTOR_LANES == 0 and inner_out % VECTOR_LANES != 0


@lowers(shape_ops.BroadcastOp)
def _lower_broadcast(op):
    if len(op.sizes):
        given = iter(op.sizes)
        return broadcast_to(op.input, [next(given) if s == DYNAMIC else s for s in op.result.type.shape])
    return broadcast_to(op.input, broadcast_sizes(op.result.type, [op.input]))


# --- slices ------------------------------------------------------------------


def _mixed(values):
    """Splits ints/Values into (dynamic Values, static list with the dynamic marker)."""
    dynamic = [v for v in values if not isinstance(v, int)]
    static = [v if isinstance(v, int) else DYNAMIC for v in values]
    return dynamic, static


def absorbed_into_consumer(op) -> bool:
    """A concat whose only use is a concat along the same axis: the consumer writes
    both into one buffer, so this link is not lowered on its own."""
    if not isinstance(op, shape_ops.ConcatOp) or len(list(op.result.uses)) != 1:
        return False
    user = next(iter(op.result.uses)).owner
    rank = op.result.type.rank
    return isinstance(user.opview, shape_ops.ConcatOp) and normalize_axis(int_attr(user, "axis"), rank) == normalize_axis(
        int_attr(op, "axis"), rank
    )


def _concat_inputs(op, axis) -> list:
    """The leaves of a chain of concats along `axis` (each link used once), in order."""
    leaves = []
    for value in (op.lhs, op.rhs):
        producer = value.owner
        chained = not isinstance(producer, ir.Block) and absorbed_into_consumer(producer)
        leaves += _concat_inputs(producer, axis) if chained else [value]
    return leaves


@lowers(shape_ops.ConcatOp)
def _lower_concat(op):
    """Every input of a concat chain is inserted at its offset along `axis` into one tensor."""
    axis = normalize_axis(int_attr(op, "axis"), op.result.type.rank)
    inputs = _concat_inputs(op, axis)
    if any(v.type.shape[axis] == DYNAMIC for v in inputs):
        raise Unsupported("concatenation along a dynamic dimension")
    first = sizes(inputs[0])
    result = empty(first[:axis] + [op.result.type.shape[axis]] + first[axis + 1 :], op.result.type.element_type)
    offset = 0
    for value in inputs:
        value_sizes = sizes(value)
        offsets = [0] * axis + [offset] + [0] * (len(value_sizes) - axis - 1)
        dynamic, static = _mixed(value_sizes)
        strides = [1] * len(value_sizes)
        result = tensor.insert_slice(value, result, [], dynamic, [], offsets, static, strides)
        offset += value.type.shape[axis]
    return result


@lowers(shape_ops.SliceOp)
def _lower_slice(op):
    """One `tensor.extract_slice`; a dynamic result size is ceil((limit - start) / stride),
    the limit an operand or the input's size."""
    start, stride = i64_array(op, "start"), i64_array(op, "stride")
    result_type = op.result.type
    limits = sizes(op.input)
    given = iter(op.limits)
    for d, limit in enumerate(i64_array(op, "limit")):
        if limit == DYNAMIC and len(op.limits):
            limits[d] = next(given)
    dynamic = [
        arith.ceildivsi(arith.subi(limits[d], index(start[d])), index(stride[d]))
        for d, size in enumerate(result_type.shape) if size == DYNAMIC
    ]
    return tensor.extract_slice(result_type, op.input, [], dynamic, [], start, result_type.shape, stride)


@lowers(shape_ops.GatherOp)
def _lower_gather(op):
    """result[i..., j..., k...] = input[i..., indices[j...], k...]."""
    x, indices = op.input, op.indices
    axis = normalize_axis(int_attr(op, "axis"), x.type.rank)
    x_sizes, index_rank = sizes(x), indices.type.rank
    rank = op.result.type.rank
    init = empty(x_sizes[:axis] + sizes(indices) + x_sizes[axis + 1 :], x.type.element_type)
    maps = [dims_map(rank, range(axis, axis + index_rank)), identity(rank)]

    def body(position, _):
        where = arith.index_cast(ir.IndexType.get(), position)
        before = [linalg.IndexOp(d).result for d in range(axis)]
        after = [linalg.IndexOp(d).result for d in range(axis + index_rank, rank)]
        return tensor.extract(x, before + [where] + after)

    return generic([indices], init, maps, [PARALLEL] * rank, body)


@lowers(shape_ops.TakeAlongAxisOp)
def _lower_take_along_axis(op):
    """result[i, j, k] = input[i, indices[i, j, k], k] (axis 1), one generic over the indices."""
    x, indices = op.input, op.indices
    axis = normalize_axis(int_attr(op, "axis"), x.type.rank)
    rank = x.type.rank
    init = empty(sizes(indices), x.type.element_type)

    def body(position, _):
        where = [linalg.IndexOp(d).result for d in range(rank)]
        where[axis] = arith.index_cast(ir.IndexType.get(), position)
        return tensor.extract(x, where)

    return generic([indices], init, [identity(rank), identity(rank)], [PARALLEL] * rank, body)


@lowers(shape_ops.PadOp)
def _lower_pad(op):
    return pad(op.input, i64_array(op, "low"), i64_array(op, "high"), float_attr(op, "value"))


@lowers(shape_ops.Im2colOp)
def _lower_im2col(op):
    """A copy into [N, OH, OW, KH, KW, C] reading the padded input at
    (n, oh * sh + kh * dh, ow * sw + kw * dw, c), viewed as [N, OH, OW, KH * KW * C]."""
    kernel, stride, dilation = (i64_array(op, name) for name in ("kernel", "stride", "dilation"))
    top, bottom, left, right = i64_array(op, "padding")
    x = pad(op.input, [0, top, left, 0], [0, bottom, right, 0], 0)
    n, oh, ow, _ = sizes(op.result)
    channels = op.input.type.shape[3]
    element_type = op.result.type.element_type
    d = [ir.AffineDimExpr.get(i) for i in range(6)]  # n, oh, ow, kh, kw, c
    read = ir.AffineMap.get(6, 0, [d[0], d[1] * stride[0] + d[3] * dilation[0],
                                   d[2] * stride[1] + d[4] * dilation[1], d[5]])
    init = empty([n, oh, ow, kernel[0], kernel[1], channels], element_type)
    windows = generic([x], init, [read, identity(6)], [PARALLEL] * 6, lambda value, _: value)
    return collapse(windows, [[0], [1], [2], [3, 4, 5]])
