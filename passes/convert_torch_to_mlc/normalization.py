"""torch normalization and attention -> mlc batch_norm, layer_norm, softmax and matmuls."""

import math

import numpy as np
from torch_mlir import ir

from ...dialects import compute_ops, data_ops, elementwise_ops, normalization_ops, reduction_ops, shape_ops
from ...dialects.op_base import DYNAMIC, is_float
from ..graph import (
    boolean,
    broadcast_binary,
    cast_to,
    f64,
    i64,
    i64_array_attr,
    reshape,
    splat,
    string,
    tensor_type,
)
from .compute import matmul, transpose_last_two
from .patterns import NotConvertible, converts


def _per_channel(op, index, fill, channels, element_type):
    return splat(fill, element_type, [channels]) if op.is_none(index) else op.tensor(index)


@converts("torch.aten.batch_norm", makes=normalization_ops.BatchNormOp, keep_whole=True)
def batch_norm(op):
    if op.bool("training"):
        raise NotConvertible("batch_norm in training mode (call model.eval() first)")
    return _inference_batch_norm(op, epsilon=op.float("eps"))


def _inference_batch_norm(op, epsilon):
    if op.is_none("running_mean") or op.is_none("running_var"):
        raise NotConvertible("batch_norm without running statistics")
    input_type = op.operand_type("input")
    channels, element_type = input_type.shape[1], input_type.element_type
    scale = _per_channel(op, 1, 1.0, channels, element_type)
    offset = _per_channel(op, 2, 0.0, channels, element_type)
    return normalization_ops.BatchNormOp(
        op.tensor("input"), scale, offset, op.tensor("running_mean"), op.tensor("running_var"), i64(1), f64(epsilon), op.result_type()
    ).result


@converts("torch.aten.layer_norm", makes=normalization_ops.LayerNormOp, keep_whole=True)
def layer_norm(op):
    input_type = op.operand_type("input")
    normalized = op.ints("normalized_shape")
    axis = input_type.rank - len(normalized)
    element_type = input_type.element_type
    weight = splat(1.0, element_type, normalized) if op.is_none("weight") else op.tensor("weight")
    bias = splat(0.0, element_type, normalized) if op.is_none("bias") else op.tensor("bias")
    return normalization_ops.LayerNormOp(
        op.tensor("input"), weight, bias, i64(axis), f64(op.float("eps")), boolean(False), op.result_type()
    ).result


@converts("torch.aten.group_norm", makes=(normalization_ops.LayerNormOp, elementwise_ops.MulOp, elementwise_ops.AddOp),
          keep_whole=True)
def group_norm(op):
    """[N, C, ...] in G groups: a layer norm over each group's C/G channels and positions
    ([N, G, C/G x ...]), then the per-channel weight and bias. Kept whole: torch-mlir's
    decomposition computes the variance in float64, which a float32 model must not need
    (vulkan-spirv refuses float64)."""
    return _group_norm(op, op.int("num_groups"), op.float("eps"))


@converts("torch.aten.instance_norm", makes=(normalization_ops.LayerNormOp, normalization_ops.BatchNormOp,
                                             elementwise_ops.MulOp, elementwise_ops.AddOp), keep_whole=True)
def instance_norm(op):
    """Each sample's channels normalized on their own: a group norm with one channel per
    group; with running statistics (use_input_stats false), a batch norm. Kept whole:
    torch-mlir aborts bringing it to its backend contract."""
    if not op.bool("use_input_stats"):
        return _inference_batch_norm(op, epsilon=op.float("eps"))
    return _group_norm(op, op.operand_type("input").shape[1], op.float("eps"))


def _group_norm(op, groups: int, epsilon: float):
    input_type = op.operand_type("input")
    shape, element_type = list(input_type.shape), input_type.element_type
    if any(size < 0 for size in shape[1:]) or len(shape) < 2:  # a dynamic batch is kept by the reshapes
        raise NotConvertible("a group or instance norm of a 1-D input, or of one dynamic past its batch")
    channels = shape[1]
    per_group = math.prod(shape[1:]) // groups
    grouped = _batch_reshape(op.tensor("input"), [shape[0], groups, per_group])
    normalized = normalization_ops.LayerNormOp(
        grouped, splat(1.0, element_type, [per_group]), splat(0.0, element_type, [per_group]), i64(2),
        f64(epsilon), boolean(False), grouped.type).result
    result = _batch_reshape(normalized, shape)
    per_channel = [channels] + [1] * (len(shape) - 2)
    if not op.is_none("weight"):
        result = broadcast_binary(elementwise_ops.MulOp, result, reshape(op.tensor("weight"), per_channel))
    if not op.is_none("bias"):
        result = broadcast_binary(elementwise_ops.AddOp, result, reshape(op.tensor("bias"), per_channel))
    return result


def _batch_reshape(value: ir.Value, shape: list[int]) -> ir.Value:
    """`value` as `shape`, the same batch (maybe dynamic) and the rest regrouped: through
    [batch, everything else], a collapse then an expansion, which a dynamic batch needs."""
    flat = reshape(value, [shape[0], math.prod(value.type.shape[1:])])
    return reshape(flat, shape)


@converts("torch.aten._weight_norm_interface", makes=(reduction_ops.ReduceSumOp, elementwise_ops.SqrtOp),
          keep_whole=True)
def weight_norm(op):
    """v * (g / ||v||), the norm over every dim but `dim` (kept as 1s): (w, ||v||).
    Kept whole: torch-mlir's decomposition types the norm with v's shape, and mlc's
    reshapes then see impossible sizes (wav2vec2's positional convolution)."""
    v, g = op.tensor("v"), op.tensor("g")
    rank, element_type = v.type.rank, v.type.element_type
    dim = op.int("dim") % rank
    axes = [a for a in range(rank) if a != dim]
    norm_shape = [1 if a in axes else size for a, size in enumerate(v.type.shape)]
    squares = elementwise_ops.MulOp(v, v, v.type).result
    total = reduction_ops.ReduceSumOp(squares, i64_array_attr(axes), boolean(True),
                                      tensor_type(norm_shape, element_type)).result
    norm = elementwise_ops.SqrtOp(total, total.type).result
    scale = elementwise_ops.DivOp(g, norm, norm.type).result
    return [elementwise_ops.MulOp(v, scale, v.type).result, norm]


@converts("torch.aten.softmax.int", "torch.aten._softmax", makes=(normalization_ops.SoftmaxOp, data_ops.CastOp),
          keep_whole=True)
def softmax(op):
    """A dtype (softmax.int) or half_to_float (_softmax) casts the input to the result's
    type first, as torch computes it."""
    result_type = op.result_type()
    x = cast_to(op.tensor("self_"), result_type.element_type)
    return normalization_ops.SoftmaxOp(x, i64(op.int("dim")), result_type).result


@converts("torch.aten.log_softmax.int", "torch.aten._log_softmax",
          makes=(reduction_ops.ReduceMaxOp, reduction_ops.ReduceSumOp, elementwise_ops.ExpOp, elementwise_ops.LogOp,
                 elementwise_ops.SubOp, data_ops.CastOp))
def log_softmax(op):
    """(x - max) - log(sum(exp(x - max))) along dim, in the result's type (a dtype or
    half_to_float casts the input first). torch-mlir decomposes the forms without a
    dtype itself; this takes the rest."""
    result_type = op.result_type()
    x = cast_to(op.tensor("self_"), result_type.element_type)
    if not is_float(result_type.element_type):
        raise NotConvertible("log_softmax to an integer type")
    rank, shape = result_type.rank, list(result_type.shape)
    axis = op.int("dim") % max(rank, 1)
    if rank == 0:
        return elementwise_ops.SubOp(x, x, result_type).result  # one element: log(1)
    kept_type = tensor_type([1 if i == axis else d for i, d in enumerate(shape)], result_type.element_type)
    peak = reduction_ops.ReduceMaxOp(x, i64_array_attr([axis]), boolean(True), kept_type).result
    shifted = elementwise_ops.SubOp(x, peak, result_type).result
    total = reduction_ops.ReduceSumOp(elementwise_ops.ExpOp(shifted, result_type).result, i64_array_attr([axis]),
                                      boolean(True), kept_type).result
    return elementwise_ops.SubOp(shifted, elementwise_ops.LogOp(total, kept_type).result, result_type).result


def _causal_mask(length_q, length_k, element_type):
    """0 on and below the diagonal, -inf above, as torch's is_causal: a constant, so
    the lengths must be static."""
    if DYNAMIC in (length_q, length_k):
        raise NotConvertible("causal attention of a dynamic sequence length")
    mask = np.triu(np.full((length_q, length_k), -np.inf, dtype=np.float32), k=1)
    type_ = tensor_type([length_q, length_k], element_type)
    return data_ops.ConstantOp(ir.DenseElementsAttr.get(mask, type=type_), type_).result


def _repeat_heads(value, query):
    """[..., Hkv, S, D] -> [..., Hq, S, D] for grouped-query attention: each key/value
    head serves Hq / Hkv consecutive query heads (torch's repeat_interleave along dim
    -3), as a unit group dim broadcast to Hq / Hkv and merged with the heads."""
    if value.type.rank < 3 or query.type.rank < 3:
        raise NotConvertible("grouped-query attention (enable_gqa) of inputs without a head dim")
    shape = list(value.type.shape)
    axis = len(shape) - 3
    heads, query_heads = shape[axis], query.type.shape[-3]
    if DYNAMIC in (heads, query_heads):
        raise NotConvertible("grouped-query attention (enable_gqa) without static head counts")
    if query_heads % heads:
        raise NotConvertible(f"grouped-query attention of {query_heads} query heads over {heads} key/value heads")
    group = query_heads // heads
    if group == 1:
        return value
    with_group = reshape(value, shape[: axis + 1] + [1] + shape[axis + 1 :])
    grouped_shape = shape[: axis + 1] + [group] + shape[axis + 1 :]
    grouped = shape_ops.BroadcastOp(with_group, [], tensor_type(grouped_shape, value.type.element_type)).result
    return reshape(grouped, shape[:axis] + [query_heads] + shape[axis + 1 :])


@converts("torch.aten.scaled_dot_product_attention",
          makes=(compute_ops.MatmulOp, normalization_ops.SoftmaxOp, reduction_ops.ReduceMaxOp, shape_ops.BroadcastOp),
          keep_whole=True)
def scaled_dot_product_attention(op):
    """softmax(q @ k^T * scale + mask) @ v, in mlc ops that fusion can see. With
    enable_gqa, k and v are first repeated to q's number of heads."""
    if op.float("dropout_p") != 0.0:
        raise NotConvertible("attention with dropout")
    q, k, v = op.tensor("query"), op.tensor("key"), op.tensor("value")
    if len(op.op.operands) > 7 and op.bool("enable_gqa"):
        k, v = _repeat_heads(k, q), _repeat_heads(v, q)
    element_type = q.type.element_type
    scores_shape = list(q.type.shape[:-1]) + [k.type.shape[-2]]
    scores_type = tensor_type(scores_shape, element_type)
    scores = matmul(q, transpose_last_two(k), scores_type)
    scale = 1 / math.sqrt(q.type.shape[-1]) if op.is_none("scale") else op.float("scale")
    scores = elementwise_ops.MulOp(scores, splat(scale, element_type), scores_type).result
    if not op.is_none("attn_mask"):
        mask = op.tensor("attn_mask")
        if str(mask.type.element_type) == "i1":
            minus_inf = splat(-math.inf, element_type)
            zero = splat(0.0, element_type)
            mask = elementwise_ops.SelectOp(mask, zero, minus_inf, tensor_type(mask.type.shape, element_type)).result
        scores = elementwise_ops.AddOp(scores, mask, scores_type).result
    if op.bool("is_causal"):
        causal = _causal_mask(scores_shape[-2], scores_shape[-1], element_type)
        scores = elementwise_ops.AddOp(scores, causal, scores_type).result
    weights = normalization_ops.SoftmaxOp(scores, i64(-1), scores_type).result
    return matmul(_zero_weights_of_minus_inf(scores, weights), v, op.result_type())


def _zero_weights_of_minus_inf(scores, weights):
    """Zero weights where the scores are -inf. torch's attention gives a query whose
    scores are all -inf (every key masked, or a score overflowed) zero weights, where
    softmax alone gives 0/0 = NaN; elsewhere a -inf score's weight is 0 already, or its
    row is NaN (it holds NaN or +inf) and stays so through the product. Elementwise, so
    it joins the product's dispatch (a max over each row took one more per layer).
    mlc-form-attention folds it into mlc.attention's `zero_masked_rows`."""
    element_type = scores.type.element_type
    minus_inf = elementwise_ops.CompareOp(scores, splat(-math.inf, element_type), string("eq"),
                                          tensor_type(list(scores.type.shape), ir.IntegerType.get_signless(1))).result
    return elementwise_ops.SelectOp(minus_inf, splat(0.0, element_type), weights, weights.type).result
