"""`mlc-bufferize`: linalg on tensors becomes linalg on memrefs, in the form a
caller from C can use.

  - `one-shot-bufferize` across function boundaries, with identity layouts at
    them, so every argument is a plain row-major buffer;
  - `buffer-results-to-out-params`: results become buffers the caller passes in
    (mlir-cpu's caller allocates them with numpy; nothing is returned to free);
  - `buffer-deallocation-pipeline`: every temporary buffer is freed;
  - a tensor a function returns more than once gets a copy per extra result
    first: `buffer-results-to-out-params` would otherwise have one buffer for
    two out-params, and it crashes on that (`return %y, %y` of a computed `%y`).
  - each `memref.copy` becomes a `linalg.copy`, so that copies into strided views
    (padding, slices) turn into loops like any linalg op, instead of calls to
    `memrefCopy` from MLIR's C runner utils, which torch-mlir does not ship.
"""

from torch_mlir import ir
from torch_mlir.dialects import bufferization, func, linalg

from .registry import Pass, register, run_upstream

PIPELINE = [
    "one-shot-bufferize{bufferize-function-boundaries function-boundary-type-conversion=identity-layout-map}",
    "buffer-results-to-out-params{hoist-static-allocs=true modify-public-functions=true}",
    "buffer-deallocation-pipeline",
    "canonicalize",
    "cse",
]


def copy_repeated_results(module: ir.Operation) -> int:
    """Gives each `func.return` operand after its first use there a copy of its
    own; returns how many copies were made."""
    copied = 0
    for op in module.regions[0].blocks[0].operations:
        if not isinstance(op, func.FuncOp) or op.is_external:
            continue
        for block in op.body.blocks:
            terminator = block.operations[len(block.operations) - 1]
            if not isinstance(terminator, func.ReturnOp):
                continue
            seen = set()
            for position, value in enumerate(terminator.operands):
                if value not in seen or not isinstance(value.type, ir.RankedTensorType):
                    seen.add(value)
                    continue
                with ir.InsertionPoint(terminator), terminator.location:
                    terminator.operands[position] = bufferization.AllocTensorOp(value.type, [], copy=value).result
                copied += 1
    return copied


def copies_to_linalg(module: ir.Operation) -> int:
    """Replaces each memref.copy by the equivalent linalg.copy; returns how many."""
    copies = []
    module.walk(lambda op: (copies.append(op) if op.name == "memref.copy" else None) or ir.WalkResult.ADVANCE)
    for copy in copies:
        source, target = copy.operands
        with ir.InsertionPoint(copy), copy.location:
            linalg.copy(source, outs=[target])
        copy.erase()
    return len(copies)


@register
class Bufferize(Pass):
    """Bufferizes linalg on tensors into memrefs: identity layouts, results as out-params, temporaries freed."""

    name = "mlc-bufferize"

    def run(self, module: ir.Operation) -> None:
        repeated = copy_repeated_results(module)
        if repeated:
            self.count("repeated result copied", repeated)
        run_upstream(module, PIPELINE)
        copied = copies_to_linalg(module)
        if copied:
            self.count("memref.copy to linalg.copy", copied)
