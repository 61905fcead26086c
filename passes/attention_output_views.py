"""`mlc-attention-output-views`: an attention on the plugin writes its rows where the
transpose after it would have moved them.

A transformer gathers its heads back into rows for the output projection: attention's
[batch, heads, tokens, dim] becomes [batch, tokens, heads, dim], a transpose that is a
dispatch of its own, on one thread where the plugin carries the model (BERT-base: 48-110
us of each layer's ~1.5 ms at int8, Intel Xeon). The plugin writes head h's row i at
`offset + (h / heads) * outer_stride + (h % heads) * head_stride + i * row_stride` of its
result, its elements one apart (native/mlc_attention.h), as it reads q, k and v
(mlc-attention-views): the transpose's order is such a view.

Runs on the lowered module, after mlc-form-dispatch-regions. A dispatch region whose
body is one `linalg.transpose`, of a value that reshapes (`tensor.expand_shape`,
`tensor.collapse_shape`, each read only by the next) made of the result of a region
calling `mlc_attention` (read only by them), is gone: the attention's region is made
again with the transpose's elements as its result, a vector reshaped to the
transpose's type, and the output view that writes them there. Where each element goes
is worked out on the indices themselves (numpy), and the view is taken only where it
gives every element's place exactly.
"""

import math

import numpy as np
from torch_mlir import ir

from ..dialects import iree_flow
from ..dialects.compute_ops import VIEW_FIELDS
from .lower_to_linalg.attention import FUNCTION
from .lower_to_linalg.builders import expand
from .lower_to_linalg.plugin import plugin_call
from .registry import Pass, register

RESHAPES = ("tensor.expand_shape", "tensor.collapse_shape")
# Where the output's view lies among mlc_attention's scalars: after heads, M, N, D, Dv,
# the mask's five strides and the query's, key's and value's views.
OUTPUT_VIEW = slice(5 + 5 + 3 * len(VIEW_FIELDS), 5 + 5 + 4 * len(VIEW_FIELDS))


def _body(region: ir.Operation) -> list[ir.Operation]:
    return list(region.regions[0].blocks[0].operations)


def _only_use(value: ir.Value) -> ir.Operation | None:
    uses = list(value.uses)
    return uses[0].owner if len(uses) == 1 else None


def _transpose(region: ir.Operation) -> ir.Operation | None:
    """The region's one linalg.transpose (of a value from outside it), or None."""
    ops = [op for op in _body(region) if op.name not in ("tensor.empty", iree_flow.RETURN)]
    if len(ops) != 1 or ops[0].name != "linalg.transpose":
        return None
    source = ops[0].operands[0]
    inside = not isinstance(source.owner, ir.Block) and source.owner.parent == region
    return None if inside else ops[0]


def _attention_call(region: ir.Operation) -> ir.Operation | None:
    for op in _body(region):
        if op.name == iree_flow.UKERNEL and ir.StringAttr(op.attributes["u_kernel_fn_name"]).value == FUNCTION:
            return op
    return None


def _source(value: ir.Value) -> tuple[ir.Operation, list[ir.Operation]] | None:
    """(the attention's region, the reshapes from its result to `value`), each value on
    the way read only by the next op: the transpose's own operand too, else the region
    and reshapes erased would leave its other readers nothing to read."""
    reshapes = []
    if _only_use(value) is None:
        return None
    while not isinstance(value.owner, ir.Block) and value.owner.name in RESHAPES:
        reshapes.insert(0, value.owner)
        value = value.owner.operands[0]
        if _only_use(value) is None:
            return None
    owner = value.owner
    if isinstance(owner, ir.Block) or owner.name != iree_flow.DISPATCH_REGION or _attention_call(owner) is None:
        return None
    return owner, reshapes


def _segments(call: ir.Operation) -> list[int]:
    """How many inputs, outputs and scalars the call takes."""
    return list(ir.DenseI32ArrayAttr(call.attributes["operandSegmentSizes"]))


def _scalars(call: ir.Operation) -> list[int] | None:
    """The call's scalar operands, each an index constant."""
    sizes = _segments(call)
    values = []
    for operand in list(call.operands)[sizes[0] + sizes[1]:]:
        owner = operand.owner
        if isinstance(owner, ir.Block) or owner.name != "arith.constant":
            return None
        values.append(ir.IntegerAttr(owner.attributes["value"]).value)
    return values


def output_view(places: np.ndarray) -> list[int] | None:
    """VIEW_FIELDS of a view that writes element [h, i, j] of the attention's [heads, M,
    Dv] at places[h, i, j]; None where no view does."""
    heads, m, dv = places.shape
    if places.size == 0:
        return None
    row_stride = int(places[0, 1, 0] - places[0, 0, 0]) if m > 1 else dv
    if row_stride < dv:
        return None  # the plugin's product writes rows of Dv with a stride of at least that
    starts = places[:, 0, 0].astype(np.int64)
    offset, head_stride = int(starts[0]), int(starts[1] - starts[0]) if heads > 1 else 0
    h, i, j = np.meshgrid(np.arange(heads), np.arange(m), np.arange(dv), indexing="ij")
    for inner in (d for d in range(1, heads + 1) if heads % d == 0):
        outer_stride = int(starts[inner] - starts[0]) if inner < heads else 0
        view = [offset, inner, outer_stride, head_stride, row_stride]
        if min(view) < 0:
            continue
        written = offset + (h // inner) * outer_stride + (h % inner) * head_stride + i * row_stride + j
        if np.array_equal(written, places):
            return view
    return None


def _places(heads: int, m: int, dv: int, transposed: list[int], permutation: list[int]) -> np.ndarray:
    """Where each element of the attention's [heads, M, Dv] lands in the transpose's
    result (row-major): reshapes keep the elements' order, so its input is the attention's
    elements in order, shaped `transposed`."""
    index = np.arange(heads * m * dv, dtype=np.int64).reshape(transposed)
    moved = np.transpose(index, permutation).reshape(-1)  # moved[p]: the element now at p
    places = np.empty_like(moved)
    places[moved] = np.arange(moved.size, dtype=np.int64)
    return places.reshape(heads, m, dv)


@register
class AttentionOutputViews(Pass):
    """Lets each attention on the plugin write its rows where the transpose after it puts them."""

    name = "mlc-attention-output-views"

    def run(self, module):
        regions = []

        def visit(op):
            if op.name == iree_flow.DISPATCH_REGION and _transpose(op) is not None:
                regions.append(op)
            return ir.WalkResult.ADVANCE

        module.walk(visit)
        for region in regions:
            if self._write_in_place(region):
                self.count("transposes written by the attention")

    def _write_in_place(self, region: ir.Operation) -> bool:
        transpose = _transpose(region)
        found = _source(transpose.operands[0])
        if found is None:
            return False
        attention, reshapes = found
        call = _attention_call(attention)
        scalars = _scalars(call)
        if scalars is None or len(scalars) != OUTPUT_VIEW.stop + 2:
            return False
        heads, m, dv = scalars[0], scalars[1], scalars[4]
        if scalars[OUTPUT_VIEW] != [0, 1, m * dv, 0, dv]:  # not dense: another pass set it
            return False
        permutation = list(ir.DenseI64ArrayAttr(transpose.attributes["permutation"]))
        view = output_view(_places(heads, m, dv, list(transpose.operands[0].type.shape), permutation))
        if view is None:
            return False
        scalars[OUTPUT_VIEW] = view
        result_type = region.results[0].type
        size = math.prod(result_type.shape)
        inputs = list(call.operands)[:_segments(call)[0]]
        with ir.InsertionPoint(attention), attention.location:
            written = plugin_call(FUNCTION, inputs, ir.RankedTensorType.get([size], result_type.element_type), scalars)
            if result_type.rank != 1:
                written = expand(written, list(result_type.shape), [list(range(result_type.rank))])
        region.results[0].replace_all_uses_with(written)
        region.erase()
        for op in reversed(reshapes):
            op.erase()
        attention.erase()
        return True

