"""`mlc-lower-to-llvm`: affine, scf, vector, memref, arith, math and func ops
become the LLVM dialect, which `ExecutionEngine` compiles to machine code.

Each public function with a body gets `llvm.emit_c_interface`, so it also has a
`_mlir_ciface_<name>` wrapper taking one pointer per memref descriptor: the
entry point `ExecutionEngine.invoke` calls. `math.erf` has no LLVM intrinsic;
`convert-math-to-libm` calls libm's `erff` for it (the JIT resolves it in the
running process). The pass fails, at the op, when anything but LLVM ops is left.
"""

from torch_mlir import ir

from .registry import Pass, PassFailure, register, run_upstream

PIPELINE = [
    "convert-vector-to-scf",  # transfers along a strided dimension become loops of scalar loads
    "convert-math-to-llvm",  # exp, sqrt, ... as LLVM intrinsics
    "convert-math-to-libm",  # the rest (erf) as calls into libm
    "lower-affine",
    "convert-scf-to-cf",
    "convert-vector-to-llvm",
    "expand-strided-metadata",  # subviews and reshapes of memrefs become descriptor arithmetic ...
    "lower-affine",  # ... written with affine.apply
    "finalize-memref-to-llvm",
    "convert-arith-to-llvm",
    "convert-cf-to-llvm",
    "convert-func-to-llvm",
    "convert-ub-to-llvm",
    "reconcile-unrealized-casts",
]
CAST = "builtin.unrealized_conversion_cast"


def _public_definitions(module: ir.Operation) -> list[ir.Operation]:
    found = []

    def visit(op):
        if op.name == "func.func" and len(op.regions[0].blocks) and "sym_visibility" not in op.attributes:
            found.append(op)
        return ir.WalkResult.ADVANCE

    module.walk(visit)
    return found


def _left_over(module: ir.Operation) -> list[ir.Operation]:
    """The first op of each name that is not LLVM (not those inside it); the casts
    only if nothing else is left."""
    first = {}

    def visit(op):
        if op == module or op.name.startswith("llvm."):
            return ir.WalkResult.ADVANCE
        first.setdefault(op.name, op)
        return ir.WalkResult.SKIP

    module.walk(visit, ir.WalkOrder.PRE_ORDER)
    return [op for name, op in first.items() if name != CAST] or list(first.values())


@register
class LowerToLLVM(Pass):
    """Lowers affine, scf, vector, memref, arith, math and func ops to the LLVM dialect, with C interfaces."""

    name = "mlc-lower-to-llvm"

    def run(self, module: ir.Operation) -> None:
        for function in _public_definitions(module):
            function.attributes["llvm.emit_c_interface"] = ir.UnitAttr.get()
        run_upstream(module, PIPELINE)
        left = _left_over(module)
        for op in left:
            op.location.emit_error(f"'{op.name}' is left after lowering to LLVM: mlc-lower-to-llvm takes affine, "
                                   "scf, vector, memref, arith, math and func ops (run mlc-bufferize and "
                                   "mlc-lower-linalg-to-affine first)")
        if left:
            raise PassFailure()
