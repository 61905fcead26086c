"""`mlc-form-gelu`: GELU's tanh approximation written out in elementwise ops becomes one
`mlc.gelu{approximate = "tanh"}`.

Hugging Face writes GPT-2's activation (`gelu_new`, NewGELUActivation) and several others
(FastGELU, GPT-J's, BLOOM's) as arithmetic:

    0.5 * x * (1 + tanh(sqrt(2 / pi) * (x + 0.044715 * x^3)))

torch exports it as eight ops, which mlc fused into an IREE dispatch of their own after
each MLP's first matmul: GPT-2 spent 2.7 ms of its 101 ms in them, on one thread. As
`mlc.gelu`, the matmul library applies it inside the matmul's call (the epilogue of
`mlc-library-matmuls`), and elsewhere it lowers to the same formula.

The pattern roots at the outer product: its factors (through products used only there)
must be x, constants whose product is 1/2, and `1 + tanh(p)`, where p, read as a
polynomial in that same x (sums, differences, products, scaling and integer powers),
is c·x + 0.044715·c·x³ with c = sqrt(2/pi) (both to a relative 1e-6). x has the result's
type: nothing broadcasts.
"""

import math

from torch_mlir import ir

from ..dialects import elementwise_ops as ew
from .constant_values import splat_of
from .graph import defining, string
from .registry import register
from .rewriting import Pattern, PatternPass

SQRT_2_OVER_PI = math.sqrt(2 / math.pi)
CUBIC = 0.044715
RELATIVE = 1e-6
Polynomial = dict[int, float]  # power of x -> coefficient


def _close(value: float, expected: float) -> bool:
    return abs(value - expected) <= RELATIVE * abs(expected)


def _factors(value: ir.Value, root: bool = False) -> list[ir.Value]:
    """The factors of a product, through inner products used only by it."""
    op = defining(value, ew.MulOp)
    if op is None or (not root and len(list(value.uses)) != 1):
        return [value]
    return _factors(op.lhs) + _factors(op.rhs)


def _one_plus_tanh(value: ir.Value) -> ir.Value | None:
    """p, where `value` is 1 + tanh(p) (either order)."""
    add = defining(value, ew.AddOp)
    if add is None:
        return None
    for one, other in ((add.lhs, add.rhs), (add.rhs, add.lhs)):
        tanh = defining(other, ew.TanhOp)
        if splat_of(one) == 1 and tanh is not None:
            return tanh.input
    return None


def _times(a: Polynomial, b: Polynomial) -> Polynomial:
    product: Polynomial = {}
    for i, ca in a.items():
        for j, cb in b.items():
            product[i + j] = product.get(i + j, 0.0) + ca * cb
    return product


def _plus(a: Polynomial, b: Polynomial, sign: float = 1.0) -> Polynomial:
    total = dict(a)
    for power, coefficient in b.items():
        total[power] = total.get(power, 0.0) + sign * coefficient
    return total


def polynomial(value: ir.Value, x: ir.Value, depth: int = 8) -> Polynomial | None:
    """`value` as a polynomial in `x` with constant coefficients, or None."""
    if value == x:
        return {1: 1.0}
    constant = splat_of(value)
    if isinstance(constant, float):
        return {0: constant}
    op = defining(value, ew.MulOp, ew.AddOp, ew.SubOp, ew.DivOp, ew.PowOp)
    if op is None or depth == 0:
        return None
    lhs = polynomial(op.lhs, x, depth - 1)
    if isinstance(op, ew.PowOp):
        exponent = splat_of(op.rhs)
        if lhs is None or not isinstance(exponent, float) or exponent not in (1.0, 2.0, 3.0):
            return None
        result = {0: 1.0}
        for _ in range(int(exponent)):
            result = _times(result, lhs)
        return result
    rhs = polynomial(op.rhs, x, depth - 1)
    if lhs is None or rhs is None:
        return None
    if isinstance(op, ew.DivOp):
        divisor = splat_of(op.rhs)
        return {p: c / divisor for p, c in lhs.items()} if isinstance(divisor, float) and divisor != 0 else None
    if isinstance(op, ew.MulOp):
        return _times(lhs, rhs)
    return _plus(lhs, rhs, 1.0 if isinstance(op, ew.AddOp) else -1.0)


def _is_tanh_argument(p: Polynomial | None) -> bool:
    """p = c x + 0.044715 c x^3 with c = sqrt(2 / pi)."""
    if p is None:
        return False
    terms = {power: c for power, c in p.items() if c != 0.0}
    return set(terms) == {1, 3} and _close(terms[1], SQRT_2_OVER_PI) and _close(terms[3], CUBIC * SQRT_2_OVER_PI)


class TanhGelu(Pattern):
    op = ew.MulOp
    statistic = "GELUs formed"

    def match(self, op):
        factors = _factors(op.result, root=True)
        tanh_arguments = [p for p in map(_one_plus_tanh, factors) if p is not None]
        if len(tanh_arguments) != 1:
            return None
        rest = [f for f in factors if _one_plus_tanh(f) is None]
        constants = [splat_of(f) for f in rest if isinstance(splat_of(f), float)]
        variables = [f for f in rest if not isinstance(splat_of(f), float)]
        if len(variables) != 1 or not _close(math.prod(constants), 0.5):
            return None
        x = variables[0]
        if x.type != op.result.type or not _is_tanh_argument(polynomial(tanh_arguments[0], x)):
            return None
        return x

    def rewrite(self, op, x):
        return ew.GeluOp(x, string("tanh"), op.result.type).result


@register
class FormGelu(PatternPass):
    """Recognizes GELU's tanh approximation written out as arithmetic."""

    name = "mlc-form-gelu"

    def patterns(self):
        return [TanhGelu()]
