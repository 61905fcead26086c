"""Ops that compute positions: argmax and argmin along an axis, and argsort;
the ops that write at positions, scatter and update_slice (a block at a run-time
offset); and bincount, which counts at the positions its input's values name.

Their results are integer tensors of indices into the input, which
`mlc.take_along_axis` or `mlc.gather` then read through, and `mlc.scatter`
writes through.
"""

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
    expect_element_type,
    expect_shape,
    i64_array,
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


class UpdateSliceOp(MlcOp, name="update_slice", traits=[ext.Pure]):
    """A copy of `input` with one block replaced by `update`: along `axis` from the
    run-time `offset` (a 0-d integer tensor), along each other dimension d from
    `start[d]`, `update.shape[d]` elements each. `mlc-form-update-slice` makes it of a
    scatter whose positions are such a block: a static cache's write of one decoded
    token at its position (torch's index_copy).

    Kept outside fusion groups: there IREE writes the block into `input`'s buffer
    itself when nothing reads `input` after, where a scatter in a dispatch first
    copied the whole input (GPT-2's 24 caches, 7 MB a decode step). A negative offset
    counts from the end, as torch's indices do; one still out of range is clamped to
    the last block that fits, so memory is never written outside the input, where
    torch would raise (a scatter's out-of-range index was undefined behaviour)."""

    fusion_kind = Declined("IREE updates the input's buffer in place only outside a dispatch")
    layout_rule = Layout.FIXED

    input: Operand[ir.RankedTensorType]
    update: Operand[ir.RankedTensorType]
    offset: Operand[ir.RankedTensorType]
    axis: ir.IntegerAttr
    start: Any
    result: Result[ir.RankedTensorType]

    def verify(self):
        input_type, update_type = ranked(self.input, "input"), ranked(self.update, "update")
        offset_type = ranked(self.offset, "offset")
        if offset_type.rank != 0 or not is_integer(offset_type.element_type):
            raise VerifyError(f"offset must be a 0-d integer tensor, got {offset_type}")
        if not input_type.has_static_shape or not update_type.has_static_shape:
            raise VerifyError(f"input and update must have static shapes, got {input_type} and {update_type}")
        rank = input_type.rank
        if update_type.rank != rank:
            raise VerifyError(f"update must have the input's rank {rank}, got {update_type}")
        axis = normalize_axis(int_attr(self, "axis"), rank)
        start = i64_array(self, "start", size=rank)
        for d, (begin, size, full) in enumerate(zip(start, update_type.shape, input_type.shape)):
            if size > full or (d != axis and not 0 <= begin <= full - size):
                raise VerifyError(f"dimension {d}: a block of {size} from {begin if d != axis else 'offset'} "
                                  f"does not fit in {full}")
        expect_element_type(self.update, input_type.element_type, "update")
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
