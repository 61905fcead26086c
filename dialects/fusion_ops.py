"""Fusion: `fusion_group` holds a subgraph that is to become one kernel.

The group is isolated from above: everything its body reads comes in through
`inputs`, bound to the body's block arguments, and leaves through `yield`.
"""

from typing import Any, Sequence

from torch_mlir import ir
from torch_mlir.dialects import ext
from torch_mlir.dialects.ext import Operand, Result

from .op_base import MlcOp, VerifyError


def types_of(values) -> list[str]:
    return [str(v.type) for v in values]


class FusionGroupOp(MlcOp, name="fusion_group", traits=[ir.IsIsolatedFromAboveTrait]):
    """A subgraph that mlc's fusion planner decided to run as one kernel (one IREE dispatch).

    Its single block takes one argument per input and ends in `mlc.yield` of the results.
    It is not Pure so that it is never duplicated or dropped as a unit by accident;
    dead groups are removed by mlc's own passes.
    """

    inputs: Sequence[Operand[Any]]
    outputs: Sequence[Result[Any]]
    body: ext.Region

    def verify(self):
        if len(self.body.blocks) != 1:
            raise VerifyError(f"body must have one block, got {len(self.body.blocks)}")
        block = self.body.blocks[0]
        if types_of(block.arguments) != types_of(self.inputs):
            raise VerifyError(
                f"block argument types ({', '.join(types_of(block.arguments))}) must match "
                f"input types ({', '.join(types_of(self.inputs))})"
            )
        terminator = block.operations[len(block.operations) - 1] if len(block.operations) else None
        if terminator is None or terminator.name != "mlc.yield":
            raise VerifyError("body must end in 'mlc.yield'")
        if types_of(terminator.operands) != types_of(self.outputs):
            raise VerifyError(
                f"yielded types ({', '.join(types_of(terminator.operands))}) must match "
                f"result types ({', '.join(types_of(self.outputs))})"
            )


class YieldOp(MlcOp, name="yield", traits=[ext.Pure, ir.IsTerminatorTrait]):
    """Ends a `fusion_group` body, returning the group's results."""

    values: Sequence[Operand[Any]]

    def verify(self):
        parent = self.operation.parent
        if parent is None or parent.name != "mlc.fusion_group":
            raise VerifyError("must be inside an 'mlc.fusion_group'")
