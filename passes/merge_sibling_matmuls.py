"""`mlc-merge-sibling-matmuls`: the matmuls of one row by constant weights become one
matmul by the weights side by side, and a slice of its result for each.

    q = x @ Wq;  k = x @ Wk;  v = x @ Wv   ->   y = x @ [Wq | Wk | Wv];  q, k, v = slices of y

A decode step multiplies one row by each weight, and each matvec pays a call's fixed
costs besides its bytes: a dispatch, and on mlc's matmul plugin the split of its
columns between two threads and their join, where the helper starts late and the two
end 10-20 µs apart (README, Generating text). Llama's attention reads its row three
times (q, k and v) and its MLP twice (gate and up): merged, a layer makes four calls in
place of seven. Each column of the product is the same sum as before, and what later
passes do per column (int8's scales, bf16's casts) is too, so the values do not change.

Only single rows ([..., 1, K] with unit leading dimensions) merge: a prompt's rows
amortize a call's costs, and their q, k and v are read in place by the plugin's
attention (`mlc-attention-views`), which a slice would come between. Run after the
constant folding that makes Linear layers' transposed weights constants, after `cse`
(each Linear views the row on its own until then), and before `mlc-quantize-int8`,
which then quantizes the merged weight per column, as it did each. The int8 pipeline
runs it (pipelines/levels.py, `with_precision`): Llama's int8 decode step, A/B in one
process on an AMD EPYC, 4.77 → 4.31 ms per token, the same tokens.
"""

import numpy as np
from torch_mlir import ir

from ..dialects import compute_ops
from .constant_values import make_constant, value_of
from .graph import slice_along, tensor_type
from .registry import Pass, register


def _single_row_by_weight(op: ir.Operation) -> np.ndarray | None:
    """The constant weight [K, N] of a matmul of one row by operands of one element type
    (its sums may be wider: bf16 operands summed in f32)."""
    if not isinstance(op.opview, compute_ops.MatmulOp):
        return None
    lhs, rhs = op.operands[0].type, op.operands[1].type
    if not (lhs.has_static_shape and rhs.has_static_shape) or rhs.rank != 2 or lhs.rank < 2:
        return None
    if any(size != 1 for size in lhs.shape[:-1]) or lhs.element_type != rhs.element_type:
        return None
    return value_of(op.operands[1])


def _siblings(block: ir.Block) -> list[list[tuple[ir.Operation, np.ndarray]]]:
    """The matmuls of `block` that qualify, grouped by their row and their sums' type,
    in program order."""
    groups: list[tuple[ir.Value, ir.Type, list]] = []
    for op in block.operations:
        weight = _single_row_by_weight(op.operation)
        if weight is None:
            continue
        row, sums = op.operands[0], op.results[0].type.element_type
        group = next((members for value, kind, members in groups if value == row and kind == sums), None)
        if group is None:
            groups.append((row, sums, group := []))
        group.append((op.operation, weight))
    return [members for _, _, members in groups if len(members) > 1]


@register
class MergeSiblingMatmuls(Pass):
    """Merges the matmuls of one row by constant weights into one matmul, sliced after."""

    name = "mlc-merge-sibling-matmuls"

    def run(self, module: ir.Operation) -> None:
        blocks = []

        def visit(op):
            blocks.extend(block for region in op.regions for block in region.blocks)
            return ir.WalkResult.ADVANCE

        module.walk(visit)
        for block in blocks:
            for group in _siblings(block):
                self._merge(group)

    def _merge(self, group: list[tuple[ir.Operation, np.ndarray]]) -> None:
        first = group[0][0]
        row = first.operands[0]
        weight = np.concatenate([w for _, w in group], axis=1)
        shape = list(first.results[0].type.shape[:-1])
        sums = first.results[0].type.element_type
        with ir.InsertionPoint(first), first.location:
            weight_type = tensor_type(list(weight.shape), first.operands[1].type.element_type)
            merged_weight = make_constant(weight, weight_type, "merged_weights")
            product = compute_ops.MatmulOp(row, merged_weight, tensor_type([*shape, weight.shape[1]], sums)).result
            start = 0
            for op, w in group:
                op.results[0].replace_all_uses_with(slice_along(product, len(shape), start, start + w.shape[1]))
                start += w.shape[1]
        for op, _ in group:
            constant = op.operands[1].owner
            op.erase()
            if not list(constant.results[0].uses):
                constant.erase()
        self.count("matmuls merged", len(group))
        self.count("merged matmuls")
