"""`mlc-form-dispatch-regions`: each `mlc.fusion_group` becomes an IREE
`flow.dispatch.region`, so that IREE builds exactly one dispatch per group.

IREE honours dispatch regions present in its input instead of forming its own.
The flow dialect is not registered in torch-mlir's context, so the regions are
created as unregistered ops there; IREE reads them, by name, as its own.
Runs after `mlc-lower-to-linalg{keep-fusion-groups=true}`.
"""

from torch_mlir import ir

from .registry import Pass, register


def _groups(module: ir.Operation) -> list[ir.Operation]:
    found = []
    module.walk(lambda op: (found.append(op) if op.name == "mlc.fusion_group" else None) or ir.WalkResult.ADVANCE)
    return found


def _dispatch_region(group: ir.Operation) -> None:
    body = group.regions[0].blocks[0]
    terminator = body.operations[len(body.operations) - 1]
    with ir.InsertionPoint(group), group.location:
        region = ir.Operation.create(
            "flow.dispatch.region",
            results=[group.results[0].type],
            attributes={"operandSegmentSizes": ir.DenseI32ArrayAttr.get([0, 0])},
            regions=2,  # the body, and the (empty) workgroup-count region
        )
        block = region.regions[0].blocks.append()
    with ir.InsertionPoint(block), terminator.location:
        returned = ir.Operation.create("flow.return", operands=[terminator.operands[0]])
    for op in list(body.operations)[:-1]:
        op.move_before(returned)
    group.results[0].replace_all_uses_with(region.results[0])
    group.erase()


@register
class FormDispatchRegions(Pass):
    """Turns each mlc.fusion_group into one IREE flow.dispatch.region (one kernel)."""

    name = "mlc-form-dispatch-regions"

    def run(self, module):
        groups = _groups(module)
        if groups:
            module.context.allow_unregistered_dialects = True
        for group in groups:
            _dispatch_region(group)
            self.count("dispatch regions")
