"""`mlc-bufferize`: linalg on tensors becomes linalg on memrefs, in the form a
caller from C can use.

  - `one-shot-bufferize` across function boundaries, with identity layouts at
    them, so every argument is a plain row-major buffer;
  - `buffer-results-to-out-params`: results become buffers the caller passes in
    (mlir-cpu's caller allocates them with numpy; nothing is returned to free);
  - `buffer-deallocation-pipeline`: every temporary buffer is freed;
  - each `memref.copy` becomes a `linalg.copy`, so that copies into strided views
    (padding, slices) turn into loops like any linalg op, instead of calls to
    `memrefCopy` from MLIR's C runner utils, which torch-mlir does not ship.
"""

from torch_mlir import ir
from torch_mlir.dialects import linalg

from .registry import Pass, register, run_upstream

PIPELINE = [
    "one-shot-bufferize{bufferize-function-boundaries function-boundary-type-conversion=identity-layout-map}",
    "buffer-results-to-out-params{hoist-static-allocs=true modify-public-functions=true}",
    "buffer-deallocation-pipeline",
    "canonicalize",
    "cse",
]


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
        run_upstream(module, PIPELINE)
        copied = copies_to_linalg(module)
        if copied:
            self.count("memref.copy to linalg.copy", copied)
