"""The machinery of torch -> mlc conversion patterns.

A conversion is a function registered with `@converts("torch.aten.x", ...)`.
It receives a `TorchOp` view of the op (operands as builtin tensors, scalar
operands read from their constants, result types as builtin tensors) and
returns the mlc value(s) that replace the op's results. It raises
`NotConvertible` with a reason when this instance cannot be converted; the op
then stays and is reported.
"""

import re
from typing import Callable

from torch_mlir import ir

CONVERSIONS: dict[str, Callable] = {}

_TORCH_DTYPES = {
    "f16": "f16", "bf16": "bf16", "f32": "f32", "f64": "f64",
    "si64": "i64", "si32": "i32", "si16": "i16", "si8": "i8", "ui8": "i8", "i1": "i1",
}
_VTENSOR = re.compile(r"!torch\.vtensor<\[([^\]]*)\],(\w+)>")


class NotConvertible(Exception):
    """This instance of the op has no mlc equivalent (the reason says why)."""


def converts(*op_names: str):
    """Registers a conversion for the named torch ops."""

    def register(fn):
        for name in op_names:
            assert name not in CONVERSIONS, f"{name} has two conversions"
            CONVERSIONS[name] = fn
        return fn

    return register


def builtin_tensor_type(type_: ir.Type) -> ir.RankedTensorType:
    """`!torch.vtensor<[2,?],f32>` -> `tensor<2x?xf32>`; NotConvertible otherwise."""
    match = _VTENSOR.fullmatch(str(type_))
    if not match or match.group(2) not in _TORCH_DTYPES:
        raise NotConvertible(f"type {type_} has no builtin tensor equivalent")
    dims = [int(d) if d not in ("?", "-1") else ir.ShapedType.get_dynamic_size()
            for d in match.group(1).split(",") if d]
    return ir.RankedTensorType.get(dims, ir.Type.parse(_TORCH_DTYPES[match.group(2)]))


def _defining_op(value: ir.Value):
    owner = value.owner
    return None if isinstance(owner, ir.Block) else owner


def as_builtin(value: ir.Value) -> ir.Value:
    """A `!torch.vtensor` value as a builtin tensor (through `torch_c.to_builtin_tensor`)."""
    producer = _defining_op(value)
    if producer is not None and producer.name == "torch_c.from_builtin_tensor":
        return producer.operands[0]
    return ir.Operation.create(
        "torch_c.to_builtin_tensor", results=[builtin_tensor_type(value.type)], operands=[value]
    ).result


class TorchOp:
    """A torch op as a conversion sees it: typed access to its operands and results."""

    def __init__(self, op: ir.Operation):
        self.op = op
        self.name = op.name
        self.location = op.location

    # --- tensors ---
    def tensor(self, index: int) -> ir.Value:
        """Operand `index` as a builtin tensor (through `torch_c.to_builtin_tensor`)."""
        return as_builtin(self.op.operands[index])

    def result_type(self, index: int = 0) -> ir.RankedTensorType:
        return builtin_tensor_type(self.op.results[index].type)

    def operand_type(self, index: int) -> ir.RankedTensorType:
        return builtin_tensor_type(self.op.operands[index].type)

    # --- scalars, which must be compile-time constants ---
    def _constant(self, index: int, kinds: tuple[str, ...]):
        producer = _defining_op(self.op.operands[index])
        if producer is None or producer.name not in kinds:
            raise NotConvertible(f"operand {index} must be a constant ({' or '.join(kinds)})")
        return producer

    def is_none(self, index: int) -> bool:
        producer = _defining_op(self.op.operands[index])
        return producer is not None and producer.name == "torch.constant.none"

    def int(self, index: int) -> int:
        return ir.IntegerAttr(self._constant(index, ("torch.constant.int",)).attributes["value"]).value

    def float(self, index: int) -> float:
        producer = self._constant(index, ("torch.constant.float", "torch.constant.int"))
        attr = producer.attributes["value"]
        return ir.FloatAttr(attr).value if isinstance(attr, ir.FloatAttr) else float(ir.IntegerAttr(attr).value)

    def bool(self, index: int) -> bool:
        return ir.BoolAttr(self._constant(index, ("torch.constant.bool",)).attributes["value"]).value

    def str(self, index: int) -> str:
        return ir.StringAttr(self._constant(index, ("torch.constant.str",)).attributes["value"]).value

    def ints(self, index: int) -> list[int]:
        producer = self._constant(index, ("torch.prim.ListConstruct",))
        values = []
        for element in producer.operands:
            element_op = _defining_op(element)
            if element_op is None or element_op.name != "torch.constant.int":
                raise NotConvertible(f"operand {index} must be a list of constant ints")
            values.append(ir.IntegerAttr(element_op.attributes["value"]).value)
        return values

    def tensors(self, index: int) -> list[ir.Value]:
        """A `torch.prim.ListConstruct` of tensors, each as a builtin tensor."""
        producer = self._constant(index, ("torch.prim.ListConstruct",))
        return [TorchOp(producer).tensor(i) for i in range(len(producer.operands))]


def wrap_result(value: ir.Value, torch_type: ir.Type) -> ir.Value:
    return ir.Operation.create("torch_c.from_builtin_tensor", results=[torch_type], operands=[value]).result


def make_pattern(conversion: Callable, failures: dict):
    """Adapts a conversion to `RewritePatternSet.add` (truthy return = no match)."""

    def pattern(op, rewriter):
        try:
            with rewriter.ip, op.location:
                values = conversion(TorchOp(op))
                values = values if isinstance(values, (list, tuple)) else [values]
                wrapped = [wrap_result(v, r.type) for v, r in zip(values, op.results)]
        except NotConvertible as reason:
            failures[op.name] = str(reason)
            return True
        rewriter.replace_op(op, wrapped)
        return False

    return pattern
