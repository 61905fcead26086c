"""`mlc-lower-to-linalg`: every mlc op becomes upstream linalg, tensor, arith,
math and complex ops on tensors, the input IREE takes.

Each op family has its own module, whose functions register with `@lowers(OpClass)`
(passes/op_registry.py) into `LOWERINGS`, op class -> function building the
replacement at the op and returning its value. An op that has no lowering, or a case
its lowering declines (`Unsupported`), is reported at the op; all such ops are
reported before the pass fails.
"""

import dataclasses

from torch_mlir import ir

from ...dialects.facts import Declined
from ...dialects.fusion_ops import FusionGroupOp, YieldOp
from ...dialects.op_base import MlcOp
from ...dialects.shape_ops import ConcatOp
from ..op_registry import LOWERINGS, InstanceDeclined
from ..registry import Pass, PassFailure, register

# Importing a family's module registers its lowerings in LOWERINGS.
from . import (  # noqa: F401
    attention,
    bitwise,
    check,
    complex,
    compute,
    data,
    elementwise,
    indexing,
    normalization,
    random,
    reduction,
    scan,
    shape,
)
from .fusion import inline_fusion_groups

# Ops with no lowering of their own, and why (test_op_facts.py checks every op is in
# LOWERINGS or here).
DECLINED = {
    FusionGroupOp: Declined("fusion structure: inlined, or kept for mlc-form-dispatch-regions"),
    YieldOp: Declined("fusion structure: the terminator goes with its group"),
}


def _mlc_ops(module: ir.Operation) -> list[ir.Operation]:
    """The mlc ops inside func.func bodies, in program order (operands first),
    without the fusion structure, which stays when groups are kept."""
    found = []

    def visit(op):
        if isinstance(op.opview, MlcOp) and type(op.opview) not in DECLINED:
            found.append(op)
        return ir.WalkResult.ADVANCE

    def visit_function(op):
        if op.name != "func.func":
            return ir.WalkResult.ADVANCE
        op.walk(visit, ir.WalkOrder.PRE_ORDER)
        return ir.WalkResult.SKIP

    module.walk(visit_function, ir.WalkOrder.PRE_ORDER)
    return found


def lower(op: ir.Operation) -> None:
    """Replaces one mlc op by its lowering, built right before it; raises
    InstanceDeclined (Unsupported) for a case the lowering does not handle."""
    with ir.InsertionPoint(op), op.location:
        replacement = LOWERINGS[type(op.opview)](op.opview)
    op.results[0].replace_all_uses_with(replacement)
    op.erase()


@register
class LowerToLinalg(Pass):
    """Lowers mlc ops to linalg, tensor, arith and math ops on tensors."""

    name = "mlc-lower-to-linalg"
    keep_fusion_groups: bool = dataclasses.field(
        default=False,
        metadata={"help": "lower inside fusion groups and keep them, for mlc-form-dispatch-regions"},
    )

    def run(self, module: ir.Operation) -> None:
        if not self.keep_fusion_groups:
            inlined = inline_fusion_groups(module)
            if inlined:
                self.count(FusionGroupOp.OPERATION_NAME, inlined)
        failed = False
        absorbed = []
        for op in _mlc_ops(module):
            name = op.name
            if shape.absorbed_into_consumer(op.opview):
                absorbed.append(op)
                continue
            if type(op.opview) not in LOWERINGS:
                op.location.emit_error(f"'{name}' op has no lowering to linalg")
                failed = True
                continue
            try:
                lower(op)
            except InstanceDeclined as declined:
                op.location.emit_error(f"'{name}' op cannot be lowered to linalg: {declined.reason}")
                failed = True
                continue
            self.count(name)
        if failed:  # absorbed links may still feed an op that failed: leave them
            raise PassFailure()
        for op in reversed(absorbed):  # links of lowered concat chains, now unused
            op.erase()
            self.count(ConcatOp.OPERATION_NAME)
