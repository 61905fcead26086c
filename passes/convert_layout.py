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

from torch_mlir import ir, rewrite

from ..dialects.op_base import DYNAMIC
from ..dialects.elementwise_ops import BINARY_OPS, UNARY_OPS
from ..dialects.reduction_ops import REDUCTIONS
from ..errors import UserError
from .convert_torch_to_mlc.attributes import i64_array, string, tensor_type
from .convert_torch_to_mlc.values import reshape
from .fold_batchnorm import is_constant
from .registry import Pass, register

LAYOUTS = {"nhwc": "NHWC", "nchw": "NCHW"}
INTO = {"NHWC": [0, 2, 3, 1], "NCHW": [0, 3, 1, 2]}  # an activation from the other layout into this one
WEIGHT_INTO = {"NHWC": [2, 3, 1, 0], "NCHW": [3, 2, 0, 1]}  # FCHW -> HWCF and back
WINDOW_OPS = ("mlc.conv2d", "mlc.max_pool2d", "mlc.avg_pool2d")
ELEMENTWISE = {f"mlc.{name}" for name in (*UNARY_OPS, "gelu", "clamp", "cast", *BINARY_OPS, "compare")}
# Reductions over `axes`, which `sink` remaps. argmax/argmin (one `axis`), scans, argsort
# and take_along_axis are left out on purpose: a transpose stops at them.
REDUCE_OPS = {f"mlc.{name}" for name in REDUCTIONS}


def inverse(permutation):
    result = [0] * len(permutation)
    for i, p in enumerate(permutation):
        result[p] = i
    return result


def permutation_of(value: ir.Value):
    """The permutation of the mlc.transpose defining `value`, else None."""
    owner = value.owner
    if isinstance(owner, ir.Block) or owner.name != "mlc.transpose":
        return None
    return list(owner.attributes["permutation"])


def is_transpose(op, permutation) -> bool:
    return op.name == "mlc.transpose" and list(op.attributes["permutation"]) == permutation


def transpose(value: ir.Value, permutation) -> ir.Value:
    shape = [value.type.shape[p] for p in permutation]
    return ir.Operation.create(
        "mlc.transpose", results=[tensor_type(shape, value.type.element_type)], operands=[value],
        attributes={"permutation": i64_array(permutation)},
    ).result


def untransposed_type(type_: ir.RankedTensorType, permutation) -> ir.RankedTensorType:
    """The type t with transpose(t, permutation) == type_."""
    return tensor_type([type_.shape[i] for i in inverse(permutation)], type_.element_type)


def rebuild(op, operands, result_type, **changed) -> ir.Value:
    """`op` again, with other operands, result type and some attributes."""
    attributes = {name: op.attributes[name] for name in op.attributes.keys()}
    return ir.Operation.create(op.name, results=[result_type], operands=operands, attributes={**attributes, **changed}).result


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
    if [d for d in full if d != 1] == [d for d in target if d != 1]:  # only unit dimensions move
        return lambda: reshape(value, target)
    if is_constant(value):
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
    if op.name in ELEMENTWISE:
        return list(op.operands)
    if op.name == "mlc.batch_norm" or (op.name in REDUCE_OPS and op.attributes["keepdim"].value):
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


@register
class ConvertLayout(Pass):
    """Puts convolutions and pooling in one layout, with transposes only at the edges of their chains."""

    name = "mlc-convert-layout"
    layout: str = dataclasses.field(default="nhwc", metadata={"help": "the layout to convert to: nhwc or nchw"})

    def __post_init__(self):
        if self.layout.lower() not in LAYOUTS:
            raise UserError(f"option 'layout' of pass '{self.name}' must be 'nhwc' or 'nchw', got '{self.layout}'")
        self.target = LAYOUTS[self.layout.lower()]

    def convert(self, op, rewriter) -> bool:
        """transpose-in, the op in the target layout, transpose-out."""
        if op.attributes["layout"].value == self.target:
            return True
        into = INTO[self.target]
        with rewriter.ip, op.location:
            operands = [transpose(op.operands[0], into)]
            if op.name == "mlc.conv2d":
                operands += [transpose(op.operands[1], WEIGHT_INTO[self.target]), *op.operands[2:]]
            result_type = untransposed_type(op.results[0].type, inverse(into))
            converted = rebuild(op, operands, result_type, layout=string(self.target))
            result = transpose(converted, inverse(into))
        rewriter.replace_op(op, [result])
        self.count(f"converted to {self.target}")
        self.count("transposes inserted", 2)
        return False

    def cancel(self, op, rewriter) -> bool:
        """transpose(transpose(x, p), q) with q after p the identity -> x."""
        inner = permutation_of(op.input)
        if inner is None or inverse(inner) != list(op.attributes["permutation"]):
            return True
        rewriter.replace_op(op, [op.input.owner.operands[0]])
        self.count("transposes cancelled", 2)
        return False

    def sink(self, op, rewriter) -> bool:
        """op(transpose(x, p), ...) -> transpose(op(x, ...), p), for p out of the target layout."""
        permutation = inverse(INTO[self.target])
        transposed = [v for v in layout_operands(op) or [] if permutation_of(v) == permutation]
        if not transposed:
            return True
        plans = sink_plan(op, permutation)
        if plans is None or not all(takes(use.owner, permutation) for v in transposed for use in v.uses):
            return True
        changed = {}
        if op.name == "mlc.batch_norm":
            axis = op.attributes["axis"]
            changed["axis"] = ir.IntegerAttr.get(axis.type, permutation[axis.value % len(permutation)])
        if op.name in REDUCE_OPS:
            changed["axes"] = i64_array(sorted(permutation[a % len(permutation)] for a in op.attributes["axes"]))
        with rewriter.ip, op.location:
            inner = rebuild(op, [plan() for plan in plans], untransposed_type(op.results[0].type, permutation), **changed)
            result = transpose(inner, permutation)
        rewriter.replace_op(op, [result])
        self.count("transposes sunk")
        return False

    def apply(self, module, add_patterns) -> None:
        """Greedy rewriting, repeated while a pattern still fires: a sink may wait on another."""
        before = None
        while before != self.statistics:
            before = dict(self.statistics)
            patterns = rewrite.RewritePatternSet()
            add_patterns(patterns)
            rewrite.apply_patterns_and_fold_greedily(module, patterns.freeze())

    def run(self, module: ir.Operation) -> None:
        def conversions(patterns):
            for name in WINDOW_OPS:
                patterns.add(name, self.convert)

        def propagation(patterns):
            patterns.add("mlc.transpose", self.cancel)
            for name in (*ELEMENTWISE, "mlc.batch_norm", *REDUCE_OPS):
                patterns.add(name, self.sink)

        self.apply(module, conversions)
        self.apply(module, propagation)

        def count_remaining(op):
            if op.name == "mlc.transpose" and not is_constant(op.operands[0]):
                self.count("transposes remaining")
            return ir.WalkResult.ADVANCE

        module.walk(count_remaining)
