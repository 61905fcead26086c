"""`mlc-guard-unit-slices`: a slice of one element that is later reshaped to a higher
rank than the tensor it was cut from reaches its users through a `util.optimization_barrier`.

IREE 3.13 makes such a slice 0-d (`tensor<4xf32> to tensor<f32>`, dropping its unit
dimensions) and then folds the `expand_shape` that follows into it, which gives a slice
of higher rank than its source: "expected rank to be smaller or equal to the other
rank", a compile error. The random programs found it (seed 90089: `x[0:1:2]` of a [4]
input, returned unsqueezed and multiplied by a [3, 1] weight), where IREE forms the
dispatches: -O0 and -O1, and the ops mlc leaves outside its groups at -O2. Behind the
barrier IREE cannot fold the reshape into the slice.
"""

from torch_mlir import ir

from ..dialects import iree_flow
from .registry import Pass, register

RESHAPES = ("tensor.expand_shape", "tensor.collapse_shape")


def _one_element(op: ir.Operation) -> bool:
    if op.name != "tensor.extract_slice":
        return False
    shape = ir.RankedTensorType(op.results[0].type).shape
    return len(shape) > 0 and all(size == 1 for size in shape)


def _expanded_past(value: ir.Value, rank: int) -> bool:
    """Whether `value` reaches, through reshapes, an `expand_shape` to more than `rank` dimensions."""
    for use in value.uses:
        user = use.owner
        if user.name not in RESHAPES:
            continue
        result = user.results[0]
        if user.name == "tensor.expand_shape" and ir.RankedTensorType(result.type).rank > rank or _expanded_past(result, rank):
            return True
    return False


@register
class GuardUnitSlices(Pass):
    """Puts a barrier after a one-element slice that a reshape takes past its source's rank."""

    name = "mlc-guard-unit-slices"

    def run(self, module):
        slices = []
        module.walk(lambda op: (slices.append(op) if _one_element(op) else None) or ir.WalkResult.ADVANCE)
        for op in slices:
            value = op.results[0]
            if iree_flow.in_dispatch_region(op) or not _expanded_past(value, ir.RankedTensorType(op.operands[0].type).rank):
                continue
            guarded = iree_flow.optimization_barrier(value)
            value.replace_all_uses_except(guarded, guarded.owner.operation)
            self.count("one-element slices reshaped past their source's rank")
