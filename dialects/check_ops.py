"""Run-time checks: a value that must hold a property for the program to mean what the
model means. Each call checks it and fails, as eager PyTorch raises, instead of giving
a number that eager would not."""

from torch_mlir import ir
from torch_mlir.dialects.ext import Operand, Result

from .facts import Declined, Layout
from .op_base import MlcOp, VerifyError, is_integer, ranked


class CheckNonzeroOp(MlcOp, name="check_nonzero"):
    """`divisor` itself, checked at each call: a zero element fails the call with
    "integer division by zero", where torch's integer division, remainder and fmod
    raise ZeroDivisionError (IREE's CPU code gave 8 // 0 = 8).

    Not Pure: the check is what it is for, so it is never dropped while its value is
    used. It stays outside fusion groups: its lowering reads whether any element is 0
    back to the host, between dispatches, and fails the call there (`cf.assert`)."""

    fusion_kind = Declined("it is checked between dispatches: the host reads the flag and fails the call")
    layout_rule = Layout.FIXED

    divisor: Operand[ir.RankedTensorType]
    result: Result[ir.RankedTensorType]

    def verify(self):
        divisor_type = ranked(self.divisor, "divisor")
        if ranked(self.result, "result") != divisor_type:
            raise VerifyError(f"result type {self.result.type} must equal divisor type {divisor_type}")
        element = divisor_type.element_type
        if not is_integer(element) or ir.IntegerType(element).width == 1:
            raise VerifyError(f"divisor must be integers (a float divides by zero into inf or NaN), got {divisor_type}")
