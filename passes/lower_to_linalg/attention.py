"""mlc.attention -> one call of mlc's matmul plugin per head (`library`), or its steps.

On the library, a dispatch region of one workgroup calls the plugin's `mlc_attention`
once for all heads (the product of the batch dimensions), with query, key, value and
mask as vectors of their elements, the strides that read them (dense operands, or the
op's `views`: mlc-attention-views), and the result's rows; the plugin shares the heads
among its own threads and computes each head's scores with MKL, adds the mask, takes the softmax of each row and multiplies by the value, while
the scores sit in cache (driver/backends/native/mlc_attention.h). The result's rows are
written dense; mlc-attention-output-views may then move them where a transpose after
the op wanted them.

Without `library` (an mlc.attention written by hand, or for a target without the
plugin), the op becomes its steps, lowered as mlc lowers each: a batched matmul by the
transposed key, the scale, the mask, the softmax and the matmul by the value
(`zero_masked_tail` is then not used: the steps read every key, which gives the same).
"""

import math

from torch_mlir import ir

from ...dialects import compute_ops as compute
from ...dialects import elementwise_ops, normalization_ops, shape_ops
from ...dialects.compute_ops import dense_view, mask_strides
from ...dialects.op_base import bool_attr, float_attr, i64_array
from ..graph import cast_to
from ..op_registry import LOWERINGS, lowers
from .builders import expand
from .plugin import as_vector, f32_bits, plugin_call

FUNCTION = "mlc_attention"
HAS_MASK, ZERO_MASKED_ROWS, BF16_PRODUCTS, ZERO_MASKED_TAIL = 1, 2, 4, 8  # the call's flags


def _has_mask(mask: ir.Value) -> bool:
    """False for the 0-d zero mlc-form-attention gives an attention without a mask."""
    owner = mask.owner
    if isinstance(owner, ir.Block) or owner.name != "arith.constant" or mask.type.rank != 0:
        return True
    attr = owner.attributes["value"]
    return not (isinstance(attr, ir.DenseElementsAttr) and attr.is_splat and attr.get_splat_value().value == 0.0)


def _operand_views(op) -> list[int]:
    """VIEW_FIELDS of the query, key and value: the op's `views`, or those of dense
    operands; then of the output, dense [heads, M, Dv] (mlc-attention-output-views may
    set another after the lowering)."""
    views = i64_array(op, "views")
    batch, m, _, _, dv = op.sizes()
    output = dense_view([math.prod(batch), m, dv])
    if views:
        return [*views[2:], *output]
    return [field for operand in (op.query, op.key, op.value) for field in dense_view(list(operand.type.shape))] + output


def _on_library(op) -> ir.Value:
    query, key, value, mask = op.query, op.key, op.value, op.mask
    batch, m, n, d, dv = op.sizes()
    heads = math.prod(batch)
    flags = (HAS_MASK if _has_mask(mask) else 0) | (ZERO_MASKED_ROWS if bool_attr(op, "zero_masked_rows") else 0) | \
        (BF16_PRODUCTS if bool_attr(op, "bf16_products") else 0) | \
        (ZERO_MASKED_TAIL if bool_attr(op, "zero_masked_tail") else 0)
    scalars = [heads, m, n, d, dv, *mask_strides(mask.type.shape, [*batch, m, n]), *_operand_views(op),
               f32_bits(float_attr(op, "scale")), flags]
    rows = plugin_call(FUNCTION, [as_vector(v) for v in (query, key, value, mask)],
                       ir.RankedTensorType.get([heads * m, dv], query.type.element_type), scalars)
    return expand(rows, [*batch, m, dv], [list(range(len(batch) + 1)), [len(batch) + 1]]) if batch else rows


def _lowered(value: ir.Value) -> ir.Value:
    """`value`'s defining mlc op replaced by its lowering."""
    op = value.owner
    replacement = LOWERINGS[type(op.opview)](op.opview)
    value.replace_all_uses_with(replacement)
    op.erase()
    return replacement


def _steps(op) -> ir.Value:
    query, key, value, mask = op.query, op.key, op.value, op.mask
    *batch, m, d = query.type.shape
    n, dv = value.type.shape[-2:]
    heads, f32 = math.prod(batch), query.type.element_type
    def three(v):  # [..., R, C] as [heads, R, C]
        return _lowered(shape_ops.ReshapeOp(v, [], ir.RankedTensorType.get([heads, *v.type.shape[-2:]], f32)).result)

    def product(lhs, rhs, result_type):  # in bf16, summed in f32, with `bf16_products`
        if bool_attr(op, "bf16_products"):
            lhs, rhs = (_lowered(cast_to(v, ir.BF16Type.get())) for v in (lhs, rhs))
        return _lowered(compute.MatmulOp(lhs, rhs, result_type).result)

    q3, k3, v3 = three(query), three(key), three(value)
    scores_type = ir.RankedTensorType.get([heads, m, n], f32)
    key_t = _lowered(shape_ops.TransposeOp(k3, ir.DenseI64ArrayAttr.get([0, 2, 1]),
                                           ir.RankedTensorType.get([heads, d, n], f32)).result)
    scores = product(q3, key_t, scores_type)
    scale = ir.DenseElementsAttr.get_splat(ir.RankedTensorType.get([], f32), ir.FloatAttr.get(f32, float_attr(op, "scale")))
    scale = ir.Operation.create("arith.constant", results=[scale.type], attributes={"value": scale}).results[0]
    scores = _lowered(elementwise_ops.MulOp(scores, scale, scores_type).result)
    full_type = ir.RankedTensorType.get([*batch, m, n], f32)
    scores_full = _lowered(shape_ops.ReshapeOp(scores, [], full_type).result)
    scores_full = _lowered(elementwise_ops.AddOp(scores_full, mask, full_type).result)
    weights = _lowered(normalization_ops.SoftmaxOp(scores_full, ir.IntegerAttr.get(ir.IntegerType.get_signless(64), -1),
                                                   full_type).result)
    if bool_attr(op, "zero_masked_rows"):
        weights = _zero_weights_of_minus_inf(scores_full, weights)
    weights = _lowered(shape_ops.ReshapeOp(weights, [], scores_type).result)
    output = product(weights, v3, ir.RankedTensorType.get([heads, m, dv], f32))
    return _lowered(shape_ops.ReshapeOp(output, [], op.result.type).result)


def _zero_weights_of_minus_inf(scores: ir.Value, weights: ir.Value) -> ir.Value:
    """Zero weights where the scores are -inf: a row all -inf gets zeros (torch's
    attention), one holding NaN or +inf stays NaN through the product."""
    f32, i1 = scores.type.element_type, ir.IntegerType.get_signless(1)

    def splat(x):
        attr = ir.DenseElementsAttr.get_splat(ir.RankedTensorType.get([], f32), ir.FloatAttr.get(f32, x))
        return ir.Operation.create("arith.constant", results=[attr.type], attributes={"value": attr}).results[0]

    minus_inf = _lowered(elementwise_ops.CompareOp(scores, splat(-math.inf), ir.StringAttr.get("eq"),
                                                   ir.RankedTensorType.get(list(scores.type.shape), i1)).result)
    return _lowered(elementwise_ops.SelectOp(minus_inf, splat(0.0), weights, weights.type).result)


@lowers(compute.AttentionOp)
def _lower_attention(op):
    """On the plugin with `library`, else as its steps (see the module docstring)."""
    if bool_attr(op, "library"):
        return _on_library(op)
    return _steps(op)
