"""`mlc-guard-nested-pads`: a pad of a pad by another value reads the inner pad
through a `util.optimization_barrier`.

IREE 3.13 puts a computed value and the two pads after it into one dispatch that it
then cannot distribute over workgroups ("'func.func' op failed on workgroup
distribution verification", a compile error on llvm-cpu, vulkan-spirv and cuda):
`F.pad(F.pad(x.exp(), (1, 1)), (2, 1), value=-1.0)`, returned as it is, reshaped or
transposed. Pads by one value, or a pad whose result an elementwise op reads, compile.
The random programs found it on an H200 (seed 580200, `logsumexp` then two pads) at
-O0, where IREE forms the dispatches, as it does at -O1 and, at -O2, for the pads the
GPU targets leave outside mlc's groups: the guard applies there. Behind the barrier the
outer pad is a dispatch of its own. Pads inside mlc's own regions are left alone.
"""

from torch_mlir import ir

from ..dialects import iree_flow
from .registry import Pass, register

PAD = "tensor.pad"


def _padding_value(pad: ir.Operation) -> ir.Attribute | None:
    """The constant a pad fills with, or None where it is not a constant."""
    body = pad.regions[0].blocks[0].operations
    yielded = body[len(body) - 1].operands[0]  # the tensor.yield that ends the region
    producer = yielded.owner
    if isinstance(producer, ir.Block) or producer.name != "arith.constant":
        return None
    return producer.attributes["value"]


def _pads_another_pad_by_another_value(op: ir.Operation) -> bool:
    if op.name != PAD:
        return False
    source = op.operands[0].owner
    if isinstance(source, ir.Block) or source.name != PAD:
        return False
    outer, inner = _padding_value(op), _padding_value(source)
    return outer is None or inner is None or outer != inner


@register
class GuardNestedPads(Pass):
    """Puts a barrier between a pad and the pad by another value that reads it."""

    name = "mlc-guard-nested-pads"

    def run(self, module):
        nested = []
        module.walk(lambda op: (nested.append(op) if _pads_another_pad_by_another_value(op) else None)
                    or ir.WalkResult.ADVANCE)
        for op in nested:
            if iree_flow.in_dispatch_region(op):
                continue
            guarded = iree_flow.optimization_barrier(op.operands[0])
            op.operands[0] = guarded
            self.count("pads of a pad by another value")
