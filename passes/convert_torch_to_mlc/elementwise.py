"""torch elementwise ops -> mlc unary, binary, compare and select ops."""

import math

from torch_mlir import ir

from ...dialects import elementwise_ops as ew
from ...dialects.op_base import is_float
from ..graph import cast_to, f64, splat, string, tensor_type
from .patterns import converts

# abs takes complex tensors too: complex.py converts it
UNARY = {f"torch.aten.{name}": cls for name, cls in ew.UNARY_OP_CLASSES.items() if name != "abs"}


@converts(*UNARY, makes=UNARY, keep_whole=True)
def unary(op):
    result_type = op.result_type()
    return UNARY[op.name](cast_to(op.tensor(0), result_type.element_type), result_type).result


@converts("torch.aten.gelu", makes=ew.GeluOp, keep_whole=True)
def gelu(op):
    approximate = op.str("approximate")
    return ew.GeluOp(op.tensor("self_"), string(approximate), op.result_type()).result


@converts("torch.aten.clamp", "torch.aten.hardtanh", "torch.aten.relu6", makes=ew.ClampOp, keep_whole=True)
def clamp(op):
    if op.name == "torch.aten.relu6":
        low, high = 0.0, 6.0
    else:
        low = -math.inf if op.is_none(1) else op.float(1)
        high = math.inf if op.is_none(2) else op.float(2)
    result_type = op.result_type()  # an integer input with a float bound is promoted to float first
    x = cast_to(op.tensor("self_"), result_type.element_type)
    return ew.ClampOp(x, f64(low), f64(high), result_type).result


@converts("torch.aten.softplus", makes=ew.SoftplusOp, keep_whole=True)
def softplus(op):
    return ew.SoftplusOp(op.tensor("self_"), f64(op.float("beta")), f64(op.float("threshold")), op.result_type()).result


@converts("torch.aten.log_sigmoid", makes=(ew.MinimumOp, ew.AbsOp, ew.NegOp, ew.ExpOp, ew.Log1pOp, ew.SubOp),
          keep_whole=True)
def log_sigmoid(op):
    """min(x, 0) - log1p(exp(-|x|)), as torch computes it: torch-mlir's log(sigmoid(x))
    gave -inf below about -104, where sigmoid underflows."""
    result_type = op.result_type()
    x = cast_to(op.tensor("self_"), result_type.element_type)
    negative_part = ew.MinimumOp(x, splat(0.0, result_type.element_type), result_type).result
    tail = ew.ExpOp(ew.NegOp(ew.AbsOp(x, result_type).result, result_type).result, result_type).result
    return ew.SubOp(negative_part, ew.Log1pOp(tail, result_type).result, result_type).result


@converts("torch.aten.logit", makes=(ew.ClampOp, ew.SubOp, ew.DivOp, ew.LogOp))
def logit(op):
    """log(x / (1 - x)) in the result's type, x first clamped to [eps, 1 - eps] when eps is given."""
    result_type = op.result_type()
    element_type = result_type.element_type
    x = cast_to(op.tensor("self_"), element_type)
    if not op.is_none("eps"):
        eps = op.float("eps")
        x = ew.ClampOp(x, f64(eps), f64(1.0 - eps), result_type).result
    one_minus_x = ew.SubOp(splat(1.0, element_type), x, result_type).result
    return ew.LogOp(ew.DivOp(x, one_minus_x, result_type).result, result_type).result


BINARY = {
    "add": ew.AddOp, "sub": ew.SubOp, "mul": ew.MulOp, "div": ew.DivOp,
    "pow": ew.PowOp, "maximum": ew.MaximumOp, "minimum": ew.MinimumOp,
}
COMPARE = ("eq", "ne", "lt", "le", "gt", "ge")


def _operands(op, element_type):
    """Both operands as tensors of `element_type`; a Scalar second operand becomes a 0-d constant."""
    lhs = cast_to(op.tensor("self_"), element_type)
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
    makes=BINARY,
)
def binary(op):
    result_type = op.result_type()
    lhs, rhs = _operands(op, result_type.element_type)
    kind = op.name.split(".")[2]
    if kind in ("add", "sub"):
        rhs = _scaled_by_alpha(op, rhs, result_type.element_type)
    return BINARY[kind](lhs, rhs, result_type).result


@converts(*[f"torch.aten.{p}.{form}" for p in COMPARE for form in ("Tensor", "Scalar")], makes=ew.CompareOp)
def compare(op):
    """In torch's promoted type: an integer tensor against a float compares as floats
    (`x == 2.5` is false everywhere, not `x == 2`)."""
    predicate, result_type = op.name.split(".")[2], op.result_type()
    lhs_type = op.operand_type(0).element_type
    if op.name.endswith("Scalar"):
        if is_float(lhs_type) or op.operand("other").owner.name != "torch.constant.float":
            lhs, rhs = _operands(op, lhs_type)
            return ew.CompareOp(lhs, rhs, string(predicate), result_type).result
        return _integers_against_float(op.tensor("self_"), op.float("other"), predicate, result_type)
    rhs_type = op.operand_type(1).element_type
    common = lhs_type if is_float(lhs_type) or not is_float(rhs_type) else rhs_type
    if not is_float(common) and ir.IntegerType(rhs_type).width > ir.IntegerType(common).width:
        common = rhs_type
    lhs, rhs = cast_to(op.tensor("self_"), common), cast_to(op.tensor("other"), common)
    return ew.CompareOp(lhs, rhs, string(predicate), result_type).result


def _integers_against_float(x, value: float, predicate: str, result_type):
    """An integer tensor against a float constant, exactly, in the integers: NaN, a
    value out of the type's range or between two integers makes some predicates
    constant and moves the bound of the others (x < 2.5 is x <= 2)."""
    width = ir.IntegerType(x.type.element_type).width
    low, high = -(2 ** (width - 1)), 2 ** (width - 1) - 1

    def everywhere(answer: bool):
        return splat(float(answer), result_type.element_type, result_type.shape)

    if math.isnan(value):
        return everywhere(predicate == "ne")
    if value > high or value < low:
        above_all = value > high
        return everywhere({"eq": False, "ne": True, "lt": above_all, "le": above_all,
                           "gt": not above_all, "ge": not above_all}[predicate])
    if value != math.floor(value):
        if predicate in ("eq", "ne"):
            return everywhere(predicate == "ne")
        predicate, value = ("le", math.floor(value)) if predicate in ("lt", "le") else ("ge", math.ceil(value))
    bound = splat(int(value), x.type.element_type)
    return ew.CompareOp(x, bound, string(predicate), result_type).result


@converts("torch.aten.where.self", makes=ew.SelectOp)
def where(op):
    result_type = op.result_type()
    on_true = cast_to(op.tensor("self_"), result_type.element_type)
    on_false = cast_to(op.tensor("other"), result_type.element_type)
    return ew.SelectOp(op.tensor("condition"), on_true, on_false, result_type).result
