"""`mlc-simplify`: algebraic identities, each a small pattern that replaces an op
by a value it provably equals, and each counted.

    x + 0, 0 + x, x - 0    -> x     (a zero of any shape that does not widen x)
    x * 1, 1 * x, x / 1    -> x
    x * 0, 0 * x           -> 0     integers only: for floats NaN * 0 and inf * 0 are NaN
    transpose(transpose(x))  -> one transpose, or x when the permutations cancel
    reshape(reshape(x))      -> one reshape
    cast(cast(x))            -> one cast, when the first cast is exact (f16 -> f32 -> f64)
    transpose, reshape, cast, broadcast, slice or pad that changes nothing -> x
    broadcast of a `dense<>` splat -> a splat of the result's shape (it costs no memory)

A zero or a one is an `mlc.constant` holding a `dense<>` splat. `x + 0 -> x`
ignores the sign of zero (IEEE has -0.0 + 0.0 == +0.0), as XLA's simplifier
does. Ops left dead are Pure and the greedy driver erases them.

No CSE here: the O1 pipeline (`pipelines/levels.py`) runs upstream `cse` right
after this pass, which merges the duplicate ops a simplification exposes.
"""

from torch_mlir import ir

from ..dialects import data_ops, shape_ops
from ..dialects.elementwise_ops import AddOp, DivOp, MaximumOp, MinimumOp, MulOp, SelectOp, SubOp
from ..dialects.op_base import DYNAMIC, i64_array, is_float, is_integer
from .constant_values import splat_of
from .graph import composed, defining, i64_array_attr, splat
from .registry import register
from .rewriting import Pattern, PatternPass

# Significant bits (with the implicit one) of each float type: a signed integer
# of width w converts exactly when its w - 1 magnitude bits fit.
FLOAT_DIGITS = {"f16": 11, "bf16": 8, "f32": 24, "f64": 53}
EXACT_FLOAT_WIDENINGS = {("f16", "f32"), ("f16", "f64"), ("bf16", "f32"), ("bf16", "f64"), ("f32", "f64")}


def _result_type(op) -> ir.RankedTensorType:
    return op.operation.results[0].type


def _at_most_one_dynamic(type_: ir.RankedTensorType) -> bool:
    """A reshape to such a type is fixed by the element count alone."""
    return list(type_.shape).count(DYNAMIC) <= 1


# --- arithmetic identities ----------------------------------------------------------


def _unless_widened(op, x, constant, neutral):
    """x, when `constant` is a splat of `neutral` and x already has the result's
    type (the constant does not broadcast x to a larger shape); else None."""
    return x if splat_of(constant) == neutral and x.type == _result_type(op) else None


def add_zero(op):
    x = _unless_widened(op, op.lhs, op.rhs, 0)
    return x if x is not None else _unless_widened(op, op.rhs, op.lhs, 0)


def of_itself(op):
    """max(x, x) and min(x, x) are x (NaN included). IREE folds them to a dispatch that
    only copies, which its SPIR-V code generation refuses ("failed to legalize
    hal.interface.binding.subspan"; found by test/fuzz)."""
    return op.lhs if op.lhs == op.rhs and op.lhs.type == op.result.type else None


def same_either_way(op):
    """select(c, x, x) is x, where the condition stretches nothing. IREE folds it to the
    same copy-only dispatch as max(x, x) (random programs, seed 140026)."""
    return op.on_true if op.on_true == op.on_false and op.on_true.type == op.result.type else None


def sub_zero(op):
    return _unless_widened(op, op.lhs, op.rhs, 0)


def mul_one(op):
    x = _unless_widened(op, op.lhs, op.rhs, 1)
    return x if x is not None else _unless_widened(op, op.rhs, op.lhs, 1)


def div_one(op):
    return _unless_widened(op, op.lhs, op.rhs, 1)


def mul_zero(op):
    """Integers only: a float x may be NaN or inf, and then x * 0 is NaN."""
    type_ = _result_type(op)
    if not is_integer(type_.element_type) or not type_.has_static_shape:
        return None
    if splat_of(op.lhs) != 0 and splat_of(op.rhs) != 0:
        return None
    return type_


def zero_of(op, type_):
    return splat(0, type_.element_type, type_.shape)


# --- shape identities -------------------------------------------------------------------


def transpose_of_transpose(op):
    inner = defining(op.input, shape_ops.TransposeOp)
    if inner is None:
        return None
    return inner.input, composed(i64_array(inner, "permutation"), i64_array(op, "permutation"))


def one_transpose(op, matched):
    source, permutation = matched
    if permutation == list(range(len(permutation))):
        return source
    return shape_ops.TransposeOp(source, i64_array_attr(permutation), _result_type(op)).result


def identity_transpose(op):
    permutation = i64_array(op, "permutation")
    return op.input if permutation == list(range(len(permutation))) else None


def moves_only_unit_dimensions(op):
    """A transpose that keeps the order of every dimension larger than 1 moves no element
    (ViT's [1, 197, 768] -> [197, 1, 768]): a reshape, where the transpose is a copy."""
    shape = list(op.input.type.shape)
    if not op.input.type.has_static_shape:
        return None
    moved = [p for p in i64_array(op, "permutation") if shape[p] != 1]
    return op.input if moved == sorted(moved) and moved != i64_array(op, "permutation") else None


def as_reshape(op, source):
    return shape_ops.ReshapeOp(source, [], _result_type(op)).result


def reshape_of_reshape(op):
    inner = defining(op.input, shape_ops.ReshapeOp)
    if inner is None or not _at_most_one_dynamic(_result_type(op)):
        return None
    return inner.input


def one_reshape(op, source):
    result_type = _result_type(op)
    if source.type == result_type and not list(op.sizes):
        return source
    return shape_ops.ReshapeOp(source, list(op.sizes), result_type).result


def identity_reshape(op):
    type_ = _result_type(op)
    return op.input if op.input.type == type_ and _at_most_one_dynamic(type_) and not list(op.sizes) else None


def _converts_exactly(source: ir.Type, target: ir.Type) -> bool:
    """Every value of `source` is exactly a value of `target`: then a cast after
    this one gives what one cast straight from `source` gives."""
    if is_integer(source) and is_integer(target):
        return ir.IntegerType(target).width > ir.IntegerType(source).width  # i1 extends to 0 or 1
    if is_float(source) and is_float(target):
        return (str(source), str(target)) in EXACT_FLOAT_WIDENINGS
    if is_integer(source) and is_float(target):
        return ir.IntegerType(source).width - 1 <= FLOAT_DIGITS[str(target)]
    return False


def cast_of_exact_cast(op):
    inner = defining(op.input, data_ops.CastOp)
    if inner is None or not _converts_exactly(inner.input.type.element_type, inner.result.type.element_type):
        return None
    return inner.input


def one_cast(op, source):
    result_type = _result_type(op)
    if source.type.element_type == result_type.element_type:
        return source
    return data_ops.CastOp(source, result_type).result


def identity_cast(op):
    return op.input if op.input.type == _result_type(op) else None


def identity_broadcast(op):
    """Static shapes only: a dynamic input dimension may be a 1 that stretches."""
    type_ = _result_type(op)
    return op.input if op.input.type == type_ and type_.has_static_shape else None


def broadcast_of_splat(op):
    value, type_ = splat_of(op.input), _result_type(op)
    return value if value is not None and type_.has_static_shape else None


def splat_of_result(op, value):
    type_ = _result_type(op)
    return splat(value, type_.element_type, type_.shape)


def whole_slice(op):
    type_ = op.input.type
    if not type_.has_static_shape or type_ != _result_type(op):
        return None
    # From 0 to the end with the input's shape: a stride over 1 is then on a dim of size 1
    # (a larger one would shrink), which takes its one element either way.
    covers = not any(i64_array(op, "start")) and i64_array(op, "limit") == list(type_.shape)
    return op.input if covers else None


def zero_padding(op):
    return op.input if not any(i64_array(op, "low") + i64_array(op, "high")) else None


class Identity(Pattern):
    """An op equal to a value already in the graph: `match` finds it, nothing is built."""

    def __init__(self, op: type, statistic: str, find):
        self.op, self.statistic, self.match = op, statistic, find

    def rewrite(self, op, value):
        return value


class Simpler(Pattern):
    """An op equal to a simpler subgraph: `match` decides, `build` makes it."""

    def __init__(self, op: type, statistic: str, match, build):
        self.op, self.statistic, self.match, self.rewrite = op, statistic, match, build


PATTERNS = [
    Identity(AddOp, "x + 0", add_zero),
    Identity(SubOp, "x - 0", sub_zero),
    Identity(MulOp, "x * 1", mul_one),
    Simpler(MulOp, "x * 0 (integer)", mul_zero, zero_of),
    Identity(DivOp, "x / 1", div_one),
    Identity(MaximumOp, "max(x, x)", of_itself),
    Identity(MinimumOp, "min(x, x)", of_itself),
    Identity(SelectOp, "select(c, x, x)", same_either_way),
    Simpler(shape_ops.TransposeOp, "transpose of transpose", transpose_of_transpose, one_transpose),
    Identity(shape_ops.TransposeOp, "identity transpose", identity_transpose),
    Simpler(shape_ops.TransposeOp, "transpose of unit dimensions", moves_only_unit_dimensions, as_reshape),
    Simpler(shape_ops.ReshapeOp, "reshape of reshape", reshape_of_reshape, one_reshape),
    Identity(shape_ops.ReshapeOp, "identity reshape", identity_reshape),
    Simpler(data_ops.CastOp, "cast of exact cast", cast_of_exact_cast, one_cast),
    Identity(data_ops.CastOp, "identity cast", identity_cast),
    Identity(shape_ops.BroadcastOp, "identity broadcast", identity_broadcast),
    Simpler(shape_ops.BroadcastOp, "broadcast of splat", broadcast_of_splat, splat_of_result),
    Identity(shape_ops.SliceOp, "whole slice", whole_slice),
    Identity(shape_ops.PadOp, "zero padding", zero_padding),
]


@register
class Simplify(PatternPass):
    """Applies algebraic identities (x + 0, x * 1, transpose of transpose, ...)."""

    name = "mlc-simplify"

    def patterns(self):
        return PATTERNS
