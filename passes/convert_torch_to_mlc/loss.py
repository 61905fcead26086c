"""torch's negative log-likelihood loss and its gradient -> mlc.

nll_loss (torch.export's nll_loss_nd becomes nll_loss_forward, or nll_loss2d_forward
for 4-D input) picks each target's log-probability along the class axis (1, or 0
for a single sample): loss = -weight[t] * x[t], 0 where t == ignore_index. `mean`
divides the sum by the total weight of the targets not ignored (NaN when all are,
as torch), `sum` sums, `none` keeps the target's shape. The backward puts
-weight[t] * grad (over the total weight for `mean`) at each target's class and 0
elsewhere. Classes are moved last, where mlc.take_along_axis picks along them.
"""

import numpy as np

from ...dialects import elementwise_ops as ew
from ...dialects import reduction_ops as rd
from ...dialects import shape_ops
from ...dialects.op_base import DYNAMIC, is_float
from ..constant_values import make_constant
from ..graph import boolean, cast_to, i64, i64_array_attr, reshape, splat, tensor_type, transpose
from ..graph import broadcast_binary as _binary
from ..graph import broadcast_compare as _compare
from ..graph import broadcast_select as _select
from .patterns import NotConvertible, converts

NONE, MEAN, SUM = 0, 1, 2


def _negated(value):
    return ew.NegOp(value, value.type).result


def _sum_all(value):
    axes = list(range(value.type.rank))
    if not axes:
        return value
    return rd.ReduceSumOp(value, i64_array_attr(axes), boolean(False), tensor_type([], value.type.element_type)).result


def _classes_last(value):
    """(N, C, d1, ...) -> (N, d1, ..., C)."""
    rank = value.type.rank
    return transpose(value, [0, *range(2, rank), 1]) if rank > 2 else value


def _classes_back(value):
    """(N, d1, ..., C) -> (N, C, d1, ...)."""
    rank = value.type.rank
    return transpose(value, [0, rank - 1, *range(1, rank - 1)]) if rank > 2 else value


class _Targets:
    """What the forward and the backward share: per target (x's shape without the
    class axis), whether it counts, its weight (0 where ignored), and an index
    that is safe to gather at (0 where ignored)."""

    def __init__(self, op, x_type):
        target = op.tensor("target")
        if DYNAMIC in [*x_type.shape, *target.type.shape]:
            raise NotConvertible("nll_loss with dynamic shapes")
        if not is_float(x_type.element_type):
            raise NotConvertible("nll_loss of a non-float input")
        self.element_type = x_type.element_type
        self.single = x_type.rank == 1  # one sample: (C,) and a 0-d target
        batched_shape = [1] if self.single else [x_type.shape[0], *x_type.shape[2:]]
        target = reshape(target, batched_shape)
        self.counts = _compare(target, splat(op.int("ignore_index"), target.type.element_type), "ne")
        self.index = _select(self.counts, target, splat(0, target.type.element_type))
        weight = splat(1.0, self.element_type)
        if not op.is_none("weight"):
            weight = shape_ops.GatherOp(cast_to(op.tensor("weight"), self.element_type), self.index, i64(0),
                                        tensor_type(batched_shape, self.element_type)).result
        self.weight = _select(self.counts, weight, splat(0.0, self.element_type))
        self.reduction = op.int("reduction")
        if self.reduction not in (NONE, MEAN, SUM):
            raise NotConvertible(f"nll_loss reduction {self.reduction}")

    def batched(self, x):
        return reshape(x, [1, *x.type.shape]) if self.single else x


def _picked_loss(x, targets):
    """-weight[t] * x[..., t] per target, x with its classes last."""
    index = reshape(targets.index, [*targets.index.type.shape, 1])
    picked = shape_ops.TakeAlongAxisOp(x, index, i64(x.type.rank - 1), tensor_type(index.type.shape, x.type.element_type)).result
    return _negated(_binary(ew.MulOp, reshape(picked, targets.index.type.shape), targets.weight))


@converts("torch.aten.nll_loss_forward", "torch.aten.nll_loss2d_forward",
          makes=(shape_ops.TakeAlongAxisOp, shape_ops.GatherOp, shape_ops.TransposeOp, ew.CompareOp, ew.SelectOp,
                 ew.MulOp, ew.NegOp, ew.DivOp, rd.ReduceSumOp), keep_whole=True)
def nll_loss_forward(op):
    """(loss, total weight); the total weight is that of the targets not ignored
    (0 for reduction none, as torch)."""
    x = op.tensor("self_")
    targets = _Targets(op, x.type)
    loss = _picked_loss(_classes_last(targets.batched(x)), targets)
    total_weight = _sum_all(targets.weight)
    if targets.reduction == NONE:  # torch's total weight is 0 then
        value, total_weight = reshape(loss, op.result_type(0).shape), splat(0.0, targets.element_type)
    else:
        value = _sum_all(loss)
        if targets.reduction == MEAN:
            value = _binary(ew.DivOp, value, total_weight)
    return [value, reshape(total_weight, op.result_type(1).shape)]


@converts("torch.aten.nll_loss_backward", "torch.aten.nll_loss2d_backward",
          makes=(shape_ops.GatherOp, shape_ops.TransposeOp, ew.CompareOp, ew.SelectOp, ew.MulOp, ew.NegOp, ew.DivOp),
          keep_whole=True)
def nll_loss_backward(op):
    """Zeros but at each target's class: -weight[t] * grad (/ total weight for mean)."""
    x_type = op.operand_type("self_")
    targets = _Targets(op, x_type)
    grad = cast_to(op.tensor("grad_output"), targets.element_type)
    if targets.reduction == NONE:
        grad = reshape(grad, targets.weight.type.shape)
    else:
        grad = reshape(grad, [])
        if targets.reduction == MEAN:
            grad = _binary(ew.DivOp, grad, reshape(cast_to(op.tensor("total_weight"), targets.element_type), []))
    coefficient = _negated(_binary(ew.MulOp, targets.weight, grad))  # the target's shape
    classes = x_type.shape[0] if targets.single else x_type.shape[1]
    index = targets.index
    class_ids = make_constant(np.arange(classes), tensor_type([classes], index.type.element_type), "classes")
    at_target = _compare(reshape(index, [*index.type.shape, 1]), class_ids, "eq")
    value = _select(at_target, reshape(coefficient, [*index.type.shape, 1]), splat(0.0, targets.element_type))
    value = _classes_back(value)
    return reshape(value, x_type.shape) if targets.single else value


def _log_softmax_last(x):
    """(x - max) - log(sum(exp(x - max))) along the last axis."""
    axis = x.type.rank - 1
    kept_type = tensor_type([*x.type.shape[:-1], 1], x.type.element_type)
    peak = rd.ReduceMaxOp(x, i64_array_attr([axis]), boolean(True), kept_type).result
    shifted = _binary(ew.SubOp, x, peak)
    total = rd.ReduceSumOp(ew.ExpOp(shifted, shifted.type).result, i64_array_attr([axis]), boolean(True), kept_type).result
    return _binary(ew.SubOp, shifted, ew.LogOp(total, kept_type).result)


def _sum_last(value):
    return rd.ReduceSumOp(value, i64_array_attr([value.type.rank - 1]), boolean(False),
                          tensor_type(value.type.shape[:-1], value.type.element_type)).result


def _reduced(loss, reduction, divisor):
    if reduction == NONE:
        return loss
    total = _sum_all(loss)
    return _binary(ew.DivOp, total, divisor) if reduction == MEAN else total


@converts("torch.aten.cross_entropy_loss",
          makes=(rd.ReduceMaxOp, rd.ReduceSumOp, ew.ExpOp, ew.LogOp, ew.SubOp, ew.AddOp, ew.MulOp, ew.NegOp, ew.DivOp,
                 ew.SelectOp, shape_ops.TakeAlongAxisOp, shape_ops.GatherOp), keep_whole=True)
def cross_entropy(op):
    """log_softmax over the classes, then the nll loss of class-index targets, or
    -sum(p * log_softmax) for probability targets; label smoothing mixes in
    -sum(weight * log_softmax) / C as torch's `cross_entropy_loss_label_smoothing`
    does (its mean is over the total weight of the targets not ignored, as nll's).
    The mean over probability targets is over the number of targets."""
    x, target_type = op.tensor("self_"), op.operand_type("target")
    smoothing, reduction = op.float("label_smoothing"), op.int("reduction")
    if not is_float(x.type.element_type) or DYNAMIC in x.type.shape:
        raise NotConvertible("cross_entropy of a non-float or dynamic input")
    if reduction not in (NONE, MEAN, SUM):
        raise NotConvertible(f"cross_entropy reduction {reduction}")
    element_type = x.type.element_type
    single = x.type.rank == 1
    x = reshape(x, [1, *x.type.shape]) if single else x
    log_probabilities = _log_softmax_last(_classes_last(x))
    classes = log_probabilities.type.shape[-1]
    weight = None if op.is_none("weight") else cast_to(op.tensor("weight"), element_type)
    result_shape = op.result_type().shape
    if is_float(target_type.element_type):  # probabilities, x's shape
        target = _classes_last(reshape(cast_to(op.tensor("target"), element_type), x.type.shape))
        if smoothing > 0:
            target = _binary(ew.AddOp, _binary(ew.MulOp, target, splat(1 - smoothing, element_type)),
                             splat(smoothing / classes, element_type))
        product = _binary(ew.MulOp, log_probabilities, target)
        if weight is not None:
            product = _binary(ew.MulOp, product, weight)
        loss = _negated(_sum_last(product))
        count = 1
        for size in loss.type.shape:
            count *= size
        return reshape(_reduced(loss, reduction, splat(float(count), element_type)), result_shape)
    targets = _Targets(op, x.type if not single else op.operand_type("self_"))
    loss = _picked_loss(log_probabilities, targets)
    total_weight = _sum_all(targets.weight)
    value = _reduced(loss, reduction, total_weight)
    if smoothing > 0:
        spread = log_probabilities if weight is None else _binary(ew.MulOp, log_probabilities, weight)
        smooth = _select(targets.counts, _negated(_sum_last(spread)), splat(0.0, element_type))
        smooth = _reduced(smooth, reduction, total_weight)
        value = _binary(ew.AddOp, _binary(ew.MulOp, value, splat(1 - smoothing, element_type)),
                        _binary(ew.MulOp, smooth, splat(smoothing / classes, element_type)))
    return reshape(value, result_shape)
