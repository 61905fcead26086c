"""`mlc-matvec-to-reduction`: a matmul of one row by a transposed computed matrix
becomes a multiply and a sum, which read the matrix once, as it lies.

    matmul(a[..., 1, K], transpose(x[..., N, K]))   ->  reshape(sum(a * x, axis -1))

An LLM's decode step multiplies one query row by the transposed key cache. As a matmul,
the key cache is transposed at every step (a dispatch that reads and writes all of it),
and IREE's data tiling then packs it (another). GPT-2's decode step at a cache of 96
(2-core Xeon): those two took 50 us of each layer's 600; the sum over the cache's
contiguous rows takes 13. The row by the value cache (no transpose) stays a matmul: a
sum down the cache's columns measured 42 us, against 21 for packing plus matmul. A
weight (a constant right operand) is left alone: it is packed once at compile time, or
runs on the matmul library. Floats only; the products are summed in another order.

Where attention runs whole on mlc's plugin, the pipeline runs this pass after
`mlc-form-attention` (pipelines/levels.py): there the step's scores are an attention's,
and the plugin computes them, the softmax and the product by the value cache in one
call (int8 at a capacity of 128, interleaved in one process, 2-core Xeon: GPT-2 10.7 ->
9.8 ms per token, Llama 10.1 -> 8.8, with the grouped heads read in place).
"""

from torch_mlir import ir

from ..dialects import compute_ops, elementwise_ops, reduction_ops, shape_ops
from ..dialects.op_base import i64_array, is_float
from .graph import boolean, broadcast_binary, defining, folds_to_constant, i64_array_attr, reshape, tensor_type
from .registry import register
from .rewriting import Pattern, PatternPass


def _transposed_matrix(value: ir.Value) -> ir.Value | None:
    """x, where `value` is transpose(x) swapping only its last two dimensions, or a
    reshape of that which keeps them (attention's [1, H, K, N] viewed as [H, K, N])."""
    view = defining(value, shape_ops.ReshapeOp)
    inner = view.input if view is not None and list(view.input.type.shape[-2:]) == list(value.type.shape[-2:]) else value
    transpose = defining(inner, shape_ops.TransposeOp)
    if transpose is None:
        return None
    permutation = i64_array(transpose, "permutation")
    rank = len(permutation)
    if permutation != [*range(rank - 2), rank - 1, rank - 2]:
        return None
    return transpose.input


class MatvecAsReduction(Pattern):
    """matmul(one row, transpose(computed matrix)) -> sum of products."""

    op = compute_ops.MatmulOp
    statistic = "matvecs to multiply-sum"

    def match(self, matmul):
        lhs, rhs, result = matmul.lhs.type, matmul.rhs.type, matmul.result.type
        if not (lhs.has_static_shape and rhs.has_static_shape and result.has_static_shape):
            return None
        if lhs.rank < 2 or rhs.rank < 2 or lhs.shape[-2] != 1 or lhs.shape[-1] == 1:
            return None
        if not is_float(lhs.element_type) or not lhs.element_type == rhs.element_type == result.element_type:
            return None
        if folds_to_constant(matmul.rhs):
            return None
        return _transposed_matrix(matmul.rhs)

    def rewrite(self, matmul, matrix) -> ir.Value:
        rhs = matmul.rhs.type.shape
        matrix = reshape(matrix, [*rhs[:-2], rhs[-1], rhs[-2]])  # x[..., N, K], the matmul's batch dimensions
        products = broadcast_binary(elementwise_ops.MulOp, matmul.lhs, matrix)
        shape = list(products.type.shape[:-1])
        total = reduction_ops.ReduceSumOp(products, i64_array_attr([-1]), boolean(False),
                                          tensor_type(shape, products.type.element_type)).result
        return reshape(total, list(matmul.result.type.shape))


@register
class MatvecToReduction(PatternPass):
    """Rewrites matmuls of one row by a transposed computed matrix as a multiply and a sum."""

    name = "mlc-matvec-to-reduction"

    def patterns(self) -> list[Pattern]:
        return [MatvecAsReduction()]
