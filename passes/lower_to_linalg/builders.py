"""Small IR builders the lowerings share: sizes, empty tensors, fills,
`linalg.generic`, NumPy-broadcast indexing maps, reshapes and scalar constants.

Every builder inserts at the current insertion point and location, which the
pass sets to the mlc op being lowered. Sizes are lists of ints (static) and
index Values (dynamic), as `tensor.empty` takes them.
"""

import math
from collections.abc import Callable, Sequence

from torch_mlir import ir
from torch_mlir.dialects import arith, linalg, tensor

from ...dialects.op_base import DYNAMIC, is_float
from ..op_registry import InstanceDeclined

PARALLEL = "parallel"
REDUCTION = "reduction"

Size = int | ir.Value


class Unsupported(InstanceDeclined):
    """A case of an mlc op that this pass cannot lower; the pass reports it at the op."""


# --- sizes -------------------------------------------------------------------


def index(value: int) -> ir.Value:
    return arith.constant(ir.IndexType.get(), value)


def sizes(value: ir.Value) -> list[Size]:
    """The sizes of a tensor: ints where static, `tensor.dim` where dynamic."""
    return [tensor.dim(value, index(d)) if s == DYNAMIC else s for d, s in enumerate(value.type.shape)]


def static_shape(shape: Sequence[Size]) -> list[int]:
    return [s if isinstance(s, int) else DYNAMIC for s in shape]


def broadcast_sizes(result_type: ir.RankedTensorType, operands: Sequence[ir.Value]) -> list[Size]:
    """The sizes of a NumPy-broadcast result; a dynamic size is read from an operand
    whose aligned dimension is dynamic too (it is then assumed not to stretch)."""
    rank = result_type.rank
    result = []
    for d, size in enumerate(result_type.shape):
        if size != DYNAMIC:
            result.append(size)
            continue
        for operand in operands:
            od = d - (rank - operand.type.rank)
            if od >= 0 and operand.type.shape[od] == DYNAMIC:
                result.append(tensor.dim(operand, index(od)))
                break
        else:
            raise Unsupported(f"cannot tell the size of dynamic result dimension {d}")
    return result


# --- tensors -----------------------------------------------------------------


def is_bool(type_: ir.Type) -> bool:
    """i1, which torch's bool becomes: unsigned, so max is `or` and min is `and`."""
    return isinstance(type_, ir.IntegerType) and type_.width == 1


def empty(shape: Sequence[Size], element_type: ir.Type) -> ir.Value:
    return tensor.empty(list(shape), element_type)


def constant(element_type: ir.Type, value: float) -> ir.Value:
    """A scalar `arith.constant`; for integers, +-inf become the type's extremes."""
    if is_float(element_type):
        return arith.constant(element_type, float(value))
    width = ir.IntegerType(element_type).width
    low, high = (0, 1) if width == 1 else (-(1 << (width - 1)), (1 << (width - 1)) - 1)
    integer = high if value == math.inf else low if value == -math.inf else int(value)
    return arith.constant(element_type, min(max(integer, low), high))


def filled(shape: Sequence[Size], element_type: ir.Type, value: float) -> ir.Value:
    """`linalg.fill` of a fresh tensor: the zero (or +-inf) accumulator of a reduction."""
    return linalg.fill(constant(element_type, value), outs=[empty(shape, element_type)])


def pad(value: ir.Value, low: Sequence[int], high: Sequence[int], padding: float) -> ir.Value:
    """`tensor.pad` with the constant `padding`; the value itself when nothing is padded."""
    if not any(low) and not any(high):
        return value
    type_ = value.type
    padding_value = constant(type_.element_type, padding)
    shape = [s if s == DYNAMIC else s + lo + hi for s, lo, hi in zip(type_.shape, low, high)]
    result_type = ir.RankedTensorType.get(shape, type_.element_type)
    op = tensor.PadOp(result_type, value, [], [], list(low), list(high))
    block = op.region.blocks.append(*[ir.IndexType.get()] * type_.rank)
    with ir.InsertionPoint(block):
        tensor.YieldOp(padding_value)
    return op.result


def collapse(value: ir.Value, reassociation: Sequence[Sequence[int]]) -> ir.Value:
    """`tensor.collapse_shape`: each group of source dimensions becomes one."""
    shape = value.type.shape
    new_shape = [
        DYNAMIC if any(shape[d] == DYNAMIC for d in group) else math.prod(shape[d] for d in group)
        for group in reassociation
    ]
    result_type = ir.RankedTensorType.get(new_shape, value.type.element_type)
    return tensor.collapse_shape(result_type, value, _reassociation(reassociation))


def expand(value: ir.Value, shape: Sequence[Size], reassociation: Sequence[Sequence[int]]) -> ir.Value:
    """`tensor.expand_shape` to `shape` (ints and index Values)."""
    static = static_shape(shape)
    result_type = ir.RankedTensorType.get(static, value.type.element_type)
    dynamic = [s for s in shape if not isinstance(s, int)]
    return tensor.expand_shape(result_type, value, _reassociation(reassociation), dynamic, static)


def _reassociation(groups: Sequence[Sequence[int]]) -> ir.ArrayAttr:
    i64 = ir.IntegerType.get_signless(64)
    return ir.ArrayAttr.get([ir.ArrayAttr.get([ir.IntegerAttr.get(i64, d) for d in g]) for g in groups])


# --- linalg.generic ------------------------------------------------------------


def identity(rank: int) -> ir.AffineMap:
    return ir.AffineMap.get_identity(rank)


def dims_map(rank: int, dims: Sequence[int]) -> ir.AffineMap:
    """(d0, ..., d{rank-1}) -> (d{dims[0]}, d{dims[1]}, ...)."""
    return ir.AffineMap.get(rank, 0, [ir.AffineDimExpr.get(d) for d in dims])


def broadcast_map(shape: Sequence[int], result_shape: Sequence[int]) -> ir.AffineMap:
    """NumPy broadcasting as an indexing map: dimensions align from the right, and
    a size-1 dimension that stretches always reads index 0."""
    offset = len(result_shape) - len(shape)
    exprs = [
        ir.AffineConstantExpr.get(0) if s == 1 and result_shape[offset + i] != 1 else ir.AffineDimExpr.get(offset + i)
        for i, s in enumerate(shape)
    ]
    return ir.AffineMap.get(len(result_shape), 0, exprs)


def generic(
    inputs: Sequence[ir.Value],
    init: ir.Value,
    maps: Sequence[ir.AffineMap],
    iterators: Sequence[str],
    body: Callable[..., ir.Value],
) -> ir.Value:
    """`linalg.generic` with one output; `body(*input_scalars, output_scalar)` builds
    the region and returns the yielded scalar."""
    iterator_types = [getattr(linalg.IteratorType, it) for it in iterators]
    op = linalg.GenericOp_(list(inputs), [init], list(maps), iterator_types)
    block = op.regions[0].blocks[0]
    with ir.InsertionPoint(block):
        linalg.YieldOp([body(*block.arguments)])
    return op.result


def elementwise(
    operands: Sequence[ir.Value], result_type: ir.RankedTensorType, body: Callable[..., ir.Value]
) -> ir.Value:
    """A parallel generic over the result's shape, the operands broadcast NumPy-style;
    `body` gets one scalar per operand (not the output's)."""
    init = empty(broadcast_sizes(result_type, operands), result_type.element_type)
    shape = result_type.shape
    maps = [broadcast_map(v.type.shape, shape) for v in operands] + [identity(len(shape))]
    return generic(operands, init, maps, [PARALLEL] * len(shape), lambda *args: body(*args[:-1]))


def broadcast_to(value: ir.Value, shape: Sequence[Size]) -> ir.Value:
    """Materializes `value` broadcast NumPy-style to `shape`."""
    static = static_shape(shape)
    if list(value.type.shape) == static:
        return value
    init = empty(shape, value.type.element_type)
    maps = [broadcast_map(value.type.shape, static), identity(len(static))]
    return generic([value], init, maps, [PARALLEL] * len(static), lambda x, _: x)


def reduce(
    inputs: Sequence[ir.Value],
    rank: int,
    axes: Sequence[int],
    initial: float,
    body: Callable[..., ir.Value],
) -> ir.Value:
    """A generic over `rank` loops, `axes` reducing, into a tensor of the kept
    dimensions filled with `initial`. The first input has the full rank; the
    others are indexed by the kept loops. `body(*input_scalars, accumulator)`."""
    kept = [d for d in range(rank) if d not in axes]
    full = inputs[0]
    all_sizes = sizes(full)
    init = filled([all_sizes[d] for d in kept], full.type.element_type, initial)
    maps = [identity(rank)] + [dims_map(rank, kept)] * len(inputs)
    iterators = [REDUCTION if d in axes else PARALLEL for d in range(rank)]
    return generic(inputs, init, maps, iterators, body)
