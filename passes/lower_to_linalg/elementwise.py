"""Elementwise ops -> one parallel `linalg.generic` each, operands broadcast by
their indexing maps (a stretched size-1 dimension reads index 0).

Floats and integers get their own arith ops. NaN follows torch: relu, maximum,
minimum and clamp use the NaN-propagating `arith.maximumf`/`minimumf`, and
comparisons are ordered except `ne`, which is unordered (NaN != x is true).
"""

import math as pymath

from torch_mlir import ir
from torch_mlir.dialects import arith, math, scf

from ...dialects import elementwise_ops as ew
from ...dialects.op_base import float_attr, is_float
from ..constant_values import splat_of
from ..op_registry import lowers
from . import trigonometry
from .builders import constant, elementwise, index, is_bool


def _c(like: ir.Value, value: float) -> ir.Value:
    """A constant of `like`'s type, for scalar bodies."""
    return constant(like.type, value)


def _sigmoid(x):
    """1 / (1 + e^-x)."""
    return arith.divf(_c(x, 1), arith.addf(_c(x, 1), math.exp(arith.negf(x))))


# op class -> (float body, integer body or None when the op is float-only)
UNARY = {
    ew.NegOp: (arith.negf, lambda x: arith.subi(_c(x, 0), x)),
    ew.AbsOp: (math.absf, lambda x: _abs_int(x)),
    ew.ReluOp: (lambda x: arith.maximumf(x, _c(x, 0)), lambda x: arith.maxsi(x, _c(x, 0))),
    ew.ExpOp: (math.exp, None),
    ew.LogOp: (math.log, None),
    ew.SqrtOp: (math.sqrt, None),
    ew.RsqrtOp: (math.rsqrt, None),
    ew.ReciprocalOp: (lambda x: arith.divf(_c(x, 1), x), None),
    ew.TanhOp: (math.tanh, None),
    ew.SigmoidOp: (_sigmoid, None),
    ew.ErfOp: (math.erf, None),
    ew.SinOp: (trigonometry.sin, None),
    ew.CosOp: (trigonometry.cos, None),
    ew.FloorOp: (math.floor, None),
    ew.CeilOp: (math.ceil, None),
    # torch computes silu as x / (1 + e^-x)
    ew.SiluOp: (lambda x: arith.divf(x, arith.addf(_c(x, 1), math.exp(arith.negf(x)))), None),
    ew.Log1pOp: (math.log1p, None),
    ew.Expm1Op: (math.expm1, None),
    ew.Log2Op: (math.log2, None),
    ew.Log10Op: (lambda x: arith.mulf(math.log(x), _c(x, 1 / pymath.log(10))), None),  # IREE has no log10f
    ew.TanOp: (trigonometry.tan, None),
    ew.AsinOp: (math.asin, None),
    ew.AcosOp: (math.acos, None),
    ew.AtanOp: (math.atan, None),
    ew.SinhOp: (math.sinh, None),
    ew.CoshOp: (math.cosh, None),
    ew.AcoshOp: (lambda x: _acosh(x), None),
    ew.AsinhOp: (lambda x: _asinh(x), None),
    ew.AtanhOp: (lambda x: _atanh(x), None),
    ew.RoundOp: (math.roundeven, None),
    ew.TruncOp: (math.trunc, None),
    ew.SignOp: (lambda x: _sign(x, arith.cmpf, arith.CmpFPredicate.OGT, arith.CmpFPredicate.OLT, _c(x, 0)),
             lambda x: _sign(x, arith.cmpi, arith.CmpIPredicate.sgt, arith.CmpIPredicate.slt, _c(x, 0))),
}


# IREE expands math.acosh/asinh/atanh as log(x + sqrt(x^2 +- 1)): inf for x^2 past the
# float's range and all precision lost near 0 (asinh(1e-8) was 0). These are the
# log1p forms, with log(2|x|) beyond 2^28 where x^2 +- 1 is x^2.
_HUGE = 2.0 ** 28


def _log_of_twice(a):
    return arith.addf(math.log(a), _c(a, pymath.log(2)))


def _acosh(x):
    """log1p(t + sqrt(t (t + 2))) with t = x - 1: exact near 1, NaN below it."""
    t = arith.subf(x, _c(x, 1))
    near = math.log1p(arith.addf(t, math.sqrt(arith.mulf(t, arith.addf(t, _c(x, 2))))))
    return arith.select(arith.cmpf(arith.CmpFPredicate.OGT, x, _c(x, _HUGE)), _log_of_twice(x), near)


def _asinh(x):
    """sign(x) log1p(a + a^2 / (1 + sqrt(1 + a^2))) with a = |x|."""
    a = math.absf(x)
    square = arith.mulf(a, a)
    near = math.log1p(arith.addf(a, arith.divf(square, arith.addf(_c(x, 1), math.sqrt(arith.addf(_c(x, 1), square))))))
    magnitude = arith.select(arith.cmpf(arith.CmpFPredicate.OGT, a, _c(x, _HUGE)), _log_of_twice(a), near)
    return math.copysign(magnitude, x)


def _atanh(x):
    """sign(x) log1p(2a / (1 - a)) / 2 with a = |x|: +-inf at +-1, NaN beyond."""
    a = math.absf(x)
    magnitude = arith.mulf(_c(x, 0.5), math.log1p(arith.divf(arith.addf(a, a), arith.subf(_c(x, 1), a))))
    return math.copysign(magnitude, x)


def _abs_int(x):
    """-x where x < 0: IREE's Vulkan target emulates int64 with pairs of i32 and could
    not legalize `math.absi` on them (seed 150025)."""
    negative = arith.cmpi(arith.CmpIPredicate.slt, x, _c(x, 0))
    return arith.select(negative, arith.subi(_c(x, 0), x), x)


def _sign(x, compare, greater, less, otherwise):
    """1 where x > 0, -1 where x < 0, else `otherwise` (0, also for NaN, as torch.sign)."""
    negative_or_other = arith.select(compare(less, x, _c(x, 0)), _c(x, -1), otherwise)
    return arith.select(compare(greater, x, _c(x, 0)), _c(x, 1), negative_or_other)


def _floored(remainder, rhs, compare, zero_eq, less, add):
    """torch.remainder from C's truncated remainder: where it is nonzero and its
    sign differs from the divisor's, add the divisor once."""
    nonzero = compare(zero_eq, remainder, _c(remainder, 0))
    signs_differ = arith.xori(compare(less, remainder, _c(remainder, 0)), compare(less, rhs, _c(rhs, 0)))
    return arith.select(arith.andi(nonzero, signs_differ), add(remainder, rhs), remainder)


def _floor_div_float(x, y):
    """torch's floor division of floats: (x - fmod(x, y)) / y, one less where fmod's sign
    differs from y's, then floored and rounded back up when the quotient was inexact
    below (floor(x / y) alone gives 1 // 0.1 = 10, torch 9); x / y when y is 0."""
    mod = arith.remf(x, y)
    quotient = arith.divf(arith.subf(x, mod), y)
    less = arith.CmpFPredicate.OLT
    differs = arith.xori(arith.cmpf(less, mod, _c(mod, 0)), arith.cmpf(less, y, _c(y, 0)))
    adjust = arith.andi(arith.cmpf(arith.CmpFPredicate.UNE, mod, _c(mod, 0)), differs)
    quotient = arith.select(adjust, arith.subf(quotient, _c(quotient, 1)), quotient)
    floored = math.floor(quotient)
    above_half = arith.cmpf(arith.CmpFPredicate.OGT, arith.subf(quotient, floored), _c(quotient, 0.5))
    floored = arith.select(above_half, arith.addf(floored, _c(floored, 1)), floored)
    zero = math.copysign(_c(x, 0), arith.divf(x, y))
    result = arith.select(arith.cmpf(arith.CmpFPredicate.UNE, quotient, _c(quotient, 0)), floored, zero)
    return arith.select(arith.cmpf(arith.CmpFPredicate.OEQ, y, _c(y, 0)), arith.divf(x, y), result)


def _atan2(y, x):
    """atan2 as IEEE gives it, where the polynomial math.atan2 becomes in IREE does not:
    the sign of y, zeros included (atan2(-0.0, -1) came out pi, not -pi), and the
    corners of two infinities (+-pi/4 or +-3pi/4, not NaN)."""
    def infinite(v):
        return arith.cmpf(arith.CmpFPredicate.OEQ, math.absf(v), _c(v, pymath.inf))

    corner = arith.select(arith.cmpf(arith.CmpFPredicate.OGT, x, _c(x, 0)), _c(x, pymath.pi / 4), _c(x, 3 * pymath.pi / 4))
    angle = arith.select(arith.andi(infinite(y), infinite(x)), corner, math.atan2(y, x))
    return math.copysign(angle, y)


def _hypot(x, y):
    """C's hypot: the larger magnitude m times sqrt(1 + (n / m)^2), so that squaring
    neither overflows nor underflows; 0 where both are 0, infinity where either is
    infinite (a NaN beside it too), NaN where either is NaN otherwise."""
    a, b = math.absf(x), math.absf(y)
    larger, smaller = arith.maximumf(a, b), arith.minimumf(a, b)
    ratio = arith.divf(smaller, larger)
    scaled = arith.mulf(larger, math.sqrt(arith.addf(_c(x, 1), arith.mulf(ratio, ratio))))
    zero = arith.cmpf(arith.CmpFPredicate.OEQ, larger, _c(x, 0))
    infinite = arith.ori(arith.cmpf(arith.CmpFPredicate.OEQ, a, _c(x, pymath.inf)),
                         arith.cmpf(arith.CmpFPredicate.OEQ, b, _c(x, pymath.inf)))
    return arith.select(infinite, _c(x, pymath.inf), arith.select(zero, _c(x, 0), scaled))


def _remainder_float(x, y):
    return _floored(arith.remf(x, y), y, arith.cmpf, arith.CmpFPredicate.UNE, arith.CmpFPredicate.OLT, arith.addf)


def _remainder_int(x, y):
    return _floored(arith.remsi(x, y), y, arith.cmpi, arith.CmpIPredicate.ne, arith.CmpIPredicate.slt, arith.addi)


def _pow(x, y):
    """C's pow, which torch follows. math.powf alone is exp(y * log(x)) in IREE: NaN
    for every negative base and for 0^0. So take |x|^y (exactly 1 when |x| is 1),
    give it x's sign for an odd integer y, NaN for a negative x with a non-integer
    y, and 1 whenever y is 0."""
    absolute = math.absf(x)
    unit = arith.cmpf(arith.CmpFPredicate.OEQ, absolute, _c(x, 1))
    magnitude = arith.select(unit, _c(x, 1), math.powf(absolute, y))
    integral = arith.cmpf(arith.CmpFPredicate.OEQ, math.floor(y), y)
    odd = arith.cmpf(arith.CmpFPredicate.ONE, arith.remf(y, _c(y, 2)), _c(y, 0))
    signed = arith.select(arith.andi(integral, odd), math.copysign(magnitude, x), magnitude)
    negative = arith.cmpf(arith.CmpFPredicate.OLT, x, _c(x, 0))
    undefined = arith.andi(negative, arith.xori(integral, constant(integral.type, 1)))
    result = arith.select(undefined, _c(x, pymath.nan), signed)
    zero_exponent = arith.cmpf(arith.CmpFPredicate.OEQ, y, _c(y, 0))
    return arith.select(zero_exponent, _c(x, 1), result)


def _ipow(x, y):
    """x ** y by squaring over the bits of y (IREE cannot compile math.ipowi);
    a negative y, an error in torch, gives an unspecified value."""
    width = ir.IntegerType(x.type).width
    loop = scf.ForOp(index(0), index(width), index(1), [_c(x, 1), x])
    bit_index, product, square = loop.induction_variable, *loop.inner_iter_args
    with ir.InsertionPoint(loop.body):
        shift = arith.index_cast(y.type, bit_index)
        bit = arith.andi(arith.shrsi(y, shift), _c(y, 1))
        is_set = arith.cmpi(arith.CmpIPredicate.ne, bit, _c(y, 0))
        product = arith.select(is_set, arith.muli(product, square), product)
        scf.YieldOp([product, arith.muli(square, square)])
    return loop.results[0]


def _ipow_by(exponent: int):
    """x ** exponent for a constant exponent, squaring unrolled over its bits: no loop,
    whose int64 values IREE's Vulkan target (int64 emulated as pairs of i32) cannot
    compile ("failed to legalize unresolved target materialization")."""
    def body(x, _):
        product, square, rest = None, x, exponent
        while rest:
            if rest & 1:
                product = square if product is None else arith.muli(product, square)
            rest >>= 1
            if rest:
                square = arith.muli(square, square)
        return _c(x, 1) if product is None else product
    return body


def _constant_exponent(value: ir.Value) -> int | None:
    """The integer every element of `value` holds, from an `mlc.constant` or from the
    `arith.constant` it has already been lowered to; None otherwise."""
    splat = splat_of(value)
    owner = value.owner
    if splat is None and not isinstance(owner, ir.Block) and owner.name == "arith.constant":
        attr = owner.attributes["value"]
        if isinstance(attr, ir.DenseElementsAttr) and attr.is_splat:
            splat = attr.get_splat_value().value
    return splat if isinstance(splat, int) and not isinstance(splat, bool) else None


def _untrapped(divide, quotient: bool):
    """An integer division or remainder whose divisor cannot trap: x86 traps on a zero
    divisor and on INT_MIN / -1 (SIGFPE killed the process on mlir-cpu). The divisor
    is 1 where it is 0 or -1; for -1 a quotient is then negated (wrapping, as torch's
    INT_MIN // -1 gives INT_MIN) and a remainder is 0 as it should be. Where it is 0,
    torch raises ZeroDivisionError; mlc gives x (a quotient) or 0, with no error."""
    def body(x, y):
        minus_one = arith.cmpi(arith.CmpIPredicate.eq, y, _c(y, -1))
        unsafe = arith.ori(minus_one, arith.cmpi(arith.CmpIPredicate.eq, y, _c(y, 0)))
        result = divide(x, arith.select(unsafe, _c(y, 1), y))
        return arith.select(minus_one, arith.subi(_c(x, 0), x), result) if quotient else result
    return body


BINARY = {
    ew.AddOp: (arith.addf, arith.addi),
    ew.SubOp: (arith.subf, arith.subi),
    ew.MulOp: (arith.mulf, arith.muli),
    ew.DivOp: (arith.divf, _untrapped(arith.divsi, quotient=True)),
    ew.PowOp: (_pow, _ipow),
    ew.MaximumOp: (arith.maximumf, arith.maxsi),
    ew.MinimumOp: (arith.minimumf, arith.minsi),
    ew.FmodOp: (arith.remf, _untrapped(arith.remsi, quotient=False)),
    ew.RemainderOp: (_remainder_float, _untrapped(_remainder_int, quotient=False)),
    ew.FloorDivOp: (_floor_div_float, _untrapped(arith.floordivsi, quotient=True)),
    ew.Atan2Op: (_atan2, None),
    ew.HypotOp: (_hypot, None),
}

# On bools (i1, unsigned) max and min are `or` and `and`, and so is add, as torch's
# True + True is True (addi would wrap it to False).
BOOL_BINARY = {ew.MaximumOp: arith.ori, ew.MinimumOp: arith.andi, ew.AddOp: arith.ori}

COMPARE_FLOAT = {"eq": "OEQ", "ne": "UNE", "lt": "OLT", "le": "OLE", "gt": "OGT", "ge": "OGE"}
COMPARE_INT = {"eq": "eq", "ne": "ne", "lt": "slt", "le": "sle", "gt": "sgt", "ge": "sge"}
COMPARE_BOOL = {"eq": "eq", "ne": "ne", "lt": "ult", "le": "ule", "gt": "ugt", "ge": "uge"}


def _pick(bodies, element_type):
    float_body, int_body = bodies
    return float_body if is_float(element_type) else int_body


@lowers(*UNARY)
def _lower_unary(op):
    body = _pick(UNARY[type(op)], op.result.type.element_type)
    return elementwise([op.input], op.result.type, body)


@lowers(*BINARY)
def _lower_binary(op):
    kind, element_type = type(op), op.result.type.element_type
    if is_bool(element_type) and kind in BOOL_BINARY:
        body = BOOL_BINARY[kind]
    elif kind is ew.PowOp and not is_float(element_type) and (_constant_exponent(op.rhs) or -1) >= 0:
        body = _ipow_by(_constant_exponent(op.rhs))
    else:
        body = _pick(BINARY[kind], element_type)
    return elementwise([op.lhs, op.rhs], op.result.type, body)


def _gelu_erf(x):
    """0.5 * x * (1 + erf(x / sqrt(2))), torch's exact GELU."""
    inner = math.erf(arith.mulf(x, _c(x, pymath.sqrt(0.5))))
    return arith.mulf(arith.mulf(_c(x, 0.5), x), arith.addf(_c(x, 1), inner))


def _gelu_tanh(x):
    """0.5 * x * (1 + tanh(sqrt(2/pi) * (x + 0.044715 * x^3))), torch's tanh GELU."""
    cube = arith.mulf(arith.mulf(x, x), x)
    inner = arith.addf(x, arith.mulf(_c(x, 0.044715), cube))
    tanh = math.tanh(arith.mulf(_c(x, pymath.sqrt(2 / pymath.pi)), inner))
    return arith.mulf(arith.mulf(_c(x, 0.5), x), arith.addf(_c(x, 1), tanh))


# The attribute that marks a lowered GELU with its form ("none": erf, or "tanh"), so that
# the matmul library can apply it after a product (passes/library_matmuls.py).
GELU = "mlc.gelu"


@lowers(ew.GeluOp)
def _lower_gelu(op):
    approximate = ir.StringAttr(op.approximate).value
    result = elementwise([op.input], op.result.type, _gelu_tanh if approximate == "tanh" else _gelu_erf)
    result.owner.attributes[GELU] = ir.StringAttr.get(approximate)
    return result


@lowers(ew.ClampOp)
def _lower_clamp(op):
    """min(max(x, lo), hi); an infinite bound is no bound. Integer bounds round inward."""
    low, high = float_attr(op, "min"), float_attr(op, "max")
    floats = is_float(op.result.type.element_type)
    if not floats:
        low = pymath.ceil(low) if pymath.isfinite(low) else low
        high = pymath.floor(high) if pymath.isfinite(high) else high
    maximum, minimum = (arith.maximumf, arith.minimumf) if floats else (arith.maxsi, arith.minsi)

    def body(x):
        if low != -pymath.inf:
            x = maximum(x, _c(x, low))
        if high != pymath.inf:
            x = minimum(x, _c(x, high))
        return x

    return elementwise([op.input], op.result.type, body)


@lowers(ew.CompareOp)
def _lower_compare(op):
    predicate = ir.StringAttr(op.predicate).value
    if is_float(op.lhs.type.element_type):
        kind = getattr(arith.CmpFPredicate, COMPARE_FLOAT[predicate])
        compare = arith.cmpf
    else:
        table = COMPARE_BOOL if is_bool(op.lhs.type.element_type) else COMPARE_INT
        kind = getattr(arith.CmpIPredicate, table[predicate])
        compare = arith.cmpi
    return elementwise([op.lhs, op.rhs], op.result.type, lambda a, b: compare(kind, a, b))


@lowers(ew.SoftplusOp)
def _lower_softplus(op):
    """select(beta * x > threshold, x, log1p(exp(beta * x)) / beta), as torch computes it."""
    beta, threshold = float_attr(op, "beta"), float_attr(op, "threshold")

    def body(x):
        scaled = arith.mulf(x, _c(x, beta))
        soft = arith.divf(math.log1p(math.exp(scaled)), _c(x, beta))
        return arith.select(arith.cmpf(arith.CmpFPredicate.OGT, scaled, _c(x, threshold)), x, soft)

    return elementwise([op.input], op.result.type, body)


@lowers(ew.SelectOp)
def _lower_select(op):
    return elementwise([op.condition, op.on_true, op.on_false], op.result.type, arith.select)
