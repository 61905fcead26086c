"""`mlc-merge-sibling-matmuls`: the matmuls of one input by constant weights become one
matmul by the weights side by side, and a slice of its result for each; their
bias adds, where each has one, become one add of the biases side by side.

    q = x @ Wq + bq;  k = x @ Wk + bk;  v = x @ Wv + bv
        ->   y = x @ [Wq | Wk | Wv] + [bq | bk | bv];  q, k, v = slices of y

Each matmul pays a call's fixed costs besides its work: a dispatch, and on mlc's
matmul plugin the split of its columns between two threads and their join, where the
helper starts late and the two end 10-20 µs apart (README, Generating text); at int8
each call also quantizes its input rows, so three siblings quantize the same rows three
times. A decode step multiplies one row by each weight: Llama's attention reads its row
three times (q, k and v) and its MLP twice (gate and up), and merged, a layer makes four
calls in place of seven. BERT-base's prompt of 128 rows by q, k and v (768 columns
each) becomes one product of 2304 columns.

One row ([..., 1, K] with unit leading dimensions) merges whether or not its siblings add
biases. Several rows (a prompt's) merge only where every sibling's one use is the add of
a constant bias over its columns, or none has a bias: the merged product keeps its bias
in the plugin's epilogue (`mlc-library-epilogue`), and the slices after it are read in
place by the plugin's attention (`mlc-attention-views`). Where only some add a bias, the
adds would be left behind the slices, each a copy of its own. Each column of the
product, and of the sum, is the same as before, and what later passes do per column
(int8's scales, bf16's casts) is too, so the values do not change.

Run after the constant folding that makes Linear layers' transposed weights constants,
after `cse` (each Linear views the row on its own until then), and before
`mlc-quantize-int8`, which then quantizes the merged weight per column, as it did each.
The int8 pipeline runs it (pipelines/levels.py, `with_precision`): Llama's int8 decode
step, A/B in one process on an AMD EPYC, 4.77 → 4.31 ms per token, the same tokens.
"""

import numpy as np
from torch_mlir import ir

from ..dialects import compute_ops, data_ops, elementwise_ops
from .constant_values import make_constant, value_of
from .graph import defining, slice_along, tensor_type
from .registry import Pass, register


def _by_constant_weight(op: ir.Operation) -> np.ndarray | None:
    """The constant weight [K, N] of a matmul by operands of one element type (its sums
    may be wider: bf16 operands summed in f32)."""
    if not isinstance(op.opview, compute_ops.MatmulOp):
        return None
    lhs, rhs = op.operands[0].type, op.operands[1].type
    if not (lhs.has_static_shape and rhs.has_static_shape) or rhs.rank != 2 or lhs.rank < 2:
        return None
    if lhs.element_type != rhs.element_type:
        return None
    return value_of(op.operands[1])


def _bias_add(op: ir.Operation) -> tuple[ir.Operation, np.ndarray] | None:
    """(the add, its bias of N values) where the matmul's one use adds a constant bias
    over its N columns, of the product's type."""
    uses = list(op.results[0].uses)
    if len(uses) != 1 or not isinstance(uses[0].owner.opview, elementwise_ops.AddOp):
        return None
    add = uses[0].owner
    if add.results[0].type != op.results[0].type:
        return None
    bias = value_of(add.operands[1 - uses[0].operand_number])
    columns = op.results[0].type.shape[-1]
    if bias is None or bias.size != columns or any(size != 1 for size in bias.shape[:-1]):
        return None
    return add, bias.reshape(columns)


def _mergeable(group: list[tuple[ir.Operation, np.ndarray]]) -> bool:
    """One row always; several rows where every sibling adds a bias, or none does."""
    if all(size == 1 for size in group[0][0].operands[0].type.shape[:-1]):
        return True
    adds = [_bias_add(op) is not None for op, _ in group]
    return all(adds) or not any(adds)


def _siblings(block: ir.Block) -> list[list[tuple[ir.Operation, np.ndarray]]]:
    """The matmuls of `block` that may merge, grouped by their input and their sums'
    type, in program order."""
    groups: list[tuple[ir.Value, ir.Type, list]] = []
    for op in block.operations:
        weight = _by_constant_weight(op.operation)
        if weight is None:
            continue
        row, sums = op.operands[0], op.results[0].type.element_type
        group = next((members for value, kind, members in groups if value == row and kind == sums), None)
        if group is None:
            groups.append((row, sums, group := []))
        group.append((op.operation, weight))
    return [members for _, _, members in groups if len(members) > 1 and _mergeable(members)]


@register
class MergeSiblingMatmuls(Pass):
    """Merges the matmuls of one input by constant weights into one matmul, and their
    bias adds into one add, sliced after."""

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
        adds = [_bias_add(op) for op, _ in group]
        merged_adds = all(adds)
        shape = list(first.results[0].type.shape[:-1])
        sums = first.results[0].type.element_type
        with ir.InsertionPoint(first), first.location:
            weight_type = tensor_type(list(weight.shape), first.operands[1].type.element_type)
            merged_weight = make_constant(weight, weight_type, "merged_weights")
            product_type = tensor_type([*shape, weight.shape[1]], sums)
            product = compute_ops.MatmulOp(row, merged_weight, product_type).result
            if merged_adds:
                bias = np.concatenate([b for _, b in adds])
                merged_bias = make_constant(bias, tensor_type([bias.size], sums), "merged_biases")
                product = elementwise_ops.AddOp(product, merged_bias, product_type).result
            start = 0
            for (op, w), add in zip(group, adds):
                replaced = add[0] if merged_adds else op
                replaced.results[0].replace_all_uses_with(slice_along(product, len(shape), start, start + w.shape[1]))
                start += w.shape[1]
        for (op, _), add in zip(group, adds):
            if merged_adds:
                _erase_with_unused_constant(add[0])
            _erase_with_unused_constant(op)
        self.count("matmuls merged", len(group))
        self.count("merged matmuls")
        if merged_adds:
            self.count("bias adds merged", len(group))


def _erase_with_unused_constant(op: ir.Operation) -> None:
    """Erases `op`, and each constant operand of it that nothing else uses."""
    constants = [constant for operand in op.operands if (constant := defining(operand, data_ops.ConstantOp))]
    op.erase()
    for constant in constants:
        if not list(constant.results[0].uses):
            constant.operation.erase()
