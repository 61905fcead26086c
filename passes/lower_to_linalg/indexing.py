"""argmax/argmin and argsort -> `linalg.generic`s that carry indices; scatter ->
`tm_tensor.scatter`.

argmax/argmin: two reductions over `axis`, each of one accumulator and a combiner
IREE vectorizes: the best value (`arith.maximumf`, NaN over every number), then
the smallest index where the element ties with it (equal, or both NaN). As one
reduction of two accumulators (value and index), IREE ran it one element at a
time: GPT-2's next token, argmax over 50257 logits, took 0.29 ms (AMD EPYC).

argsort: two generics, each quadratic in the sorted length. The first counts,
for every element, the elements that sort before it (its rank); the second
writes, at each rank, the index of the element that has it. Equal elements
sort by index (stable), and NaN sorts above every number, as in torch.

scatter: one `tm_tensor.scatter` (torch-mlir's TMTensor dialect, which IREE
takes, as from torch-mlir's own lowering of scatter ops), whose region combines
an update with the element already there. Slice updates (positions in fewer
dims than the input has) become element updates first: IREE converts only those.

update_slice: one `tensor.insert_slice` at the offset read with `tensor.extract`,
counted from the end where negative and clamped to the last block that fits. Outside a dispatch region IREE makes it an
update of the input's buffer in place (`flow.tensor.update`) when nothing reads the
input after.

bincount: a max reduction gives the length n (-1 for an empty input, so n is then
minlength), read back with `tensor.extract`; a scatter-add of ones (or the weights)
into n + 1 zeros, the last a bin for negative values, of which the first n are the
result (minlength zeros when the input is empty by its type). The result's size is
so computed from the input's values, not its sizes: `mlc-form-dispatch-regions`
cannot trace it and leaves the group to IREE.
"""

import math

from torch_mlir import ir
from torch_mlir.dialects import arith, linalg, tensor

from ...dialects import indexing_ops as indexing
from ...dialects.op_base import DYNAMIC, bool_attr, i64_array, int_attr, is_float, normalize_axis, string_choice
from ..op_registry import lowers
from .builders import (
    PARALLEL,
    REDUCTION,
    Unsupported,
    collapse,
    constant,
    dims_map,
    empty,
    expand,
    filled,
    generic,
    identity,
    index,
    pad,
    sizes,
)
from .data import convert
from .reduction import keepdim_groups


def _index(dim: int, element_type: ir.Type) -> ir.Value:
    return arith.index_cast(element_type, linalg.IndexOp(dim).result)


def _is_nan(x):
    return arith.cmpf(arith.CmpFPredicate.UNO, x, x)


def _beats(a, b, largest: bool):
    """a sorts strictly after b (before, unless `largest`); a NaN sorts above every number."""
    if not is_float(a.type):
        return arith.cmpi(arith.CmpIPredicate.sgt if largest else arith.CmpIPredicate.slt, a, b)
    ordered = arith.cmpf(arith.CmpFPredicate.OGT if largest else arith.CmpFPredicate.OLT, a, b)
    nan, other = (a, b) if largest else (b, a)
    return arith.ori(ordered, arith.andi(_is_nan(nan), _not(_is_nan(other))))


def _ties(a, b):
    if not is_float(a.type):
        return arith.cmpi(arith.CmpIPredicate.eq, a, b)
    return arith.ori(arith.cmpf(arith.CmpFPredicate.OEQ, a, b), arith.andi(_is_nan(a), _is_nan(b)))


def _not(flag):
    return arith.xori(flag, constant(flag.type, 1))


def _generic(inputs, inits, maps, iterators, body):
    """`linalg.generic` with any number of outputs; `body` returns one scalar per output."""
    op = linalg.GenericOp_(list(inputs), list(inits), maps, [getattr(linalg.IteratorType, it) for it in iterators])
    block = op.regions[0].blocks[0]
    with ir.InsertionPoint(block):
        linalg.YieldOp(list(body(*block.arguments)))
    return op.results


# --- argmax / argmin ---------------------------------------------------------------


@lowers(indexing.ArgmaxOp, indexing.ArgminOp)
def _lower_arg_reduction(op):
    x = op.input
    rank = x.type.rank
    axis = normalize_axis(int_attr(op, "axis"), rank)
    largest = isinstance(op, indexing.ArgmaxOp)
    index_type = op.result.type.element_type
    kept = [d for d in range(rank) if d != axis]
    kept_sizes = [sizes(x)[d] for d in kept]
    maps = [identity(rank), dims_map(rank, kept)]
    iterators = [REDUCTION if d == axis else PARALLEL for d in range(rank)]
    best = _generic([x], [filled(kept_sizes, x.type.element_type, float("-inf") if largest else float("inf"))],
                    maps, iterators, lambda value, best: [_best(value, best, largest)])[0]

    def first_tie(value, best, found):
        position = arith.select(_ties(value, best), _index(axis, index_type), constant(index_type, math.inf))
        return [arith.minsi(position, found)]

    indices = _generic([x, best], [filled(kept_sizes, index_type, math.inf)], [identity(rank), *maps[1:] * 2],
                       iterators, first_tie)[0]
    if not bool_attr(op, "keepdim"):
        return indices
    return expand(indices, [1 if d == axis else s for d, s in enumerate(sizes(x))], keepdim_groups(rank, [axis]))


def _best(value, best, largest: bool):
    """The larger (smaller) of two, NaN over every number: `arith.maximumf`, which IREE
    vectorizes as a reduction's combiner."""
    if is_float(value.type):
        return arith.maximumf(value, best) if largest else arith.minimumf(value, best)
    return arith.maxsi(value, best) if largest else arith.minsi(value, best)


# --- argsort ---------------------------------------------------------------------------


def _with_axis_as(rank: int, axis: int, dim: int) -> ir.AffineMap:
    """The identity over `rank` dims, but reading dimension `dim` at `axis`."""
    return dims_map(rank + 1, [dim if d == axis else d for d in range(rank)])


def _ranks(x, axis, descending, index_type):
    """rank[i] = #{j : x[j] sorts before x[i]}, j the extra (reduced) loop."""
    rank = x.type.rank
    maps = [dims_map(rank + 1, range(rank)), _with_axis_as(rank, axis, rank), dims_map(rank + 1, range(rank))]
    iterators = [PARALLEL] * rank + [REDUCTION]
    init = filled(sizes(x), index_type, 0)

    def body(mine, other, count):
        earlier = arith.cmpi(arith.CmpIPredicate.slt, _index(rank, index_type), _index(axis, index_type))
        before = arith.ori(_beats(other, mine, descending), arith.andi(_ties(mine, other), earlier))
        return [arith.addi(count, arith.extui(index_type, before))]

    return _generic([x, x], [init], maps, iterators, body)[0]


def _positions_by_rank(ranks, axis, index_type):
    """result[r] = the i whose rank is r (one per r, so a sum finds it)."""
    rank = ranks.type.rank
    maps = [_with_axis_as(rank, axis, rank), dims_map(rank + 1, range(rank))]
    iterators = [PARALLEL] * rank + [REDUCTION]
    init = filled(sizes(ranks), index_type, 0)

    def body(its_rank, found):
        here = arith.cmpi(arith.CmpIPredicate.eq, its_rank, _index(axis, index_type))
        return [arith.addi(found, arith.select(here, _index(rank, index_type), constant(index_type, 0)))]

    return _generic([ranks], [init], maps, iterators, body)[0]


@lowers(indexing.ArgsortOp)
def _lower_argsort(op):
    x = op.input
    axis = normalize_axis(int_attr(op, "axis"), x.type.rank)
    index_type = op.result.type.element_type
    ranks = _ranks(x, axis, bool_attr(op, "descending"), index_type)
    return _positions_by_rank(ranks, axis, index_type)


# --- scatter ---------------------------------------------------------------------------

_FLOAT_COMBINES = {"add": arith.addf, "mul": arith.mulf, "max": arith.maximumf, "min": arith.minimumf}
_INTEGER_COMBINES = {"add": arith.addi, "mul": arith.muli, "max": arith.maxsi, "min": arith.minsi}
_BOOLEAN_COMBINES = {"add": arith.ori, "mul": arith.andi, "max": arith.ori, "min": arith.andi}


def _combined(combine: str, update, original):
    if combine == "replace":
        return update
    element_type = update.type
    if is_float(element_type):
        return _FLOAT_COMBINES[combine](update, original)
    table = _BOOLEAN_COMBINES if ir.IntegerType(element_type).width == 1 else _INTEGER_COMBINES
    return table[combine](update, original)


def _element_positions(indices, updates, rank: int):
    """Slice updates ([N, K] positions, [N] + T updates) as element updates: [N*M, rank]
    positions, where a row's first K coordinates are its slice's and the rest walk
    T, and [N*M] updates (IREE converts tm_tensor.scatter only when K is the rank)."""
    depth = indices.type.shape[1]
    trailing = list(updates.type.shape[1:])
    if DYNAMIC in trailing or indices.type.shape[0] == DYNAMIC:
        raise Unsupported("a scatter of slices with dynamic sizes")
    index_type = indices.type.element_type
    loops = 1 + len(trailing) + 1  # (n, t..., c)
    padded = pad(indices, [0, 0], [0, rank - depth], 0)
    init = empty([indices.type.shape[0]] + trailing + [rank], index_type)

    def body(position, _):
        coordinate = linalg.IndexOp(loops - 1).result
        walked = constant(index_type, 0)
        for j in range(len(trailing)):
            here = arith.cmpi(arith.CmpIPredicate.eq, coordinate, index(depth + j))
            walked = arith.select(here, _index(1 + j, index_type), walked)
        return arith.addi(position, walked)

    maps = [dims_map(loops, [0, loops - 1]), identity(loops)]
    positions = generic([padded], init, maps, [PARALLEL] * loops, body)
    flat_positions = collapse(positions, [list(range(loops - 1)), [loops - 1]])
    return flat_positions, collapse(updates, [list(range(updates.type.rank))])


@lowers(indexing.ScatterOp)
def _lower_scatter(op):
    indices, updates = op.indices, op.updates
    if ir.IntegerType(indices.type.element_type).width not in (32, 64):
        raise Unsupported(f"tm_tensor.scatter takes i32 or i64 indices, got {indices.type}")
    rank = op.input.type.rank
    if indices.type.shape[1] < rank:
        indices, updates = _element_positions(indices, updates, rank)
    return _tm_tensor_scatter(op.input, indices, updates, string_choice(op, "combine", indexing.SCATTER_COMBINES))


def _tm_tensor_scatter(original, indices, updates, combine: str):
    """`tm_tensor.scatter` of element (or slice) updates at [N, K] positions."""
    depth = indices.type.shape[1]
    element_type = original.type.element_type
    scatter = ir.Operation.create(
        "tm_tensor.scatter",
        results=[original.type],
        operands=[updates, indices, original],
        attributes={
            "dimension_map": ir.DenseI64ArrayAttr.get(list(range(depth))),
            "operandSegmentSizes": ir.DenseI32ArrayAttr.get([2, 1]),
            "unique_indices": ir.BoolAttr.get(False),
        },
        regions=1,
    )
    block = scatter.regions[0].blocks.append(element_type, element_type)
    with ir.InsertionPoint(block):
        ir.Operation.create("tm_tensor.yield", operands=[_combined(combine, *block.arguments)])
    return scatter.result


@lowers(indexing.UpdateSliceOp)
def _lower_update_slice(op):
    shape, block = list(op.input.type.shape), list(op.update.type.shape)
    axis = normalize_axis(int_attr(op, "axis"), len(shape))
    index_type = ir.IndexType.get()
    offset = arith.index_cast(index_type, tensor.extract(op.offset, []))
    negative = arith.cmpi(arith.CmpIPredicate.slt, offset, index(0))
    offset = arith.select(negative, arith.addi(offset, index(shape[axis])), offset)  # from the end
    last = index(shape[axis] - block[axis])  # the last offset whose block fits
    offset = arith.minsi(arith.maxsi(offset, index(0)), last)
    start = i64_array(op, "start")
    start[axis] = ir.ShapedType.get_dynamic_size()
    return tensor.insert_slice(op.update, op.input, [offset], [], [], start, block, [1] * len(shape))


# --- bincount --------------------------------------------------------------------------


def _as_i64(value):
    i64 = ir.IntegerType.get_signless(64)
    return value if value.type == i64 else convert(value, i64)


def _bincount_length(x, minlength: int):
    """max(max(x) + 1, minlength) as an i64, the maximum starting at -1."""
    i64 = ir.IntegerType.get_signless(64)
    largest = generic([x], filled([], i64, -1), [identity(1), dims_map(1, [])], [REDUCTION],
                      lambda value, best: arith.maxsi(_as_i64(value), best))
    top = tensor.extract(largest, [])
    return arith.maxsi(arith.addi(top, constant(i64, 1)), constant(i64, minlength))


def _bincount_positions(x, length):
    """[N, 1] positions: each value, or `length` (the extra bin) for a negative one."""
    i64 = length.type

    def body(value, _):
        wide = _as_i64(value)
        return arith.select(arith.cmpi(arith.CmpIPredicate.slt, wide, constant(i64, 0)), length, wide)

    init = empty([sizes(x)[0], 1], i64)
    return generic([x], init, [dims_map(2, [0]), identity(2)], [PARALLEL, PARALLEL], body)


def _bincount_ones(x, element_type):
    """A 1 for each value, computed from it (a 0 for a negative one, which goes to the
    extra bin anyway): IREE fuses a fill into the scatter's dispatch and, with a
    dynamic input, fails on the stack buffer it sizes by the input's largest size."""

    def body(value, _):
        wide = _as_i64(value)
        negative = arith.cmpi(arith.CmpIPredicate.slt, wide, constant(wide.type, 0))
        return arith.select(negative, constant(element_type, 0), constant(element_type, 1))

    return generic([x], empty(sizes(x), element_type), [identity(1), identity(1)], [PARALLEL], body)


@lowers(indexing.BincountOp)
def _lower_bincount(op):
    """An input known to be empty gives minlength zeros (IREE crashes on a scatter of none)."""
    x, element_type = op.input, op.result.type.element_type
    if x.type.shape[0] == 0:
        return tensor.cast(op.result.type, filled([int_attr(op, "minlength")], element_type, 0))
    length = _bincount_length(x, int_attr(op, "minlength"))
    n = arith.index_cast(ir.IndexType.get(), length)
    bins = filled([arith.addi(n, index(1))], element_type, 0)
    updates = op.weights if op.weights is not None else _bincount_ones(x, element_type)
    counted = _tm_tensor_scatter(bins, _bincount_positions(x, length), updates, "add")
    return tensor.extract_slice(op.result.type, counted, [], [n], [], [0], [DYNAMIC], [1])
