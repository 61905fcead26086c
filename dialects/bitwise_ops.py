"""Bitwise ops on integer tensors, with broadcasting: and, or, xor and shifts.

They are torch's `bitwise_*` and `<<`/`>>`; on bools (i1) and/or/xor are the
logical ops. Floats have no bits to combine, so the verifier rejects them.
"""

from torch_mlir import ir
from torch_mlir.dialects import ext

from .elementwise_ops import BinaryOp
from .op_base import VerifyError, is_integer


class BitwiseOp(BinaryOp):
    """Base of bitwise ops: a BinaryOp on integers only."""

    def verify(self):
        super().verify()
        element_type = ir.RankedTensorType(self.lhs.type).element_type
        if not is_integer(element_type):
            raise VerifyError(f"requires integer operands, got {element_type}")


class BitwiseAndOp(BitwiseOp, name="bitwise_and", traits=[ext.Pure]):
    """Elementwise lhs & rhs, with broadcasting."""


class BitwiseOrOp(BitwiseOp, name="bitwise_or", traits=[ext.Pure]):
    """Elementwise lhs | rhs, with broadcasting."""


class BitwiseXorOp(BitwiseOp, name="bitwise_xor", traits=[ext.Pure]):
    """Elementwise lhs ^ rhs, with broadcasting."""


class ShiftLeftOp(BitwiseOp, name="shift_left", traits=[ext.Pure]):
    """Elementwise lhs << rhs (0 once rhs reaches the bit width), with broadcasting."""


class ShiftRightOp(BitwiseOp, name="shift_right", traits=[ext.Pure]):
    """Elementwise lhs >> rhs, arithmetic: the sign fills in (as torch's >> on signed integers), with broadcasting."""
