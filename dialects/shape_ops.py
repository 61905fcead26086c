"""Shape ops: reshape, transpose, broadcast, concat, slice, gather, take_along_axis, pad and im2col.

They move or copy elements and compute nothing else; they are the
"injective" ops of fusion planning.
"""

import math
from collections.abc import Sequence
from typing import Any

from torch_mlir import ir
from torch_mlir.dialects import ext
from torch_mlir.dialects.ext import Operand, Result

from .compute_ops import window_attributes, window_output_size
from .facts import Declined, FusionKind, Layout
from .op_base import (
    DYNAMIC,
    MlcOp,
    VerifyError,
    dims_match,
    expect_element_type,
    expect_same_element_type,
    expect_shape,
    float_attr,
    format_shape,
    i64_array,
    int_attr,
    is_integer,
    normalize_axis,
    ranked,
)


def expect_same_element_type_as_input(op):
    expect_element_type(op.result, ranked(op.input, "input").element_type, "result")


def _expect_size_operands(sizes, shape) -> None:
    """None, or one index operand per dynamic size of `shape`."""
    dynamic = sum(1 for s in shape if s == DYNAMIC)
    if dynamic == 0 and len(sizes):
        raise VerifyError(f"a static result takes no sizes, got {len(sizes)}")
    if len(sizes) not in (0, dynamic):
        raise VerifyError(f"expected 0 or {dynamic} sizes (one per dynamic result size), got {len(sizes)}")


class ReshapeOp(MlcOp, name="reshape", traits=[ext.Pure]):
    """The same elements in row-major order, viewed with the result's shape.

    `sizes` gives the result's dynamic sizes, one index per `?`, when they cannot be
    told from the input's (`[s, b, 128] -> [s, b * 4, 32]`); with none, each dynamic
    result size must be a dynamic input size, kept or merged with static ones.
    """

    fusion_kind = Declined("a view: IREE's CPU code generation rejects reshapes inside a kernel, so they stay between groups")
    layout_rule = Layout.FIXED

    input: Operand[ir.RankedTensorType]
    sizes: Sequence[Operand[ir.IndexType]]
    result: Result[ir.RankedTensorType]

    def verify(self):
        expect_same_element_type_as_input(self)
        source, target = ranked(self.input, "input").shape, ranked(self.result, "result").shape
        _expect_size_operands(self.sizes, target)
        if DYNAMIC not in source and DYNAMIC not in target and math.prod(source) != math.prod(target):
            raise VerifyError(
                f"cannot reshape {format_shape(source)} ({math.prod(source)} elements) "
                f"to {format_shape(target)} ({math.prod(target)} elements)"
            )


class TransposeOp(MlcOp, name="transpose", traits=[ext.Pure]):
    """Permutes dimensions: `result.shape[i] == input.shape[permutation[i]]`."""

    fusion_kind = FusionKind.INJECTIVE
    layout_rule = Layout.FIXED

    input: Operand[ir.RankedTensorType]
    permutation: Any
    result: Result[ir.RankedTensorType]

    def verify(self):
        input_type = ranked(self.input, "input")
        permutation = i64_array(self, "permutation")
        if sorted(permutation) != list(range(input_type.rank)):
            raise VerifyError(f"permutation {permutation} is not a permutation of {input_type.rank} dimensions")
        expect_shape(self.result, [input_type.shape[p] for p in permutation], "result")
        expect_same_element_type_as_input(self)


class BroadcastOp(MlcOp, name="broadcast", traits=[ext.Pure]):
    """Expands to the result's shape by NumPy rules, as torch's `expand`.

    Dimensions align from the right; an input dimension is 1 or equal to the result's.
    `sizes` gives the result's dynamic sizes, one index per `?`, when an input size of
    1 stretches to one (a mask expanded to the sequence length); with none, each
    dynamic result size is the aligned input size.
    """

    fusion_kind = FusionKind.BROADCAST
    layout_rule = Layout.FIXED

    input: Operand[ir.RankedTensorType]
    sizes: Sequence[Operand[ir.IndexType]]
    result: Result[ir.RankedTensorType]

    def verify(self):
        source, target = ranked(self.input, "input").shape, ranked(self.result, "result").shape
        _expect_size_operands(self.sizes, target)
        if len(source) > len(target):
            raise VerifyError(f"cannot broadcast rank {len(source)} to lower rank {len(target)}")
        for s, t in zip(reversed(source), reversed(target)):
            if s != 1 and not dims_match(s, t):
                raise VerifyError(f"cannot broadcast {format_shape(source)} to {format_shape(target)}")
        expect_same_element_type_as_input(self)


class ConcatOp(MlcOp, name="concat", traits=[ext.Pure]):
    """Joins `lhs` and `rhs` along `axis`; all other dimensions must agree.

    Binary: IRDL gives a variadic operand group a single type, so an n-ary op
    could not join tensors of different lengths. `torch.cat` of n tensors
    becomes a chain, which the lowering writes into one buffer.
    """

    fusion_kind = FusionKind.INJECTIVE
    layout_rule = Layout.FIXED

    lhs: Operand[ir.RankedTensorType]
    rhs: Operand[ir.RankedTensorType]
    axis: ir.IntegerAttr
    result: Result[ir.RankedTensorType]

    def verify(self):
        element_type = expect_same_element_type([self.lhs, self.rhs], "operands")
        lhs, rhs = ranked(self.lhs, "lhs").shape, ranked(self.rhs, "rhs").shape
        if len(lhs) == 0:
            raise VerifyError("operands must have rank >= 1, got rank 0")
        axis = normalize_axis(int_attr(self, "axis"), len(lhs))
        if len(lhs) != len(rhs) or not all(dims_match(a, b) for i, (a, b) in enumerate(zip(lhs, rhs)) if i != axis):
            raise VerifyError(f"operand shapes {format_shape(lhs)} and {format_shape(rhs)} differ off axis {axis}")
        total = DYNAMIC if DYNAMIC in (lhs[axis], rhs[axis]) else lhs[axis] + rhs[axis]
        expect_shape(self.result, lhs[:axis] + [total] + lhs[axis + 1 :], "result")
        expect_element_type(self.result, element_type, "result")


class SliceOp(MlcOp, name="slice", traits=[ext.Pure]):
    """Elements `start[d] <= i < limit[d]` taken every `stride[d]` along each dimension d.

    A limit of `?` (ShapedType's dynamic size) is the next of the index operands
    `limits` (BERT's `position_ids[:, :seq]`), or with none, "to the end".
    """

    fusion_kind = FusionKind.INJECTIVE
    layout_rule = Layout.FIXED

    input: Operand[ir.RankedTensorType]
    limits: Sequence[Operand[ir.IndexType]]
    start: Any
    limit: Any
    stride: Any
    result: Result[ir.RankedTensorType]

    def verify(self):
        input_type = ranked(self.input, "input")
        rank = input_type.rank
        start = i64_array(self, "start", size=rank)
        limit = i64_array(self, "limit", size=rank)
        stride = i64_array(self, "stride", size=rank)
        if len(self.limits) not in (0, limit.count(DYNAMIC)):
            raise VerifyError(f"expected 0 or {limit.count(DYNAMIC)} limits (one per '?' limit), got {len(self.limits)}")
        if self.limits:
            limit = [limit[d] if limit[d] != DYNAMIC else -1 for d in range(rank)]  # given: any size
        shape = []
        for d, (lo, hi, step, size) in enumerate(zip(start, limit, stride, input_type.shape)):
            if hi == -1:  # an index operand: the size is known at run time only
                shape.append(DYNAMIC)
                continue
            to_end = hi == DYNAMIC
            if to_end and size != DYNAMIC:
                hi = size
            if step < 1 or lo < 0 or (not to_end and hi < lo) or (size != DYNAMIC and not lo <= hi <= size):
                shown = lambda n: "?" if n == DYNAMIC else n  # noqa: E731
                raise VerifyError(f"dimension {d}: slice {lo}:{shown(hi)}:{step} is out of bounds for size {shown(size)}")
            shape.append(DYNAMIC if hi == DYNAMIC else -(-(hi - lo) // step))
        expect_shape(self.result, shape, "result")
        expect_same_element_type_as_input(self)


def _input_and_integer_indices(op):
    """The ranked types of a gather's `input` and `indices`; indices must be integers."""
    input_type, indices_type = ranked(op.input, "input"), ranked(op.indices, "indices")
    if not is_integer(indices_type.element_type):
        raise VerifyError(f"indices must be integers, got {indices_type}")
    return input_type, indices_type


class GatherOp(MlcOp, name="gather", traits=[ext.Pure]):
    """Takes slices of `input` along `axis` at `indices` (torch's index_select and embedding).

    `result.shape = input.shape[:axis] + indices.shape + input.shape[axis+1:]`.
    Negative or out-of-range indices are undefined behaviour.
    """

    fusion_kind = FusionKind.INJECTIVE
    layout_rule = Layout.FIXED

    input: Operand[ir.RankedTensorType]
    indices: Operand[ir.RankedTensorType]
    axis: ir.IntegerAttr
    result: Result[ir.RankedTensorType]

    def verify(self):
        input_type, indices_type = _input_and_integer_indices(self)
        axis = normalize_axis(int_attr(self, "axis"), input_type.rank)
        shape = input_type.shape[:axis] + indices_type.shape + input_type.shape[axis + 1 :]
        expect_shape(self.result, shape, "result")
        expect_same_element_type_as_input(self)


class TakeAlongAxisOp(MlcOp, name="take_along_axis", traits=[ext.Pure]):
    """Picks one element of `input` along `axis` per index (torch.gather, NumPy's
    take_along_axis): `result[i, j, k] = input[i, indices[i, j, k], k]` for axis 1.

    `indices` has the rank of `input` and the result's shape; outside `axis` its
    sizes may not exceed the input's. Out-of-range indices are undefined behaviour.
    """

    fusion_kind = FusionKind.INJECTIVE
    layout_rule = Layout.FIXED

    input: Operand[ir.RankedTensorType]
    indices: Operand[ir.RankedTensorType]
    axis: ir.IntegerAttr
    result: Result[ir.RankedTensorType]

    def verify(self):
        input_type, indices_type = _input_and_integer_indices(self)
        if indices_type.rank != input_type.rank:
            raise VerifyError(f"indices must have the input's rank {input_type.rank}, got {indices_type}")
        axis = normalize_axis(int_attr(self, "axis"), input_type.rank)
        for d, (size, limit) in enumerate(zip(indices_type.shape, input_type.shape)):
            if d != axis and DYNAMIC not in (size, limit) and size > limit:
                raise VerifyError(f"indices dimension {d} ({size}) exceeds the input's ({limit})")
        expect_shape(self.result, indices_type.shape, "result")
        expect_same_element_type_as_input(self)


class PadOp(MlcOp, name="pad", traits=[ext.Pure]):
    """Pads each dimension with `low[d]` and `high[d]` copies of the constant `value`."""

    fusion_kind = FusionKind.INJECTIVE
    layout_rule = Layout.FIXED

    input: Operand[ir.RankedTensorType]
    low: Any
    high: Any
    value: ir.FloatAttr
    result: Result[ir.RankedTensorType]

    def verify(self):
        input_type = ranked(self.input, "input")
        low = i64_array(self, "low", size=input_type.rank)
        high = i64_array(self, "high", size=input_type.rank)
        if min(low + high, default=0) < 0:
            raise VerifyError(f"padding must not be negative, got low {low} and high {high}")
        float_attr(self, "value")
        shape = [d if d == DYNAMIC else d + lo + hi for d, lo, hi in zip(input_type.shape, low, high)]
        expect_shape(self.result, shape, "result")
        expect_same_element_type_as_input(self)


class Im2colOp(MlcOp, name="im2col", traits=[ext.Pure]):
    """The windows of a convolution, one row each: an NHWC input [N, H, W, C] becomes
    [N, OH, OW, KH * KW * C], where row (n, oh, ow) holds the window at output
    position (oh, ow) in (kh, kw, c) order, zeros where it covers padding.

    A convolution with an HWCF weight is then a matmul of these rows with the weight
    viewed as [KH * KW * C, F]. Attributes as mlc.conv2d's: `kernel` [KH, KW],
    `stride`, `padding` [top, bottom, left, right] and `dilation`.
    """

    fusion_kind = FusionKind.INJECTIVE
    layout_rule = Layout.FIXED

    input: Operand[ir.RankedTensorType]
    kernel: Any
    stride: Any
    padding: Any
    dilation: Any
    result: Result[ir.RankedTensorType]

    def verify(self):
        input_type = ranked(self.input, "input")
        if input_type.rank != 4:
            raise VerifyError(f"input must be NHWC (rank 4), got rank {input_type.rank}")
        kernel = i64_array(self, "kernel", size=2)
        if min(kernel) < 1:
            raise VerifyError(f"kernel sizes must be positive, got {kernel}")
        stride, padding, dilation = window_attributes(self)
        n, h, w, c = input_type.shape
        if DYNAMIC in (h, w, c):
            raise VerifyError("only the batch dimension may be dynamic")
        out = [window_output_size(size, k, s, padding[2 * axis], padding[2 * axis + 1], d)
               for axis, (size, k, s, d) in enumerate(zip((h, w), kernel, stride, dilation))]
        expect_shape(self.result, [n, *out, kernel[0] * kernel[1] * c], "result")
        expect_same_element_type_as_input(self)
