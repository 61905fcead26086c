"""How each mlc op fuses, in TVM's terms (relay `OpPatternKind`).

The order matters: a group's kind is the largest of its members', and fusion
rules compare kinds with `<=`.
"""

import enum

from ...dialects.bitwise_ops import BITWISE_OPS
from ...dialects.elementwise_ops import BINARY_OPS, UNARY_OPS
from ...dialects.reduction_ops import REDUCTIONS


class OpKind(enum.IntEnum):
    ELEMENTWISE = 0  # result[i] depends on operand[i] only
    BROADCAST = 1  # elementwise with an operand stretched along some axes
    INJECTIVE = 2  # each result element reads one input element (reshape, transpose, slice)
    REDUCTION = 3  # result elements combine many input elements along axes
    OUT_ELEMENTWISE_FUSABLE = 4  # heavy ops whose output can absorb elementwise consumers (conv, matmul)
    OPAQUE = 8  # never fused


def _mlc(*names) -> list[str]:
    return [f"mlc.{name}" for name in names]


# The elementwise tables of the dialect give the kinds of their rows, so a new row fuses as its kin.
KINDS = {
    **dict.fromkeys(_mlc(*UNARY_OPS, "cast", "compare", "select", "gelu", "clamp"), OpKind.ELEMENTWISE),
    # Binary ops are ELEMENTWISE when no operand broadcasts (see `kind_of`).
    **dict.fromkeys(_mlc(*BINARY_OPS, *BITWISE_OPS, "broadcast", "batch_norm"), OpKind.BROADCAST),
    **dict.fromkeys(_mlc("reshape", "transpose", "slice", "pad", "gather", "take_along_axis"), OpKind.INJECTIVE),
    # argmax/argmin: one reduction loop over their axis, as reduce_max.
    **dict.fromkeys(_mlc(*REDUCTIONS, "argmax", "argmin", "softmax", "layer_norm"), OpKind.REDUCTION),
    **dict.fromkeys(_mlc("matmul", "conv2d", "max_pool2d", "avg_pool2d"), OpKind.OUT_ELEMENTWISE_FUSABLE),
    # Injective in TVM's terms, but lowered to slices inserted into one buffer, which
    # IREE's CPU code generation cannot vectorize together with other ops (ViT's
    # class token: "operations with large vector sizes"). It runs alone.
    "mlc.concat": OpKind.OPAQUE,
    # Injective too, but a window copy fused with a transpose before it fails in IREE's
    # CPU code generation ("all stack allocations need to be hoisted"). Alone, its
    # dispatch also takes the pack that data tiling adds for the matmul it feeds.
    "mlc.im2col": OpKind.OPAQUE,
    # cumsum, cumprod and argsort are OPAQUE too (not listed): each lowers to a
    # generic with an extra reduction loop that reads its input at another index.
}


def kind_of(op) -> OpKind:
    """The fusion kind of an op; an elementwise binary op whose operands all have
    the result's shape is ELEMENTWISE rather than BROADCAST."""
    kind = KINDS.get(op.name, OpKind.OPAQUE)
    if kind == OpKind.BROADCAST and op.name != "mlc.broadcast" and op.name != "mlc.batch_norm":
        shape = list(op.results[0].type.shape)
        if all(list(operand.type.shape) == shape for operand in op.operands):
            return OpKind.ELEMENTWISE
    return kind
