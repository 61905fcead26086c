"""torch elementwise ops -> mlc unary, binary, compare and select ops."""

import math

from ...dialects import elementwise_ops as ew
from .attributes import f64, string, tensor_type
from .patterns import NotConvertible, converts
from .values import cast_to, splat

UNARY = {f"torch.aten.{name}": cls for name, cls in ew.UNARY_OP_CLASSES.items()}


@converts(*UNARY)
def unary(op):
    result_type = op.result_type()
    return UNARY[op.name](cast_to(op.tensor(0), result_type.element_type), result_type).result


@converts("torch.aten.gelu")
def gelu(op):
    approximate = op.str(1)
    return ew.GeluOp(op.tensor(0), string(approximate), op.result_type()).result


@converts("torch.aten.clamp", "torch.aten.hardtanh", "torch.aten.relu6")
def clamp(op):
    if op.name == "torch.aten.relu6":
        low, high = 0.0, 6.0
    else:
        low = -math.inf if op.is_none(1) else op.float(1)
        high = math.inf if op.is_none(2) else op.float(2)
    return ew.ClampOp(op.tensor(0), f64(low), f64(high), op.result_type()).result


BINARY = {
    "add": ew.AddOp, "sub": ew.SubOp, "mul": ew.MulOp, "div": ew.DivOp,
    "pow": ew.PowOp, "maximum": ew.MaximumOp, "minimum": ew.MinimumOp,
}
COMPARE = ("eq", "ne", "lt", "le", "gt", "ge")


def _operands(op, element_type):
    """Both operands as tensors of `element_type`; a Scalar second operand becomes a 0-d constant."""
    lhs = cast_to(op.tensor(0), element_type)
    if op.name.endswith("Scalar"):
        return lhs, splat(op.float(1), element_type)
    return lhs, cast_to(op.tensor(1), element_type)


def _scaled_by_alpha(op, rhs, element_type):
    """add/sub take `alpha`: lhs + alpha * rhs."""
    if len(op.op.operands) < 3 or op.is_none(2) or op.float(2) == 1:
        return rhs
    alpha = splat(op.float(2), element_type)
    return ew.MulOp(rhs, alpha, tensor_type(rhs.type.shape, element_type)).result


@converts(
    "torch.aten.add.Tensor", "torch.aten.sub.Tensor", "torch.aten.mul.Tensor", "torch.aten.div.Tensor",
    "torch.aten.add.Scalar", "torch.aten.sub.Scalar", "torch.aten.mul.Scalar", "torch.aten.div.Scalar",
    "torch.aten.pow.Tensor_Tensor", "torch.aten.pow.Tensor_Scalar", "torch.aten.maximum", "torch.aten.minimum",
)
def binary(op):
    result_type = op.result_type()
    lhs, rhs = _operands(op, result_type.element_type)
    kind = op.name.split(".")[2]
    if kind in ("add", "sub"):
        rhs = _scaled_by_alpha(op, rhs, result_type.element_type)
    return BINARY[kind](lhs, rhs, result_type).result


@converts(*[f"torch.aten.{p}.{form}" for p in COMPARE for form in ("Tensor", "Scalar")])
def compare(op):
    lhs_type = op.operand_type(0)
    lhs, rhs = _operands(op, lhs_type.element_type)
    return ew.CompareOp(lhs, rhs, string(op.name.split(".")[2]), op.result_type()).result


@converts("torch.aten.where.self")
def where(op):
    result_type = op.result_type()
    on_true = cast_to(op.tensor(1), result_type.element_type)
    on_false = cast_to(op.tensor(2), result_type.element_type)
    return ew.SelectOp(op.tensor(0), on_true, on_false, result_type).result
