"""Compute ops: matmul, conv2d, conv3d, 2-D pooling and N-D pooling.

Convolution and pooling carry a `layout` attribute. With "NCHW" the input is
N×C×H×W and the conv weight F×C×KH×KW (torch's layout); with "NHWC" the input is
N×H×W×C and the weight KH×KW×C×F. `padding` is `[top, bottom, left, right]`.
"""

import math
from typing import Any

from torch_mlir import ir
from torch_mlir.dialects import ext
from torch_mlir.dialects.ext import Operand, Result

from .facts import Declined, FusionKind, Layout
from .op_base import (
    DYNAMIC,
    MlcOp,
    VerifyError,
    bool_attr,
    broadcast_shapes,
    dims_match,
    expect_element_type,
    expect_same_element_type,
    expect_shape,
    float_attr,
    format_shape,
    i64_array,
    int_attr,
    ranked,
    shapes_match,
    string_choice,
)

LAYOUTS = ("NCHW", "NHWC")


def matmul_result_shape(lhs_shape, rhs_shape) -> list[int]:
    """[..., M, K] x [..., K, N] -> [broadcast(...), M, N]; VerifyError otherwise."""
    if len(lhs_shape) < 2 or len(rhs_shape) < 2:
        raise VerifyError(f"operands must have rank >= 2, got ranks {len(lhs_shape)} and {len(rhs_shape)}")
    if not dims_match(lhs_shape[-1], rhs_shape[-2]):
        raise VerifyError(
            f"contracting dimensions differ: lhs {format_shape(lhs_shape)} and rhs {format_shape(rhs_shape)}"
        )
    batch = broadcast_shapes(lhs_shape[:-2], rhs_shape[:-2])
    if batch is None:
        raise VerifyError(
            f"batch dimensions {format_shape(lhs_shape[:-2])} and {format_shape(rhs_shape[:-2])} do not broadcast"
        )
    return batch + [lhs_shape[-2], rhs_shape[-1]]


# Operand and result element types of the matmuls that sum in a wider type.
WIDENING_PRODUCTS = {("bf16", "f32"), ("i8", "i32")}


def contraction_flops(lhs: ir.Value, result: ir.Value) -> int | None:
    """2 x the multiply-adds of a product over lhs's last dimension; None when a size is dynamic."""
    if not (result.type.has_static_shape and lhs.type.has_static_shape):
        return None
    return 2 * math.prod(result.type.shape) * lhs.type.shape[-1]


class MatmulOp(MlcOp, name="matmul", traits=[ext.Pure]):
    """Matrix product over the last two dimensions; leading batch dimensions broadcast.
    The result has the operands' element type, except that bf16 operands may give an
    f32 result and i8 operands an i32 one: the products are summed in the wider type
    (mlc-reduce-precision, mlc-quantize-int8)."""

    fusion_kind = FusionKind.OUT_ELEMENTWISE_FUSABLE
    layout_rule = Layout.FIXED

    lhs: Operand[ir.RankedTensorType]
    rhs: Operand[ir.RankedTensorType]
    result: Result[ir.RankedTensorType]

    def flops(self) -> int | None:
        return contraction_flops(self.lhs, self.result)

    def verify(self):
        element_type = expect_same_element_type([self.lhs, self.rhs], "operands")
        shape = matmul_result_shape(ranked(self.lhs, "lhs").shape, ranked(self.rhs, "rhs").shape)
        expect_shape(self.result, shape, "result")
        if (str(element_type), str(self.result.type.element_type)) not in WIDENING_PRODUCTS:
            expect_element_type(self.result, element_type, "result")


class QuantizedMatmulOp(MlcOp, name="quantized_matmul", traits=[ext.Pure]):
    """`lhs` [M, K] times an int8 `weight` [K, N] with a scale per column: each row of
    `lhs` quantized at run time (sx = max|row| / 127, q = round(row / sx) in -127..127),
    summed in int32, then times sx and the column's `scale` (mlc-quantize-int8, for a
    single row, an LLM's decode step, and for several where MKL's int8 runs on AMX). One
    op, so that the matmul library runs it in one call, quantizing the rows itself;
    IREE's kernel gets the steps as separate linalg ops."""

    fusion_kind = Declined("its lowering is a reduction, then a matmul, which the matmul library takes whole "
                           "(passes/library_matmuls.py)")
    layout_rule = Layout.FIXED

    lhs: Operand[ir.RankedTensorType]
    weight: Operand[ir.RankedTensorType]
    scale: Operand[ir.RankedTensorType]
    result: Result[ir.RankedTensorType]

    def flops(self) -> int | None:
        return contraction_flops(self.lhs, self.result)

    def verify(self):
        lhs, weight, scale = ranked(self.lhs, "lhs"), ranked(self.weight, "weight"), ranked(self.scale, "scale")
        if lhs.rank != 2 or str(lhs.element_type) != "f32":
            raise VerifyError(f"lhs must be f32 rows [M, K], got {lhs}")
        if weight.rank != 2 or str(weight.element_type) != "i8" or weight.shape[0] != lhs.shape[1]:
            raise VerifyError(f"weight must be int8 [K, N] with K = {lhs.shape[1]}, got {weight}")
        if scale.rank != 1 or str(scale.element_type) != "f32" or scale.shape[0] != weight.shape[1]:
            raise VerifyError(f"scale must be f32 [N] with N = {weight.shape[1]}, got {scale}")
        expect_shape(self.result, [lhs.shape[0], weight.shape[1]], "result")
        expect_element_type(self.result, lhs.element_type, "result")


def fold_runs(sizes: list[int], strides: list[int]) -> list[int] | None:
    """[heads per outer index, stride per outer index, stride per head] of batch dimensions
    `sizes` read with `strides`, where the head's linear index splits into outer index and
    head: the dimensions fold into at most two runs, each broadcast (stride 0) or evenly
    spaced. None for more."""
    runs = []  # (size, stride of its last dimension) of runs of batch dimensions read alike
    for size, stride in zip(sizes, strides):
        if size == 1:  # one index: read at no offset
            continue
        if runs and ((stride == 0 and runs[-1][1] == 0) or (stride and runs[-1][1] == stride * size)):
            runs[-1] = (runs[-1][0] * size, stride)
        else:
            runs.append((size, stride))
    if len(runs) > 2:
        return None
    outer_stride = runs[0][1] if runs else 0
    heads, head_stride = runs[1] if len(runs) == 2 else (1, 0)
    return [heads, outer_stride, head_stride]


def mask_strides(mask_shape: list[int], scores_shape: list[int]) -> list[int] | None:
    """How the plugin reads a contiguous mask that broadcasts to the scores [..., M, N]:
    `fold_runs` of its batch dimensions, then its strides per row and per column. None when
    the batch dimensions do not fold into two runs (then the op is not formed)."""
    rank = len(scores_shape)
    shape = [1] * (rank - len(mask_shape)) + list(mask_shape)
    strides, step = [], 1
    for size in reversed(shape):
        strides.insert(0, 0 if size == 1 else step)
        step *= size
    runs = fold_runs(scores_shape[:-2], strides[:-2])
    return None if runs is None else [*runs, strides[-2], strides[-1]]


# An operand's view (`views` of mlc.attention): where head h's row i starts in its
# source, `offset + (h / heads) * outer_stride + (h % heads) * head_stride + i * row_stride`,
# its elements one apart.
VIEW_FIELDS = ("offset", "heads", "outer_stride", "head_stride", "row_stride")


def dense_view(shape: list[int]) -> list[int]:
    """The view of a contiguous operand [*batch, rows, columns] (VIEW_FIELDS)."""
    rows, columns = shape[-2:]
    return [0, 1, rows * columns, 0, columns]


def _view_end(view: list[int], heads: int, rows: int, columns: int) -> int:
    """One past the last element a view reads."""
    offset, inner, outer_stride, head_stride, row_stride = view
    if min(heads, rows, columns) == 0:
        return 0
    return offset + (heads // inner - 1) * outer_stride + (inner - 1) * head_stride + (rows - 1) * row_stride + columns


class AttentionOp(MlcOp, name="attention", traits=[ext.Pure]):
    """`softmax(query @ key^T * scale + mask) @ value` over the last two dimensions:
    query [..., M, D], key [..., N, D], value [..., N, Dv] with equal batch dimensions,
    and an additive f32 `mask` that broadcasts to the scores [..., M, N] (a 0-d zero
    for none). With `zero_masked_rows`, a query whose scores (the mask added) are all
    -inf gets zero weights (torch's attention), where softmax alone gives NaN. With
    `zero_masked_tail`, the keys and values past the last key any query attends to are
    promised zeros (a generator's cache slots not yet written: mlc-form-attention's
    `zero-masked-tail`), and the plugin does not read them: a decode step then reads the
    cache up to its position, not its capacity. With
    `bf16_products` (precision bf16), its two products multiply bf16 and sum in f32, as
    mlc-reduce-precision makes every matmul; softmax stays f32. Formed from its steps
    by `mlc-form-attention`, so that one kernel computes a head's scores, softmax and
    output while they sit in cache; with `library`, mlc's matmul plugin runs it."""

    fusion_kind = Declined("its lowering is two matmuls around a softmax, which mlc's matmul plugin runs whole "
                           "(passes/form_attention.py)")
    layout_rule = Layout.FIXED

    query: Operand[ir.RankedTensorType]
    key: Operand[ir.RankedTensorType]
    value: Operand[ir.RankedTensorType]
    mask: Operand[ir.RankedTensorType]
    scale: ir.FloatAttr
    zero_masked_rows: Any
    library: Any
    views: Any
    bf16_products: Any
    zero_masked_tail: Any
    result: Result[ir.RankedTensorType]

    def sizes(self) -> tuple[list[int], int, int, int, int]:
        """(batch dimensions, M, N, D, Dv)."""
        views = i64_array(self, "views")
        *batch, m, dv = self.result.type.shape
        if views:
            return batch, m, views[0], views[1], dv
        return batch, m, self.key.type.shape[-2], self.query.type.shape[-1], dv

    def flops(self) -> int | None:
        if not self.result.type.has_static_shape or not all(v.type.has_static_shape for v in (self.query, self.key)):
            return None
        batch, m, n, d, dv = self.sizes()
        return 2 * math.prod(batch) * m * n * (d + dv)

    def verify(self):
        element_type = expect_same_element_type([self.query, self.key, self.value, self.mask], "operands")
        bool_attr(self, "bf16_products")
        bool_attr(self, "zero_masked_tail")
        if i64_array(self, "views"):
            return self._verify_views(element_type)
        query, key, value = ranked(self.query, "query"), ranked(self.key, "key"), ranked(self.value, "value")
        if query.rank < 2 or key.rank != query.rank or value.rank != query.rank:
            raise VerifyError(f"query, key and value must have one rank >= 2, got {query}, {key} and {value}")
        batch, (m, d), (n, dk), (nv, dv) = query.shape[:-2], query.shape[-2:], key.shape[-2:], value.shape[-2:]
        if not (shapes_match(key.shape[:-2], batch) and shapes_match(value.shape[:-2], batch)):
            raise VerifyError(f"batch dimensions differ: {query}, {key} and {value}")
        if not (dims_match(d, dk) and dims_match(n, nv)):
            raise VerifyError(f"key must be [..., N, D] with query's D and value [..., N, Dv] with key's N, got {key} and {value}")
        scores = [*batch, m, n]
        mask = ranked(self.mask, "mask")
        if mask.rank > len(scores) or broadcast_shapes(mask.shape, scores) != scores:
            raise VerifyError(f"mask {mask} does not broadcast to the scores {format_shape(scores)}")
        float_attr(self, "scale")
        if bool_attr(self, "library"):
            if not all(v.type.has_static_shape for v in (self.query, self.key, self.value, self.mask)):
                raise VerifyError("on the library (library = true), the operands' shapes must be static")
            if mask_strides(list(mask.shape), scores) is None:
                raise VerifyError(f"on the library (library = true), the mask's batch dimensions must fold into two "
                                  f"runs of broadcast or contiguous ones; {mask} over {format_shape(scores)} does not")
        expect_shape(self.result, [*batch, m, dv], "result")
        expect_element_type(self.result, element_type, "result")

    def _verify_views(self, element_type):
        """With `views` ([N, D], then VIEW_FIELDS for the query, key and value: see
        mlc-attention-views), the three operands are the tensors the views read, and the
        result gives the batch dimensions, M and Dv."""
        views, result = i64_array(self, "views"), ranked(self.result, "result")
        if not bool_attr(self, "library"):
            raise VerifyError("views are read by the library only (library = true)")
        if len(views) != 2 + 3 * len(VIEW_FIELDS) or result.rank < 2 or not result.has_static_shape:
            raise VerifyError(f"views must hold N, D and {len(VIEW_FIELDS)} fields for each of query, key and value "
                              f"({2 + 3 * len(VIEW_FIELDS)} values), with a static result of rank >= 2")
        batch, m, n, d, dv = self.sizes()
        heads = math.prod(batch)
        for i, (name, operand, rows, columns) in enumerate(
                (("query", self.query, m, d), ("key", self.key, n, d), ("value", self.value, n, dv))):
            view = views[2 + i * len(VIEW_FIELDS): 2 + (i + 1) * len(VIEW_FIELDS)]
            source = ranked(operand, name)
            if not source.has_static_shape or min(view) < 0 or view[1] < 1 or heads % view[1]:
                raise VerifyError(f"{name}'s view {view} of {source} is not one of {heads} heads")
            if _view_end(view, heads, rows, columns) > math.prod(source.shape):
                raise VerifyError(f"{name}'s view {view} reads past the end of {source}")
        mask = ranked(self.mask, "mask")
        if mask_strides(list(mask.shape), [*batch, m, n]) is None:
            raise VerifyError(f"the mask {mask} does not broadcast to the scores {format_shape([*batch, m, n])} "
                              "in two runs")
        expect_element_type(self.result, element_type, "result")


def window_output_size(size, kernel, stride, pad_low, pad_high, dilation, ceil_mode=False) -> int:
    """Output length of a sliding window, as torch computes it."""
    if size == DYNAMIC or kernel == DYNAMIC:
        return DYNAMIC
    span = size + pad_low + pad_high - dilation * (kernel - 1) - 1
    if span < 0:
        raise VerifyError(f"window of size {kernel} (dilation {dilation}) does not fit input size {size} with padding")
    out = -(-span // stride) + 1 if ceil_mode else span // stride + 1
    if ceil_mode and (out - 1) * stride >= size + pad_low:
        out -= 1  # torch: the last window must start inside the input or left padding
    return out


def spatial_dims(shape, layout) -> tuple[int, int, int, int]:
    """(N, C, H, W) of an activation in `layout`."""
    if layout == "NCHW":
        n, c, h, w = shape
    else:
        n, h, w, c = shape
    return n, c, h, w


def activation_shape(n, c, h, w, layout) -> list[int]:
    return [n, c, h, w] if layout == "NCHW" else [n, h, w, c]


def window_attributes(op, *, dilation=True):
    """stride, padding and dilation attributes, checked for sign and size."""
    stride = i64_array(op, "stride", size=2)
    padding = i64_array(op, "padding", size=4)
    dilations = i64_array(op, "dilation", size=2) if dilation else [1, 1]
    if min(stride) < 1 or min(dilations) < 1:
        raise VerifyError("stride and dilation must be positive")
    if min(padding) < 0:
        raise VerifyError(f"padding must not be negative, got {list(padding)}")
    return stride, padding, dilations


class Conv2dOp(MlcOp, name="conv2d", traits=[ext.Pure]):
    """2-D convolution (cross-correlation, as torch), with an optional per-channel bias.

    Attributes: `stride` [sh, sw], `padding` [top, bottom, left, right],
    `dilation` [dh, dw], `groups` (i64), `layout` "NCHW" or "NHWC".
    """

    fusion_kind = FusionKind.OUT_ELEMENTWISE_FUSABLE
    layout_rule = Layout.FIXED

    input: Operand[ir.RankedTensorType]
    weight: Operand[ir.RankedTensorType]
    stride: Any
    padding: Any
    dilation: Any
    groups: ir.IntegerAttr
    layout: ir.StringAttr
    result: Result[ir.RankedTensorType]
    bias: Operand[ir.RankedTensorType] | None = None

    def flops(self) -> int | None:
        """2 x the multiply-adds of one run (per output element, each window position of
        its group's input channels); None when a size is dynamic."""
        weight = self.weight.type
        if not (self.result.type.has_static_shape and weight.has_static_shape):
            return None
        if self.attributes["layout"].value == "NCHW":  # F x C x KH x KW
            window, channels = weight.shape[2:], weight.shape[1]
        else:  # KH x KW x C x F
            window, channels = weight.shape[:2], weight.shape[2]
        return 2 * math.prod(self.result.type.shape) * channels * math.prod(window)

    def verify(self):
        layout = string_choice(self, "layout", LAYOUTS)
        stride, padding, dilation = window_attributes(self)
        groups = int_attr(self, "groups")
        operands = [self.input, self.weight] + ([self.bias] if self.bias is not None else [])
        element_type = expect_same_element_type(operands, "input, weight and bias")
        input_type, weight_type = ranked(self.input, "input"), ranked(self.weight, "weight")
        if input_type.rank != 4 or weight_type.rank != 4:
            raise VerifyError(f"input and weight must have rank 4, got {input_type.rank} and {weight_type.rank}")
        n, c, h, w = spatial_dims(input_type.shape, layout)
        if layout == "NCHW":
            f, wc, kh, kw = weight_type.shape
        else:
            kh, kw, wc, f = weight_type.shape
        if groups < 1 or (c != DYNAMIC and c % groups) or (f != DYNAMIC and f % groups):
            raise VerifyError(f"groups {groups} must divide input channels {'?' if c == DYNAMIC else c} and output channels {f}")
        if not dims_match(c, DYNAMIC if wc == DYNAMIC else wc * groups):
            raise VerifyError(f"input has {c} channels but weight expects {wc * groups} ({wc} per group x {groups} groups)")
        if self.bias is not None:
            expect_shape(self.bias, [f], "bias")
        oh = window_output_size(h, kh, stride[0], padding[0], padding[1], dilation[0])
        ow = window_output_size(w, kw, stride[1], padding[2], padding[3], dilation[1])
        expect_shape(self.result, activation_shape(n, f, oh, ow, layout), "result")
        expect_element_type(self.result, element_type, "result")


class PoolOp(MlcOp):
    """Base of 2-D pooling ops: `kernel` [kh, kw], `stride`, `padding` [t, b, l, r], `ceil_mode`."""

    fusion_kind = FusionKind.OUT_ELEMENTWISE_FUSABLE
    layout_rule = Layout.FIXED

    has_dilation = False

    def verify(self):
        layout = string_choice(self, "layout", LAYOUTS)
        kernel = i64_array(self, "kernel", size=2)
        stride, padding, dilation = window_attributes(self, dilation=self.has_dilation)
        if min(kernel) < 1:
            raise VerifyError(f"kernel must be positive, got {kernel}")
        if max(padding[:2]) > kernel[0] // 2 or max(padding[2:]) > kernel[1] // 2:
            raise VerifyError(f"padding {padding} must be at most half the kernel {kernel}")
        ceil_mode = bool_attr(self, "ceil_mode")
        input_type = ranked(self.input, "input")
        if input_type.rank != 4:
            raise VerifyError(f"input must have rank 4, got {input_type.rank}")
        n, c, h, w = spatial_dims(input_type.shape, layout)
        oh = window_output_size(h, kernel[0], stride[0], padding[0], padding[1], dilation[0], ceil_mode)
        ow = window_output_size(w, kernel[1], stride[1], padding[2], padding[3], dilation[1], ceil_mode)
        expect_shape(self.result, activation_shape(n, c, oh, ow, layout), "result")
        expect_element_type(self.result, input_type.element_type, "result")


class MaxPool2dOp(PoolOp, name="max_pool2d", traits=[ext.Pure]):
    """Maximum over each window; padding never wins (it counts as -inf)."""

    has_dilation = True
    input: Operand[ir.RankedTensorType]
    kernel: Any
    stride: Any
    padding: Any
    dilation: Any
    ceil_mode: Any
    layout: ir.StringAttr
    result: Result[ir.RankedTensorType]


class AvgPool2dOp(PoolOp, name="avg_pool2d", traits=[ext.Pure]):
    """Mean over each window; `count_include_pad` says whether padding counts in the divisor."""

    input: Operand[ir.RankedTensorType]
    kernel: Any
    stride: Any
    padding: Any
    ceil_mode: Any
    count_include_pad: Any
    layout: ir.StringAttr
    result: Result[ir.RankedTensorType]

    def verify(self):
        super().verify()
        bool_attr(self, "count_include_pad")


# --- N-D windows: 3-D convolution, pooling of any spatial rank ------------------------------
#
# These ops have no `layout`: the input is N x C x spatial... (torch's layout) and
# `mlc-convert-layout` leaves them alone (Layout.FIXED). `padding` holds a
# [low, high] pair per spatial axis, in order, as conv2d's [top, bottom, left, right].


def nd_window_attributes(op, rank, *, dilation=True):
    """stride, padding and dilation of an op over `rank` spatial axes, checked."""
    stride = i64_array(op, "stride", size=rank)
    padding = i64_array(op, "padding", size=2 * rank)
    dilations = i64_array(op, "dilation", size=rank) if dilation else [1] * rank
    if min(stride) < 1 or min(dilations) < 1:
        raise VerifyError("stride and dilation must be positive")
    if min(padding) < 0:
        raise VerifyError(f"padding must not be negative, got {list(padding)}")
    return stride, padding, dilations


class Conv3dOp(MlcOp, name="conv3d", traits=[ext.Pure]):
    """3-D convolution (cross-correlation, as torch) of an N x C x D x H x W input with an
    F x C/groups x KD x KH x KW weight, and an optional per-channel bias.

    Attributes: `stride` [sd, sh, sw], `padding` [front, back, top, bottom, left, right],
    `dilation` [dd, dh, dw], `groups` (i64; groups == C == F is depthwise).
    """

    fusion_kind = FusionKind.OUT_ELEMENTWISE_FUSABLE
    layout_rule = Layout.FIXED  # no NDHWC form: a transpose stops here

    input: Operand[ir.RankedTensorType]
    weight: Operand[ir.RankedTensorType]
    stride: Any
    padding: Any
    dilation: Any
    groups: ir.IntegerAttr
    result: Result[ir.RankedTensorType]
    bias: Operand[ir.RankedTensorType] | None = None

    def flops(self) -> int | None:
        weight = self.weight.type
        if not (self.result.type.has_static_shape and weight.has_static_shape):
            return None
        return 2 * math.prod(self.result.type.shape) * math.prod(weight.shape[1:])

    def verify(self):
        stride, padding, dilation = nd_window_attributes(self, 3)
        groups = int_attr(self, "groups")
        operands = [self.input, self.weight] + ([self.bias] if self.bias is not None else [])
        element_type = expect_same_element_type(operands, "input, weight and bias")
        input_type, weight_type = ranked(self.input, "input"), ranked(self.weight, "weight")
        if input_type.rank != 5 or weight_type.rank != 5:
            raise VerifyError(f"input and weight must have rank 5, got {input_type.rank} and {weight_type.rank}")
        n, c, *spatial = input_type.shape
        f, wc, *kernel = weight_type.shape
        if groups < 1 or (c != DYNAMIC and c % groups) or (f != DYNAMIC and f % groups):
            raise VerifyError(f"groups {groups} must divide input channels {'?' if c == DYNAMIC else c} and output channels {f}")
        if not dims_match(c, DYNAMIC if wc == DYNAMIC else wc * groups):
            raise VerifyError(f"input has {c} channels but weight expects {wc * groups} ({wc} per group x {groups} groups)")
        if self.bias is not None:
            expect_shape(self.bias, [f], "bias")
        out = [window_output_size(s, k, stride[i], padding[2 * i], padding[2 * i + 1], dilation[i])
               for i, (s, k) in enumerate(zip(spatial, kernel))]
        expect_shape(self.result, [n, f, *out], "result")
        expect_element_type(self.result, element_type, "result")


class PoolNdOp(MlcOp):
    """Base of pooling over 1 to 3 spatial axes of an N x C x spatial... input:
    `kernel`, `stride`, `padding` ([low, high] per axis), `ceil_mode`."""

    fusion_kind = FusionKind.OUT_ELEMENTWISE_FUSABLE
    layout_rule = Layout.FIXED  # no channels-last form: a transpose stops here

    has_dilation = True

    def spatial_rank(self) -> int:
        return ranked(self.input, "input").rank - 2

    def result_element_type(self, input_type):
        return input_type.element_type

    def verify(self):
        input_type = ranked(self.input, "input")
        rank = input_type.rank - 2
        if rank not in (1, 2, 3):
            raise VerifyError(f"input must have rank 3, 4 or 5, got {input_type.rank}")
        kernel = i64_array(self, "kernel", size=rank)
        stride, padding, dilation = nd_window_attributes(self, rank, dilation=self.has_dilation)
        if min(kernel) < 1:
            raise VerifyError(f"kernel must be positive, got {kernel}")
        for i in range(rank):
            if max(padding[2 * i : 2 * i + 2]) > ((kernel[i] - 1) * dilation[i] + 1) // 2:
                raise VerifyError(f"padding {padding} must be at most half the (dilated) kernel {kernel}")
        ceil_mode = bool_attr(self, "ceil_mode")
        n, c, *spatial = input_type.shape
        out = [window_output_size(s, kernel[i], stride[i], padding[2 * i], padding[2 * i + 1], dilation[i], ceil_mode)
               for i, s in enumerate(spatial)]
        expect_shape(self.result, [n, c, *out], "result")
        expect_element_type(self.result, self.result_element_type(input_type), "result")


class MaxPoolNdOp(PoolNdOp, name="max_pool_nd", traits=[ext.Pure]):
    """Maximum over each window (NaN wins); padding never wins."""

    input: Operand[ir.RankedTensorType]
    kernel: Any
    stride: Any
    padding: Any
    dilation: Any
    ceil_mode: Any
    result: Result[ir.RankedTensorType]


class MaxPoolIndicesOp(PoolNdOp, name="max_pool_indices", traits=[ext.Pure]):
    """The i64 position of each window's maximum as torch's max_pool*d_with_indices
    gives it: the flat index into the input's spatial plane (d * H * W + h * W + w),
    the first of equal maxima, the last of NaNs. Pair it with `mlc.max_pool_nd` (or
    `mlc.max_pool2d`) for the values."""

    fusion_kind = FusionKind.OPAQUE  # an arg-reduction: left out of fusion groups
    input: Operand[ir.RankedTensorType]
    kernel: Any
    stride: Any
    padding: Any
    dilation: Any
    ceil_mode: Any
    result: Result[ir.RankedTensorType]

    def result_element_type(self, input_type):
        return ir.IntegerType.get_signless(64, context=self.operation.context)


class AvgPoolNdOp(PoolNdOp, name="avg_pool_nd", traits=[ext.Pure]):
    """Mean over each window, in the input's type (integers divide with truncation, as
    torch). The divisor is `divisor` when it is not 0 (torch's divisor_override),
    else the window clipped to the padded input (`count_include_pad`) or to the input."""

    has_dilation = False
    input: Operand[ir.RankedTensorType]
    kernel: Any
    stride: Any
    padding: Any
    ceil_mode: Any
    count_include_pad: Any
    divisor: ir.IntegerAttr
    result: Result[ir.RankedTensorType]

    def verify(self):
        super().verify()
        bool_attr(self, "count_include_pad")
        if int_attr(self, "divisor") < 0:
            raise VerifyError(f"divisor must not be negative, got {int_attr(self, 'divisor')}")
