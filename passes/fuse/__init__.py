"""`mlc-fuse`: the fusion planner. Each group becomes one `mlc.fusion_group`,
which becomes exactly one IREE dispatch (see `mlc-form-dispatch-regions`).

Ops are classified as TVM does (op_kinds.py) and grouped with the post-dominator
algorithm (planner.py). Every op that computes at run time goes into a group,
singletons included, so the executable has one dispatch per group. Three kinds
stay outside: constants; ops computing only from constants, which IREE
evaluates at compile time (at O2 mlc-fold-constants has folded them already);
and reshapes, which are metadata changes for IREE and which its CPU code
generation does not accept inside a kernel.
"""

import collections

from torch_mlir import ir

from ...dialects.fusion_ops import FusionGroupOp, YieldOp
from ..registry import Pass, register
from .op_kinds import kind_of
from .planner import SINK, Graph, plan

OUTSIDE_GROUPS = ("mlc.constant", "mlc.fusion_group", "mlc.yield", "mlc.reshape")


def _graph_ops(block: ir.Block) -> list[ir.Operation]:
    """The ops to plan: mlc ops that compute at run time."""
    constant = set()  # ops whose value is known at compile time
    planned = []
    for op in block.operations:
        operands = [value.owner for value in op.operands]
        if op.name == "mlc.constant" or (
            op.name.startswith("mlc.") and all(not isinstance(o, ir.Block) and o.operation in constant for o in operands)
        ):
            constant.add(op.operation)
        elif op.name.startswith("mlc.") and op.name not in OUTSIDE_GROUPS:
            planned.append(op)
    return planned


def build_graph(ops: list[ir.Operation]) -> Graph:
    index = {op.operation: i for i, op in enumerate(ops)}
    successors = []
    for op in ops:
        users = {index.get(use.owner.operation, SINK) for result in op.results for use in result.uses}
        successors.append(sorted(users))
    shapes = [tuple(op.results[0].type.shape) for op in ops]
    return Graph([kind_of(op) for op in ops], successors, shapes)


def emit_group(members: list[ir.Operation]) -> ir.Operation:
    """Moves `members` (in program order; the last is the output) into a fusion_group."""
    root = members[-1]
    with ir.InsertionPoint(root), root.location:
        group = FusionGroupOp(root.results[0].type)
        block = group.body.blocks.append()
        with ir.InsertionPoint(block):
            terminator = YieldOp(root.results[0])
    root.results[0].replace_all_uses_except(group.result, terminator.operation)
    for member in members:
        member.move_before(terminator.operation)
    return group


@register
class Fuse(Pass):
    """Plans kernels: groups mlc ops into fusion_groups by TVM's dominator-tree rules."""

    name = "mlc-fuse"

    def run(self, module):
        for function in _functions(module):
            self._fuse_block(function.regions[0].blocks[0])

    def _fuse_block(self, block: ir.Block) -> None:
        ops = _graph_ops(block)
        if not ops:
            return
        members = collections.defaultdict(list)
        for op, group in zip(ops, plan(build_graph(ops))):
            members[group].append(op)
        for group_ops in members.values():
            emit_group(group_ops)
            self.count("fusion groups")
            self.count(f"ops in groups of {min(len(group_ops), 4)}{'+' if len(group_ops) >= 4 else ''}", len(group_ops))


def _functions(module: ir.Operation) -> list[ir.Operation]:
    return [op for op in module.regions[0].blocks[0].operations if op.operation.name == "func.func"]
