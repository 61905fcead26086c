"""`mlc-convert-layout`: convolutions and pooling in one layout (NHWC by default, which
IREE's CPU kernels run fastest), with transposes left only at the edges of their chains.

First each mlc.conv2d, max_pool2d and avg_pool2d in the other layout is wrapped: a
transpose in, the op in the target layout (a conv's weight permuted by an mlc.transpose
that fold-constants folds), a transpose out. Then each transpose out sinks through
layout-agnostic ops (elementwise, cast, batch_norm, reductions with keepdim) until it
meets a transpose in and both cancel. A transpose sinks only when every user of it
takes it, now or once its other operands have, so sinking never adds one. Every rewrite is exact: only the order in which
elements are stored changes, never the arithmetic.
"""

import dataclasses

from torch_mlir import ir

from ..dialects.compute_ops import AvgPool2dOp, Conv2dOp, MaxPool2dOp
from ..dialects.facts import Layout
from ..dialects.op_base import DYNAMIC, MlcOp, op_classes
from ..dialects.shape_ops import TransposeOp
from ..errors import UserError
from .graph import folds_to_constant, i64_array_attr, inverse, rebuild, reshape, string, tensor_type, transpose
from .registry import register
from .rewriting import Pattern, PatternPass

LAYOUTS = {"nhwc": "NHWC", "nchw": "NCHW"}
INTO = {"NHWC": [0, 2, 3, 1], "NCHW": [0, 3, 1, 2]}  # an activation from the other layout into this one
WEIGHT_INTO = {"NHWC": [2, 3, 1, 0], "NCHW": [3, 2, 0, 1]}  # FCHW -> HWCF and back
WINDOW_OPS = (Conv2dOp, MaxPool2dOp, AvgPool2dOp)  # the ops that have a `layout`


def layout_rule(op) -> Layout:
    """How a transpose passes through `op` (its class says, dialects/facts.py)."""
    view = op.opview
    return view.layout_rule if isinstance(view, MlcOp) else Layout.FIXED


def permutation_of(value: ir.Value):
    """The permutation of the mlc.transpose defining `value`, else None."""
    owner = value.owner
    if isinstance(owner, ir.Block) or not isinstance(owner.opview, TransposeOp):
        return None
    return list(owner.attributes["permutation"])


def is_transpose(op, permutation) -> bool:
    return isinstance(op.opview, TransposeOp) and list(op.attributes["permutation"]) == permutation


def untransposed_type(type_: ir.RankedTensorType, permutation) -> ir.RankedTensorType:
    """The type t with transpose(t, permutation) == type_."""
    return tensor_type([type_.shape[i] for i in inverse(permutation)], type_.element_type)


def untransposed_operand(value: ir.Value, permutation):
    """A builder of v with transpose(v, permutation) == value under broadcasting, or None.

    v is the transpose's input; a 0-d value as is; an existing transpose of `value` by
    the inverse permutation, moved up to `value`; a value with one non-unit dimension,
    reshaped; a constant, reshaped and transposed (fold-constants folds both).
    """
    rank = len(permutation)
    if permutation_of(value) == permutation:
        return lambda: value.owner.operands[0]
    if value.type.rank == 0:
        return lambda: value
    block = value.owner if isinstance(value.owner, ir.Block) else value.owner.operation.block
    existing = [use.owner for use in value.uses
                if is_transpose(use.owner, inverse(permutation)) and use.owner.operation.block == block]
    if value.type.rank == rank and existing:
        return lambda: hoisted(existing[0], value)
    if value.type.rank > rank or DYNAMIC in value.type.shape:
        return None
    full = [1] * (rank - value.type.rank) + list(value.type.shape)
    target = [full[i] for i in inverse(permutation)]
    moved = [i for i in inverse(permutation) if full[i] != 1]
    if moved == sorted(moved):  # only unit dimensions move (equal sizes may not trade places)
        return lambda: reshape(value, target)
    if folds_to_constant(value):
        return lambda: transpose(reshape(value, full), inverse(permutation))
    return None


def hoisted(transpose_op, value: ir.Value) -> ir.Value:
    """`transpose_op` (of `value`) moved right after `value` is defined, so it dominates every use."""
    owner = value.owner
    if isinstance(owner, ir.Block):
        transpose_op.move_before(owner.operations[0])
    else:
        transpose_op.move_after(owner)
    return transpose_op.result


def layout_operands(op) -> list | None:
    """The operands of a layout-agnostic op laid out as its result; None for any other op."""
    rule = layout_rule(op)
    if rule == Layout.ELEMENTWISE:
        return list(op.operands)
    if rule == Layout.CHANNEL_AXIS or (rule == Layout.KEEPDIM_REDUCTION and op.attributes["keepdim"].value):
        return [op.operands[0]]
    return None


def sink_plan(op, permutation) -> list | None:
    """Builders of `op`'s operands with its layout operands untransposed, or None when
    `op` cannot take a transpose by `permutation`."""
    operands = layout_operands(op)
    if operands is None or op.results[0].type.rank != len(permutation):
        return None
    plans = [untransposed_operand(v, permutation) for v in operands]
    if None in plans:
        return None
    return plans + [lambda v=v: v for v in op.operands[len(plans):]]


def takes(user, permutation, assumed=frozenset()) -> bool:
    """Whether `user` of a transpose by `permutation` absorbs it: cancels it, sinks it
    now, or will sink it once its other operands have taken the transpose too."""
    return (is_transpose(user, inverse(permutation)) or sink_plan(user, permutation) is not None
            or will_take(user, permutation, assumed))


def will_take(op, permutation, assumed=frozenset()) -> bool:
    """Whether `op` can sink the transpose once the ops producing its other operands
    have: hardswish's `x * relu6(x + 3) / 6` uses the transposed x twice, and neither
    use could sink alone. `assumed` holds the ops being decided (a cycle holds)."""
    if op in assumed:
        return True
    operands = layout_operands(op)
    if operands is None or op.results[0].type.rank != len(permutation):
        return False
    assumed = assumed | {op}
    for value in operands:
        if untransposed_operand(value, permutation) is not None:
            continue
        if isinstance(value.owner, ir.Block):
            return False
        producer = value.owner.operation
        if not will_take(producer, permutation, assumed):
            return False
        if not all(takes(use.owner.operation, permutation, assumed) for use in value.uses):
            return False
    return True


class IntoTargetLayout(Pattern):
    """A window op in the other layout -> transpose in, the op in `target`, transpose out."""

    def __init__(self, op: type, target: str):
        self.op, self.target = op, target

    def match(self, op):
        return None if op.attributes["layout"].value == self.target else self.target

    def rewrite(self, op, target) -> ir.Value:
        into = INTO[target]
        operands = [transpose(op.operands[0], into)]
        if isinstance(op, Conv2dOp):
            operands += [transpose(op.operands[1], WEIGHT_INTO[target]), *op.operands[2:]]
        result_type = untransposed_type(op.operation.results[0].type, inverse(into))
        converted = rebuild(op, operands, result_type, layout=string(target))
        return transpose(converted, inverse(into))

    def counted_as(self, op, target) -> dict[str, int]:
        return {f"converted to {target}": 1, "transposes inserted": 2}


class CancelTransposes(Pattern):
    """transpose(transpose(x, p), q) with q after p the identity -> x."""

    op = TransposeOp

    def match(self, op):
        inner = permutation_of(op.input)
        return op.input.owner.operands[0] if inner is not None and inverse(inner) == list(op.attributes["permutation"]) else None

    def rewrite(self, op, x) -> ir.Value:
        return x

    def counted_as(self, op, x) -> dict[str, int]:
        return {"transposes cancelled": 2}


class SinkTranspose(Pattern):
    """op(transpose(x, p), ...) -> transpose(op(x, ...), p), for p out of the target layout."""

    statistic = "transposes sunk"

    def __init__(self, op: type, target: str):
        self.op, self.permutation = op, inverse(INTO[target])

    def match(self, op):
        permutation = self.permutation
        transposed = [v for v in layout_operands(op) or [] if permutation_of(v) == permutation]
        if not transposed:
            return None
        plans = sink_plan(op, permutation)
        if plans is None or not all(takes(use.owner, permutation) for v in transposed for use in v.uses):
            return None
        return plans

    def rewrite(self, op, plans) -> ir.Value:
        permutation, changed = self.permutation, {}
        if layout_rule(op) == Layout.CHANNEL_AXIS:
            axis = op.attributes["axis"]
            changed["axis"] = ir.IntegerAttr.get(axis.type, permutation[axis.value % len(permutation)])
        if layout_rule(op) == Layout.KEEPDIM_REDUCTION:
            changed["axes"] = i64_array_attr(sorted(permutation[a % len(permutation)] for a in op.attributes["axes"]))
        result_type = untransposed_type(op.operation.results[0].type, permutation)
        inner = rebuild(op, [plan() for plan in plans], result_type, **changed)
        return transpose(inner, permutation)


@register
class ConvertLayout(PatternPass):
    """Puts convolutions and pooling in one layout, with transposes only at the edges of their chains."""

    name = "mlc-convert-layout"
    layout: str = dataclasses.field(default="nhwc", metadata={"help": "the layout to convert to: nhwc or nchw"})

    def __post_init__(self):
        if self.layout.lower() not in LAYOUTS:
            raise UserError(f"option 'layout' of pass '{self.name}' must be 'nhwc' or 'nchw', got '{self.layout}'")

    @property
    def target(self) -> str:
        return LAYOUTS[self.layout.lower()]

    def run(self, module: ir.Operation) -> None:
        """All window ops converted first, then the transposes they left moved and cancelled."""
        self.apply(module, [IntoTargetLayout(cls, self.target) for cls in WINDOW_OPS])
        sinks = [SinkTranspose(cls, self.target) for cls in op_classes() if cls.layout_rule != Layout.FIXED]
        self.apply(module, [CancelTransposes(), *sinks])
        self.finish(module)

    def finish(self, module: ir.Operation) -> None:
        def count_remaining(op):
            if isinstance(op.opview, TransposeOp) and not folds_to_constant(op.operands[0]):
                self.count("transposes remaining")
            return ir.WalkResult.ADVANCE

        module.walk(count_remaining)
