"""`mlc-sink-reshapes`: a reshape that splits leading dimensions moves below the
elementwise ops, normalizations and softmaxes that consume it.

A matmul computes on [M, K] x [K, N], so a Linear on [B, S, K] becomes
reshape(matmul(reshape(x))): the bias, GELU and residual add that follow run on
[B, S, N] while the matmul ran on [B * S, N]. A reshape inside a kernel is what
IREE's CPU code generation rejects, so `mlc-fuse` keeps every reshape outside its
groups, and the reshape between the matmul and its epilogue left the epilogue in
a kernel of its own. Sinking

    f(reshape(x), y)  ->  reshape(f(x, reshape(y)))

puts the epilogue in the matmul's shape, where it fuses, and the reshape meets the
next Linear's flattening reshape, where `mlc-simplify` cancels both. IREE does the
same inside its own dispatch formation; mlc forms its dispatches itself, so its
graph must.

Only an *expanding* reshape sinks: it splits leading dimensions and keeps a
trailing block T of dimensions, [S', T] -> [R', T] with prod(S') == prod(R') and
rank(R') > rank(S'). The other operands are viewed in the smaller shape by a
collapsing reshape, which never sinks, so rewriting terminates. An operand can be
viewed so when it has the full result shape, when it broadcasts only along the
split dimensions (a bias over T), or when it is the same expansion of a value.
A layer norm or softmax takes the reshape when it normalizes within T. Static
shapes only. Every rewrite is exact: reshapes only relabel elements.
"""

import math

from torch_mlir import ir

from ..dialects.facts import Layout
from ..dialects.normalization_ops import LayerNormOp, SoftmaxOp
from ..dialects.op_base import DYNAMIC, op_classes
from ..dialects.shape_ops import ReshapeOp
from .graph import rebuild, reshape, tensor_type
from .registry import register
from .rewriting import Pattern, PatternPass

NORMALIZING = (LayerNormOp, SoftmaxOp)  # normalize along trailing axes from `axis`


def kept_suffix(source: list[int], target: list[int]) -> int:
    """How many trailing dimensions an expanding reshape from `source` to `target`
    keeps unchanged; 0 when it is not one (merges, reorders, or has dynamic sizes)."""
    if DYNAMIC in source or DYNAMIC in target or len(target) <= len(source):
        return 0
    kept = 0
    while kept < len(source) and source[-1 - kept] == target[-1 - kept]:
        kept += 1
    split, into = source[: len(source) - kept], target[: len(target) - kept]
    if kept == 0 or len(into) <= len(split) or math.prod(split) != math.prod(into):
        return 0
    return kept


class Expansion:
    """An expanding reshape: `source` (the small shape) to `result`, keeping `kept` trailing dims."""

    def __init__(self, source: ir.Value, result_shape: list[int], kept: int):
        self.source, self.result_shape, self.kept = source, result_shape, kept

    @staticmethod
    def of(value: ir.Value) -> "Expansion | None":
        owner = value.owner
        if isinstance(owner, ir.Block) or not isinstance(owner.opview, ReshapeOp) or len(owner.operands) != 1:
            return None
        source = owner.operands[0]
        kept = kept_suffix(list(source.type.shape), list(value.type.shape))
        return Expansion(source, list(value.type.shape), kept) if kept else None

    @property
    def source_shape(self) -> list[int]:
        return list(self.source.type.shape)

    def view(self, operand: ir.Value):
        """A builder of `operand` in the source shape, or None when it has no such view."""
        shape = list(operand.type.shape)
        if DYNAMIC in shape:
            return None
        same = Expansion.of(operand)
        if same is not None and same.source_shape == self.source_shape and same.result_shape == self.result_shape:
            return lambda: same.source
        if shape == self.result_shape:
            return lambda: reshape(operand, self.source_shape)
        leading = len(shape) - self.kept
        if leading <= 0 or all(d == 1 for d in shape[:leading]):  # broadcasts along the split dims only
            return lambda: reshape(operand, shape[max(leading, 0):]) if leading > 0 else operand
        return None


def _sink_plan(op, expansion: Expansion):
    """Builders of `op`'s new operands, or None when `op` cannot take the reshape."""
    if isinstance(op.opview, NORMALIZING):
        rank = len(expansion.result_shape)
        axis = op.attributes["axis"].value % rank
        if axis < rank - expansion.kept:  # normalizes across the split dimensions
            return None
        views = [expansion.view(op.operands[0])] + [lambda v=v: v for v in op.operands[1:]]
    else:
        views = [expansion.view(operand) for operand in op.operands]
    return None if None in views else views


class SinkBelow(Pattern):
    """f(reshape(x), y) -> reshape(f(x, reshape(y))), for an expanding reshape."""

    def __init__(self, op: type):
        self.op = op

    def match(self, op):
        result_shape = list(op.operation.results[0].type.shape)
        if DYNAMIC in result_shape:
            return None
        normalizing = isinstance(op, NORMALIZING)
        expansions = [Expansion.of(operand) for operand in op.operands[: 1 if normalizing else None]]
        expansion = next((e for e in expansions if e is not None), None)
        if expansion is None or result_shape != expansion.result_shape:
            return None
        plan = _sink_plan(op, expansion)
        return None if plan is None else (expansion, plan)

    def rewrite(self, op, matched) -> ir.Value:
        expansion, plan = matched
        changed = {}
        if isinstance(op, NORMALIZING):
            shift = len(expansion.source_shape) - len(expansion.result_shape)
            axis = op.attributes["axis"]
            changed["axis"] = ir.IntegerAttr.get(axis.type, axis.value % len(expansion.result_shape) + shift)
        element_type = op.operation.results[0].type.element_type
        inner = rebuild(op, [build() for build in plan], tensor_type(expansion.source_shape, element_type), **changed)
        return reshape(inner, expansion.result_shape)

    def counted_as(self, op, matched) -> str:
        return f"reshapes sunk below {op.operation.name}"


@register
class SinkReshapes(PatternPass):
    """Moves expanding reshapes below elementwise ops, layer norms and softmaxes, so epilogues fuse."""

    name = "mlc-sink-reshapes"

    def patterns(self) -> list[Pattern]:
        return [SinkBelow(cls) for cls in op_classes() if cls.layout_rule == Layout.ELEMENTWISE or cls in NORMALIZING]
