"""Fusion: `fusion_group` holds a subgraph that is to become one kernel."""

from torch_mlir import ir
from torch_mlir.dialects import ext
from torch_mlir.dialects.ext import Operand, Result

from .facts import Declined, Layout
from .op_base import MlcOp, VerifyError


class FusionGroupOp(MlcOp, name="fusion_group"):
    """A subgraph that mlc's fusion planner decided to run as one kernel (one IREE dispatch).

    The body reads the values it needs from above, as IREE's `flow.dispatch.region`
    (which it becomes) does, and ends in `mlc.yield` of the group's one result: a
    TVM-style fusion group has a single output. It is not isolated from above and
    has no variadic inputs or results because IRDL, which defines mlc's ops, gives
    a variadic group one type, and a group's inputs differ in type.
    It is not Pure, so it is never dropped or duplicated by accident.
    """

    fusion_kind = Declined("the planner's output, not its input")
    layout_rule = Layout.FIXED

    result: Result[ir.RankedTensorType]
    body: ext.Region

    def verify(self):
        if len(self.body.blocks) != 1:
            raise VerifyError(f"body must have one block, got {len(self.body.blocks)}")
        block = self.body.blocks[0]
        if len(block.arguments):
            raise VerifyError(f"body block must have no arguments, got {len(block.arguments)}")
        operations = block.operations
        terminator = operations[len(operations) - 1] if len(operations) else None
        if terminator is None or terminator.name != YieldOp.OPERATION_NAME:
            raise VerifyError("body must end in 'mlc.yield'")
        if len(terminator.operands) != 1:
            raise VerifyError(f"body must yield one value, got {len(terminator.operands)}")
        if terminator.operands[0].type != self.result.type:
            raise VerifyError(
                f"yielded type {terminator.operands[0].type} must match result type {self.result.type}"
            )


class YieldOp(MlcOp, name="yield", traits=[ext.Pure, ir.IsTerminatorTrait]):
    """Ends a `fusion_group` body, returning the group's result."""

    fusion_kind = Declined("the terminator of a fusion group")
    layout_rule = Layout.FIXED

    value: Operand[ir.RankedTensorType]

    def verify(self):
        parent = self.operation.parent
        if parent is None or parent.name != FusionGroupOp.OPERATION_NAME:
            raise VerifyError("must be inside an 'mlc.fusion_group'")
