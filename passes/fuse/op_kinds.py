"""How each mlc op fuses, in TVM's terms (relay `OpPatternKind`).

The order matters: a group's kind is the largest of its members', and fusion
rules compare kinds with `<=`.
"""

import enum


class OpKind(enum.IntEnum):
    ELEMENTWISE = 0  # result[i] depends on operand[i] only
    BROADCAST = 1  # elementwise with an operand stretched along some axes
    INJECTIVE = 2  # each result element reads one input element (reshape, transpose, slice)
    REDUCTION = 3  # result elements combine many input elements along axes
    OUT_ELEMENTWISE_FUSABLE = 4  # heavy ops whose output can absorb elementwise consumers (conv, matmul)
    OPAQUE = 8  # never fused


KINDS = {
    **dict.fromkeys(
        ["mlc.cast", "mlc.compare", "mlc.select", "mlc.gelu", "mlc.clamp",
         "mlc.neg", "mlc.abs", "mlc.relu", "mlc.exp", "mlc.log", "mlc.sqrt", "mlc.rsqrt", "mlc.reciprocal",
         "mlc.tanh", "mlc.sigmoid", "mlc.erf", "mlc.sin", "mlc.cos", "mlc.floor", "mlc.ceil", "mlc.silu"],
        OpKind.ELEMENTWISE,
    ),
    # Binary ops are ELEMENTWISE when no operand broadcasts (see `kind_of`).
    **dict.fromkeys(
        ["mlc.add", "mlc.sub", "mlc.mul", "mlc.div", "mlc.pow", "mlc.maximum", "mlc.minimum",
         "mlc.broadcast", "mlc.batch_norm"],
        OpKind.BROADCAST,
    ),
    **dict.fromkeys(
        ["mlc.reshape", "mlc.transpose", "mlc.slice", "mlc.pad", "mlc.gather", "mlc.take_along_axis"],
        OpKind.INJECTIVE,
    ),
    **dict.fromkeys(
        ["mlc.reduce_sum", "mlc.reduce_mean", "mlc.reduce_max", "mlc.reduce_min", "mlc.softmax", "mlc.layer_norm"],
        OpKind.REDUCTION,
    ),
    **dict.fromkeys(
        ["mlc.matmul", "mlc.conv2d", "mlc.max_pool2d", "mlc.avg_pool2d"],
        OpKind.OUT_ELEMENTWISE_FUSABLE,
    ),
    # Injective in TVM's terms, but lowered to slices inserted into one buffer, which
    # IREE's CPU code generation cannot vectorize together with other ops (ViT's
    # class token: "operations with large vector sizes"). It runs alone.
    "mlc.concat": OpKind.OPAQUE,
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
