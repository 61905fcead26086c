"""sin, cos and tan of f32 values of any size: the argument reduced exactly, then
`math.sin`/`math.cos` of a remainder within pi/4.

IREE's code for `math.sin`/`math.cos` reduces the argument by one multiple of pi/2 in
f32: cos(1e4 + 0.3) was off by 1.6e-4, cos(1e7 + 3) by 0.18, and cos(9.19e8) came out
-396432 (random programs, seed 175017); eager's is right at every size. Here the
reduction is Payne and Hanek's, in integers: with |x| = m * 2^E (m the 24-bit
significand), x * 2/pi modulo 4 is m times the 64 bits of 2/pi from bit E - 1 on, taken
modulo 2^64 (bits before it add multiples of 4, bits after it less than 2^-38). The top
two bits of the product are the quadrant, the rest the fraction of pi/2 left over.

The 64-bit product is built from 32-bit words, and their products from 16-bit halves:
IREE's Vulkan code emulates i64 with pairs of i32 and failed to compile it in
two-dimensional dispatches ("failed to legalize operation 'arith.constant'", sin of a
[1, 64] tensor), and IREE's CPU code could not lower `arith.mului_extended` of a 2-D
vector. Plain i32 arithmetic compiles on every target.
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
# bits -31 to 0 (zeros), 1-32, 33-64, ..., 161-192
_WORDS = [0] + [(_BITS >> (32 * (5 - i))) & (2**32 - 1) for i in range(6)]
_HALF_PI = pymath.pi / 2


def _i32(value: int) -> ir.Value:
    """An i32 constant of the unsigned 32-bit `value`."""
    return constant(ir.IntegerType.get_signless(32), value - 2**32 if value >= 2**31 else value)


def _shift(value: ir.Value, amount: ir.Value, left: bool) -> ir.Value:
    """value << amount or value >> amount (logical) for any amount >= 0: 0 from 32 on,
    where LLVM's shifts are poison."""
    clamped = arith.minsi(amount, _i32(31))
    shifted = arith.shli(value, clamped) if left else arith.shrui(value, clamped)
    return arith.select(arith.cmpi(arith.CmpIPredicate.sge, amount, _i32(32)), _i32(0), shifted)


def _window(start: ir.Value) -> tuple[ir.Value, ir.Value]:
    """The 64 bits of 2/pi from bit `start` on (1-based; before bit 1 they are 0), as
    (high, low) 32-bit words, for `start` from -31 to 105."""
    position = arith.maxsi(arith.addi(start, _i32(31)), _i32(0))  # from the first bit of _WORDS
    word, offset = arith.shrui(position, _i32(5)), arith.andi(position, _i32(31))

    def word_at(after: int) -> ir.Value:  # _WORDS[word + after], for word in 0..4
        chosen = _i32(_WORDS[4 + after])
        for k in reversed(range(4)):
            chosen = arith.select(arith.cmpi(arith.CmpIPredicate.eq, word, _i32(k)), _i32(_WORDS[k + after]), chosen)
        return chosen

    first, second, third = word_at(0), word_at(1), word_at(2)
    rest = arith.subi(_i32(32), offset)
    high = arith.ori(_shift(first, offset, left=True), _shift(second, rest, left=False))
    low = arith.ori(_shift(second, offset, left=True), _shift(third, rest, left=False))
    return high, low


def _wide_product(a: ir.Value, b: ir.Value) -> tuple[ir.Value, ir.Value]:
    """(low, high) 32-bit words of the unsigned 64-bit product a * b, from the four
    products of their 16-bit halves (each below 2^32, so exact in i32)."""
    half = _i32(0xFFFF)
    a_low, a_high = arith.andi(a, half), arith.shrui(a, _i32(16))
    b_low, b_high = arith.andi(b, half), arith.shrui(b, _i32(16))
    low_low, low_high = arith.muli(a_low, b_low), arith.muli(a_low, b_high)
    high_low, high_high = arith.muli(a_high, b_low), arith.muli(a_high, b_high)
    middle = arith.addi(arith.addi(arith.shrui(low_low, _i32(16)), arith.andi(low_high, half)),
                        arith.andi(high_low, half))  # below 3 * 2^16
    low = arith.ori(arith.shli(middle, _i32(16)), arith.andi(low_low, half))
    high = arith.addi(arith.addi(high_high, arith.shrui(low_high, _i32(16))),
                      arith.addi(arith.shrui(high_low, _i32(16)), arith.shrui(middle, _i32(16))))
    return low, high


def _radians(high: ir.Value, low: ir.Value, element: ir.Type) -> ir.Value:
    """(high * 2^32 + low) quarter turns of 2^-62, unsigned, in radians: each word
    converted on its own, so nothing cancels."""
    return arith.addf(arith.mulf(arith.uitofp(element, high), constant(element, _HALF_PI / 2**30)),
                      arith.mulf(arith.uitofp(element, low), constant(element, _HALF_PI / 2**62)))


def reduced(x: ir.Value) -> tuple[ir.Value, ir.Value]:
    """(q, r) with x = q * pi/2 + r, |r| <= pi/4 and q an i32 in 0..3 (the quadrant),
    for an f32 x; x itself and 0 where |x| <= pi/4."""
    i32 = ir.IntegerType.get_signless(32)
    bits = arith.bitcast(i32, x)
    exponent = arith.andi(arith.shrui(bits, _i32(23)), _i32(0xFF))
    significand = arith.ori(arith.andi(bits, _i32(0x7FFFFF)), _i32(0x800000))
    start = arith.subi(exponent, _i32(151))  # E - 1, with |x| = significand * 2^(exponent - 150)
    high, low = _window(start)
    product_low, carry = _wide_product(significand, low)
    product_high = arith.addi(carry, arith.muli(significand, high))  # (|x| * 2/pi mod 4) * 2^62, in two words
    quadrant = arith.shrui(product_high, _i32(30))
    fraction_high = arith.andi(product_high, _i32(2**30 - 1))
    upper = arith.cmpi(arith.CmpIPredicate.uge, fraction_high, _i32(2**29))  # nearer the next quadrant
    # 2^62 - fraction, the distance back from the next quadrant, in two words
    borrow = arith.extui(i32, arith.cmpi(arith.CmpIPredicate.ne, product_low, _i32(0)))
    back_high = arith.subi(arith.subi(_i32(2**30), fraction_high), borrow)
    back_low = arith.subi(_i32(0), product_low)
    remainder = arith.select(upper, arith.negf(_radians(back_high, back_low, x.type)),
                             _radians(fraction_high, product_low, x.type))
    quadrant = arith.select(upper, arith.addi(quadrant, _i32(1)), quadrant)
    negative = arith.cmpi(arith.CmpIPredicate.slt, bits, _i32(0))
    remainder = arith.select(negative, arith.negf(remainder), remainder)
    quadrant = arith.andi(arith.select(negative, arith.subi(_i32(0), quadrant), quadrant), _i32(3))
    small = arith.cmpf(arith.CmpFPredicate.OLE, math.absf(x), constant(x.type, pymath.pi / 4))
    return arith.select(small, _i32(0), quadrant), arith.select(small, x, remainder)


def _in_quadrant(x: ir.Value, shift: int) -> ir.Value:
    """sin(x) (shift 0) or cos(x) (shift 1, a quarter turn on) of an f32 x; NaN for
    infinities and NaN, as sin and cos give them."""
    quadrant, r = reduced(x)
    quadrant = arith.addi(quadrant, _i32(shift))
    odd = arith.cmpi(arith.CmpIPredicate.ne, arith.andi(quadrant, _i32(1)), _i32(0))
    value = arith.select(odd, math.cos(r), math.sin(r))
    flipped = arith.cmpi(arith.CmpIPredicate.ne, arith.andi(quadrant, _i32(2)), _i32(0))
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
