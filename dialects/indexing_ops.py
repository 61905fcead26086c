"""Ops that compute positions: argmax and argmin along an axis, and argsort;
the op that writes at positions, scatter; and bincount, which counts at the
positions its input's values name.

Their results are integer tensors of indices into the input, which
`mlc.take_along_axis` or `mlc.gather` then read through, and `mlc.scatter`
writes through.
"""

from typing import Any

from torch_mlir import ir
from torch_mlir.dialects import ext
from torch_mlir.dialects.ext import Operand, Result

from .facts import FusionKind, Layout
from .op_base import (
    DYNAMIC,
    MlcOp,
    VerifyError,
    bool_attr,
    expect_element_type,
    expect_shape,
    int_attr,
    is_integer,
    normalize_axis,
    ranked,
    string_choice,
)
from .reduction_ops import reduced_shape


def expect_index_result(op) -> None:
    element_type = ranked(op.result, "result").element_type
    if not is_integer(element_type) or ir.IntegerType(element_type).width == 1:
        raise VerifyError(f"result must hold integer indices, got {element_type}")


class ArgReductionOp(MlcOp):
    """Base of argmax and argmin: the index along `axis` of the extreme element;
    the first one among ties, and the first NaN if there is one (as torch)."""

    fusion_kind = FusionKind.REDUCTION
    layout_rule = Layout.FIXED

    def verify(self):
        input_type = ranked(self.input, "input")
        if input_type.rank == 0:
            raise VerifyError("input must have rank >= 1, got rank 0")
        axis = normalize_axis(int_attr(self, "axis"), input_type.rank)
        expect_shape(self.result, reduced_shape(input_type.shape, [axis], bool_attr(self, "keepdim")), "result")
        expect_index_result(self)


class ArgmaxOp(ArgReductionOp, name="argmax", traits=[ext.Pure]):
    """The index of the largest element along `axis` (torch.argmax, the indices of torch.max(x, dim))."""

    input: Operand[ir.RankedTensorType]
    axis: ir.IntegerAttr
    keepdim: Any
    result: Result[ir.RankedTensorType]


class ArgminOp(ArgReductionOp, name="argmin", traits=[ext.Pure]):
    """The index of the smallest element along `axis` (torch.argmin, the indices of torch.min(x, dim))."""

    input: Operand[ir.RankedTensorType]
    axis: ir.IntegerAttr
    keepdim: Any
    result: Result[ir.RankedTensorType]


class ArgsortOp(MlcOp, name="argsort", traits=[ext.Pure]):
    """The indices that sort `input` along `axis`, ascending or (`descending`)
    descending; stable, so equal elements keep their order.

    The sorted values are `mlc.take_along_axis(input, argsort, axis)`; topk is a
    slice of both.
    """

    fusion_kind = FusionKind.OPAQUE
    layout_rule = Layout.FIXED

    input: Operand[ir.RankedTensorType]
    axis: ir.IntegerAttr
    descending: Any
    result: Result[ir.RankedTensorType]

    def verify(self):
        input_type = ranked(self.input, "input")
        if input_type.rank == 0:
            raise VerifyError("input must have rank >= 1, got rank 0")
        normalize_axis(int_attr(self, "axis"), input_type.rank)
        bool_attr(self, "descending")
        expect_shape(self.result, input_type.shape, "result")
        expect_index_result(self)


SCATTER_COMBINES = ("replace", "add", "mul", "max", "min")


class ScatterOp(MlcOp, name="scatter", traits=[ext.Pure]):
    """Writes `updates` into a copy of `input` at positions: row n of `indices`
    ([N, K], integers) names a position in the first K dims of input, and
    `updates[n]` (shape input.shape[K:]) combines with what is there by `combine`:
    "replace" (the update wins; which of duplicate indices wins is undefined),
    "add", "mul", "max" or "min" (every update at a position takes part).

    torch's index_put, index_add, scatter and scatter_reduce. Negative or
    out-of-range indices are undefined behaviour.
    """

    fusion_kind = FusionKind.OPAQUE
    layout_rule = Layout.FIXED

    input: Operand[ir.RankedTensorType]
    indices: Operand[ir.RankedTensorType]
    updates: Operand[ir.RankedTensorType]
    combine: ir.StringAttr
    result: Result[ir.RankedTensorType]

    def verify(self):
        input_type, indices_type = ranked(self.input, "input"), ranked(self.indices, "indices")
        if not is_integer(indices_type.element_type):
            raise VerifyError(f"indices must be integers, got {indices_type}")
        if indices_type.rank != 2 or indices_type.shape[1] == DYNAMIC:
            raise VerifyError(f"indices must have shape [N, K] with a static K, got {indices_type}")
        depth = indices_type.shape[1]
        if not 1 <= depth <= input_type.rank:
            raise VerifyError(f"indices address {depth} dims, expected 1 to the input's rank {input_type.rank}")
        expect_shape(self.updates, [indices_type.shape[0]] + list(input_type.shape[depth:]), "updates")
        expect_element_type(self.updates, input_type.element_type, "updates")
        string_choice(self, "combine", SCATTER_COMBINES)
        expect_shape(self.result, input_type.shape, "result")
        expect_element_type(self.result, input_type.element_type, "result")


class BincountOp(MlcOp, name="bincount", traits=[ext.Pure]):
    """How often each value 0, 1, ..., n-1 occurs in the 1-D integer `input`, or, with
    `weights` (input's shape, the result's element type), the sum of the weights of
    its occurrences (torch.bincount). n = max(max(input) + 1, `minlength`); minlength
    when the input is empty. n depends on the input's values, so the result is 1-D
    of a dynamic length, known at run time only.

    torch raises on a negative value; mlc's compiled code cannot raise at run time,
    so negative values are not counted (and do not lengthen the result). A very large
    value asks for a result that large, as in torch: the allocation fails at run time.
    """

    fusion_kind = FusionKind.OPAQUE
    layout_rule = Layout.FIXED

    input: Operand[ir.RankedTensorType]
    minlength: ir.IntegerAttr
    result: Result[ir.RankedTensorType]
    weights: Operand[ir.RankedTensorType] | None = None

    def verify(self):
        input_type = ranked(self.input, "input")
        if input_type.rank != 1 or not _counting_integer(input_type.element_type):
            raise VerifyError(f"input must be a 1-D tensor of integers (not booleans), got {input_type}")
        if int_attr(self, "minlength") < 0:
            raise VerifyError(f"minlength must be >= 0, got {int_attr(self, 'minlength')}")
        result_type = ranked(self.result, "result")
        if list(result_type.shape) != [DYNAMIC]:
            raise VerifyError(f"result must be 1-D of dynamic length (it depends on the input's values), got {result_type}")
        if self.weights is None and not _counting_integer(result_type.element_type):
            raise VerifyError(f"result must hold integer counts when there are no weights, got {result_type.element_type}")
        if self.weights is not None:
            expect_shape(self.weights, input_type.shape, "weights")
            expect_element_type(self.weights, result_type.element_type, "weights")


def _counting_integer(type_: ir.Type) -> bool:
    return is_integer(type_) and ir.IntegerType(type_).width > 1
