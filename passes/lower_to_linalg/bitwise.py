"""Bitwise ops -> one parallel `linalg.generic` each, as the other elementwise ops.

Shifts by the bit width or more are poison in arith, but defined in torch: a
left shift gives 0 and a right shift the sign, so the amount is guarded.
"""

from torch_mlir import ir
from torch_mlir.dialects import arith

from ...dialects import bitwise_ops as bw
from ..op_registry import lowers
from .builders import constant, elementwise


def _shift_left(x, amount):
    width = constant(amount.type, ir.IntegerType(x.type).width)
    too_far = arith.cmpi(arith.CmpIPredicate.uge, amount, width)
    return arith.select(too_far, constant(x.type, 0), arith.shli(x, amount))


def _shift_right(x, amount):
    last_bit = constant(amount.type, ir.IntegerType(x.type).width - 1)
    return arith.shrsi(x, arith.minui(amount, last_bit))


BODIES = {
    bw.BitwiseAndOp: arith.andi,
    bw.BitwiseOrOp: arith.ori,
    bw.BitwiseXorOp: arith.xori,
    bw.ShiftLeftOp: _shift_left,
    bw.ShiftRightOp: _shift_right,
}


@lowers(*BODIES)
def _lower_bitwise(op):
    return elementwise([op.lhs, op.rhs], op.result.type, BODIES[type(op)])
