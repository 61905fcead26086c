"""softmax -> `linalg.softmax` (IREE decomposes it into the stable max-subtracting
form); layer_norm and batch_norm -> `linalg.generic`s that follow torch's
formulas, epsilon inside the square root and LayerNorm's variance biased. A layer_norm
with `library` is one call of mlc's matmul plugin, `mlc_layer_norm`, on its rows
(driver/backends/native/mlc_layer_norm.h).
"""

import math

from torch_mlir import ir
from torch_mlir.dialects import arith, linalg
from torch_mlir.dialects import math as mathd

from ...dialects import normalization_ops as normalization
from ...dialects.op_base import DYNAMIC, bool_attr, float_attr, int_attr, normalize_axis
from ..op_registry import lowers
from .builders import (
    PARALLEL,
    Unsupported,
    collapse,
    constant,
    dims_map,
    elementwise,
    empty,
    expand,
    generic,
    identity,
    reduce,
    sizes,
)
from .plugin import as_vector, f32_bits, plugin_call

LAYER_NORM_FUNCTION = "mlc_layer_norm"


@lowers(normalization.SoftmaxOp)
def _lower_softmax(op):
    x = op.input
    axis = normalize_axis(int_attr(op, "axis"), x.type.rank)
    return linalg.softmax([x.type], x, empty(sizes(x), x.type.element_type), axis)


def _normalize(value, mean, variance, epsilon):
    """(value - mean) / sqrt(variance + epsilon)."""
    return arith.divf(arith.subf(value, mean), mathd.sqrt(arith.addf(variance, epsilon)))


def _layer_norm_on_library(op, axis: int) -> ir.Value:
    """The input as rows [R, N] of the normalized dimensions, weight and bias as vectors
    [N]: one call of the plugin, its result reshaped back."""
    x = op.input
    shape = list(x.type.shape)
    rows, n = math.prod(shape[:axis]), math.prod(shape[axis:])
    as_rows = collapse(x, [list(range(axis)), list(range(axis, len(shape)))]) if axis > 0 else \
        expand(as_vector(x), [1, n], [[0, 1]])
    result = plugin_call(LAYER_NORM_FUNCTION, [as_rows, as_vector(op.weight), as_vector(op.bias)],
                         ir.RankedTensorType.get([rows, n], x.type.element_type),
                         [rows, n, f32_bits(float_attr(op, "epsilon"))])
    if axis == 0:  # one row: every dimension normalized
        elements = collapse(result, [[0, 1]])
        return expand(elements, shape, [list(range(len(shape)))]) if len(shape) > 1 else elements
    return expand(result, shape, [list(range(axis)), list(range(axis, len(shape)))])


@lowers(normalization.LayerNormOp)
def _lower_layer_norm(op):
    """mean = sum / N; variance = sum((x - mean)^2) / N; then normalize, scale, shift.
    With `library`, the plugin's call (`_layer_norm_on_library`)."""
    x = op.input
    rank = x.type.rank
    axis = normalize_axis(int_attr(op, "axis"), rank)
    if bool_attr(op, "library"):
        return _layer_norm_on_library(op, axis)
    axes = list(range(axis, rank))
    if DYNAMIC in x.type.shape[axis:]:
        raise Unsupported("the normalized dimensions must be static")
    element_type = x.type.element_type
    count = constant(element_type, math.prod(x.type.shape[axis:]))
    epsilon = constant(element_type, float_attr(op, "epsilon"))
    total = reduce([x], rank, axes, 0.0, arith.addf)
    mean = elementwise([total], total.type, lambda s: arith.divf(s, count))

    def squared_deviation(value, mean_value, accumulator):
        deviation = arith.subf(value, mean_value)
        return arith.addf(accumulator, arith.mulf(deviation, deviation))

    squares = reduce([x, mean], rank, axes, 0.0, squared_deviation)

    def body(value, mean_value, square_sum, weight, bias, _):
        variance = arith.divf(square_sum, count)
        return arith.addf(arith.mulf(_normalize(value, mean_value, variance, epsilon), weight), bias)

    per_row = dims_map(rank, range(axis))
    per_element = dims_map(rank, axes)
    maps = [identity(rank), per_row, per_row, per_element, per_element, identity(rank)]
    inputs = [x, mean, squares, op.weight, op.bias]
    return generic(inputs, empty(sizes(x), element_type), maps, [PARALLEL] * rank, body)


@lowers(normalization.BatchNormOp)
def _lower_batch_norm(op):
    """(x - mean[c]) / sqrt(variance[c] + epsilon) * scale[c] + offset[c]."""
    x = op.input
    rank = x.type.rank
    axis = normalize_axis(int_attr(op, "axis"), rank)
    epsilon = constant(x.type.element_type, float_attr(op, "epsilon"))

    def body(value, scale, offset, mean, variance, _):
        return arith.addf(arith.mulf(_normalize(value, mean, variance, epsilon), scale), offset)

    inputs = [x, op.scale, op.offset, op.mean, op.variance]
    maps = [identity(rank)] + [dims_map(rank, [axis])] * 4 + [identity(rank)]
    return generic(inputs, empty(sizes(x), x.type.element_type), maps, [PARALLEL] * rank, body)
