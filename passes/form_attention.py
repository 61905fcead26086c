"""`mlc-form-attention`: attention's steps become one `mlc.attention`.

    matmul(select?(softmax(matmul(q, kT) * scale + mask...)), v)   ->   attention(q, k, v, mask)

As steps, attention is four dispatches on the CPU: the scores' matmul (with IREE's
packs of both operands), the softmax, and the matmul by the value. The scores of
every head go to memory and come back three times; a softmax over rows of 197 (ViT)
took IREE 0.9 ms of each layer, where eager takes 0.2. As one op, mlc's matmul plugin
computes each head's scores, softmax and output in one call, the scores in cache
(passes/lower_to_linalg/attention.py).

What it takes: f32 operands of static shapes; the scale a splat constant (a multiply
or a divide; none is 1); any number of additive masks, added at the softmax's shape,
that broadcast in a form the plugin reads (`mask_strides`; a splat zero is dropped);
and the select of torch's attention that zeroes the weights where the scores are -inf
(`_zero_weights_of_minus_inf` of the conversion: the softmax's input compared with
-inf; a constant false condition is dropped). Each intermediate must have no other use
(the scores: but that comparison). Reshapes that regroup the batch
dimensions between the steps are seen through (the products take [heads, rows,
columns], a mask [batch, heads, rows, columns]): the op is formed at the softmax's
shape, its operands reshaped to it, with as many heads in every operand (no
broadcasting). The key comes from kT: through the transpose that made it when there is
one (folded into one transpose of its source), else transposed anew. Runs before
`mlc-fuse`, for targets that run attention on the plugin (`library`).

With `zero-masked-tail`, the caller (mlc.generator, through the target option of that
name) promises that the keys and values past the last key any query attends to are
zeros: its cache slots not yet written. The op then says so (`zero_masked_tail`), and
the plugin reads the cache up to the last key attended to, not to its capacity.

At precision bf16, `mlc-reduce-precision` has cast both products' operands to bf16: the
op takes the f32 values before the casts, with `bf16_products`, and the plugin
multiplies them in bf16 where the CPU has AVX-512-BF16 (in f32 where not).

With `bf16-products`, every attention it forms multiplies in bf16, its operands cast or
not: the int8 pipeline asks it. There the matmuls before the attention quantize their
rows to int8, which errs far more than bf16's rounding of q, k, the weights and v:
BERT-base's logits were 2.39 % from f32 eager with f32 products and 2.38 % with bf16
ones, ViT-B/16's 3.10 and 3.20 %, and the call took 3 % (BERT-base), 5 % (ViT-B/16) and
2 % (GPT-2) less time (AMD EPYC Zen 5, one process, alternated).
"""

import math

from torch_mlir import ir

from ..dialects import compute_ops, data_ops, elementwise_ops, normalization_ops, shape_ops
from ..dialects.compute_ops import mask_strides
from ..dialects.op_base import i64_array, int_attr
from .constant_values import splat_of
from .graph import boolean, broadcast_binary, defining, f64, i64_array_attr, reshape, splat, tensor_type, transpose
from .registry import register
from .rewriting import Pattern, PatternPass


def _only_use(value: ir.Value) -> bool:
    return len(list(value.uses)) == 1


def _splat(value: ir.Value):
    """The element of a splat constant, seen through reshapes; None otherwise."""
    while (view := defining(value, shape_ops.ReshapeOp)) is not None:
        value = view.input
    return splat_of(value)


def _narrowed(value: ir.Value) -> bool:
    """Whether `value` is an f32 value that `mlc-reduce-precision` cast to bf16 for a matmul."""
    cast = defining(value, data_ops.CastOp)
    return cast is not None and _only_use(value) and str(value.type.element_type) == "bf16" and \
        str(cast.input.type.element_type) == "f32"


def _before_narrowing(value: ir.Value) -> ir.Value:
    """The f32 value before the cast where `value` is _narrowed (the op takes f32
    operands, and `bf16_products` says that its products multiply bf16)."""
    return defining(value, data_ops.CastOp).input if _narrowed(value) else value


def _is_f32(value: ir.Value) -> bool:
    return str(value.type.element_type) == "f32" and value.type.has_static_shape


class _Steps:
    """What one attention's steps hold."""

    def __init__(self):
        self.masks: list[ir.Value] = []
        self.scale = 1.0
        self.zero_rows_of: ir.Value | None = None  # the scores whose -inf entries get zero weights
        self.compared = None  # what the select compares with -inf: those scores, through views
        self.bf16_products = False  # both products' operands were cast to bf16 (mlc-reduce-precision)


def _zeroed_weights(select) -> tuple[ir.Value, ir.Value | None] | None:
    """(the softmax's weights, the value compared) of select(scores == -inf, 0, weights),
    one test per weight; (weights, None) for a constant false condition."""
    if _splat(select.on_true) != 0.0 or list(select.on_false.type.shape) != list(select.result.type.shape):
        return None
    if _splat(select.condition) is False:
        return select.on_false, None
    compare = defining(select.condition, elementwise_ops.CompareOp)
    if compare is None or ir.StringAttr(compare.attributes["predicate"]).value != "eq" or _splat(compare.rhs) != -math.inf:
        return None
    if list(compare.lhs.type.shape) != list(select.result.type.shape) or not _only_use(select.condition):
        return None
    return select.on_false, compare.lhs


def _compares(compared: ir.Value, scores: ir.Value) -> bool:
    """Whether the test reads `scores` (through reshapes, each read by the next alone),
    and nothing else but the softmax reads the scores."""
    value = compared
    while value != scores:
        view = defining(value, shape_ops.ReshapeOp)
        if view is None or not _only_use(value):
            return False
        value = view.input
    return len(list(scores.uses)) == 2


def _through_views(value: ir.Value) -> ir.Value:
    """`value` before the reshapes that only regroup its batch dimensions (the matmuls
    take [heads, rows, columns], the scale and mask [batch, heads, rows, columns])."""
    while (view := defining(value, shape_ops.ReshapeOp)) is not None and _only_use(value) and \
            list(view.input.type.shape[-2:]) == list(value.type.shape[-2:]):
        value = view.input
    return value


def _scores_and_mask(add) -> tuple[ir.Value, ir.Value] | None:
    """(the side that leads back to the scores' matmul, the mask) of an add."""
    for scores, mask in ((add.lhs, add.rhs), (add.rhs, add.lhs)):
        if list(scores.type.shape) == list(add.result.type.shape) and defining(
                scores, elementwise_ops.AddOp, elementwise_ops.MulOp, elementwise_ops.DivOp, compute_ops.MatmulOp,
                shape_ops.ReshapeOp):
            return scores, mask
    return None


def _scale(scaled) -> tuple[float | None, ir.Value]:
    """(the factor, the scores) of scores * c, c * scores or scores / c for a splat c;
    (None, _) otherwise."""
    operands = [(scaled.rhs, scaled.lhs)]
    if isinstance(scaled, elementwise_ops.MulOp):
        operands.append((scaled.lhs, scaled.rhs))
    for constant, scores in operands:
        factor = _splat(constant)
        if factor is not None and not isinstance(factor, bool) and factor != 0 and \
                list(scores.type.shape) == list(scaled.result.type.shape):
            return (factor if isinstance(scaled, elementwise_ops.MulOp) else 1.0 / factor), scores
    return None, scaled.lhs


def _match(matmul) -> tuple[_Steps, ir.Value, ir.Value, ir.Value, list[int]] | None:
    """(steps, q, kT, v, the softmax's batch dimensions) when `matmul` is attention's
    last step. The op is formed at the softmax's shape, where the masks are added."""
    steps, weights, value = _Steps(), _through_views(_before_narrowing(matmul.lhs)), _before_narrowing(matmul.rhs)
    select = defining(weights, elementwise_ops.SelectOp)
    if select is not None:
        zeroed = _zeroed_weights(select) if _only_use(weights) else None
        if zeroed is None:
            return None
        weights, steps.compared = zeroed
        weights = _through_views(weights)
    softmax = defining(weights, normalization_ops.SoftmaxOp)
    if softmax is None or not _only_use(weights) or int_attr(softmax, "axis") % weights.type.rank != weights.type.rank - 1:
        return None
    batch = list(weights.type.shape[:-2])
    scores = softmax.input
    if steps.compared is not None:
        if not _compares(steps.compared, scores):
            return None  # the weights zeroed are not where the softmax's own scores are -inf
        steps.zero_rows_of = scores

    def sole(value):  # no use but the next step's (and the comparison of the softmax's input)
        return _only_use(value) or (steps.zero_rows_of is not None and value == steps.zero_rows_of)

    while (add := defining(scores, elementwise_ops.AddOp)) is not None and sole(scores):
        split = _scores_and_mask(add)
        if split is None or list(add.result.type.shape[:-2]) != batch:
            return None
        scores, mask = split
        steps.masks.insert(0, mask)
    scores = _through_views(scores)
    scaled = defining(scores, elementwise_ops.MulOp, elementwise_ops.DivOp)
    if scaled is not None and sole(scores):
        factor, scores = _scale(scaled)
        if factor is None:
            return None
        steps.scale = factor
        scores = _through_views(scores)
    product = defining(scores, compute_ops.MatmulOp)
    if product is None or not sole(scores):
        return None
    query, key_t = _before_narrowing(product.lhs), _before_narrowing(product.rhs)
    steps.bf16_products = all(_narrowed(v) for v in (product.lhs, product.rhs, matmul.lhs, matmul.rhs))
    if not all(_is_f32(v) for v in (query, key_t, value, matmul.result, *steps.masks)):
        return None
    if not (query.type.rank == key_t.type.rank == value.type.rank >= 2):
        return None
    heads = math.prod(batch)
    if list(key_t.type.shape[:-2]) != list(query.type.shape[:-2]) or list(value.type.shape[:-2]) != list(
            matmul.lhs.type.shape[:-2]) or math.prod(query.type.shape[:-2]) != heads:
        return None
    steps.masks = [mask for mask in steps.masks if _splat(mask) != 0.0]
    scores_shape = [*batch, query.type.shape[-2], key_t.type.shape[-1]]
    mask_shape = []
    for mask in steps.masks:
        mask_shape = elementwise_ops.broadcast_shapes(mask_shape, list(mask.type.shape))
    if steps.masks and mask_strides(mask_shape, scores_shape) is None:
        return None
    return steps, query, key_t, value, batch


def _key(key_t: ir.Value) -> ir.Value:
    """k [..., N, D] of kT [..., D, N]: the transpose that made kT (seen through a
    reshape of its leading dimensions) folded with this one, else a new transpose."""
    rank = key_t.type.rank
    *batch, d, n = key_t.type.shape
    view = defining(key_t, shape_ops.ReshapeOp)
    inner = view.input if view is not None and list(view.input.type.shape[-2:]) == [d, n] else key_t
    made = defining(inner, shape_ops.TransposeOp)
    if made is None:
        return transpose(key_t, [*range(rank - 2), rank - 1, rank - 2])
    permutation = i64_array(made, "permutation")
    swapped = [*permutation[:-2], permutation[-1], permutation[-2]]
    source = made.input if swapped == list(range(len(swapped))) else transpose(made.input, swapped)
    return reshape(source, [*batch, n, d])


class AttentionSteps(Pattern):
    """matmul(softmax(scaled, masked scores), v) -> mlc.attention."""

    op = compute_ops.MatmulOp
    statistic = "attentions formed"

    def __init__(self, library: bool, zero_masked_tail: bool, bf16_products: bool):
        self.library = library
        self.zero_masked_tail = zero_masked_tail
        self.bf16_products = bf16_products

    def match(self, matmul):
        return _match(matmul)

    def rewrite(self, matmul, matched) -> ir.Value:
        steps, query, key_t, value, batch = matched
        mask = splat(0.0, query.type.element_type)
        for i, term in enumerate(steps.masks):
            mask = term if i == 0 else broadcast_binary(elementwise_ops.AddOp, mask, term)
        key = _key(key_t)
        query, key, value = (reshape(v, [*batch, *v.type.shape[-2:]]) for v in (query, key, value))
        result_type = tensor_type([*batch, query.type.shape[-2], value.type.shape[-1]], query.type.element_type)
        attention = compute_ops.AttentionOp(query, key, value, mask, f64(steps.scale),
                                            boolean(steps.zero_rows_of is not None), boolean(self.library),
                                            i64_array_attr([]), boolean(steps.bf16_products or self.bf16_products),
                                            boolean(self.zero_masked_tail), result_type).result
        return reshape(attention, list(matmul.result.type.shape))


@register
class FormAttention(PatternPass):
    """Makes each attention (scores, softmax, output) one mlc.attention."""

    name = "mlc-form-attention"
    # The attentions run on mlc's matmul plugin (mlc.attention's `library`).
    library: bool = False
    # The caller promises that the keys and values past the last key a query attends to
    # are zeros, as mlc.generator's cache slots not yet written are (`zero_masked_tail`).
    zero_masked_tail: bool = False
    # Every attention's products multiply bf16 (mlc.attention's `bf16_products`), as at
    # precision int8: see the module's docstring.
    bf16_products: bool = False

    def patterns(self) -> list[Pattern]:
        return [AttentionSteps(self.library, self.zero_masked_tail, self.bf16_products)]

