"""`mlc-lower-to-llvm`: affine, scf, vector, memref, arith, math and func ops
become the LLVM dialect, which `ExecutionEngine` compiles to machine code.

Each public function with a body gets `llvm.emit_c_interface`, so it also has a
`_mlir_ciface_<name>` wrapper taking one pointer per memref descriptor: the
entry point `ExecutionEngine.invoke` calls. `math.erf` has no LLVM intrinsic;
`convert-math-to-libm` calls libm's `erff` for it (the JIT resolves it in the
running process). Masked loads and stores of bf16 vectors move i16 vectors instead
(`masked_bf16_as_i16`). The pass fails, at the op, when anything but LLVM ops is left.
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
        visibility = ir.StringAttr(op.attributes["sym_visibility"]).value if "sym_visibility" in op.attributes else "public"
        if op.name == "func.func" and len(op.regions[0].blocks) and visibility == "public":
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


# LLVM's masked memory intrinsics, which the vectorizer's transfers at a buffer's edge become.
MASKED_MEMORY = ("llvm.intr.masked.load", "llvm.intr.masked.store", "llvm.intr.masked.gather",
                 "llvm.intr.masked.scatter")


def _bf16_vector(type_: ir.Type) -> bool:
    return isinstance(type_, ir.VectorType) and isinstance(type_.element_type, ir.BF16Type)


def _as_i16(type_: ir.VectorType) -> ir.VectorType:
    return ir.VectorType.get(type_.shape, ir.IntegerType.get_signless(16))


def masked_bf16_as_i16(module: ir.Operation) -> int:
    """Rewrites each masked load or store of a bf16 vector to move an i16 vector, with
    bitcasts around it; returns how many. On a CPU without AVX-512-BF16, LLVM legalizes
    the bf16 form by widening to f32 and narrowing back with compiler-rt's
    `__truncsfbf2`, which the JIT cannot resolve ("Symbols not found", random programs,
    seed 205014); moving the same bits as i16 needs no conversion."""
    found = []

    def visit(op):
        if op.name in MASKED_MEMORY and any(_bf16_vector(v.type) for v in [*op.operands, *op.results]):
            found.append(op)
        return ir.WalkResult.ADVANCE

    module.walk(visit)
    for op in found:
        with ir.InsertionPoint(op), op.location:
            operands = [ir.Operation.create("llvm.bitcast", results=[_as_i16(v.type)], operands=[v]).result
                        if _bf16_vector(v.type) else v for v in op.operands]
            moved = ir.Operation.create(op.name, results=[_as_i16(r.type) if _bf16_vector(r.type) else r.type
                                                          for r in op.results],
                                        operands=operands, attributes={name: op.attributes[name] for name in op.attributes})
        with ir.InsertionPoint.after(moved), op.location:
            for old, new in zip(op.results, moved.results):
                if _bf16_vector(old.type):
                    new = ir.Operation.create("llvm.bitcast", results=[old.type], operands=[new]).result
                old.replace_all_uses_with(new)
        op.erase()
    return len(found)


@register
class LowerToLLVM(Pass):
    """Lowers affine, scf, vector, memref, arith, math and func ops to the LLVM dialect, with C interfaces."""

    name = "mlc-lower-to-llvm"

    def run(self, module: ir.Operation) -> None:
        for function in _public_definitions(module):
            function.attributes["llvm.emit_c_interface"] = ir.UnitAttr.get()
        run_upstream(module, PIPELINE)
        rewritten = masked_bf16_as_i16(module)
        if rewritten:
            self.count("masked bf16 loads and stores moved as i16", rewritten)
        left = _left_over(module)
        for op in left:
            op.location.emit_error(f"'{op.name}' is left after lowering to LLVM: mlc-lower-to-llvm takes affine, "
                                   "scf, vector, memref, arith, math and func ops (run mlc-bufferize and "
                                   "mlc-lower-linalg-to-affine first)")
        if left:
            raise PassFailure()
