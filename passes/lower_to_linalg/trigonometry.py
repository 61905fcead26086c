"""sin, cos and tan of f32 values of any size: the argument reduced exactly, then
`math.sin`/`math.cos` of a remainder within pi/4.

IREE's code for `math.sin`/`math.cos` reduces the argument by one multiple of pi/2 in
f32: cos(1e4 + 0.3) was off by 1.6e-4, cos(1e7 + 3) by 0.18, and cos(9.19e8) came out
-396432 (random programs, seed 175017); eager's is right at every size. Here the
reduction is Payne and Hanek's, in integers: with |x| = m * 2^E (m the 24-bit
significand), x * 2/pi modulo 4 is m times the 64 bits of 2/pi from bit E - 1 on, taken
modulo 2^64 (bits before it add multiples of 4, bits after it less than 2^-38). The top
two bits of the product are the quadrant, the rest the fraction of pi/2 left over.
"""

import math as pymath

from torch_mlir import ir
from torch_mlir.dialects import arith, math

from .builders import constant


def _two_over_pi(bits: int) -> int:
    """floor(2/pi * 2^bits), from Machin's formula in integers."""
    guard = bits + 64

    def arctan_inverse(n: int) -> int:  # atan(1/n) * 2^guard
        total, power, k, n2 = 0, (1 << guard) // n, 0, n * n
        while power:
            term = power // (2 * k + 1)
            total += -term if k % 2 else term
            power //= n2
            k += 1
        return total

    pi = 16 * arctan_inverse(5) - 4 * arctan_inverse(239)
    return (1 << (bits + guard + 1)) // pi


_BITS = _two_over_pi(192)  # 2/pi's first 192 fraction bits: windows from bit -25 to bit 104 fit
_WORDS = [(_BITS >> shift) & (2**64 - 1) for shift in (128, 64, 0)]  # bits 1-64, 65-128, 129-192
_HALF_PI_PER_UNIT = pymath.pi / 2 / 2**62  # a fraction of 2^62 units, in radians


def _i64(value: int) -> ir.Value:
    """An i64 constant of the unsigned 64-bit `value`."""
    return constant(ir.IntegerType.get_signless(64), value - 2**64 if value >= 2**63 else value)


def _shift(value: ir.Value, amount: ir.Value, left: bool) -> ir.Value:
    """value << amount or value >> amount (logical) for any amount >= 0: 0 from 64 on,
    where LLVM's shifts are poison."""
    clamped = arith.minsi(amount, _i64(63))
    shifted = arith.shli(value, clamped) if left else arith.shrui(value, clamped)
    return arith.select(arith.cmpi(arith.CmpIPredicate.sge, amount, _i64(64)), _i64(0), shifted)


def _window(start: ir.Value) -> ir.Value:
    """The 64 bits of 2/pi from bit `start` (1-based; before bit 1 they are 0)."""
    a, b, c = (_i64(word) for word in _WORDS)
    first = _shift(a, arith.subi(_i64(1), start), left=False)  # start <= 1
    second = arith.ori(_shift(a, arith.subi(start, _i64(1)), left=True), _shift(b, arith.subi(_i64(65), start), left=False))
    third = arith.ori(_shift(b, arith.subi(start, _i64(65)), left=True), _shift(c, arith.subi(_i64(129), start), left=False))
    in_second = arith.cmpi(arith.CmpIPredicate.sle, start, _i64(65))
    in_first = arith.cmpi(arith.CmpIPredicate.sle, start, _i64(1))
    return arith.select(in_first, first, arith.select(in_second, second, third))


def reduced(x: ir.Value) -> tuple[ir.Value, ir.Value]:
    """(q, r) with x = q * pi/2 + r, |r| <= pi/4 and q an i64 in 0..3 (the quadrant),
    for an f32 x; x itself and 0 where |x| <= pi/4."""
    i32, i64 = ir.IntegerType.get_signless(32), ir.IntegerType.get_signless(64)
    bits = arith.extui(i64, arith.bitcast(i32, x))
    exponent = arith.andi(arith.shrui(bits, _i64(23)), _i64(0xFF))
    significand = arith.ori(arith.andi(bits, _i64(0x7FFFFF)), _i64(0x800000))
    start = arith.subi(exponent, _i64(151))  # E - 1, with |x| = significand * 2^(exponent - 150)
    product = arith.muli(significand, _window(start))  # (|x| * 2/pi mod 4) * 2^62
    quadrant = arith.shrui(product, _i64(62))
    fraction = arith.andi(product, _i64(2**62 - 1))
    upper = arith.cmpi(arith.CmpIPredicate.uge, fraction, _i64(2**61))  # nearer the next quadrant
    quadrant = arith.select(upper, arith.addi(quadrant, _i64(1)), quadrant)
    fraction = arith.select(upper, arith.subi(fraction, _i64(2**62)), fraction)
    remainder = arith.mulf(arith.sitofp(x.type, fraction), constant(x.type, _HALF_PI_PER_UNIT))
    negative = arith.cmpi(arith.CmpIPredicate.ne, arith.andi(bits, _i64(0x80000000)), _i64(0))
    remainder = arith.select(negative, arith.negf(remainder), remainder)
    quadrant = arith.andi(arith.select(negative, arith.subi(_i64(0), quadrant), quadrant), _i64(3))
    small = arith.cmpf(arith.CmpFPredicate.OLE, math.absf(x), constant(x.type, pymath.pi / 4))
    return arith.select(small, _i64(0), quadrant), arith.select(small, x, remainder)


def _in_quadrant(x: ir.Value, shift: int) -> ir.Value:
    """sin(x) (shift 0) or cos(x) (shift 1, a quarter turn on) of an f32 x; NaN for
    infinities and NaN, as sin and cos give them."""
    quadrant, r = reduced(x)
    quadrant = arith.addi(quadrant, _i64(shift))
    odd = arith.cmpi(arith.CmpIPredicate.ne, arith.andi(quadrant, _i64(1)), _i64(0))
    value = arith.select(odd, math.cos(r), math.sin(r))
    flipped = arith.cmpi(arith.CmpIPredicate.ne, arith.andi(quadrant, _i64(2)), _i64(0))
    value = arith.select(flipped, arith.negf(value), value)
    # told by the exponent's bits: IREE's Vulkan code folded a float comparison with inf away
    i32 = ir.IntegerType.get_signless(32)
    exponent = arith.andi(arith.bitcast(i32, x), constant(i32, 0x7F800000))
    nonfinite = arith.cmpi(arith.CmpIPredicate.eq, exponent, constant(i32, 0x7F800000))
    return arith.select(nonfinite, constant(x.type, pymath.nan), value)


def _f32(body):
    """`body` on f32; a narrower float is computed in f32 and rounded back, and f64 is
    left to `fallback` (sin and cos of f64 do not link in IREE either way)."""
    def apply(x, fallback):
        element = x.type
        if isinstance(element, ir.F32Type):
            return body(x)
        if isinstance(element, (ir.F16Type, ir.BF16Type)):
            return arith.truncf(element, body(arith.extf(ir.F32Type.get(), x)))
        return fallback(x)
    return apply


_sin = _f32(lambda x: _in_quadrant(x, 0))
_cos = _f32(lambda x: _in_quadrant(x, 1))
_tan = _f32(lambda x: arith.divf(_in_quadrant(x, 0), _in_quadrant(x, 1)))


def sin(x: ir.Value) -> ir.Value:
    return _sin(x, math.sin)


def cos(x: ir.Value) -> ir.Value:
    return _cos(x, math.cos)


def tan(x: ir.Value) -> ir.Value:
    return _tan(x, math.tan)
