"""Unsigned integers (torch's uint8, uint32) in mlc's signed integer ops.

mlc's IR is signless, as IREE's, and its integer ops compute signed (maxsi, divsi,
sitofp): 200 as uint8 is -56 to them. A torch op that reads or makes unsigned
integers is so converted one of two ways, or declined with a reason:

- as it stands (SIGN_AGNOSTIC), where the bits of its results do not depend on the
  sign (add, mul, bitwise and, views) and every result is of the unsigned type;
- widened (WIDENED, and the sign-agnostic ops whose results are of another type:
  uint8 + int64 is int64): each unsigned operand zero-extended to the next wider
  signed type (uint8 -> i16, uint32 -> i64), which holds its value, the op's own
  conversion computing there, and each unsigned result truncated back. Integer
  scalars are first wrapped into the unsigned type where torch computes in it
  (`x < 300` on uint8 is `x < 44`, as in eager).
"""

import re

from torch_mlir import ir

from ...dialects import bitwise_ops as bw
from ...dialects import elementwise_ops as ew
from ..graph import cast_to, splat
from ..op_registry import InstanceDeclined


def _aten(*names: str) -> set[str]:
    return {f"torch.aten.{name}" for name in names}


# Results whose bits are the same for signed and unsigned operands of their own type.
SIGN_AGNOSTIC = _aten(
    "view", "reshape", "_reshape_copy", "permute", "transpose.int", "t", "slice.Tensor", "select.int", "cat",
    "stack", "expand", "squeeze.dim", "squeeze", "unsqueeze", "flatten.using_ints", "clone", "contiguous",
    "index.Tensor", "index_select", "gather", "flip", "add.Tensor", "sub.Tensor", "mul.Tensor", "add.Scalar",
    "sub.Scalar", "mul.Scalar", "neg", "where.self", "zeros_like", "ones_like", "full_like",
    "bitwise_and.Tensor", "bitwise_or.Tensor", "bitwise_xor.Tensor", "bitwise_not", "bitwise_and.Scalar",
    "bitwise_or.Scalar", "bitwise_xor.Scalar", "__and__.Tensor", "__or__.Tensor", "__xor__.Tensor",
    "__and__.Scalar", "__or__.Scalar", "__xor__.Scalar",
    "bitwise_left_shift.Tensor", "bitwise_left_shift.Scalar", "__lshift__.Tensor", "__lshift__.Scalar",
) | {"torch.vtensor.literal"}

# Ops whose conversions compute the right value from zero-extended operands. eq/ne are
# here too: a float scalar (`x == 200.0`) compares values, not bits.
WIDENED = _aten(
    "div.Tensor", "div.Scalar", "div.Tensor_mode", "div.Scalar_mode",
    "remainder.Tensor", "remainder.Scalar", "fmod.Tensor", "fmod.Scalar", "pow.Tensor_Scalar", "pow.Tensor_Tensor",
    "maximum", "minimum", "clamp", "clamp.Tensor", "clamp_min.Tensor", "clamp_max.Tensor", "threshold_backward",
    "amax", "amin", "max", "min", "max.dim", "min.dim", "argmax", "argmin", "sort",
    "sum", "sum.dim_IntList", "cumsum", "prod", "prod.dim_int", "cumprod",
    *[f"{predicate}.{form}" for predicate in ("eq", "ne", "lt", "le", "gt", "ge") for form in ("Tensor", "Scalar")],
    "logical_and", "logical_or", "logical_xor", "logical_not",
    "bitwise_right_shift.Tensor", "bitwise_right_shift.Scalar", "__rshift__.Tensor", "__rshift__.Scalar",
    "to.dtype", "_to_copy", "type_as",
    *ew.UNARY_OP_CLASSES,  # abs, sign, and exp or sqrt of integers, which compute in float
) | {"torch.prims.convert_element_type",
    # PT2E's uint8 activations: dequantize reads them as values, quantize clamps into [qmin, qmax] first
    "torch.quantized_decomposed.quantize_per_tensor", "torch.quantized_decomposed.dequantize_per_tensor"}

# Casts may make unsigned integers from others as they stand: data.cast gives torch's bits.
TO_UNSIGNED = {"torch.aten.to.dtype", "torch.aten._to_copy", "torch.prims.convert_element_type"}

SIGNED_ONLY = "unsigned integers: mlc's integer ops are signed"
_UNSIGNED = re.compile(r",ui(\d+)>$")
_SIGNED_0D = re.compile(r"^!torch\.vtensor<\[\],si\d+>$")
_BOOL = re.compile(r",i1>$")


class UnsignedDeclined(InstanceDeclined):
    """An op on unsigned integers that mlc's signed ops cannot compute (the reason says why)."""


def unsigned_width(type_: ir.Type) -> int | None:
    """8 for `!torch.vtensor<[4],ui8>`; None for a type that is not of unsigned integers."""
    match = _UNSIGNED.search(str(type_))
    return int(match.group(1)) if match else None


def is_unsigned(type_: ir.Type) -> bool:
    """Whether a torch value type is a tensor of unsigned integers (`!torch.vtensor<[4],ui8>`)."""
    return unsigned_width(type_) is not None


def widened_element(torch_type: ir.Type) -> ir.Type:
    """The signed type twice as wide as an unsigned tensor's elements: i16 for uint8."""
    return ir.IntegerType.get_signless(2 * unsigned_width(torch_type))


def zero_extended(value: ir.Value, torch_type: ir.Type) -> ir.Value:
    """An unsigned tensor (`value`, signless) in its widened type: mlc.cast extends the
    sign, so the bits above the unsigned type's are masked off. Others as they are."""
    width = unsigned_width(torch_type)
    if width is None:
        return value
    wide = cast_to(value, widened_element(torch_type))
    return bw.BitwiseAndOp(wide, splat(2 ** width - 1, wide.type.element_type), wide.type).result


def narrowed(value: ir.Value, torch_type: ir.Type) -> ir.Value:
    """A widened result back in its unsigned type's width (truncation); others as they are."""
    width = unsigned_width(torch_type)
    return value if width is None else cast_to(value, ir.IntegerType.get_signless(width))


def wrapped(value: int, torch_type: ir.Type) -> int:
    """An integer scalar as torch converts it to the unsigned type: modulo 2^width."""
    return value % 2 ** unsigned_width(torch_type)


def _tensor_operand_types(op: ir.Operation) -> list[ir.Type]:
    """The types of the op's operands, with the tensors of a list (`cat`'s) in place of the list."""
    types = []
    for operand in op.operands:
        producer = operand.owner
        if not isinstance(producer, ir.Block) and producer.name == "torch.prim.ListConstruct":
            types.extend(element.type for element in producer.operands)
        else:
            types.append(operand.type)
    return types


def unsigned_type(op: ir.Operation) -> ir.Type | None:
    """The first unsigned tensor type the op reads or makes; None if it has none."""
    types = [*_tensor_operand_types(op), *(result.type for result in op.results)]
    return next((t for t in types if is_unsigned(t)), None)


def computes_in_unsigned(op: ir.Operation) -> bool:
    """Whether torch computes the op in its unsigned type: it makes one, or it compares
    (every result bool), where an integer scalar takes the tensor's type."""
    results = [str(result.type) for result in op.results]
    return any(is_unsigned(result.type) for result in op.results) or all(_BOOL.search(r) for r in results)


def needs_widening(op: ir.Operation) -> bool:
    """Whether `op` converts on widened values (see the module docstring); False where it
    converts as it stands. Raises UnsignedDeclined where mlc cannot compute it."""
    operand_types = _tensor_operand_types(op)
    reads = [t for t in operand_types if is_unsigned(t)]
    makes = [r.type for r in op.results if is_unsigned(r.type)]
    if not reads and (not makes or op.name in TO_UNSIGNED):
        return False
    if op.name in SIGN_AGNOSTIC and len(makes) == len(op.results):
        return False
    if op.name not in SIGN_AGNOSTIC | WIDENED:
        raise UnsignedDeclined(SIGNED_ONLY)
    if any(unsigned_width(t) >= 64 for t in [*reads, *makes]):
        raise UnsignedDeclined("uint64: no wider signed type to compute it in")
    if computes_in_unsigned(op) and any(_SIGNED_0D.match(str(t)) for t in operand_types):
        raise UnsignedDeclined("an unsigned tensor with a 0-d signed one, which torch wraps into the unsigned type")
    return True
