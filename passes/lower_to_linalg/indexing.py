"""argmax/argmin and argsort -> `linalg.generic`s that carry indices.

argmax/argmin: one reduction over `axis` with two accumulators, the best value
and its index; the choice (larger, or equal with a smaller index; NaN wins) does
not depend on the order IREE visits the elements in.

argsort: two generics, each quadratic in the sorted length. The first counts,
for every element, the elements that sort before it (its rank); the second
writes, at each rank, the index of the element that has it. Equal elements
sort by index (stable), and NaN sorts above every number, as in torch.
"""

from torch_mlir import ir
from torch_mlir.dialects import arith, linalg

from ...dialects import indexing_ops as indexing
from ...dialects.op_base import bool_attr, int_attr, is_float, normalize_axis
from .builders import PARALLEL, REDUCTION, constant, dims_map, expand, filled, identity, sizes
from .reduction import keepdim_groups


def _index(dim: int, element_type: ir.Type) -> ir.Value:
    return arith.index_cast(element_type, linalg.IndexOp(dim).result)


def _is_nan(x):
    return arith.cmpf(arith.CmpFPredicate.UNO, x, x)


def _beats(a, b, largest: bool, nan_wins: bool):
    """a is strictly larger than b (smaller, unless `largest`); a NaN beats every
    number when `nan_wins` (argmax and argmin), else it counts as the largest (sort)."""
    if not is_float(a.type):
        return arith.cmpi(arith.CmpIPredicate.sgt if largest else arith.CmpIPredicate.slt, a, b)
    ordered = arith.cmpf(arith.CmpFPredicate.OGT if largest else arith.CmpFPredicate.OLT, a, b)
    nan, other = (a, b) if nan_wins or largest else (b, a)
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


def _lower_arg_reduction(op):
    x = op.input
    rank = x.type.rank
    axis = normalize_axis(int_attr(op, "axis"), rank)
    largest = isinstance(op, indexing.ArgmaxOp)
    index_type = op.result.type.element_type
    kept = [d for d in range(rank) if d != axis]
    kept_sizes = [sizes(x)[d] for d in kept]
    best = filled(kept_sizes, x.type.element_type, float("-inf") if largest else float("inf"))
    best_index = filled(kept_sizes, index_type, 0)
    maps = [identity(rank), dims_map(rank, kept), dims_map(rank, kept)]
    iterators = [REDUCTION if d == axis else PARALLEL for d in range(rank)]

    def body(value, best_value, best_position):
        position = _index(axis, index_type)
        earlier = arith.cmpi(arith.CmpIPredicate.slt, position, best_position)
        take = arith.ori(_beats(value, best_value, largest, True), arith.andi(_ties(value, best_value), earlier))
        return arith.select(take, value, best_value), arith.select(take, position, best_position)

    indices = _generic([x], [best, best_index], maps, iterators, body)[1]
    if not bool_attr(op, "keepdim"):
        return indices
    return expand(indices, [1 if d == axis else s for d, s in enumerate(sizes(x))], keepdim_groups(rank, [axis]))


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
        before = arith.ori(_beats(other, mine, descending, False), arith.andi(_ties(mine, other), earlier))
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


def _lower_argsort(op):
    x = op.input
    axis = normalize_axis(int_attr(op, "axis"), x.type.rank)
    index_type = op.result.type.element_type
    ranks = _ranks(x, axis, bool_attr(op, "descending"), index_type)
    return _positions_by_rank(ranks, axis, index_type)


LOWERINGS = {
    indexing.ArgmaxOp: _lower_arg_reduction,
    indexing.ArgminOp: _lower_arg_reduction,
    indexing.ArgsortOp: _lower_argsort,
}
