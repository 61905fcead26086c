"""Elementwise ops: unary math, binary arithmetic with broadcasting,
comparison and select.

Binary ops broadcast as NumPy and PyTorch do: shapes align from the right and a
dimension of size 1 stretches. All of them fuse as elementwise ops and let a
transpose pass through every operand (`dialects/facts.py`); a binary op that
stretches an operand fuses as a broadcast.
"""

from torch_mlir import ir
from torch_mlir.dialects import ext
from torch_mlir.dialects.ext import Operand, Result

from .facts import FusionKind, Layout
from .op_base import (
    MlcOp,
    VerifyError,
    broadcast_shapes,
    expect_element_type,
    expect_same_element_type,
    expect_shape,
    float_attr,
    format_shape,
    is_float,
    ranked,
    string_choice,
)


class UnaryOp(MlcOp):
    """Base of ops computing `result[i] = f(input[i])`, same shape and type."""

    fusion_kind = FusionKind.ELEMENTWISE
    layout_rule = Layout.ELEMENTWISE
    float_only = False

    def verify(self):
        input_type = ranked(self.input, "input")
        if ranked(self.result, "result") != input_type:
            raise VerifyError(f"result type {self.result.type} must equal input type {input_type}")
        if self.float_only and not is_float(input_type.element_type):
            raise VerifyError(f"requires a floating-point tensor, got {input_type}")


class SimpleUnaryOp(UnaryOp):
    """A unary op without attributes: its input and its result."""

    input: Operand[ir.RankedTensorType]
    result: Result[ir.RankedTensorType]


# --- unary math -----------------------------------------------------------------

class NegOp(SimpleUnaryOp, name="neg", traits=[ext.Pure]):
    """Elementwise -x."""


class AbsOp(SimpleUnaryOp, name="abs", traits=[ext.Pure]):
    """Elementwise |x|."""


class ReluOp(SimpleUnaryOp, name="relu", traits=[ext.Pure]):
    """Elementwise max(x, 0)."""


class ExpOp(SimpleUnaryOp, name="exp", traits=[ext.Pure]):
    """Elementwise e^x."""

    float_only = True


class LogOp(SimpleUnaryOp, name="log", traits=[ext.Pure]):
    """Elementwise the natural logarithm of x."""

    float_only = True


class SqrtOp(SimpleUnaryOp, name="sqrt", traits=[ext.Pure]):
    """Elementwise the square root of x."""

    float_only = True


class RsqrtOp(SimpleUnaryOp, name="rsqrt", traits=[ext.Pure]):
    """Elementwise 1 / sqrt(x)."""

    float_only = True


class ReciprocalOp(SimpleUnaryOp, name="reciprocal", traits=[ext.Pure]):
    """Elementwise 1 / x."""

    float_only = True


class TanhOp(SimpleUnaryOp, name="tanh", traits=[ext.Pure]):
    """Elementwise the hyperbolic tangent of x."""

    float_only = True


class SigmoidOp(SimpleUnaryOp, name="sigmoid", traits=[ext.Pure]):
    """Elementwise 1 / (1 + e^-x)."""

    float_only = True


class ErfOp(SimpleUnaryOp, name="erf", traits=[ext.Pure]):
    """Elementwise the Gauss error function of x."""

    float_only = True


class SinOp(SimpleUnaryOp, name="sin", traits=[ext.Pure]):
    """Elementwise the sine of x."""

    float_only = True


class CosOp(SimpleUnaryOp, name="cos", traits=[ext.Pure]):
    """Elementwise the cosine of x."""

    float_only = True


class FloorOp(SimpleUnaryOp, name="floor", traits=[ext.Pure]):
    """Elementwise the largest integer <= x."""

    float_only = True


class CeilOp(SimpleUnaryOp, name="ceil", traits=[ext.Pure]):
    """Elementwise the smallest integer >= x."""

    float_only = True


class SiluOp(SimpleUnaryOp, name="silu", traits=[ext.Pure]):
    """Elementwise x * sigmoid(x)."""

    float_only = True


class Log1pOp(SimpleUnaryOp, name="log1p", traits=[ext.Pure]):
    """Elementwise log(1 + x), exact for small x."""

    float_only = True


class Expm1Op(SimpleUnaryOp, name="expm1", traits=[ext.Pure]):
    """Elementwise e^x - 1, exact for small x."""

    float_only = True


class Log2Op(SimpleUnaryOp, name="log2", traits=[ext.Pure]):
    """Elementwise the base-2 logarithm of x."""

    float_only = True


class Log10Op(SimpleUnaryOp, name="log10", traits=[ext.Pure]):
    """Elementwise the base-10 logarithm of x."""

    float_only = True


class TanOp(SimpleUnaryOp, name="tan", traits=[ext.Pure]):
    """Elementwise the tangent of x."""

    float_only = True


class AsinOp(SimpleUnaryOp, name="asin", traits=[ext.Pure]):
    """Elementwise the arcsine of x."""

    float_only = True


class AcosOp(SimpleUnaryOp, name="acos", traits=[ext.Pure]):
    """Elementwise the arccosine of x."""

    float_only = True


class AtanOp(SimpleUnaryOp, name="atan", traits=[ext.Pure]):
    """Elementwise the arctangent of x."""

    float_only = True


class SinhOp(SimpleUnaryOp, name="sinh", traits=[ext.Pure]):
    """Elementwise the hyperbolic sine of x."""

    float_only = True


class CoshOp(SimpleUnaryOp, name="cosh", traits=[ext.Pure]):
    """Elementwise the hyperbolic cosine of x."""

    float_only = True


class AcoshOp(SimpleUnaryOp, name="acosh", traits=[ext.Pure]):
    """Elementwise the inverse hyperbolic cosine of x (NaN below 1)."""

    float_only = True


class AsinhOp(SimpleUnaryOp, name="asinh", traits=[ext.Pure]):
    """Elementwise the inverse hyperbolic sine of x."""

    float_only = True


class AtanhOp(SimpleUnaryOp, name="atanh", traits=[ext.Pure]):
    """Elementwise the inverse hyperbolic tangent of x (+-inf at +-1, NaN beyond)."""

    float_only = True


class RoundOp(SimpleUnaryOp, name="round", traits=[ext.Pure]):
    """Elementwise x rounded to the nearest integer, halves to even (as torch.round)."""

    float_only = True


class TruncOp(SimpleUnaryOp, name="trunc", traits=[ext.Pure]):
    """Elementwise x rounded toward zero."""

    float_only = True


class SignOp(SimpleUnaryOp, name="sign", traits=[ext.Pure]):
    """Elementwise -1, 0 or 1 as x is negative, zero or positive (NaN gives 0, as torch.sign)."""


class GeluOp(UnaryOp, name="gelu", traits=[ext.Pure]):
    """GELU, `x * Phi(x)`: `approximate` is "none" (erf form) or "tanh", as in torch."""

    float_only = True
    input: Operand[ir.RankedTensorType]
    approximate: ir.StringAttr
    result: Result[ir.RankedTensorType]

    def verify(self):
        super().verify()
        string_choice(self, "approximate", ("none", "tanh"))


class ClampOp(UnaryOp, name="clamp", traits=[ext.Pure]):
    """`min(max(x, min), max)`; the bounds are f64 attributes (use +-inf for none).
    min > max is valid and gives max everywhere, as torch.clamp does."""

    input: Operand[ir.RankedTensorType]
    min: ir.FloatAttr
    max: ir.FloatAttr
    result: Result[ir.RankedTensorType]


class SoftplusOp(UnaryOp, name="softplus", traits=[ext.Pure]):
    """Elementwise `log(1 + exp(beta * x)) / beta`, and x itself where `beta * x >
    threshold` (torch's softplus: there the two agree to the float's precision)."""

    float_only = True

    input: Operand[ir.RankedTensorType]
    beta: ir.FloatAttr
    threshold: ir.FloatAttr
    result: Result[ir.RankedTensorType]

    def verify(self):
        super().verify()
        if float_attr(self, "beta") == 0:
            raise VerifyError("beta must not be zero")


def broadcast_result_shape(lhs, rhs) -> list[int]:
    shape = broadcast_shapes(ranked(lhs, "lhs").shape, ranked(rhs, "rhs").shape)
    if shape is None:
        raise VerifyError(
            f"operand shapes {format_shape(lhs.type.shape)} and "
            f"{format_shape(rhs.type.shape)} are not broadcast-compatible"
        )
    return shape


class BinaryOp(MlcOp):
    """Base of ops computing `result = f(lhs, rhs)` with broadcasting."""

    fusion_kind = FusionKind.BROADCAST
    layout_rule = Layout.ELEMENTWISE
    float_only = False
    lhs: Operand[ir.RankedTensorType]
    rhs: Operand[ir.RankedTensorType]
    result: Result[ir.RankedTensorType]

    def fusion(self) -> FusionKind:
        """Elementwise when no operand is stretched to the result's shape."""
        shape = list(self.result.type.shape)
        same = all(list(operand.type.shape) == shape for operand in self.operation.operands)
        return FusionKind.ELEMENTWISE if same else FusionKind.BROADCAST

    def verify(self):
        element_type = expect_same_element_type([self.lhs, self.rhs], "operands")
        if self.float_only and not is_float(element_type):
            raise VerifyError(f"requires floating-point operands, got {element_type}")
        expect_shape(self.result, broadcast_result_shape(self.lhs, self.rhs), "result")
        expect_element_type(self.result, element_type, "result")


# --- binary arithmetic ----------------------------------------------------------

class AddOp(BinaryOp, name="add", traits=[ext.Pure]):
    """Elementwise lhs + rhs, with broadcasting."""


class SubOp(BinaryOp, name="sub", traits=[ext.Pure]):
    """Elementwise lhs - rhs, with broadcasting."""


class MulOp(BinaryOp, name="mul", traits=[ext.Pure]):
    """Elementwise lhs * rhs, with broadcasting."""


class DivOp(BinaryOp, name="div", traits=[ext.Pure]):
    """Elementwise lhs / rhs (true division for floats, truncating for integers), with broadcasting."""


class PowOp(BinaryOp, name="pow", traits=[ext.Pure]):
    """Elementwise lhs ** rhs, with broadcasting."""


class MaximumOp(BinaryOp, name="maximum", traits=[ext.Pure]):
    """Elementwise max(lhs, rhs), with broadcasting."""


class MinimumOp(BinaryOp, name="minimum", traits=[ext.Pure]):
    """Elementwise min(lhs, rhs), with broadcasting."""


class FmodOp(BinaryOp, name="fmod", traits=[ext.Pure]):
    """Elementwise the remainder of lhs / rhs with lhs's sign (C's fmod, torch.fmod), with broadcasting."""


class RemainderOp(BinaryOp, name="remainder", traits=[ext.Pure]):
    """Elementwise lhs - floor(lhs / rhs) * rhs, with rhs's sign (Python's %, torch.remainder), with broadcasting."""


class FloorDivOp(BinaryOp, name="floor_div", traits=[ext.Pure]):
    """Elementwise floor(lhs / rhs) (torch's floor_divide), with broadcasting."""


class Atan2Op(BinaryOp, name="atan2", traits=[ext.Pure]):
    """Elementwise the angle of the point (rhs, lhs), floats only, with broadcasting."""

    float_only = True


class HypotOp(BinaryOp, name="hypot", traits=[ext.Pure]):
    """Elementwise sqrt(lhs^2 + rhs^2) without overflow or underflow in between, floats
    only, with broadcasting: the magnitude of a complex number from its parts."""

    float_only = True


COMPARE_PREDICATES = ("eq", "ne", "lt", "le", "gt", "ge")


class CompareOp(MlcOp, name="compare", traits=[ext.Pure]):
    """Elementwise `lhs <predicate> rhs` with broadcasting; the result is a tensor of i1."""

    fusion_kind = FusionKind.ELEMENTWISE
    layout_rule = Layout.ELEMENTWISE

    lhs: Operand[ir.RankedTensorType]
    rhs: Operand[ir.RankedTensorType]
    predicate: ir.StringAttr
    result: Result[ir.RankedTensorType]

    def verify(self):
        string_choice(self, "predicate", COMPARE_PREDICATES)
        expect_same_element_type([self.lhs, self.rhs], "operands")
        expect_shape(self.result, broadcast_result_shape(self.lhs, self.rhs), "result")
        expect_element_type(self.result, ir.IntegerType.get_signless(1, self.context), "result")


class SelectOp(MlcOp, name="select", traits=[ext.Pure]):
    """`condition ? on_true : on_false` elementwise, all three broadcast together."""

    fusion_kind = FusionKind.ELEMENTWISE
    layout_rule = Layout.ELEMENTWISE

    condition: Operand[ir.RankedTensorType]
    on_true: Operand[ir.RankedTensorType]
    on_false: Operand[ir.RankedTensorType]
    result: Result[ir.RankedTensorType]

    def verify(self):
        expect_element_type(self.condition, ir.IntegerType.get_signless(1, self.context), "condition")
        element_type = expect_same_element_type([self.on_true, self.on_false], "selected values")
        shape = broadcast_shapes(self.on_true.type.shape, self.on_false.type.shape)
        if shape is not None:  # [] (two scalars) is a shape too
            shape = broadcast_shapes(ranked(self.condition, "condition").shape, shape)
        if shape is None:
            raise VerifyError("condition and values are not broadcast-compatible")
        expect_shape(self.result, shape, "result")
        expect_element_type(self.result, element_type, "result")


UNARY_OP_CLASSES = {cls.short_name(): cls for cls in SimpleUnaryOp.__subclasses__()}
