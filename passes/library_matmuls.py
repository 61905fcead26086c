"""`mlc-library-matmuls`: chosen f32 matmuls run on a vendor library (MKL), called
from mlc's executable through IREE's executable plugin mechanism.

A `linalg.matmul` of a dispatch region, whose shape `MxKxN` is among `shapes`,
becomes a dispatch region of its own placed before it. That region runs
`workgroups` workgroups; each takes a block of rows of the result and calls the
plugin's `mlc_sgemm` on them (`iree_codegen.ukernel.generic`: each buffer as base,
offset and row stride), so IREE's workers share the matmul and the library runs one
thread per call. The rest of the group (bias, GELU, a residual add) stays in the
original region and reads the product; a group that was only the matmul is gone.

Which shapes run on the library is the driver's choice, measured on the CPU
(driver/backends/matmul_choice.py); this pass rewrites what it is told. The plugin
(driver/backends/native/mlc_matmul.c) must be loaded where the executable runs.

Runs after `mlc-form-dispatch-regions`. A matmul qualifies when it multiplies two
static f32 matrices from outside its region (or reshaped from outside: the reshapes
move out with it) into zeros (`linalg.fill` of 0.0).
"""

import math

from torch_mlir import ir
from torch_mlir.dialects import arith, tensor

from ..dialects import iree_flow
from ..dialects.op_base import DYNAMIC
from .registry import Pass, register

SGEMM = "mlc_sgemm"


def shape_key(m: int, k: int, n: int) -> str:
    return f"{m}x{k}x{n}"


def _inside(value: ir.Value, region: ir.Operation) -> bool:
    owner = value.owner
    op = owner.owner if isinstance(owner, ir.Block) else owner.operation
    while op is not None:
        if op == region:
            return True
        op = op.parent
    return False


RESHAPES = ("tensor.collapse_shape", "tensor.expand_shape")


def _from_outside(value: ir.Value, region: ir.Operation) -> bool:
    """Whether `value` comes from outside the region, directly or through reshapes (a
    linear layer's [batch, tokens, features] input folded into rows), which can move out."""
    while _inside(value, region):
        owner = value.owner
        if isinstance(owner, ir.Block) or owner.operation.name not in RESHAPES:
            return False
        value = owner.operation.operands[0]
    return True


def _outside_copy(value: ir.Value, region: ir.Operation) -> ir.Value:
    """`value` computed before the region: its reshapes (see `_from_outside`) cloned there."""
    if not _inside(value, region):
        return value
    reshape = value.owner.operation
    source = _outside_copy(reshape.operands[0], region)
    clone = reshape.clone(ir.InsertionPoint(region))
    clone.operands[0] = source
    return clone.results[0]


def _zero_fill(value: ir.Value) -> bool:
    owner = value.owner
    if isinstance(owner, ir.Block) or owner.operation.name != "linalg.fill":
        return False
    filler = owner.operation.operands[0].owner
    if isinstance(filler, ir.Block) or filler.operation.name != "arith.constant":
        return False
    return ir.FloatAttr(filler.operation.attributes["value"]).value == 0.0


def matmul_shape(op: ir.Operation, region: ir.Operation) -> str | None:
    """The `MxKxN` of a matmul this pass can move to the library, or None."""
    if op.name != "linalg.matmul" or len(op.operands) != 3:
        return None
    lhs, rhs, init = op.operands
    f32 = ir.F32Type.get()
    for value in (lhs, rhs, init):
        shaped = ir.RankedTensorType(value.type)
        if shaped.rank != 2 or DYNAMIC in shaped.shape or shaped.element_type != f32:
            return None
    if not (_from_outside(lhs, region) and _from_outside(rhs, region) and _zero_fill(init)):
        return None
    if "indexing_maps" in op.attributes and str(op.attributes["indexing_maps"]) != str(_default_maps()):
        return None  # a transposed operand: the plugin takes row-major A and B
    (m, k), n = lhs.type.shape, rhs.type.shape[1]
    return shape_key(m, k, n)


def _default_maps() -> ir.ArrayAttr:
    return ir.Attribute.parse(
        "[affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d2, d1)>,"
        " affine_map<(d0, d1, d2) -> (d0, d1)>]")


def row_blocks(m: int, workgroups: int) -> tuple[int, int]:
    """(rows per workgroup, workgroups): `workgroups` blocks of rows, fewer when M is small,
    so that every block has at least one row."""
    rows = math.ceil(m / max(1, workgroups))
    return rows, math.ceil(m / rows)


def library_region(lhs: ir.Value, rhs: ir.Value, workgroups: int) -> ir.Operation:
    """The dispatch region computing lhs @ rhs on the library, at the insertion point."""
    (m, k), n = lhs.type.shape, rhs.type.shape[1]
    index, f32 = ir.IndexType.get(), ir.F32Type.get()
    rows, count = row_blocks(m, workgroups)
    result_type = ir.RankedTensorType.get([m, n], f32)
    destination = tensor.empty([m, n], f32)
    region, body = iree_flow.distributed_region(result_type, arith.constant(index, count))
    with ir.InsertionPoint(body):
        offset = arith.muli(iree_flow.workgroup_id(0), arith.constant(index, rows))
        size = arith.minsi(arith.constant(index, rows), arith.subi(arith.constant(index, m), offset))
        block = ir.RankedTensorType.get([DYNAMIC, k], f32)
        out_block = ir.RankedTensorType.get([DYNAMIC, n], f32)
        lhs_rows = tensor.extract_slice(block, lhs, [offset], [size], [], [DYNAMIC, 0], [DYNAMIC, k], [1, 1])
        out_rows = tensor.extract_slice(out_block, destination, [offset], [size], [], [DYNAMIC, 0], [DYNAMIC, n], [1, 1])
        product = iree_flow.ukernel_call(SGEMM, [lhs_rows, rhs], out_rows,
                                         [size, arith.constant(index, n), arith.constant(index, k)])
        inserted = tensor.insert_slice(product, destination, [offset], [size], [], [DYNAMIC, 0], [DYNAMIC, n], [1, 1])
        iree_flow.flow_return(inserted)
    return region


def dispatch_regions(module: ir.Operation) -> list[ir.Operation]:
    found = []
    module.walk(lambda op: (found.append(op) if op.name == iree_flow.DISPATCH_REGION else None) or ir.WalkResult.ADVANCE)
    return found


def _returned_directly(region: ir.Operation) -> ir.Value | None:
    """The value a region returns when it computes nothing but passes it through."""
    body = region.regions[0].blocks[0]
    terminator = body.operations[len(body.operations) - 1]
    value = terminator.operands[0]
    return None if _inside(value, region) else value


def _erase_dead(body: ir.Block) -> None:
    """Ops of the region left without uses once the matmul moved out (its fill, constants)."""
    changed = True
    while changed:
        changed = False
        for op in reversed(list(body.operations)[:-1]):
            unused = all(len(list(result.uses)) == 0 for result in op.results)
            if unused and op.name in ("linalg.fill", "tensor.empty", "arith.constant", *RESHAPES):
                op.erase()
                changed = True


@register
class LibraryMatmuls(Pass):
    """Moves the chosen f32 matmuls onto the vendor library (MKL) through mlc's IREE plugin."""

    name = "mlc-library-matmuls"
    # The shapes to move, `MxKxN` joined by commas; `all` moves every matmul that qualifies.
    shapes: str = ""
    # Workgroups per matmul: blocks of rows, shared by IREE's worker threads.
    workgroups: int = 2

    @property
    def chosen(self) -> set[str] | None:
        """The shapes to move; None for all."""
        return None if self.shapes == "all" else {s.strip() for s in self.shapes.split(",") if s.strip()}

    def run(self, module):
        chosen = self.chosen
        for region in dispatch_regions(module):
            body = region.regions[0].blocks[0]
            for op in list(body.operations):
                shape = matmul_shape(op, region)
                if shape is None:
                    continue
                if chosen is not None and shape not in chosen:
                    self.count("matmuls left to IREE's kernel")
                    continue
                self._move(op, region)
                self.count("matmuls on the library")

    def _move(self, matmul: ir.Operation, region: ir.Operation) -> None:
        lhs, rhs = (_outside_copy(operand, region) for operand in matmul.operands[:2])
        with ir.InsertionPoint(region), matmul.location:
            library = library_region(lhs, rhs, self.workgroups)
        matmul.results[0].replace_all_uses_with(library.results[0])
        matmul.erase()
        body = region.regions[0].blocks[0]
        _erase_dead(body)
        passed = _returned_directly(region)
        if passed is not None:
            region.results[0].replace_all_uses_with(passed)
            region.erase()
            self.count("regions left empty")
