"""`mlc-attention-views`: an attention on the plugin reads its query, key and value where
they lie, through the reshapes, transposes and slices that made them.

Between a transformer's projection and its attention, the heads are cut out and moved
to the front: a slice per q, k and v of the fused projection, a transpose of [tokens,
heads, dim] to [heads, tokens, dim], reshapes between. Each is a copy of its own
dispatch: seven per layer of `nn.MultiheadAttention` (ViT-B/16: 0.55 ms of each layer),
three for BERT's. With grouped-query attention, a broadcast repeats each key/value head
for its group of query heads: Llama's decode step copied both caches of every layer so
(0.54 ms of a 7 ms step at a capacity of 96, 2-core Xeon). Every one of them is a view:
the plugin can read head h's row i at
`source + offset + (h / inner) * outer_stride + (h % inner) * head_stride + i * row_stride`,
its elements one apart (a broadcast head at a head stride of 0).

For each operand of an `mlc.attention` with `library`, this pass walks back through
`mlc.reshape`, `mlc.transpose`, `mlc.slice` and `mlc.broadcast` (static) to the first
other value, and computes where the operand's elements lie in it: each dimension as
factors of sizes and strides, so that heads merged from two unevenly spaced dimensions stay readable. Where
the elements of a row are contiguous, its rows evenly spaced, and the batch factors fold
into two runs, the operand becomes that source, and the
op's `views` records how to read it (`compute_ops.VIEW_FIELDS`); else it stays. The
copies no other op uses go.
"""


from torch_mlir import ir

from ..dialects import compute_ops, shape_ops
from ..dialects.compute_ops import AttentionOp, fold_runs
from ..dialects.op_base import bool_attr, i64_array
from .graph import defining, ops_of
from .registry import Pass, register

VIEW_OPS = (shape_ops.ReshapeOp, shape_ops.TransposeOp, shape_ops.SliceOp, shape_ops.BroadcastOp)


def contiguous_strides(shape: list[int]) -> list[int]:
    strides, step = [], 1
    for size in reversed(shape):
        strides.insert(0, step)
        step *= size
    return strides


# A view's dimension as its factors: (size, stride) pairs in row-major order. A reshape
# that merges dimensions lying unevenly keeps their factors apart (heads [b, h] merged
# into one dimension of b * h), which strides alone cannot say.
Factors = list[tuple[int, int]]


def regrouped(dims: list[Factors], new_shape: list[int]) -> list[Factors] | None:
    """The factors of a view reshaped to `new_shape` (row-major), splitting a factor where
    a new dimension takes part of it; None where a new dimension's size cuts across one."""
    factors = [f for dim in dims for f in dim if f[0] != 1]
    result, i = [], 0
    for size in new_shape:
        dim, need = [], size
        while need > 1:
            if i >= len(factors):
                return None
            factor_size, stride = factors[i]
            if need % factor_size == 0:
                dim.append((factor_size, stride))
                need //= factor_size
                i += 1
            elif factor_size % need == 0:  # this dimension takes the factor's outer part
                dim.append((need, stride * (factor_size // need)))
                factors[i] = (factor_size // need, stride)
                need = 1
            else:
                return None
        result.append(dim)
    return result if i == len(factors) else None


def _sliced(dim: Factors, size: int, start: int, step: int, full: int) -> tuple[Factors, int] | None:
    """(the factors, the offset) of one dimension sliced; None where it has several factors
    and the slice is not all of it."""
    if start == 0 and step == 1 and size == full:
        return dim, 0
    if len(dim) == 1:
        return [(size, dim[0][1] * step)], start * dim[0][1]
    return ([], 0) if not dim and start == 0 else None


def _broadcast(dims: list[Factors], shape: list[int]) -> list[Factors]:
    """The factors of a view broadcast to `shape` (NumPy rules): each new or stretched
    dimension reads one index, stride 0 (grouped-query attention's keys, shared by the
    heads of a group)."""
    dims = [[] for _ in range(len(shape) - len(dims))] + dims
    return [[(size, 0)] if not dim and size != 1 else dim for dim, size in zip(dims, shape)]


def _merged(dim: Factors) -> int | None:
    """The one stride of a dimension whose factors lie evenly (0 for a size-1 dimension), or None."""
    if not dim:
        return 0
    for (_, outer), (size, inner) in zip(dim, dim[1:]):
        if outer != size * inner:
            return None
    return dim[-1][1]


def _chain(value: ir.Value) -> tuple[ir.Value, list]:
    """(the first value that no view op made, the view ops from it to `value`)."""
    ops = []
    while (op := defining(value, *VIEW_OPS)) is not None and value.type.has_static_shape:
        if isinstance(op, shape_ops.ReshapeOp) and len(op.operation.operands) > 1:
            break  # dynamic sizes
        if isinstance(op, (shape_ops.SliceOp, shape_ops.BroadcastOp)) and len(op.operation.operands) > 1:
            break
        ops.insert(0, op)
        value = op.operation.operands[0]
    return value, ops


def factors_in_source(value: ir.Value) -> tuple[ir.Value, int, list[Factors]] | None:
    """(source, offset, the factors of each dimension of `value` in the contiguous source),
    or None where no view op made `value` or its elements do not lie that way."""
    source, ops = _chain(value)
    if not ops or not source.type.has_static_shape:
        return None
    shape = list(source.type.shape)
    dims = [[(size, stride)] if size != 1 else [] for size, stride in zip(shape, contiguous_strides(shape))]
    offset = 0
    for op in ops:
        if isinstance(op, shape_ops.TransposeOp):
            dims = [dims[p] for p in i64_array(op, "permutation")]
        elif isinstance(op, shape_ops.SliceOp):
            start, step = i64_array(op, "start"), i64_array(op, "stride")
            sizes, full = list(op.result.type.shape), list(op.operation.operands[0].type.shape)
            if any(s <= 0 for s in step):
                return None
            sliced = [_sliced(*args) for args in zip(dims, sizes, start, step, full)]
            if any(s is None for s in sliced):
                return None
            dims, offset = [d for d, _ in sliced], offset + sum(o for _, o in sliced)
        elif isinstance(op, shape_ops.BroadcastOp):
            dims = _broadcast(dims, list(op.result.type.shape))
        else:
            dims = regrouped(dims, list(op.result.type.shape))
            if dims is None:
                return None
    return source, offset, dims


def operand_view(value: ir.Value) -> tuple[ir.Value, list[int]] | None:
    """(source, [offset, heads per outer index, outer stride, head stride, row stride])
    for an operand [*batch, rows, columns] read in place, or None."""
    found = factors_in_source(value)
    if found is None:
        return None
    source, offset, dims = found
    rows, columns = value.type.shape[-2:]
    column_stride, row_stride = _merged(dims[-1]), _merged(dims[-2])
    if row_stride is None or (columns > 1 and column_stride != 1):
        return None
    row_stride = row_stride if rows > 1 else columns  # MKL wants a row stride of at least a row
    if row_stride < columns:
        return None
    batch = [f for dim in dims[:-2] for f in dim]
    runs = fold_runs([size for size, _ in batch], [stride for _, stride in batch])
    if runs is None:
        return None
    return source, [offset, *runs, row_stride]


def _erase_unused_views(values: list[ir.Value]) -> None:
    """The view ops that made `values`, each once nothing uses it. The chains are listed
    before any is erased: operands may be one value (self-attention reads x three times)
    or share views, and a value of an erased op must never be read again (it crashed)."""
    chains = []
    for value in values:
        while (op := defining(value, *VIEW_OPS)) is not None:
            if not any(op.operation == seen for seen in chains):
                chains.append(op.operation)
            value = op.operation.operands[0]
    while (unused := next((op for op in chains if not list(op.results[0].uses)), None)) is not None:
        chains.remove(unused)
        unused.erase()


@register
class AttentionViews(Pass):
    """Lets each attention on the plugin read its query, key and value where they lie."""

    name = "mlc-attention-views"

    def run(self, module):
        for op in ops_of(module, AttentionOp):
            if bool_attr(op, "library") and not i64_array(op, "views"):
                self._read_in_place(op)

    def _read_in_place(self, op: AttentionOp) -> None:
        operands = [op.query, op.key, op.value]
        found = [operand_view(v) for v in operands]
        if not any(found):
            return
        views = []
        for value, view in zip(operands, found):
            views += view[1] if view else compute_ops.dense_view(list(value.type.shape))
        sources = [view[0] if view else value for value, view in zip(operands, found)]
        *batch, m, d = op.query.type.shape
        n = op.key.type.shape[-2]
        with ir.InsertionPoint(op.operation), op.location:
            replacement = AttentionOp(*sources, op.mask, op.attributes["scale"], op.attributes["zero_masked_rows"],
                                      op.attributes["library"], ir.DenseI64ArrayAttr.get([n, d, *views]),
                                      op.attributes["bf16_products"], op.attributes["zero_masked_tail"],
                                      op.result.type)
        op.result.replace_all_uses_with(replacement.result)
        op.operation.erase()
        _erase_unused_views(operands)
        self.count("operands read in place", sum(view is not None for view in found))
