"""fusion_group -> its body, inlined in place: the group was a plan for mlc's own
passes, and IREE forms its dispatches from the linalg ops themselves."""

from torch_mlir import ir

from ...dialects.fusion_ops import FusionGroupOp


def _groups(root: ir.Operation) -> list[ir.Operation]:
    found = []

    def visit(op):
        if isinstance(op.opview, FusionGroupOp):
            found.append(op)
        return ir.WalkResult.ADVANCE

    root.walk(visit, ir.WalkOrder.POST_ORDER)
    return found


def inline(group: ir.Operation) -> None:
    """Moves the body before the group, binding block arguments to the inputs and
    the group's results to the yielded values."""
    block = group.regions[0].blocks[0]
    for argument, value in zip(block.arguments, group.operands):
        argument.replace_all_uses_with(value)
    body = list(block.operations)
    terminator = body.pop()
    for op in body:
        op.move_before(group)
    for result, value in zip(group.results, terminator.operands):
        result.replace_all_uses_with(value)
    group.erase()


def inline_fusion_groups(root: ir.Operation) -> int:
    """Inlines every fusion_group under `root`, innermost first; returns how many."""
    groups = _groups(root)
    for group in groups:
        inline(group)
    return len(groups)
