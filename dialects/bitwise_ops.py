"""Bitwise ops on integer tensors, with broadcasting: and, or, xor and shifts.

They are torch's `bitwise_*` and `<<`/`>>`; on bools (i1) and/or/xor are the
logical ops. Floats have no bits to combine, so the verifier rejects them.
"""

from torch_mlir import ir

from .elementwise_ops import BINARY_FIELDS, BinaryOp
from .op_base import VerifyError, define_op, is_integer


class BitwiseOp(BinaryOp):
    """Base of bitwise ops: a BinaryOp on integers only."""

    def verify(self):
        super().verify()
        element_type = ir.RankedTensorType(self.lhs.type).element_type
        if not is_integer(element_type):
            raise VerifyError(f"requires integer operands, got {element_type}")


BITWISE_OPS = {
    "bitwise_and": "lhs & rhs",
    "bitwise_or": "lhs | rhs",
    "bitwise_xor": "lhs ^ rhs",
    "shift_left": "lhs << rhs (0 once rhs reaches the bit width)",
    "shift_right": "lhs >> rhs, arithmetic: the sign fills in (as torch's >> on signed integers)",
}

BITWISE_OP_CLASSES = {
    name: define_op(BitwiseOp, name, BINARY_FIELDS, f"Elementwise {computes}, with broadcasting.", __name__)
    for name, computes in BITWISE_OPS.items()
}
globals().update({cls.__name__: cls for cls in BITWISE_OP_CLASSES.values()})
