"""torch's remaining elementwise arithmetic -> mlc: remainders, rounding
divisions, atan2, reversed forms (rsub, scalar ** tensor), tensor clamp
bounds, logical and bitwise ops, isfinite, and nan_to_num of integers.

Operands are first cast to the result's element type (torch's type promotion
has already chosen it), so every mlc op sees one element type.
"""

import math

import numpy as np
from torch_mlir import ir

from ...dialects import bitwise_ops as bw
from ...dialects import check_ops as check
from ...dialects import elementwise_ops as ew
from ..constant_values import value_of
from ..graph import cast_to, splat, string, tensor_type
from .patterns import NotConvertible, converts

BOOL = "i1"


def _operands(op, element_type):
    """Operands 0 and 1 as tensors of `element_type`; a Scalar operand 1 becomes a 0-d constant."""
    lhs = cast_to(op.tensor(0), element_type)
    if op.name.endswith("Scalar"):
        return lhs, splat(op.float(1), element_type)
    return lhs, cast_to(op.tensor(1), element_type)


def _binary(cls, lhs, rhs, element_type):
    shape = ew.broadcast_shapes(lhs.type.shape, rhs.type.shape)
    return cls(lhs, rhs, tensor_type(shape, element_type)).result


def checked_divisor(divisor: ir.Value) -> ir.Value:
    """An integer divisor checked for zeros at each call (`mlc.check_nonzero`), where torch
    raises ZeroDivisionError; a float divisor, or a constant with no zero, as it is."""
    if ew.is_float(divisor.type.element_type):
        return divisor
    known = value_of(divisor)
    if known is not None and np.all(np.asarray(known) != 0):
        return divisor
    return check.CheckNonzeroOp(divisor, divisor.type).result


REMAINDERS = {"remainder": ew.RemainderOp, "fmod": ew.FmodOp}


@converts(*[f"torch.aten.{name}.{form}" for name in REMAINDERS for form in ("Tensor", "Scalar")],
          makes=(*REMAINDERS.values(), check.CheckNonzeroOp))
def remainder(op):
    result_type = op.result_type()
    lhs, rhs = _operands(op, result_type.element_type)
    return REMAINDERS[op.name.split(".")[2]](lhs, checked_divisor(rhs), result_type).result


@converts("torch.aten.div.Tensor_mode", "torch.aten.div.Scalar_mode",
          makes=(ew.DivOp, ew.FloorDivOp, ew.TruncOp, check.CheckNonzeroOp))
def div_rounding(op):
    """rounding_mode "floor" is floor_div; "trunc" is integer division as is, trunc(x / y) for floats."""
    result_type = op.result_type()
    lhs, rhs = op.tensor("self_"), op.tensor("other") if op.name.endswith("Tensor_mode") else splat(op.float("other"), result_type.element_type)
    lhs, rhs = cast_to(lhs, result_type.element_type), checked_divisor(cast_to(rhs, result_type.element_type))
    mode = None if op.is_none("rounding_mode") else op.str("rounding_mode")
    if mode == "floor":
        return ew.FloorDivOp(lhs, rhs, result_type).result
    quotient = ew.DivOp(lhs, rhs, result_type).result
    if mode == "trunc" and ew.is_float(result_type.element_type):
        return ew.TruncOp(quotient, result_type).result
    return quotient


@converts("torch.aten.atan2", makes=ew.Atan2Op)
def atan2(op):
    result_type = op.result_type()
    return ew.Atan2Op(*_operands(op, result_type.element_type), result_type).result


@converts("torch.aten.rsub.Scalar", makes=ew.SubOp)
def rsub(op):
    """other - alpha * x."""
    result_type = op.result_type()
    element_type = result_type.element_type
    x = cast_to(op.tensor("self_"), element_type)
    alpha = 1.0 if op.is_none("alpha") else op.float("alpha")
    if alpha != 1.0:
        x = ew.MulOp(x, splat(alpha, element_type), tensor_type(x.type.shape, element_type)).result
    return ew.SubOp(splat(op.float("other"), element_type), x, result_type).result


@converts("torch.aten.pow.Scalar", makes=ew.PowOp)
def pow_scalar_base(op):
    """scalar ** tensor."""
    result_type = op.result_type()
    exponent = cast_to(op.tensor("exponent"), result_type.element_type)
    return ew.PowOp(splat(op.float("self_"), result_type.element_type), exponent, result_type).result


@converts("torch.aten.clamp.Tensor", "torch.aten.clamp_min.Tensor", "torch.aten.clamp_max.Tensor",
          makes=(ew.MaximumOp, ew.MinimumOp))
def clamp_tensor(op):
    """max(x, min) then min(., max), each bound broadcast; a None bound is skipped."""
    result_type = op.result_type()
    element_type = result_type.element_type
    kind = op.name.split(".")[2]
    bounds = {"clamp": [(1, ew.MaximumOp), (2, ew.MinimumOp)],
              "clamp_min": [(1, ew.MaximumOp)], "clamp_max": [(1, ew.MinimumOp)]}[kind]
    value = cast_to(op.tensor("self_"), element_type)
    for index, cls in bounds:
        if not op.is_none(index):
            value = _binary(cls, value, cast_to(op.tensor(index), element_type), element_type)
    if list(value.type.shape) != list(result_type.shape):
        raise NotConvertible("clamp whose bounds are broader than the input")
    return value


LOGICAL = {"logical_and": bw.BitwiseAndOp, "logical_or": bw.BitwiseOrOp, "logical_xor": bw.BitwiseXorOp}


def _as_bool(value):
    return cast_to(value, ir.IntegerType.get_signless(1))


@converts(*[f"torch.aten.{name}" for name in LOGICAL], makes=LOGICAL)
def logical(op):
    """Both operands as bools (nonzero is true), then and/or/xor on i1."""
    boolean = ir.IntegerType.get_signless(1)
    logical_result = _binary(LOGICAL[op.name.split(".")[2]], _as_bool(op.tensor(0)), _as_bool(op.tensor(1)), boolean)
    return cast_to(logical_result, op.result_type().element_type)


@converts("torch.aten.logical_not", makes=ew.CompareOp)
def logical_not(op):
    """x == 0, which is also `not` on bools."""
    x = op.tensor("self_")
    is_zero = _binary_compare(x, splat(0, x.type.element_type), "eq")
    return cast_to(is_zero, op.result_type().element_type)


def _binary_compare(lhs, rhs, predicate):
    shape = ew.broadcast_shapes(lhs.type.shape, rhs.type.shape)
    return ew.CompareOp(lhs, rhs, string(predicate), tensor_type(shape, ir.IntegerType.get_signless(1))).result


BITWISE = {
    "bitwise_and": bw.BitwiseAndOp, "bitwise_or": bw.BitwiseOrOp, "bitwise_xor": bw.BitwiseXorOp,
    "__and__": bw.BitwiseAndOp, "__or__": bw.BitwiseOrOp, "__xor__": bw.BitwiseXorOp,  # `mask_a & mask_b`
    "__lshift__": bw.ShiftLeftOp, "bitwise_left_shift": bw.ShiftLeftOp,
    "__rshift__": bw.ShiftRightOp, "bitwise_right_shift": bw.ShiftRightOp,
}


@converts(*[f"torch.aten.{name}.{form}" for name in BITWISE for form in ("Tensor", "Scalar")],
          makes=BITWISE)
def bitwise(op):
    result_type = op.result_type()
    if ew.is_float(result_type.element_type):
        raise NotConvertible("bitwise op on floats")
    return BITWISE[op.name.split(".")[2]](*_operands(op, result_type.element_type), result_type).result


@converts("torch.aten.bitwise_not", makes=bw.BitwiseXorOp)
def bitwise_not(op):
    """x ^ all-ones (for bools, x ^ true)."""
    result_type = op.result_type()
    all_ones = 1 if str(result_type.element_type) == BOOL else -1
    return bw.BitwiseXorOp(op.tensor("self_"), splat(all_ones, result_type.element_type), result_type).result


@converts("torch.aten.isfinite", makes=(ew.AbsOp, ew.CompareOp))
def isfinite(op):
    """|x| < inf, false for NaN; integers are always finite."""
    x = op.tensor("self_")
    if not ew.is_float(x.type.element_type):
        return _binary_compare(x, x, "eq")
    magnitude = ew.AbsOp(x, x.type).result
    return _binary_compare(magnitude, splat(math.inf, x.type.element_type), "lt")


@converts("torch.aten.nan_to_num", makes=())
def nan_to_num(op):
    """Integers hold no NaN or infinity: the input itself. torch-mlir decomposes the
    float form before mlc sees it."""
    x = op.tensor("self_")
    if ew.is_float(x.type.element_type):
        raise NotConvertible("nan_to_num of floats (torch-mlir decomposes it)")
    return x


@converts("torch.aten.xlogy.Tensor", makes=(ew.LogOp, ew.MulOp, ew.CompareOp, ew.SelectOp), keep_whole=True)
def xlogy(op):
    """x * log(y) in the result's type, 0 where x is 0 (whatever y is, but NaN), NaN where y is NaN."""
    result_type = op.result_type()
    element_type = result_type.element_type
    x, y = cast_to(op.tensor("self_"), element_type), cast_to(op.tensor("other"), element_type)
    product = _binary(ew.MulOp, x, ew.LogOp(y, y.type).result, element_type)
    x_is_zero = _binary_compare(x, splat(0, element_type), "eq")
    zeroed = ew.SelectOp(x_is_zero, splat(0, element_type), product, result_type).result
    return ew.SelectOp(_binary_compare(y, y, "ne"), y, zeroed, result_type).result


@converts("torch.aten.isclose",
          makes=(ew.CompareOp, ew.SubOp, ew.AbsOp, ew.MulOp, ew.AddOp, bw.BitwiseAndOp, bw.BitwiseOrOp), keep_whole=True)
def isclose(op):
    """torch's isclose: a == b, or |a - b| finite and <= atol + |rtol * b| (equal NaNs
    too with equal_nan). Integers take their difference as integers and compare it with
    the allowed error as f32, as torch does; bools are f32."""
    rtol, atol, equal_nan = op.float("rtol"), op.float("atol"), op.bool("equal_nan")
    a, b = op.tensor("self_"), op.tensor("other")
    f32 = ir.F32Type.get()
    if str(a.type.element_type) == BOOL:
        a, b = cast_to(a, f32), cast_to(b, f32)
    element_type = a.type.element_type
    floats = ew.is_float(element_type)
    boolean = ir.IntegerType.get_signless(1)
    close = _binary_compare(a, b, "eq")
    if equal_nan and floats:
        both_nan = _binary(bw.BitwiseAndOp, _binary_compare(a, a, "ne"), _binary_compare(b, b, "ne"), boolean)
        close = _binary(bw.BitwiseOrOp, close, both_nan, boolean)
    if rtol == 0 and atol == 0:
        return close
    difference = _binary(ew.SubOp, a, b, element_type)
    actual = cast_to(ew.AbsOp(difference, difference.type).result, element_type if floats else f32)
    error_type = actual.type.element_type
    scaled = ew.MulOp(cast_to(b, error_type), splat(rtol, error_type), tensor_type(b.type.shape, error_type)).result
    allowed = ew.AddOp(ew.AbsOp(scaled, scaled.type).result, splat(atol, error_type), scaled.type).result
    within = _binary(bw.BitwiseAndOp, _binary_compare(actual, splat(math.inf, error_type), "lt"),
                     _binary_compare(actual, allowed, "le"), boolean)
    return _binary(bw.BitwiseOrOp, close, within, boolean)
