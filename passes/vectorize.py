"""`mlc-vectorize`: affine loops over contiguous memory compute on vectors
(`vector.transfer_read`/`transfer_write` and vector arithmetic).

Upstream `affine-super-vectorize{virtual-vector-size=N}`, then `canonicalize`.
The default N = 16 f32 lanes is one AVX-512 register (512 bits); LLVM splits a
vector wider than the machine's registers, so it is also correct on AVX2.

Two known miscompilations of the upstream vectorizer, and what mlc does:
  - an index with a non-unit coefficient (`%x[2 * %i + %k]`, a strided
    convolution) is read as contiguous (llvm/llvm-project#196973, unmerged):
    after `canonicalize` has folded index arithmetic into the accesses, such
    accesses become `memref.load`/`memref.store` first, which the
    vectorizer leaves alone, so their loops stay scalar;
  - a loop is widened without a remainder loop, so a range that is not a
    multiple of N writes past it (llvm/llvm-project#218120): tiles from
    `mlc-lower-linalg-to-affine` must be multiples of N (mlir-cpu checks it);
    a range that ends at the edge of a buffer is safe (the transfers are masked).
"""

import dataclasses

from torch_mlir import ir
from torch_mlir.dialects import affine, memref

from ..errors import UserError
from .registry import Pass, register, run_upstream


def _unit_stride(expr: ir.AffineExpr) -> bool:
    """Whether the index is a sum of dims, symbols and constants, each dim with coefficient 1."""
    if isinstance(expr, ir.AffineAddExpr):
        return _unit_stride(expr.lhs) and _unit_stride(expr.rhs)
    return isinstance(expr, (ir.AffineDimExpr, ir.AffineSymbolExpr, ir.AffineConstantExpr))


def _demote(access: ir.Operation) -> None:
    """Replaces an affine.load/store by affine.apply per index and a memref.load/store."""
    access_map = ir.AffineMapAttr(access.attributes["map"]).value
    is_load = access.name == "affine.load"
    value, buffer, operands = (None, access.operands[0], access.operands[1:]) if is_load else \
        (access.operands[0], access.operands[1], access.operands[2:])
    with ir.InsertionPoint(access), access.location:
        indices = [affine.apply(access_map.get_submap([i]), list(operands)) for i in range(len(access_map.results))]
        if is_load:
            access.results[0].replace_all_uses_with(memref.load(buffer, indices))
        else:
            memref.store(value, buffer, indices)
    access.erase()


def keep_strided_scalar(module: ir.Operation) -> int:
    """Demotes every affine access with a non-unit index coefficient; returns how many."""
    strided = []

    def visit(op):
        if op.name in ("affine.load", "affine.store"):
            if not all(_unit_stride(e) for e in ir.AffineMapAttr(op.attributes["map"]).value.results):
                strided.append(op)
        return ir.WalkResult.ADVANCE

    module.walk(visit)
    for access in strided:
        _demote(access)
    return len(strided)


@register
class Vectorize(Pass):
    """Vectorizes affine loops over contiguous memory (affine super-vectorization); strided accesses stay scalar."""

    name = "mlc-vectorize"
    vector_size: int = dataclasses.field(default=16, metadata={"help": "lanes per vector (16 f32 = 512 bits)"})

    def __post_init__(self):
        if self.vector_size < 1:
            raise UserError(f"option 'vector-size' of pass '{self.name}' must be positive, got {self.vector_size}")

    def run(self, module: ir.Operation) -> None:
        run_upstream(module, ["canonicalize"])  # folds each affine.apply into the accesses it feeds
        demoted = keep_strided_scalar(module)
        if demoted:
            self.count("strided accesses kept scalar", demoted)
        run_upstream(module, [f"func.func(affine-super-vectorize{{virtual-vector-size={self.vector_size}}})",
                              "canonicalize"])
