"""The machinery of torch -> mlc conversion patterns.

A conversion is a function registered with `@converts("torch.aten.x", ...,
makes=MlcOp classes)`. It receives a `TorchOp` view of the op (operands as builtin
tensors, scalar operands read from their constants, result types as builtin
tensors) and returns the mlc value(s) that replace the op's results. It raises
`NotConvertible` (an `InstanceDeclined`, passes/op_registry.py) with a reason when
this instance cannot be converted; the op then stays and is reported.

`makes` names the mlc ops the conversion produces (the op-facts test checks that
every mlc op is made by some conversion, or says why not); `keep_whole` asks
torch-mlir not to decompose the torch ops before mlc sees them
(`driver/frontend/torch_import.py` derives its backend-legal ops from it); `takes_complex`
lets the conversion see complex tensors, which every other conversion declines.
An op on unsigned integers is converted as it stands or widened, or declined, as
unsigned.py decides.
"""

import dataclasses
import re
from collections.abc import Callable, Mapping

from torch_mlir import ir

from ..op_registry import InstanceDeclined
from . import unsigned


@dataclasses.dataclass(frozen=True)
class Conversion:
    """A registered conversion and its facts (see the module docstring)."""

    convert: Callable
    makes: tuple[type, ...]
    keep_whole: bool
    takes_complex: bool = False


CONVERSIONS: dict[str, Conversion] = {}

_TORCH_DTYPES = {
    "f16": "f16", "bf16": "bf16", "f32": "f32", "f64": "f64",
    "si64": "i64", "si32": "i32", "si16": "i16", "si8": "i8", "ui8": "i8", "ui16": "i16", "ui32": "i32", "ui64": "i64",
    "i1": "i1",
    "complex<f32>": "complex<f32>", "complex<f64>": "complex<f64>",
}
_VTENSOR = re.compile(r"!torch\.vtensor<\[([^\]]*)\],([\w<>]+)>")


class NotConvertible(InstanceDeclined):
    """This instance of the op has no mlc equivalent (the reason says why)."""


def converts(*op_names: str, makes: type | tuple[type, ...] | Mapping[str, type], keep_whole: bool = False,
             takes_complex: bool = False):
    """Registers a conversion for the named torch ops, making the mlc ops `makes`: a
    class, classes, or the table the conversion picks its class from, keyed by torch
    op name or by the aten name without overload (`add` for torch.aten.add.Tensor)."""

    def register(fn):
        for name in op_names:
            assert name not in CONVERSIONS, f"{name} has two conversions"
            CONVERSIONS[name] = Conversion(fn, _made_for(name, makes), keep_whole, takes_complex)
        return fn

    return register


def _made_for(name: str, makes) -> tuple[type, ...]:
    if isinstance(makes, Mapping):
        makes = makes[name] if name in makes else makes[name.split(".")[2]]
    return makes if isinstance(makes, tuple) else (makes,)


def kept_whole() -> list[str]:
    """The torch ops torch-mlir must not decompose, as its `backend-legal-ops` names them."""
    return sorted(name.removeprefix("torch.") for name, conversion in CONVERSIONS.items() if conversion.keep_whole)


def builtin_tensor_type(type_: ir.Type) -> ir.RankedTensorType:
    """`!torch.vtensor<[2,?],f32>` -> `tensor<2x?xf32>`; NotConvertible otherwise."""
    match = _VTENSOR.fullmatch(str(type_))
    if not match or match.group(2) not in _TORCH_DTYPES:
        raise NotConvertible(f"type {type_} has no builtin tensor equivalent")
    dims = [int(d) if d not in ("?", "-1") else ir.ShapedType.get_dynamic_size()
            for d in match.group(1).split(",") if d]
    return ir.RankedTensorType.get(dims, ir.Type.parse(_TORCH_DTYPES[match.group(2)]))


def defining_op(value: ir.Value):
    owner = value.owner
    return None if isinstance(owner, ir.Block) else owner


def as_builtin(value: ir.Value) -> ir.Value:
    """A `!torch.vtensor` value as a builtin tensor (through `torch_c.to_builtin_tensor`)."""
    producer = defining_op(value)
    if producer is not None and producer.name == "torch_c.from_builtin_tensor":
        return producer.operands[0]
    return ir.Operation.create(
        "torch_c.to_builtin_tensor", results=[builtin_tensor_type(value.type)], operands=[value]
    ).result


Operand = int | str  # a torch operand: by the name torch-mlir's generated accessor has ("stride", "self_"), or by position


class TorchOp:
    """A torch op as a conversion sees it: typed access to its operands and results.

    Operands are read by name, through torch-mlir's generated op classes
    (`op.ints("stride")` is `AtenConvolutionOp.stride`), so that a conversion says
    what it reads. A position is for conversions of several ops whose operands
    are named differently (`mm`'s `mat2` is `matmul`'s `other`)."""

    def __init__(self, op: ir.Operation):
        self.op = op
        self.name = op.name
        self.location = op.location

    def operand(self, key: Operand) -> ir.Value:
        return self.op.operands[key] if isinstance(key, int) else getattr(self.op.opview, key)

    # --- tensors ---
    def tensor(self, key: Operand) -> ir.Value:
        """The operand as a builtin tensor (through `torch_c.to_builtin_tensor`)."""
        return as_builtin(self.operand(key))

    def result_type(self, index: int = 0) -> ir.RankedTensorType:
        return builtin_tensor_type(self.op.results[index].type)

    def operand_type(self, key: Operand) -> ir.RankedTensorType:
        return builtin_tensor_type(self.operand(key).type)

    # --- scalars, which must be compile-time constants ---
    def _constant(self, key: Operand, kinds: tuple[str, ...]):
        producer = defining_op(self.operand(key))
        if producer is None or producer.name not in kinds:
            raise NotConvertible(f"operand {_named(key)} must be a constant ({' or '.join(kinds)})")
        return producer

    def is_none(self, key: Operand) -> bool:
        producer = defining_op(self.operand(key))
        return producer is not None and producer.name == "torch.constant.none"

    def int(self, key: Operand) -> int:
        return ir.IntegerAttr(self._constant(key, ("torch.constant.int",)).attributes["value"]).value

    def float(self, key: Operand) -> float:
        producer = self._constant(key, ("torch.constant.float", "torch.constant.int"))
        attr = producer.attributes["value"]
        return ir.FloatAttr(attr).value if isinstance(attr, ir.FloatAttr) else float(ir.IntegerAttr(attr).value)

    def bool(self, key: Operand) -> bool:
        return ir.BoolAttr(self._constant(key, ("torch.constant.bool",)).attributes["value"]).value

    def str(self, key: Operand) -> str:
        return ir.StringAttr(self._constant(key, ("torch.constant.str",)).attributes["value"]).value

    def ints(self, key: Operand) -> list[int]:
        producer = self._constant(key, ("torch.prim.ListConstruct",))
        values = []
        for element in producer.operands:
            element_op = defining_op(element)
            if element_op is None or element_op.name != "torch.constant.int":
                raise NotConvertible(f"operand {_named(key)} must be a list of constant ints")
            values.append(ir.IntegerAttr(element_op.attributes["value"]).value)
        return values

    def tensors(self, key: Operand) -> list[ir.Value]:
        """A `torch.prim.ListConstruct` of tensors, each as a builtin tensor."""
        producer = self._constant(key, ("torch.prim.ListConstruct",))
        return [as_builtin(element) for element in producer.operands]


class WidenedTorchOp(TorchOp):
    """A torch op on unsigned integers as its conversion sees it widened (unsigned.py):
    unsigned operands zero-extended to a wider signed type, unsigned results of that
    type, and integer scalars wrapped into the unsigned type where torch computes in it."""

    def __init__(self, op: ir.Operation):
        super().__init__(op)
        self.unsigned_type = unsigned.unsigned_type(op)
        self.wraps_scalars = unsigned.computes_in_unsigned(op)

    def tensor(self, key: Operand) -> ir.Value:
        return unsigned.zero_extended(super().tensor(key), self.operand(key).type)

    def tensors(self, key: Operand) -> list[ir.Value]:
        elements = self._constant(key, ("torch.prim.ListConstruct",)).operands
        return [unsigned.zero_extended(as_builtin(element), element.type) for element in elements]

    def result_type(self, index: int = 0) -> ir.RankedTensorType:
        return _widened(super().result_type(index), self.op.results[index].type)

    def operand_type(self, key: Operand) -> ir.RankedTensorType:
        return _widened(super().operand_type(key), self.operand(key).type)

    def float(self, key: Operand) -> float:
        value = super().float(key)
        if self.wraps_scalars and defining_op(self.operand(key)).name == "torch.constant.int":
            return float(unsigned.wrapped(int(value), self.unsigned_type))
        return value


def _widened(type_: ir.RankedTensorType, torch_type: ir.Type) -> ir.RankedTensorType:
    if not unsigned.is_unsigned(torch_type):
        return type_
    return ir.RankedTensorType.get(type_.shape, unsigned.widened_element(torch_type))


def _named(key: Operand) -> str:
    return f"'{key.removesuffix('_')}'" if isinstance(key, str) else str(key)


def wrap_result(value: ir.Value, torch_type: ir.Type) -> ir.Value:
    return ir.Operation.create("torch_c.from_builtin_tensor", results=[torch_type], operands=[value]).result


def make_pattern(conversion: Conversion, failures: dict, scratch: ir.Module):
    """Adapts a conversion to `RewritePatternSet.add` (truthy return = no match).

    The conversion builds into the `scratch` block; what it built moves before the op
    when it succeeds and is erased when it declines. A conversion may so raise
    NotConvertible at any point without leaving IR behind: a stray op kept the greedy
    driver from converging (`flip`, `clamp_tensor`, the size arithmetic of 63245f2)."""

    def pattern(op, rewriter):
        if not conversion.takes_complex and _reads_or_makes_complex(op):
            failures[op.name] = COMPLEX_DECLINED
            return True
        try:
            widen = unsigned.needs_widening(op)
            with ir.InsertionPoint(scratch.body), op.location:
                values = conversion.convert(WidenedTorchOp(op) if widen else TorchOp(op))
                values = values if isinstance(values, (list, tuple)) else [values]
                if widen:
                    values = [unsigned.narrowed(v, r.type) for v, r in zip(values, op.results)]
                wrapped = [wrap_result(v, r.type) for v, r in zip(values, op.results)]
        except InstanceDeclined as declined:
            failures[op.name] = declined.reason
            _erase_all(scratch.body)
            return True
        except Exception:
            _erase_all(scratch.body)
            raise
        for built in list(scratch.body.operations):
            built.move_before(op)
        rewriter.replace_op(op, wrapped)
        return False

    return pattern


# Complex tensors reach only the conversions that build or take apart complex values
# (complex.py): mlc's other ops compute on real numbers, so every other op on complex
# tensors is left for the fallback, where torch-mlir computes it.
COMPLEX_DECLINED = ("complex tensors: mlc only builds them and takes them apart "
                    "(complex, polar, view_as_complex, view_as_real, abs)")


def _reads_or_makes_complex(op: ir.Operation) -> bool:
    """Any operand or result of a complex type, tensors in lists included."""
    return any("complex" in str(v.type) for v in (*op.operands, *op.results))


def _erase_all(block: ir.Block) -> None:
    for built in reversed(list(block.operations)):  # users before what they use
        built.erase()

