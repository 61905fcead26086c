"""Elementwise ops: unary math, binary arithmetic with broadcasting,
comparison and select.

Binary ops broadcast as NumPy and PyTorch do: shapes align from the right and a
dimension of size 1 stretches.
"""

from typing import Any

from torch_mlir import ir
from torch_mlir.dialects import ext
from torch_mlir.dialects.ext import Operand, Result

from .dialect import Mlc
from .op_base import (
    MlcOp,
    VerifyError,
    broadcast_shapes,
    define_op,
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

    float_only = False

    def verify(self):
        input_type = ranked(self.input, "input")
        if ranked(self.result, "result") != input_type:
            raise VerifyError(f"result type {self.result.type} must equal input type {input_type}")
        if self.float_only and not is_float(input_type.element_type):
            raise VerifyError(f"requires a floating-point tensor, got {input_type}")


# name -> (what it computes, whether it needs floats)
UNARY_OPS = {
    "neg": ("-x", False),
    "abs": ("|x|", False),
    "relu": ("max(x, 0)", False),
    "exp": ("e^x", True),
    "log": ("the natural logarithm of x", True),
    "sqrt": ("the square root of x", True),
    "rsqrt": ("1 / sqrt(x)", True),
    "reciprocal": ("1 / x", True),
    "tanh": ("the hyperbolic tangent of x", True),
    "sigmoid": ("1 / (1 + e^-x)", True),
    "erf": ("the Gauss error function of x", True),
    "sin": ("the sine of x", True),
    "cos": ("the cosine of x", True),
    "floor": ("the largest integer <= x", True),
    "ceil": ("the smallest integer >= x", True),
    "silu": ("x * sigmoid(x)", True),
    "log1p": ("log(1 + x), exact for small x", True),
    "expm1": ("e^x - 1, exact for small x", True),
    "log2": ("the base-2 logarithm of x", True),
    "log10": ("the base-10 logarithm of x", True),
    "tan": ("the tangent of x", True),
    "asin": ("the arcsine of x", True),
    "acos": ("the arccosine of x", True),
    "atan": ("the arctangent of x", True),
    "sinh": ("the hyperbolic sine of x", True),
    "cosh": ("the hyperbolic cosine of x", True),
    "round": ("x rounded to the nearest integer, halves to even (as torch.round)", True),
    "trunc": ("x rounded toward zero", True),
    "sign": ("-1, 0 or 1 as x is negative, zero or positive (NaN gives 0, as torch.sign)", False),
}


UNARY_FIELDS = {"input": Operand[ir.RankedTensorType], "result": Result[ir.RankedTensorType]}
UNARY_OP_CLASSES = {
    name: define_op(UnaryOp, name, UNARY_FIELDS, f"Elementwise {computes}.", __name__, float_only=float_only)
    for name, (computes, float_only) in UNARY_OPS.items()
}
globals().update({cls.__name__: cls for cls in UNARY_OP_CLASSES.values()})


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
    """`min(max(x, min), max)`; the bounds are f64 attributes (use +-inf for none)."""

    input: Operand[ir.RankedTensorType]
    min: ir.FloatAttr
    max: ir.FloatAttr
    result: Result[ir.RankedTensorType]

    def verify(self):
        super().verify()
        if float_attr(self, "min") > float_attr(self, "max"):
            raise VerifyError(f"min {self.min} must not exceed max {self.max}")


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

    float_only = False

    def verify(self):
        element_type = expect_same_element_type([self.lhs, self.rhs], "operands")
        if self.float_only and not is_float(element_type):
            raise VerifyError(f"requires floating-point operands, got {element_type}")
        expect_shape(self.result, broadcast_result_shape(self.lhs, self.rhs), "result")
        expect_element_type(self.result, element_type, "result")


BINARY_OPS = {
    "add": "lhs + rhs",
    "sub": "lhs - rhs",
    "mul": "lhs * rhs",
    "div": "lhs / rhs (true division for floats, truncating for integers)",
    "pow": "lhs ** rhs",
    "maximum": "max(lhs, rhs)",
    "minimum": "min(lhs, rhs)",
    "fmod": "the remainder of lhs / rhs with lhs's sign (C's fmod, torch.fmod)",
    "remainder": "lhs - floor(lhs / rhs) * rhs, with rhs's sign (Python's %, torch.remainder)",
    "floor_div": "floor(lhs / rhs) (torch's floor_divide)",
    "atan2": "the angle of the point (rhs, lhs), floats only",
}
FLOAT_ONLY_BINARY_OPS = ("atan2",)


BINARY_FIELDS = {
    "lhs": Operand[ir.RankedTensorType],
    "rhs": Operand[ir.RankedTensorType],
    "result": Result[ir.RankedTensorType],
}
BINARY_OP_CLASSES = {
    name: define_op(BinaryOp, name, BINARY_FIELDS, f"Elementwise {computes}, with broadcasting.", __name__,
                    float_only=name in FLOAT_ONLY_BINARY_OPS)
    for name, computes in BINARY_OPS.items()
}
globals().update({cls.__name__: cls for cls in BINARY_OP_CLASSES.values()})

COMPARE_PREDICATES = ("eq", "ne", "lt", "le", "gt", "ge")


class CompareOp(MlcOp, name="compare", traits=[ext.Pure]):
    """Elementwise `lhs <predicate> rhs` with broadcasting; the result is a tensor of i1."""

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
