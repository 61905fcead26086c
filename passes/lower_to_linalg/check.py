"""Lowering of mlc's run-time checks: the condition is reduced to one number, read
back to the host and checked there by `cf.assert`, which IREE compiles into a failure
of the call with the message (FAILED_PRECONDITION)."""

from torch_mlir import ir
from torch_mlir.dialects import arith, cf, tensor

from ...dialects import check_ops as check
from ..op_registry import lowers
from .builders import REDUCTION, filled, generic, identity

# What the call fails with; the driver raises it as mlc's UserError (backends/iree.py, jit.py).
DIVISION_BY_ZERO = ("integer division by zero: a divisor of the model's integer division, remainder or fmod is 0 "
                    "(PyTorch raises ZeroDivisionError)")


@lowers(check.CheckNonzeroOp)
def check_nonzero(op):
    """Whether any element is 0, as an i32 (i1 buffers are not every target's), then
    `cf.assert` that none is; the divisor goes on unchanged."""
    divisor = op.divisor
    rank = divisor.type.rank
    i32 = ir.IntegerType.get_signless(32)
    zero = arith.constant(divisor.type.element_type, 0)

    def any_zero(x, seen):
        return arith.ori(seen, arith.extui(i32, arith.cmpi(arith.CmpIPredicate.eq, x, zero)))

    found = generic([divisor], filled([], i32, 0), [identity(rank), ir.AffineMap.get(rank, 0, [])],
                    [REDUCTION] * rank, any_zero)
    none = arith.cmpi(arith.CmpIPredicate.eq, tensor.extract(found, []), arith.constant(i32, 0))
    cf.assert_(none, DIVISION_BY_ZERO)
    return divisor
