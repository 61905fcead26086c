"""Random ops -> one parallel `linalg.generic` each, with no inputs: the body reads
its element's row-major position from `linalg.index`, hashes it with the op's seed
(SplitMix64: the finalizer of `seed + (counter + 1) * golden gamma`, in wrapping i64
arithmetic) and turns the 64-bit word into the distribution's value. See
`dialects/random_ops.py` for what the numbers mean to a compiled model.
"""

import math as pymath

from torch_mlir import ir
from torch_mlir.dialects import arith, linalg, math

from ...dialects import random_ops as rnd
from ...dialects.op_base import DYNAMIC, float_attr, int_attr, is_float
from ..op_registry import lowers
from .builders import PARALLEL, constant, empty, generic, identity, index
from .data import convert

GAMMA = 0x9E3779B97F4A7C15  # 2^64 / golden ratio, SplitMix64's increment
MIX1, MIX2 = 0xBF58476D1CE4E5B9, 0x94D049BB133111EB  # its finalizer's multipliers
MANTISSA_BITS = {"f64": 53, "f32": 24, "f16": 11, "bf16": 8}  # a unit float k / 2^m is exact with these


def _i64() -> ir.Type:
    return ir.IntegerType.get_signless(64)


def _word_constant(value: int) -> ir.Value:
    """A 64-bit pattern as an i64 constant (two's complement above 2^63)."""
    value %= 1 << 64
    return arith.constant(_i64(), value - (1 << 64) if value >= 1 << 63 else value)


def _mix(z: ir.Value) -> ir.Value:
    """SplitMix64's finalizer (Stafford's Mix13): every output bit depends on every input bit."""
    for shift, multiplier in ((30, MIX1), (27, MIX2)):
        z = arith.muli(arith.xori(z, arith.shrui(z, _word_constant(shift))), _word_constant(multiplier))
    return arith.xori(z, arith.shrui(z, _word_constant(31)))


def _word(seed: int, counter: ir.Value) -> ir.Value:
    """The random 64-bit word of `counter` (i64) in the stream of `seed`."""
    state = arith.addi(_word_constant(seed), arith.muli(arith.addi(counter, _word_constant(1)), _word_constant(GAMMA)))
    return _mix(state)


def _position(shape: list) -> ir.Value:
    """The element's row-major position, as i64, from the loop indices (0 for a 0-d result)."""
    position = linalg.IndexOp(0).result if shape else index(0)
    for d in range(1, len(shape)):
        extent = shape[d] if isinstance(shape[d], ir.Value) else index(shape[d])
        position = arith.addi(arith.muli(position, extent), linalg.IndexOp(d).result)
    return arith.index_cast(_i64(), position)


def _unit(word: ir.Value, float_type: ir.Type, *, open_at_zero: bool = False) -> ir.Value:
    """k / 2^m for k the top m bits of `word` (m the mantissa width): uniform on [0, 1),
    or on (0, 1] with `open_at_zero` ((k + 1) / 2^m), exact in `float_type`."""
    bits = MANTISSA_BITS[str(float_type)]
    k = arith.shrui(word, _word_constant(64 - bits))
    if open_at_zero:
        k = arith.addi(k, _word_constant(1))
    return arith.mulf(arith.sitofp(float_type, k), constant(float_type, 2.0 ** -bits))


def _compute_type(element_type: ir.Type) -> ir.Type:
    """f64 stays f64; f32, f16 and bf16 are computed in f32."""
    return element_type if str(element_type) == "f64" else ir.F32Type.get()


def _generate(op, body) -> ir.Value:
    """A generic writing `body(position)` into each element of the op's result."""
    result_type = op.result.type
    given = iter(op.sizes)
    shape = [next(given) if size == DYNAMIC else size for size in result_type.shape]
    init = empty(shape, result_type.element_type)
    rank = len(shape)
    return generic([], init, [identity(rank)], [PARALLEL] * rank, lambda _: body(_position(shape)))


@lowers(rnd.RandomUniformOp)
def _lower_uniform(op):
    element_type = op.result.type.element_type
    seed, low, high = int_attr(op, "seed"), float_attr(op, "low"), float_attr(op, "high")
    compute = _compute_type(element_type)

    def body(position):
        # the unit value in the element type's own grid: rounding to it then cannot reach 1
        unit = _unit(_word(seed, position), element_type)
        if compute != element_type:
            unit = arith.extf(compute, unit)
        value = arith.addf(constant(compute, low), arith.mulf(constant(compute, high - low), unit))
        return value if compute == element_type else arith.truncf(element_type, value)

    return _generate(op, body)


def _cos_2pi(unit: ir.Value) -> ir.Value:
    """cos(2 pi u), in f32 whatever u's type: IREE's CPU target has no f64 cos (its
    f32 cos is a polynomial; f64 would call libm's, which it does not link)."""
    f32 = ir.F32Type.get()
    narrow = unit if unit.type == f32 else arith.truncf(f32, unit)
    cosine = math.cos(arith.mulf(constant(f32, 2 * pymath.pi), narrow))
    return cosine if unit.type == f32 else arith.extf(unit.type, cosine)


@lowers(rnd.RandomNormalOp)
def _lower_normal(op):
    element_type = op.result.type.element_type
    seed, mean, std = int_attr(op, "seed"), float_attr(op, "mean"), float_attr(op, "std")
    compute = _compute_type(element_type)

    def body(position):
        first = arith.muli(position, _word_constant(2))
        u1 = _unit(_word(seed, first), compute, open_at_zero=True)
        u2 = _unit(_word(seed, arith.addi(first, _word_constant(1))), compute)
        radius = math.sqrt(arith.mulf(constant(compute, -2.0), math.log(u1)))
        normal = arith.mulf(radius, _cos_2pi(u2))
        value = arith.addf(constant(compute, mean), arith.mulf(constant(compute, std), normal))
        return value if compute == element_type else arith.truncf(element_type, value)

    return _generate(op, body)


@lowers(rnd.RandomIntOp)
def _lower_int(op):
    element_type = op.result.type.element_type
    seed, low, high = int_attr(op, "seed"), int_attr(op, "low"), int_attr(op, "high")

    def body(position):
        offset = arith.remui(_word(seed, position), _word_constant(high - low))  # unsigned: the range may pass 2^63
        value = arith.addi(offset, _word_constant(low))
        if is_float(element_type):
            return arith.sitofp(element_type, value)
        return value if element_type == _i64() else convert(value, element_type)

    return _generate(op, body)
