"""`mlc-move-row-transposes`: a transpose that only reorders the rows of a product's
result moves to the product's input, where it joins the transpose already there.

A product x @ W computes each row of x on its own, so reordering the result's rows is
reordering x's: rows(matmul(x, W)) == matmul(rows(x), W), and a bias, GELU or any
elementwise op whose other operands vary along the columns only keeps the order too.
`nn.MultiheadAttention(batch_first=True)` on a batch of several sequences gathers its
heads into [tokens, batch, features] rows for the output projection, then moves the
batch back in front: two transposes of one tensor around one product (the transformer
block: 0.11 ms of 3.5, in two dispatches, the second holding the residual add).

The pattern roots at the second transpose:

    transpose(reshape(f(matmul(reshape(transpose(x, p)), W))), o)

where the inner reshape makes the product's [M, K] input from the first `rows` dims of
transpose(x, p), the outer one splits the M rows into those same dims, o reorders them
and keeps the columns last, and f is zero or more elementwise ops used only there,
their other operands varying along the columns only. It becomes one transpose of x,
by p's row dims taken in o's order, and the product's rows come out in the order the
model wants: the reshape after them is a plain split, which `mlc-sink-reshapes` moves
below a residual add, so the add joins the product's epilogue.

With `into-attention` (inserted after `mlc-form-attention{library}`), the other way too,
where a view takes it: matmul(reshape(transpose(x, p)), W), p reordering only the dims
that become rows, reads x as it lies, and the reordering follows the product (and the
elementwise ops after it) as a transpose, when every use of the result is a chain of
reshapes, transposes and slices into an attention on the plugin: `mlc-attention-views`
then reads the heads through it, and the copy of the product's input goes
(`nn.MultiheadAttention(batch_first=True)`'s input projection).

Static shapes only. Every rewrite is exact: only the order of independent rows changes.
"""

import math

from torch_mlir import ir

from ..dialects.compute_ops import AttentionOp, MatmulOp
from ..dialects.facts import Layout
from ..dialects.op_base import DYNAMIC, bool_attr, i64_array
from ..dialects.shape_ops import ReshapeOp, SliceOp, TransposeOp
from .graph import defining, rebuild, reshape, transpose
from .registry import register
from .rewriting import Pattern, PatternPass


def _static(value: ir.Value) -> bool:
    return isinstance(value.type, ir.RankedTensorType) and DYNAMIC not in value.type.shape


def _only_use(value: ir.Value) -> bool:
    return len(list(value.uses)) == 1


def _reshaped_from(value: ir.Value) -> ir.Value:
    """The value a chain of reshapes made `value` of (`value` itself if none)."""
    while (op := defining(value, ReshapeOp)) is not None and len(op.operation.operands) == 1:
        value = op.operation.operands[0]
    return value


def _per_column(operand: ir.Value, columns: int) -> bool:
    """Whether an elementwise op's operand varies along the last dim only."""
    if not _static(operand):
        return False
    shape = list(operand.type.shape)
    return all(d == 1 for d in shape[:-1]) and (not shape or shape[-1] in (1, columns))


class RowsOfProduct:
    """What the pattern found: the product, the elementwise ops after it (in order, each
    with the index of the operand the chain runs through), and the first transpose."""

    def __init__(self, product, chain, x: ir.Value, permutation: list[int], rows: int):
        self.product, self.chain, self.x, self.permutation, self.rows = product, chain, x, permutation, rows


def _elementwise_chain(value: ir.Value, columns: int) -> tuple[MatmulOp, list] | None:
    """(the product, [(op, operand index)] from it to `value`) where `value` is a chain of
    single-use elementwise ops over a 2-D product, their other operands per column."""
    chain = []
    while (product := defining(value, MatmulOp)) is None:
        op = defining(value)
        if op is None or op.layout_rule != Layout.ELEMENTWISE or len(op.operation.results) != 1:
            return None
        through = [i for i, o in enumerate(op.operation.operands) if _static(o) and list(o.type.shape) == list(value.type.shape)
                   and defining(o) is not None and _only_use(o)]
        if len(through) != 1 or not all(_per_column(o, columns) for i, o in enumerate(op.operation.operands)
                                        if i != through[0]):
            return None
        chain.insert(0, (op, through[0]))
        value = op.operation.operands[through[0]]
    if product.lhs.type.rank != 2 or product.rhs.type.rank != 2 or not _only_use(product.result):
        return None
    return product, chain


def _rows_of_input(product: MatmulOp) -> tuple[ir.Value, list[int], int] | None:
    """(x, p, rows) where the product's input [M, K] is reshape(transpose(x, p)) whose first
    `rows` dims make M."""
    lhs = product.lhs
    first = defining(_reshaped_from(lhs), TransposeOp)
    if first is None or not _static(lhs) or not _static(first.operation.operands[0]):
        return None
    shape, (m, k) = list(first.result.type.shape), lhs.type.shape
    rows = next((r for r in range(1, len(shape)) if math.prod(shape[:r]) == m and math.prod(shape[r:]) == k), None)
    if rows is None:
        return None
    return first.operation.operands[0], i64_array(first, "permutation"), rows


class TransposeAfterProduct(Pattern):
    op = TransposeOp
    statistic = "row transposes moved into a product's input"

    def match(self, op):
        order = i64_array(op, "permutation")
        split = op.operation.operands[0]
        if not _static(split) or order[-1] != len(order) - 1:
            return None
        result = _reshaped_from(split)
        if result == split or not _static(result) or result.type.rank != 2:
            return None
        found = _elementwise_chain(result, result.type.shape[1])
        if found is None:
            return None
        product, chain = found
        rows_of_input = _rows_of_input(product)
        if rows_of_input is None:
            return None
        x, permutation, rows = rows_of_input
        row_shape = [x.type.shape[d] for d in permutation[:rows]]
        if list(split.type.shape[:-1]) != row_shape:
            return None  # the result's rows are split otherwise than the input's
        return RowsOfProduct(product, chain, x, permutation, rows), order[:-1]

    def rewrite(self, op, matched):
        found, order = matched
        permutation = _joined(found, order)
        x = found.x if permutation == sorted(permutation) else transpose(found.x, permutation)
        product = found.product
        value = rebuild(product, [reshape(x, list(product.lhs.type.shape)), product.rhs], product.result.type)
        return reshape(_replayed(found.chain, value), list(op.result.type.shape))

    def counted_as(self, op, matched):
        permutation = _joined(*matched)
        return {self.statistic: 1, "transposes removed": 1 + (permutation == sorted(permutation))}


def _joined(found: RowsOfProduct, order: list[int]) -> list[int]:
    """The one transpose of x: its row dims taken in `order`, its column dims as they were."""
    return [found.permutation[d] for d in order] + found.permutation[found.rows:]


def _replayed(chain: list, value: ir.Value) -> ir.Value:
    """The chain's elementwise ops again, each reading `value` (then its predecessor's
    result) where it read the old product's chain."""
    for elementwise, through in chain:
        operands = list(elementwise.operation.operands)
        operands[through] = value
        value = rebuild(elementwise, operands, elementwise.operation.results[0].type)
    return value


def _elementwise_users(product: MatmulOp, columns: int) -> tuple[list, ir.Value] | None:
    """([(op, operand index)], the last value) of the chain of single-use elementwise ops
    after the product, their other operands per column."""
    chain, value = [], product.result
    while _only_use(value):
        user = next(iter(value.uses)).owner
        op = user.opview if hasattr(user, "opview") else user
        if getattr(op, "layout_rule", None) != Layout.ELEMENTWISE or len(user.results) != 1:
            break
        through = [i for i, o in enumerate(user.operands) if o == value]
        if len(through) != 1 or list(user.results[0].type.shape) != list(value.type.shape) or not all(
                _per_column(o, columns) for i, o in enumerate(user.operands) if i != through[0]):
            break
        chain.append((op, through[0]))
        value = user.results[0]
    return chain, value


def _views_into_attention(value: ir.Value) -> bool:
    """Whether every use of `value` is a chain of reshapes, transposes and slices ending in
    the query, key or value of an attention on the plugin."""
    uses = list(value.uses)
    for use in uses:
        op = use.owner.opview
        if isinstance(op, AttentionOp):
            if use.operand_number > 2 or not bool_attr(op, "library"):
                return False
        elif isinstance(op, (ReshapeOp, TransposeOp, SliceOp)) and len(op.operation.operands) == 1:
            if not _views_into_attention(op.operation.results[0]):
                return False
        else:
            return False
    return bool(uses)


class ProductReadsRowsInPlace(Pattern):
    op = MatmulOp
    statistic = "row transposes moved below a product into attention views"

    def match(self, op):
        if op.lhs.type.rank != 2 or op.rhs.type.rank != 2 or not _static(op.result):
            return None
        found = _rows_of_input(op)
        if found is None:
            return None
        x, permutation, rows = found
        if sorted(permutation[:rows]) != list(range(rows)) or permutation[rows:] != list(range(rows, len(permutation))):
            return None  # reorders more than the rows
        chain, last = _elementwise_users(op, op.result.type.shape[1])
        if not _views_into_attention(last):
            return None
        return x, permutation, rows, chain, last

    def rewrite(self, op, matched):
        x, permutation, rows, chain, last = matched
        product = rebuild(op, [reshape(x, list(op.lhs.type.shape)), op.rhs], op.result.type)
        value = _replayed(chain, product)
        n = op.result.type.shape[1]
        moved = transpose(reshape(value, list(x.type.shape[:rows]) + [n]), permutation[:rows] + [rows])
        last.replace_all_uses_with(reshape(moved, list(op.result.type.shape)))
        return product

    def counted_as(self, op, matched):
        return self.statistic


@register
class MoveRowTransposes(PatternPass):
    """Row reorderings after a product join the transpose before it (and, into attention's
    views, the other way)."""

    name = "mlc-move-row-transposes"
    # Move a product's input rows' reordering below it where attention's views take it.
    into_attention: bool = False

    def patterns(self) -> list[Pattern]:
        return [TransposeAfterProduct()] + [ProductReadsRowsInPlace()] * self.into_attention
