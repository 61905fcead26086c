"""`mlc-form-dispatch-regions`: each `mlc.fusion_group` becomes an IREE
`flow.dispatch.region`, so that IREE builds exactly one dispatch per group.

IREE honours dispatch regions present in its input instead of forming its own.
The flow dialect is not registered in torch-mlir's context: the regions are
unregistered ops there (dialects/iree_flow.py), which IREE reads as its own.
Runs after `mlc-lower-to-linalg{keep-fusion-groups=true}`.

A `tensor.pad` of a value from outside the group (a convolution's padded input) is
computed before the region instead: IREE's CPU code generation runs a convolution
whose padding is produced in the same dispatch 1.3-2x slower (ResNet-18's 7x7 stem:
1.77 ms in the group, 0.85 ms with the pad outside), and IREE keeps such pads out of
the dispatches it forms itself.

A region whose result has dynamic sizes must name them with values from outside
it; they are traced back through destination operands and `tensor.empty` to the
group's inputs and rebuilt before the region. A group whose sizes cannot be
traced, or that pads a dynamically sized tensor, is inlined instead, and IREE
forms its dispatches.
"""

from torch_mlir import ir
from torch_mlir.dialects import arith, tensor

from ..dialects import iree_flow
from ..dialects.fusion_ops import FusionGroupOp
from ..dialects.op_base import DYNAMIC
from .registry import Pass, register


def _groups(module: ir.Operation) -> list[ir.Operation]:
    found = []
    module.walk(lambda op: (found.append(op) if isinstance(op.opview, FusionGroupOp) else None) or ir.WalkResult.ADVANCE)
    return found


class Untraceable(Exception):
    """A dynamic size computed in a way the tracing does not follow."""


def _inside(value: ir.Value, body: ir.Block) -> bool:
    owner = value.owner
    if isinstance(owner, ir.Block):
        return owner == body
    op = owner.operation
    while op is not None:
        if op.parent is not None and op.block == body:
            return True
        op = op.parent
    return False


def _size_outside(value: ir.Value, dim: int, body: ir.Block) -> ir.Value:
    """Dimension `dim` of `value` (made in the group), as a value built before the group."""
    if not _inside(value, body):
        return tensor.dim(value, arith.constant(ir.IndexType.get(), dim))
    op = value.owner.operation
    outputs = getattr(op.opview, "outputs", None)
    if outputs is not None and len(outputs) > 0:  # destination style: the result has its init's sizes
        return _size_outside(outputs[ir.OpResult(value).result_number], dim, body)
    if op.name == "tensor.empty":
        position = sum(1 for s in value.type.shape[:dim] if s == DYNAMIC)
        return _hoist(op.operands[position], body)
    raise Untraceable(op.name)


def _hoist(value: ir.Value, body: ir.Block) -> ir.Value:
    """An index value of the group, rebuilt before it from values outside."""
    if not _inside(value, body):
        return value
    op = value.owner.operation
    if op.name == "tensor.dim":
        index = op.operands[1].owner
        if isinstance(index, ir.Block) or index.operation.name != "arith.constant":
            raise Untraceable("tensor.dim with a dynamic index")
        return _size_outside(op.operands[0], ir.IntegerAttr(index.operation.attributes["value"]).value, body)
    if op.name.startswith(("arith.", "affine.apply")) and len(op.results) == 1:
        operands = [_hoist(operand, body) for operand in op.operands]  # first, so they precede the clone
        clone = op.clone()
        for i, operand in enumerate(operands):
            clone.operands[i] = operand
        return clone.results[0]
    raise Untraceable(op.name)


def _pads_dynamic_tensor(body: ir.Block) -> bool:
    """IREE's CPU code generation fails on a `tensor.pad` of a dynamically sized tensor
    inside a dispatch region (a convolution's padding at a dynamic batch); IREE
    places such pads itself when it forms the dispatches."""
    return any(op.name == "tensor.pad" and DYNAMIC in op.operands[0].type.shape for op in body.operations)


def _hoist_input_pads(group: ir.Operation, body: ir.Block) -> int:
    """Moves each tensor.pad of a group input before the group (see the module docstring);
    IREE gives each such pad a dispatch of its own. Returns how many moved."""
    moved = 0
    for op in list(body.operations):
        if op.name != "tensor.pad" or any(_inside(operand, body) for operand in op.operands):
            continue
        terminator = op.regions[0].blocks[0].operations[0]  # tensor.yield of the padding value
        padding_value = terminator.operands[0]
        if _inside(padding_value, body):  # a constant of the group: the pad takes a copy
            if padding_value.owner.operation.name != "arith.constant":
                continue
            terminator.operands[0] = padding_value.owner.operation.clone(ir.InsertionPoint(group)).results[0]
        op.move_before(group)
        moved += 1
    return moved


def _result_sizes(group: ir.Operation, yielded: ir.Value) -> list[ir.Value]:
    body = group.regions[0].blocks[0]
    with ir.InsertionPoint(group), group.location:
        return [_size_outside(yielded, d, body) for d, s in enumerate(yielded.type.shape) if s == DYNAMIC]


def _inline(group: ir.Operation) -> None:
    body = group.regions[0].blocks[0]
    terminator = body.operations[len(body.operations) - 1]
    for op in list(body.operations)[:-1]:
        op.move_before(group)
    group.results[0].replace_all_uses_with(terminator.operands[0])
    group.erase()


# The attribute that names a region's fusion group (its index in program order), so that
# the profile names a region's ops after later passes removed other regions.
GROUP = "mlc.fusion_group"


def _dispatch_region(group: ir.Operation, index: int) -> bool:
    """Replaces the group with a dispatch region; False (and inlines it) if its sizes can't be traced."""
    body = group.regions[0].blocks[0]
    terminator = body.operations[len(body.operations) - 1]
    try:
        if _pads_dynamic_tensor(body):
            raise Untraceable("tensor.pad of a dynamic tensor")
        sizes = _result_sizes(group, terminator.operands[0])
    except Untraceable:
        _inline(group)
        return False
    with ir.InsertionPoint(group), group.location:
        region, block = iree_flow.dispatch_region(group.results[0].type, sizes)
    region.attributes[GROUP] = ir.IntegerAttr.get(ir.IntegerType.get_signless(64), index)
    with ir.InsertionPoint(block), terminator.location:
        returned = iree_flow.flow_return(terminator.operands[0])
    for op in list(body.operations)[:-1]:
        op.move_before(returned)
    group.results[0].replace_all_uses_with(region.results[0])
    group.erase()
    return True


@register
class FormDispatchRegions(Pass):
    """Turns each mlc.fusion_group into one IREE flow.dispatch.region (one kernel)."""

    name = "mlc-form-dispatch-regions"

    def run(self, module):
        groups = _groups(module)
        if groups:
            module.context.allow_unregistered_dialects = True
        for index, group in enumerate(groups):
            pads = _hoist_input_pads(group, group.regions[0].blocks[0])
            if pads:
                self.count("input pads computed before their region", pads)
            formed = _dispatch_region(group, index)
            self.count("dispatch regions" if formed else "groups inlined (untraceable dynamic sizes)")
