"""`mlc-convert-torch-to-mlc`: torch ops at the backend contract -> mlc ops.

Runs after torch-mlir's `torch-func-backend-type-conversion` (function
signatures on builtin tensors) and before its `torch-finalizing-backend-type-conversion`
(which removes the casts at the edges once no torch op is left). Every torch op
that no pattern converts is reported at once, with counts and source lines.

Adding an op: write a function with `@converts("torch.aten.name", makes=...)` in
the file of its family (elementwise, compute, normalization, reduction, shape, data,
complex).
An mlc op that no torch op converts to says why in `NOT_CONVERTED`.
"""

import collections
import dataclasses

from torch_mlir import ir, rewrite

from ...dialects import complex_ops, data_ops
from ...dialects.compute_ops import AttentionOp, QuantizedMatmulOp
from ...dialects.facts import Declined
from ...dialects.fusion_ops import FusionGroupOp, YieldOp
from ...dialects.indexing_ops import UpdateSliceOp
from ...dialects.locations import source_line
from ...dialects.op_base import is_float
from ...dialects.shape_ops import Im2colOp
from ..registry import Pass, PassFailure, register
from . import (  # noqa: F401 (registers patterns)
    arithmetic,
    assertions,
    backward,
    complex,
    composite_reduction,
    compute,
    convolution,
    data,
    determinant,
    elementwise,
    embedding_bag,
    indexing,
    loss,
    normalization,
    pooling,
    quantized,
    random,
    reduction,
    resampling,
    scan,
    scatter,
    shape,
    unpooling,
    views,
)
from .patterns import CONVERSIONS, NotConvertible, builtin_tensor_type, make_pattern, wrap_result
from .shape import refine_slice_types

NOT_CONVERTED = {
    Im2colOp: Declined("made by mlc-conv-to-matmul from a convolution"),
    QuantizedMatmulOp: Declined("made by mlc-quantize-int8 from a matmul by a constant weight"),
    AttentionOp: Declined("made by mlc-form-attention from attention's steps (scaled_dot_product_attention converts to them)"),
    UpdateSliceOp: Declined("made by mlc-form-update-slice from a scatter of one block at a run-time offset "
                            "(index_copy, index_put)"),
    FusionGroupOp: Declined("fusion structure, made by mlc-fuse"),
    YieldOp: Declined("fusion structure, made by mlc-fuse"),
}

# Scalars and lists that conversions read; they die with the ops that used them.
OPERAND_PRODUCERS = ("torch.constant.", "torch.prim.ListConstruct")


def torch_ops(module: ir.Operation) -> list[ir.Operation]:
    found = []

    def visit(op):
        name = op.name
        if name.startswith("torch.") and not name.startswith(OPERAND_PRODUCERS):
            found.append(op)
        return ir.WalkResult.ADVANCE

    module.walk(visit)
    return found


def op_name(op: ir.Operation) -> str:
    """The aten name; ops torch-mlir does not know are `torch.operator "name"`."""
    if op.name == "torch.operator":
        return ir.StringAttr(op.attributes["name"]).value
    return op.name


def unsupported_report(ops: list[ir.Operation], reasons: dict[str, str], missing: str = "no conversion to mlc") -> str:
    by_name = collections.defaultdict(list)
    for op in ops:
        by_name[op_name(op)].append(source_line(op.location))
    lines = [f"{len(ops)} torch op(s) of {len(by_name)} kind(s) have {missing}:"]
    width = max(len(name) for name in by_name)
    for name, places in sorted(by_name.items(), key=lambda item: (-len(item[1]), item[0])):
        unique = list(dict.fromkeys(places))
        why = f"  [{reasons[name]}]" if name in reasons else ""
        lines.append(f"  {name:<{width}}  x{len(places)}  at {', '.join(unique[:5])}{' ...' if len(unique) > 5 else ''}{why}")
    return "\n".join(lines)


# Integer arithmetic on sizes, which torch-mlir does not mark pure: with dynamic
# shapes, `view(x, [size(x, 0) * size(x, 1), 256])` leaves them once the view,
# which mlc reads from its result type, is converted; and the comparison of an
# assertion proved true (`size(bincount(x), 0) >= 0`), once the assertion is dropped.
SHAPE_ARITHMETIC = (
    "torch.aten.size.int", "torch.aten.mul.int", "torch.aten.add.int", "torch.aten.sub.int",
    "torch.aten.floordiv.int", "torch.aten.neg.int", "torch.aten.sym_size.int", "torch.aten.Int.Tensor",
    "torch.prim.ListConstruct", "torch.aten.ge.int", "torch.aten.Int.bool", "torch.aten.Bool.int",
)


def _erase_dead_shape_arithmetic(module: ir.Operation) -> None:
    dead = []
    module.walk(lambda op: (dead.append(op) if op.name in SHAPE_ARITHMETIC or op.name.startswith("torch.constant.")
                            else None) or ir.WalkResult.ADVANCE)
    for op in reversed(dead):  # users come after their operands
        if all(len(list(result.uses)) == 0 for result in op.results):
            op.erase()


def _empty_results_to_constants(module: ir.Operation) -> None:
    """An op whose every result is a tensor without elements computes nothing: it
    becomes an empty mlc.constant, whatever the op (torch-mlir's roll of a 0x0 tensor
    slices and concatenates empty pieces, which tensor.insert_slice rejects)."""
    empty = []
    for op in torch_ops(module):
        types = [_static_builtin(result.type) for result in op.results]
        if types and all(t is not None and 0 in t.shape for t in types):
            empty.append((op, types))
    for op, types in empty:
        with ir.InsertionPoint(op), op.location:
            values = [_empty(t) for t in types]
            wrapped = [wrap_result(value, result.type) for value, result in zip(values, op.results)]
        for result, value in zip(op.results, wrapped):
            result.replace_all_uses_with(value)
        op.erase()


def _empty(type_: ir.RankedTensorType) -> ir.Value:
    """An mlc value of `type_`, which has no elements: a zero splat, or mlc.complex of
    two for complex elements (the Python bindings build no complex attribute)."""
    element = type_.element_type
    if isinstance(element, ir.ComplexType):
        zeros = _empty(ir.RankedTensorType.get(type_.shape, element.element_type))
        return complex_ops.ComplexOp(zeros, zeros, type_).result
    zero = ir.FloatAttr.get(element, 0.0) if is_float(element) else ir.IntegerAttr.get(element, 0)
    return data_ops.ConstantOp(ir.DenseElementsAttr.get_splat(type_, zero), type_).result


def _static_builtin(type_: ir.Type):
    try:
        builtin = builtin_tensor_type(type_)
    except NotConvertible:
        return None
    return None if ir.ShapedType.get_dynamic_size() in builtin.shape else builtin


@register
class ConvertTorchToMlc(Pass):
    """Converts torch ops (backend contract, builtin-tensor signatures) into mlc ops."""

    name = "mlc-convert-torch-to-mlc"
    allow_fallback: bool = dataclasses.field(
        default=False,
        metadata={"help": "leave unconvertible torch ops for mlc-lower-torch-fallback instead of failing"},
    )

    def run(self, module):
        failures: dict = {}
        patterns, scratch = rewrite.RewritePatternSet(), ir.Module.create(ir.Location.unknown(module.context))
        for torch_name, conversion in CONVERSIONS.items():
            patterns.add(torch_name, make_pattern(conversion, failures, scratch))
        before = collections.Counter(op.name for op in torch_ops(module))
        refine_slice_types(module)
        _empty_results_to_constants(module)
        rewrite.apply_patterns_and_fold_greedily(module, patterns.freeze())
        _erase_dead_shape_arithmetic(module)
        remaining = torch_ops(module)
        after = collections.Counter(op.name for op in remaining)
        for name, count in before.items():
            if count - after.get(name, 0):
                self.count(name, count - after.get(name, 0))
        if remaining and self.allow_fallback:
            for name, count in collections.Counter(op_name(op) for op in remaining).items():
                self.count(f"left for fallback: {name}", count)
        elif remaining:
            hint = "\n  (by default, without allow_fallback=False or mlc-compile --no-fallback, torch-mlir lowers them instead)"
            remaining[0].location.emit_error(unsupported_report(remaining, failures) + hint)
            raise PassFailure(declined={op_name(op): failures.get(op_name(op), "no conversion to mlc") for op in remaining})
