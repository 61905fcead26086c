"""`mlc-lower-torch-fallback`: the torch ops mlc left in place -> torch-mlir's own
linalg lowering, inside the same module.

Runs after `mlc-convert-torch-to-mlc{allow-fallback=true}` and before
`torch-finalizing-backend-type-conversion`, so a model with an op mlc does not
convert yet still compiles: the converted part is mlc (and gets mlc's graph
passes), the rest becomes linalg, tm_tensor, scf and arith ops next to it,
joined by the `torch_c` casts that the finalizing pass removes.

The passes are those of torch-mlir's `torch-backend-to-linalg-on-tensors-backend-pipeline`
that lower ops (its type conversion and contract check are mlc's own stages).
Ops that torch-mlir cannot lower either are reported at once, with source lines,
and so are the ops whose torch-mlir lowering is known to give wrong numbers
(`KNOWN_WRONG`): the fallback refuses them, since an error is better than a wrong result.
"""

import collections

from torch_mlir import ir

from .convert_torch_to_mlc import op_name, torch_ops, unsupported_report
from .crash_guard import crash_signal
from .registry import Pass, PassFailure, register, run_upstream

TORCH_MLIR_LOWERING = [
    "func.func(convert-torch-to-tmtensor, canonicalize, convert-torch-to-linalg, canonicalize, "
    "convert-torch-to-scf, convert-torch-to-arith, convert-torch-to-tensor)",
    "convert-torch-conversion-to-mlprogram",
    "func.func(memref-expand, canonicalize, resolve-shaped-type-result-dims, cse)",
]

# torch ops whose torch-mlir lowering compiles but computes something else, each with
# how it is wrong. The fallback refuses them; mlc's own conversion is the only way.
KNOWN_WRONG = {
    "torch.aten.embedding_bag.padding_idx":
        "torch-mlir's lowering ignores per_sample_weights (OpInfo's sample gets plain sums)",
    "torch.aten.linalg_det":
        "torch-mlir's lowering (elimination without pivoting in an scf.for) gives wrong determinants of computed "
        "matrices under IREE (det(tanh(linear(x))) of 9x9: 0.049 off at magnitude 0.047)",
    "torch.aten.grid_sampler":
        "torch-mlir's lowering is wrong where the grid leaves [-1, 1] (zeros padding gave 2.28 off)",
    "torch.aten.max_unpool2d":
        "torch-mlir's lowering leaves zeros where values belong (OpInfo's max_unpool1d sample)",
}


def _lower_single_threaded(module: ir.Operation) -> None:
    """torch-mlir's lowering in a forked child: the parent's MLIR worker threads do not
    exist there, so the child must not wait for them."""
    module.context.enable_multithreading(False)
    run_upstream(module, TORCH_MLIR_LOWERING)


@register
class LowerTorchFallback(Pass):
    """Lowers the torch ops that mlc did not convert with torch-mlir's own linalg conversions."""

    name = "mlc-lower-torch-fallback"

    def run(self, module: ir.Operation) -> None:
        left = collections.Counter(op_name(op) for op in torch_ops(module))  # names now: the ops die below
        if not left:
            return
        refused = [op for op in torch_ops(module) if op_name(op) in KNOWN_WRONG]
        if refused:
            refused[0].location.emit_error(unsupported_report(
                refused, KNOWN_WRONG, missing="no conversion to mlc, and torch-mlir's lowering of them is known wrong"))
            raise PassFailure(declined={op_name(op): f"refused, known wrong: {KNOWN_WRONG[op_name(op)]}" for op in refused})
        crashed = crash_signal(lambda: _lower_single_threaded(module))
        if crashed is not None:
            ops = ", ".join(sorted(left))
            module.operation.location.emit_error(
                f"torch-mlir's lowering crashed ({crashed}) on the ops mlc left to it: {ops}; "
                "nothing else was lost (it ran in a copy of the process)")
            raise PassFailure()
        run_upstream(module, TORCH_MLIR_LOWERING)
        remaining = torch_ops(module)
        if remaining:
            remaining[0].location.emit_error(
                unsupported_report(remaining, {}, missing="no conversion to mlc and no lowering in torch-mlir"))
            raise PassFailure(declined={op_name(op): "torch-mlir has no lowering for it either" for op in remaining})
        for name, count in left.items():
            self.count(name, count)


def fallback_note(counts: dict[str, int]) -> str:
    """One line naming the ops that took the fallback, most frequent first."""
    ops = ", ".join(f"{name} x{count}" for name, count in sorted(counts.items(), key=lambda item: (-item[1], item[0])))
    return (f"{sum(counts.values())} torch op(s) of {len(counts)} kind(s) took torch-mlir's lowering, not mlc's "
            f"(--no-fallback makes this an error): {ops}")
