"""The base class of every mlc op and the checks its verifiers share.

A verifier is written as `verify(self)`, which raises `VerifyError` at the first
broken invariant; `MlcOp.verify_invariants` turns that into one located
`error:` diagnostic, which is what MLIR expects of a verifier.
"""

from collections.abc import Iterable, Sequence

from torch_mlir import ir
from torch_mlir.dialects.ext import AttributeDef, OperandDef, RegionDef, ResultDef
from torch_mlir.dialects.irdl import Variadicity

from .dialect import Mlc

DYNAMIC = ir.ShapedType.get_dynamic_size()


class VerifyError(Exception):
    """A broken op invariant; the message becomes the op's located error."""


SEGMENT_ATTRIBUTES = ("operandSegmentSizes", "resultSegmentSizes")


def _positional_accessor(fields, index, values_of):
    """Reads field `index` by position. Exact while at most one field is variadic
    or optional, so mlc ops need no `operandSegmentSizes` attribute in their text."""
    variable = [i for i, f in enumerate(fields) if f.variadicity != Variadicity.single]
    assert len(variable) <= 1, "an mlc op may have one variadic or optional group per kind"

    def get(self):
        values = list(values_of(self))
        extra = len(values) - len(fields)
        if not variable or index < variable[0]:
            return values[index]
        if index > variable[0]:
            return values[index + extra]
        group = values[index : index + extra + 1]
        if fields[index].variadicity == Variadicity.optional:
            return group[0] if group else None
        return group

    return property(get)


def _keep_falsy_attributes(cls) -> None:
    """ext's builder treats a falsy attribute (`false`, `0`) as absent; mlc's
    attributes are all required, so every value given is kept."""
    for field in cls._fields:
        if isinstance(field, AttributeDef):
            field.process_attr = lambda attr, field=field: (
                attr if attr is not None else field.default_factory() if field.default_factory else None
            )


def _drop_segment_sizes(cls) -> None:
    """Makes variadic and optional fields positional (see `_positional_accessor`)."""
    for kind, values_of, adaptor_values_of in (
        (OperandDef, lambda op: op.operation.operands, lambda adaptor: adaptor.operands),
        (ResultDef, lambda op: op.operation.results, None),
    ):
        fields = [f for f in cls._fields if isinstance(f, kind)]
        if all(f.variadicity == Variadicity.single for f in fields):
            continue
        for index, field in enumerate(fields):
            setattr(cls, field.name, _positional_accessor(fields, index, values_of))
            if adaptor_values_of:
                setattr(cls.Adaptor, field.name, _positional_accessor(fields, index, adaptor_values_of))

    build = cls.__init__

    def __init__(self, *args, **kwargs):
        build(self, *args, **kwargs)
        for name in SEGMENT_ATTRIBUTES:
            if name in self.operation.attributes:
                del self.operation.attributes[name]

    __init__.__signature__ = build.__signature__
    cls.__init__ = __init__


_OP_CLASSES: list[type] = []  # every named op class, appended as it is defined


class MlcOp(Mlc.Operation):
    """Base of all mlc ops: routes `verify` failures to located diagnostics.

    Each op class also states the facts passes ask it (`dialects/facts.py`):
    `fusion_kind` and `layout_rule`."""

    @classmethod
    def short_name(cls) -> str:
        """The op's name without the dialect: `matmul` for `mlc.matmul`."""
        return cls.OPERATION_NAME.removeprefix(f"{Mlc.DIALECT_NAMESPACE}.")

    def fusion(self):
        """How this op fuses; an op whose kind depends on its shapes refines it."""
        return self.fusion_kind

    @classmethod
    def __init_subclass__(cls, **kwargs):
        super().__init_subclass__(**kwargs)
        if kwargs.get("name"):
            _keep_falsy_attributes(cls)
            _drop_segment_sizes(cls)
            _OP_CLASSES.append(cls)

    def verify_invariants(self) -> bool:
        """Checks what `verify` relies on (counts, required attributes), then `verify`."""
        try:
            self._verify_structure()
            self.verify()
        except VerifyError as error:
            self.location.emit_error(f"'{self.OPERATION_NAME}' op {error}")
            return False
        except Exception as error:  # a bug in a verifier must not take the tool down
            self.location.emit_error(f"'{self.OPERATION_NAME}' op internal verifier error: {type(error).__name__}: {error}")
            return False
        return True

    def _verify_structure(self) -> None:
        for kind, values in ((OperandDef, self.operation.operands), (ResultDef, self.operation.results)):
            fields = [f for f in self._fields if isinstance(f, kind)]
            fixed = sum(f.variadicity == Variadicity.single for f in fields)
            variadic = any(f.variadicity == Variadicity.variadic for f in fields)
            optional = sum(f.variadicity == Variadicity.optional for f in fields)
            count, noun = len(values), "operand" if kind is OperandDef else "result"
            if count < fixed or (not variadic and count > fixed + optional):
                expected = f"at least {fixed}" if variadic else f"{fixed} to {fixed + optional}" if optional else f"exactly {fixed}"
                plural = "" if expected == "exactly 1" else "s"
                raise VerifyError(f"expects {expected} {noun}{plural}, but got {count}")
        regions = sum(isinstance(f, RegionDef) for f in self._fields)
        if len(self.operation.regions) != regions:
            raise VerifyError(f"expects {regions} region(s), but got {len(self.operation.regions)}")
        missing = [f.name for f in self._fields if isinstance(f, AttributeDef) and f.name not in self.attributes]
        if missing:
            raise VerifyError(f"requires attribute '{missing[0]}'")

    def verify(self) -> None:
        """Raises VerifyError when an invariant does not hold."""


def op_classes() -> list[type]:
    """Every mlc op class (those with a name), in definition order."""
    return list(_OP_CLASSES)


# --- types -------------------------------------------------------------------


def ranked(value_or_type, what: str) -> ir.RankedTensorType:
    """The ranked tensor type of a value (or type), else a VerifyError."""
    type_ = value_or_type if isinstance(value_or_type, ir.Type) else value_or_type.type
    if not isinstance(type_, ir.RankedTensorType):
        raise VerifyError(f"{what} must be a ranked tensor, got {type_}")
    return type_


def dims_match(a: int, b: int) -> bool:
    """Two dimension sizes agree when equal or when either is dynamic."""
    return a == b or a == DYNAMIC or b == DYNAMIC


def shapes_match(a: Sequence[int], b: Sequence[int]) -> bool:
    return len(a) == len(b) and all(dims_match(x, y) for x, y in zip(a, b))


def format_shape(shape: Sequence[int]) -> str:
    return "[" + ", ".join("?" if d == DYNAMIC else str(d) for d in shape) + "]"


def expect_shape(value, shape: Sequence[int], what: str) -> None:
    actual = ranked(value, what).shape
    if not shapes_match(actual, shape):
        raise VerifyError(
            f"{what} has shape {format_shape(actual)}, expected {format_shape(shape)}"
        )


def expect_same_element_type(values: Iterable, what: str) -> ir.Type:
    element_types = {str(ranked(v, what).element_type): v for v in values}
    if len(element_types) > 1:
        raise VerifyError(f"{what} must share one element type, got {', '.join(element_types)}")
    return ranked(next(iter(element_types.values())), what).element_type


def expect_element_type(value, element_type: ir.Type, what: str) -> None:
    actual = ranked(value, what).element_type
    if actual != element_type:
        raise VerifyError(f"{what} has element type {actual}, expected {element_type}")


def is_float(type_: ir.Type) -> bool:
    return isinstance(type_, (ir.F16Type, ir.BF16Type, ir.F32Type, ir.F64Type))


def is_integer(type_: ir.Type) -> bool:
    return isinstance(type_, ir.IntegerType)


def broadcast_shapes(a: Sequence[int], b: Sequence[int]) -> list[int] | None:
    """NumPy broadcasting of two shapes; None when they are incompatible."""
    rank = max(len(a), len(b))
    a = [1] * (rank - len(a)) + list(a)
    b = [1] * (rank - len(b)) + list(b)
    result = []
    for x, y in zip(a, b):
        if x == 1:
            result.append(y)
        elif y == 1 or x == y:
            result.append(x)
        elif x == DYNAMIC or y == DYNAMIC:
            result.append(x if y == DYNAMIC else y)
        else:
            return None
    return result


# --- attributes ----------------------------------------------------------------


def i64_array(op: MlcOp, name: str, *, size: int | None = None) -> list[int]:
    """The attribute `name` as a list of ints; it must be `array<i64: ...>`."""
    attr = op.attributes[name]
    if not isinstance(attr, ir.DenseI64ArrayAttr):
        raise VerifyError(f"attribute '{name}' must be an array<i64>, got {attr}")
    values = list(attr)
    if size is not None and len(values) != size:
        raise VerifyError(f"attribute '{name}' must have {size} elements, got {len(values)}")
    return values


def bool_attr(op: MlcOp, name: str) -> bool:
    attr = op.attributes[name]
    if not isinstance(attr, ir.BoolAttr):
        raise VerifyError(f"attribute '{name}' must be a bool, got {attr}")
    return bool(attr.value)


def float_attr(op: MlcOp, name: str) -> float:
    attr = op.attributes[name]
    if not isinstance(attr, ir.FloatAttr):
        raise VerifyError(f"attribute '{name}' must be a float, got {attr}")
    return attr.value


def int_attr(op: MlcOp, name: str) -> int:
    attr = op.attributes[name]
    if not isinstance(attr, ir.IntegerAttr):
        raise VerifyError(f"attribute '{name}' must be an integer, got {attr}")
    return attr.value


def string_choice(op: MlcOp, name: str, choices: Sequence[str]) -> str:
    attr = op.attributes[name]
    value = ir.StringAttr(attr).value if isinstance(attr, ir.StringAttr) else None
    if value not in choices:
        raise VerifyError(f"attribute '{name}' must be one of {', '.join(map(repr, choices))}, got {attr}")
    return value


def normalize_axis(axis: int, rank: int, what: str = "axis") -> int:
    """Maps a possibly negative axis into [0, rank); VerifyError when out of range."""
    if not -rank <= axis < max(rank, 1):
        raise VerifyError(f"{what} {axis} is out of range for rank {rank}")
    return axis % rank if rank else 0


def normalize_axes(axes: Sequence[int], rank: int) -> list[int]:
    normalized = [normalize_axis(a, rank) for a in axes]
    if len(set(normalized)) != len(normalized):
        raise VerifyError(f"axes {list(axes)} repeat an axis")
    return sorted(normalized)
