"""`mlc-fold-batchnorm`: an inference batch norm folded into the conv2d or matmul before it.

With s = scale / sqrt(variance + epsilon) per output channel,
batch_norm(conv(x, W) + b) == conv(x, W * s) + (b - mean) * s + offset, and the same
for `matmul(x, W) (+ b)` normalized on its last axis (BatchNorm1d after Linear).
The new weight and bias are mlc ops on the constants, built before the new conv;
`mlc-fold-constants` turns each into one constant. Folding is done only where it is
exact: every weight and statistic a compile-time constant, each producer used by
the batch norm alone, the batch norm's axis the producer's output-channel axis.
Each batch norm left is counted with the reason it stays.
"""

import dataclasses

from torch_mlir import ir

from ..dialects import compute_ops, elementwise_ops, normalization_ops
from .graph import defining, folds_to_constant, reshape, splat
from .registry import register
from .rewriting import Pattern, PatternPass


@dataclasses.dataclass
class Producer:
    """The ops a batch norm folds into: `ops` (the last defines its input), the weight
    whose output channels it scales (along `weight_shape`), the bias, the channel axis."""

    kind: str
    ops: list
    weight: ir.Value
    bias: ir.Value | None
    axis: int
    weight_shape: list


def find_producer(value: ir.Value) -> Producer | None:
    conv = defining(value, compute_ops.Conv2dOp)
    if conv is not None:
        if conv.attributes["layout"].value == "NCHW":  # weight F x C x KH x KW
            channels = conv.weight.type.shape[0]
            return Producer("conv2d", [conv], conv.weight, conv.bias, 1, [channels, 1, 1, 1])
        return Producer("conv2d", [conv], conv.weight, conv.bias, 3, [conv.weight.type.shape[3]])  # KH x KW x C x F
    matmul = defining(value, compute_ops.MatmulOp)
    if matmul is not None:
        channels = matmul.result.type.shape[-1]
        return Producer("matmul", [matmul], matmul.rhs, None, matmul.result.type.rank - 1, [channels])
    add = defining(value, elementwise_ops.AddOp)
    if add is None:
        return None
    for product, bias in ((add.lhs, add.rhs), (add.rhs, add.lhs)):
        matmul = defining(product, compute_ops.MatmulOp)
        if matmul is not None and product.type == add.result.type and bias.type.rank == 1:
            axis = product.type.rank - 1
            return Producer("matmul", [matmul, add], matmul.rhs, bias, axis, [product.type.shape[-1]])
    return None


def refusal(bn, producer: Producer | None) -> str | None:
    """Why `bn` does not fold into `producer`, or None when it folds exactly."""
    if producer is None:
        return "input is not a conv2d or matmul"
    if bn.attributes["axis"].value % bn.input.type.rank != producer.axis:
        return "axis is not the output-channel axis"
    if any(len(list(op.result.uses)) != 1 for op in producer.ops):
        return f"{producer.kind} has other uses"
    parameters = [bn.scale, bn.offset, bn.mean, bn.variance, producer.weight]
    if not all(map(folds_to_constant, parameters + ([producer.bias] if producer.bias is not None else []))):
        return "operand not constant"
    if bn.attributes["epsilon"].value <= 0:
        return "epsilon not positive"
    return None


def folded_parameters(bn, producer: Producer) -> tuple[ir.Value, ir.Value]:
    """weight * s and (bias - mean) * s + offset, as mlc ops (bias 0 when absent)."""
    vector = bn.mean.type
    element_type = vector.element_type
    epsilon = splat(bn.attributes["epsilon"].value, element_type)
    shifted = elementwise_ops.AddOp(bn.variance, epsilon, vector).result
    inverse_std = elementwise_ops.RsqrtOp(shifted, vector).result
    s = elementwise_ops.MulOp(bn.scale, inverse_std, vector).result
    weight = elementwise_ops.MulOp(producer.weight, reshape(s, producer.weight_shape), producer.weight.type).result
    bias = producer.bias if producer.bias is not None else splat(0.0, element_type, vector.shape)
    centered = elementwise_ops.SubOp(bias, bn.mean, vector).result
    bias = elementwise_ops.AddOp(elementwise_ops.MulOp(centered, s, vector).result, bn.offset, vector).result
    return weight, bias


class FoldIntoProducer(Pattern):
    """batch_norm(conv2d or matmul (+ bias)) -> the producer with folded parameters."""

    op = normalization_ops.BatchNormOp

    def match(self, bn) -> Producer | None:
        producer = find_producer(bn.input)
        return None if refusal(bn, producer) else producer

    def rewrite(self, bn, producer: Producer) -> ir.Value:
        weight, bias = folded_parameters(bn, producer)
        first = producer.ops[0]
        if producer.kind == "conv2d":
            attributes = {name: first.attributes[name] for name in ("stride", "padding", "dilation", "groups", "layout")}
            return compute_ops.Conv2dOp(first.input, weight, **attributes, result=bn.result.type, bias=bias).result
        product = compute_ops.MatmulOp(first.lhs, weight, first.result.type).result
        return elementwise_ops.AddOp(product, bias, bn.result.type).result

    def counted_as(self, bn, producer: Producer) -> str:
        return f"folded into {producer.kind}"


@register
class FoldBatchnorm(PatternPass):
    """Folds inference batch norms into the conv2d or matmul (+ bias) that feeds them."""

    name = "mlc-fold-batchnorm"

    def patterns(self) -> list[Pattern]:
        return [FoldIntoProducer()]

    def finish(self, module: ir.Operation) -> None:
        def count_left(op):
            if isinstance(op.opview, normalization_ops.BatchNormOp):
                self.count(f"not folded: {refusal(op.opview, find_producer(op.opview.input))}")
            return ir.WalkResult.ADVANCE

        module.walk(count_left)
