"""`mlc-decompose-linalg`: linalg ops that have no loop form (`linalg.softmax`)
become the linalg.generic ops they stand for, on tensors.

`linalg.softmax` is an aggregate: IREE decomposes it itself, but
`convert-linalg-to-affine-loops` does not know it. Its decomposition (max,
subtract, exp, sum, divide) builds `tensor.empty` ops, so it runs before
bufferization. Upstream offers it only as a transform op
(`transform.structured.decompose_interface`), which this pass applies with the
transform interpreter.
"""

from torch_mlir import ir
from torch_mlir.dialects.transform import interpreter

from .registry import Pass, register

AGGREGATES = ("linalg.softmax",)

SCRIPT = """
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %ops = transform.structured.match ops{[OPS]} in %root : (!transform.any_op) -> !transform.any_op
    %decomposed = transform.structured.decompose_interface %ops : (!transform.any_op) -> !transform.any_op
    transform.yield
  }
}
"""


@register
class DecomposeLinalg(Pass):
    """Decomposes linalg ops with no loop form (linalg.softmax) into linalg.generic ops."""

    name = "mlc-decompose-linalg"

    def run(self, module: ir.Operation) -> None:
        found = []
        module.walk(lambda op: (found.append(op.name) if op.name in AGGREGATES else None) or ir.WalkResult.ADVANCE)
        if not found:
            return
        script = ir.Module.parse(SCRIPT.replace("OPS", ", ".join(f'"{name}"' for name in AGGREGATES)))
        interpreter.apply_named_sequence(module, script.body.operations[0], script)
        self.count("decomposed ops", len(found))
