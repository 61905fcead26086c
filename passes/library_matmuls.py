"""`mlc-library-matmuls`: chosen matmuls run on a vendor library (MKL), called from
mlc's executable through IREE's executable plugin mechanism.

A `linalg.matmul` whose shape `MxKxN` (f32), `MxKxNxbf16` (bf16 operands summed in
f32) or `MxKxNxi8` (int8 summed in i32) is among `shapes` becomes a dispatch region of
its own placed before it. That region runs `workgroups` workgroups; each calls the
plugin's `mlc_sgemm`, `mlc_gemm_bf16` or `mlc_gemm_s8` (`iree_codegen.ukernel.generic`:
each buffer as base, offset and row stride) on all of A and its block of columns of B
and C. With one workgroup (IREE's local-sync driver) the plugin splits the call's
columns among its own threads; with one per IREE task worker, the workers share the
matmul. MKL runs one thread per block. A matmul
of a dispatch region leaves the rest of the group (bias, GELU, a residual add) in the
original region, reading the product; a group that was only the matmul is gone. A
matmul outside every region (at bf16 and int8 mlc leaves matmuls to IREE's dispatch
formation) is replaced in place.

With `packed`, a matmul of several rows by a constant weight calls `mlc_sgemm_packed`,
`mlc_gemm_bf16_packed` or `mlc_gemm_s8_packed` instead, passing a fingerprint of the
weight's values (plus the block's first column): the plugin packs each block into
MKL's layout at its first call and keeps it under that key, where MKL would pack it at
every call. The f32 and bf16 shapes listed in `own-kernel` call `mlc_sgemm_epilogue` or
`mlc_gemm_bf16_epilogue` with the flag that runs the product on mlc's own kernel
(native/sgemm_avx512.h, gemm_bf16.h), its weight packed once in that kernel's layout; a
single row too (a decode step's), which then streams the packed weight (on a CPU with
AVX2 but not AVX-512, in native/gemv_avx2.h, which reads the same layouts).

A lowered `mlc.quantized_matmul` of one row (`MxKxNxq8`: its steps marked by the
lowering) goes whole: one region calling `mlc_matvec_s8_quantizing` on the f32 row, the
int8 weight's block and its columns' scales, which quantizes the row inside the call;
the steps that led up to it are erased. With `packed`, a constant weight's fingerprint
goes with it (0 otherwise): the plugin lays the weight out once as its VNNI row kernel
streams it (native/gemv_s8_vnni.h). Of several rows (mlc-quantize-int8{whole-matrices}),
it calls `mlc_gemm_s8_quantizing`, which quantizes the rows, multiplies (the weight
packed once, with `packed`) and rescales, and takes the epilogue of the region that
reads it (with `epilogues`), as a product of a region does.

Which shapes run on the library is the driver's choice, measured on the CPU
(driver/backends/matmul_choice.py); this pass rewrites what it is told. The plugin
(driver/backends/native/mlc_matmul.c) must be loaded where the executable runs.

Runs after `mlc-form-dispatch-regions`. A matmul qualifies when it multiplies two
static f32, bf16 or i8 matrices from outside its region (or reshaped from outside:
the reshapes move out with it) into zeros (`linalg.fill` of 0) of f32, or i32 for i8.
"""

import hashlib
import math

import numpy as np
from torch_mlir import ir
from torch_mlir.dialects import arith, tensor

from ..dialects import iree_flow
from ..dialects.op_base import DYNAMIC
from . import constant_values, library_epilogue
from .lower_to_linalg import builders
from .lower_to_linalg.compute import QUANTIZED_STEP
from .registry import Pass, register

SGEMM = "mlc_sgemm"
# The plugin's function for each operand type (`shape_key`'s suffix).
FUNCTIONS = {"f32": SGEMM, "bf16": "mlc_gemm_bf16", "i8": "mlc_gemm_s8"}
# Its function for a lowered mlc.quantized_matmul of one row: the f32 row in, quantized
# inside the call, the int8 product rescaled to f32.
QUANTIZING_ROW = "mlc_matvec_s8_quantizing"
# ... and of several rows, with an epilogue (its flags may be none).
QUANTIZING_ROWS = "mlc_gemm_s8_quantizing"
# Its functions for a constant weight, packed once (option `packed`).
PACKED = {"f32": "mlc_sgemm_packed", "bf16": "mlc_gemm_bf16_packed", "i8": "mlc_gemm_s8_packed"}
# Its functions for a product followed by an epilogue (passes/library_epilogue.py).
EPILOGUE = {"f32": "mlc_sgemm_epilogue", "bf16": "mlc_gemm_bf16_epilogue"}
PLUGIN_FUNCTIONS = (*FUNCTIONS.values(), QUANTIZING_ROW, QUANTIZING_ROWS, *PACKED.values(), *EPILOGUE.values())
# The `shape_key` kind of such a row: f32 in, int8 weights, f32 out.
QUANTIZED = "q8"


def shape_key(m: int, k: int, n: int, operands: str = "f32") -> str:
    """`MxKxN` for f32 operands, `MxKxNxbf16` or `MxKxNxi8` for narrower ones (as MLIR
    writes a type), `MxKxNxq8` for a quantized row (QUANTIZED)."""
    return f"{m}x{k}x{n}" + ("" if operands == "f32" else f"x{operands}")


def parse_key(key: str) -> tuple[int, int, int, str]:
    """(M, K, N, operand type) of a `shape_key`."""
    m, k, n, *operands = key.split("x")
    return int(m), int(k), int(n), operands[0] if operands else "f32"


def _inside(value: ir.Value, region: ir.Operation | None) -> bool:
    """Whether `value` is computed in `region` (never, for no region)."""
    if region is None:
        return False
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


# What a matmul's region may compute its lhs with, for that computation to move into a
# region of its own (`_prologue`): elementwise work and what it needs.
PROLOGUE_OPS = ("linalg.generic", "linalg.fill", "tensor.empty", "arith.constant", *RESHAPES)


def _prologue(value: ir.Value, region: ir.Operation | None, matmul: ir.Operation) -> list[ir.Operation] | None:
    """The ops of `region`'s body that compute `value` (an operand of `matmul`) from values
    outside it, in body order, when they are elementwise work that nothing else in the
    region uses: an RMSNorm's scaling that mlc fused into the matmul's group (Llama's LM
    head). They can move into a region of their own before; None where they cannot."""
    if region is None or not _inside(value, region):
        return None
    body = region.regions[0].blocks[0]
    found, pending = [], [value]
    while pending:
        current = pending.pop()
        owner = current.owner
        if not _inside(current, region):
            continue
        if isinstance(owner, ir.Block) or owner.operation.name not in PROLOGUE_OPS or owner.operation.parent != region:
            return None
        if owner.operation not in found:
            found.append(owner.operation)
            pending.extend(owner.operation.operands)
            for inner_region in owner.operation.regions:  # a generic's body may read the region's values
                for inner in inner_region.blocks[0].operations:
                    pending.extend(v for v in inner.operands
                                   if not isinstance(v.owner, ir.Block) and v.owner.operation.parent == region)
    allowed = [*found, matmul]
    for op in found:
        for result in op.results:
            if any(use.owner not in allowed for use in result.uses):
                return None
    order = list(body.operations)
    return sorted(found, key=order.index)


def _prologue_region(value: ir.Value, region: ir.Operation, matmul: ir.Operation) -> ir.Value:
    """`value` computed by its prologue (`_prologue`) moved into a region of its own
    before `region`; `matmul` reads that region's result."""
    producers = _prologue(value, region, matmul)
    with ir.InsertionPoint(region), region.location:
        prologue, body = iree_flow.dispatch_region(value.type, [])
    with ir.InsertionPoint(body), region.location:
        terminator = iree_flow.flow_return(value)
    for op in producers:
        op.move_before(terminator)
    for i, operand in enumerate(matmul.operands):
        if operand == value:
            matmul.operands[i] = prologue.results[0]
    return prologue.results[0]


def _zero_fill(value: ir.Value) -> bool:
    owner = value.owner
    if isinstance(owner, ir.Block) or owner.operation.name != "linalg.fill":
        return False
    filler = owner.operation.operands[0].owner
    if isinstance(filler, ir.Block) or filler.operation.name != "arith.constant":
        return False
    value = filler.operation.attributes["value"]
    return (ir.FloatAttr(value).value if isinstance(value, ir.FloatAttr) else ir.IntegerAttr(value).value) == 0


def _operand_type(lhs: ir.Value, rhs: ir.Value, init: ir.Value) -> str | None:
    """"f32", "bf16" (summed in f32) or "i8" (summed in i32) where the library has the
    product, else None."""
    types = [ir.RankedTensorType(value.type).element_type for value in (lhs, rhs, init)]
    if types[0] != types[1]:
        return None
    operands = {ir.F32Type.get(): "f32", ir.BF16Type.get(): "bf16", ir.IntegerType.get_signless(8): "i8"}.get(types[0])
    return operands if operands is not None and types[2] == result_type(operands) else None


def element_type(operands: str) -> ir.Type:
    """The left operand's element type (a quantized row's is f32)."""
    return {"f32": ir.F32Type.get, "bf16": ir.BF16Type.get, "i8": lambda: ir.IntegerType.get_signless(8),
            QUANTIZED: ir.F32Type.get}[operands]()


def result_type(operands: str) -> ir.Type:
    """What the library sums `operands` in: i32 for i8, f32 for the rest (a quantized
    row comes out rescaled to f32)."""
    return ir.IntegerType.get_signless(32) if operands == "i8" else ir.F32Type.get()


def matmul_shape(op: ir.Operation, region: ir.Operation | None) -> str | None:
    """The `shape_key` of a matmul (of `region`, or outside every region for None) this
    pass can move to the library, or None."""
    if op.name != "linalg.matmul" or len(op.operands) != 3:
        return None
    lhs, rhs, init = op.operands
    if region is None and _quantized_row(op) is not None and lhs.type.has_static_shape and rhs.type.has_static_shape:
        (m, k), n = lhs.type.shape, rhs.type.shape[1]
        return shape_key(m, k, n, QUANTIZED)
    for value in (lhs, rhs, init):
        shaped = ir.RankedTensorType(value.type)
        if shaped.rank != 2 or DYNAMIC in shaped.shape:
            return None
    operands = _operand_type(lhs, rhs, init)
    if operands is None:
        return None
    lhs_ready = _from_outside(lhs, region) or _prologue(lhs, region, op) is not None
    if not (lhs_ready and _from_outside(rhs, region) and _zero_fill(init)):
        return None
    if "indexing_maps" in op.attributes and str(op.attributes["indexing_maps"]) != str(_default_maps()):
        return None  # a transposed operand: the plugin takes row-major A and B
    (m, k), n = lhs.type.shape, rhs.type.shape[1]
    return shape_key(m, k, n, operands)


def _default_maps() -> ir.ArrayAttr:
    return ir.Attribute.parse(
        "[affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d2, d1)>,"
        " affine_map<(d0, d1, d2) -> (d0, d1)>]")


def column_blocks(n: int, blocks: int) -> tuple[int, int]:
    """(columns per block, blocks): N columns in `blocks` blocks, multiples of 16, fewer
    when N is small, so that every block has columns; as workgroups split them here, and
    as the plugin splits a call among its threads (native/mlc_matmul.c, column_range)."""
    columns = math.ceil(n / max(1, blocks) / 16) * 16
    return columns, math.ceil(n / columns)


def own_kernel_takes(kind: str) -> bool:
    """Whether mlc's own kernel runs a product of `kind` operands that matmul_choice
    listed in `own-kernel`: f32 and bf16, of any rows (a single row streams the packed
    weight in the order it lies)."""
    return kind in ("f32", "bf16")


def _kind(element: ir.Type) -> str | None:
    return next((name for name in FUNCTIONS if element_type(name) == element), None)


def library_region(lhs: ir.Value, rhs: ir.Value, workgroups: int = 1, column_scale: ir.Value | None = None,
                   fingerprint: int | None = None, epilogue: library_epilogue.Epilogue | None = None,
                   own_kernel: bool = False) -> ir.Value:
    """lhs @ rhs computed on the library in a dispatch region, at the insertion point
    (with `column_scale`: the f32 rows `lhs` quantized per QUANTIZING_ROW, times the int8
    `rhs`, rescaled by each row's scale and `column_scale`, on QUANTIZING_ROWS with an
    epilogue, empty or not, for several rows; with the `fingerprint` of a
    constant `rhs`: on PACKED's function, which packs the weight once; with an
    `epilogue` (several rows only): on EPILOGUE's function, which applies it; with
    `own_kernel`, an f32 or bf16 product by a constant weight runs on mlc's own kernel,
    native/sgemm_avx512.h or gemm_bf16.h, not MKL's: EPILOGUE's function with that flag;
    a single row then streams the packed weight).

    One workgroup calls the plugin on the whole matmul, and the plugin splits it among
    its own threads (native/team.h): the plan for IREE's local-sync driver, which runs a
    call's dispatches on the calling thread. With `workgroups` > 1 (the plan for IREE's
    task workers, which the plugin does not split for), each workgroup multiplies all of
    lhs by a block of columns of rhs: the library repacks the part of rhs it is given at
    every call, so blocks of rows would each repack all of it (bf16 64x768x3072 on two
    workers: 0.58-0.63 ms in blocks of columns, 0.76-0.79 in blocks of rows). A single
    row's result is computed as a vector and expanded after the region: IREE 3.13
    crashed on blocks of a 1xN tensor (in TilingInterface::getLoopIteratorTypes)."""
    (m, k), n = lhs.type.shape, rhs.type.shape[1]
    index = ir.IndexType.get()
    if column_scale is not None:
        function, result = QUANTIZING_ROW if m == 1 else QUANTIZING_ROWS, ir.F32Type.get()
        if m > 1 and epilogue is None:
            epilogue = library_epilogue.Epilogue()
    else:
        kind = _kind(lhs.type.element_type)
        function, result = (FUNCTIONS if fingerprint is None else PACKED)[kind], result_type(kind)
        own_kernel = own_kernel and fingerprint is not None and own_kernel_takes(kind)
        if own_kernel and epilogue is None:
            epilogue = library_epilogue.Epilogue()
        if epilogue is not None:
            function = EPILOGUE[kind]
    columns, count = column_blocks(n, workgroups)
    out_rows = [] if m == 1 else [m]
    written = ir.BF16Type.get() if epilogue is not None and epilogue.to_bf16 else result
    region, body = iree_flow.distributed_region(ir.RankedTensorType.get([*out_rows, n], written),
                                                arith.constant(index, count))
    with ir.InsertionPoint(body):
        destination = tensor.empty([*out_rows, n], written)  # inside: IREE writes it to the result's binding
        workgroup = iree_flow.workgroup_id(0) if count > 1 else None
        if count > 1:
            offset = arith.muli(workgroup, arith.constant(index, columns))
            size = arith.minsi(arith.constant(index, columns), arith.subi(arith.constant(index, n), offset))

        def block(value: ir.Value, rows: list[int], element: ir.Type) -> ir.Value:
            if count == 1:
                return value
            return tensor.extract_slice(ir.RankedTensorType.get([*rows, DYNAMIC], element), value, [offset], [size], [],
                                        [0] * len(rows) + [DYNAMIC], [*rows, DYNAMIC], [1] * (len(rows) + 1))

        inputs = [lhs, block(rhs, [k], rhs.type.element_type)]
        if column_scale is not None:
            inputs.append(block(column_scale, [], column_scale.type.element_type))
        if epilogue is not None:  # an absent term's place holds lhs, which the plugin does not read
            inputs.append(lhs if epilogue.bias is None else block(epilogue.bias, [], result))
            inputs.append(lhs if epilogue.residual is None else block(epilogue.residual, out_rows, result))
        scalars = [arith.constant(index, m), size if count > 1 else arith.constant(index, n), arith.constant(index, k)]
        if epilogue is not None:
            packed = fingerprint is not None
            key = _block_key(fingerprint, offset if count > 1 else None) if packed else arith.constant(index, 0)
            flags = epilogue.flags | (library_epilogue.PACKED if packed else 0) | (library_epilogue.OWN_KERNEL if own_kernel else 0)
            scalars += [key, arith.constant(index, flags)]
        elif fingerprint is not None:
            scalars.append(_block_key(fingerprint, offset if count > 1 else None))
        elif function == QUANTIZING_ROW:  # no fingerprint: the weight read as it lies
            scalars.append(arith.constant(index, 0))
        product = iree_flow.ukernel_call(function, inputs, block(destination, out_rows, written), scalars)
        if count > 1:
            product = tensor.insert_slice(product, destination, [offset], [size], [], [0] * len(out_rows) + [DYNAMIC],
                                          [*out_rows, DYNAMIC], [1] * (len(out_rows) + 1))
        iree_flow.flow_return(product)
    if m == 1:
        return builders.expand(region.results[0], [1, n], [[0, 1]])
    return region.results[0]


def weight_fingerprint(weight: ir.Value) -> int | None:
    """A fingerprint of a constant f32, bf16 or int8 weight's values (the key of its packed
    blocks, PACKED); None for any other value, or one whose values mlc cannot read."""
    owner = weight.owner
    if isinstance(owner, ir.Block) or owner.name != "arith.constant" or str(weight.type.element_type) not in PACKED:
        return None
    array = constant_values.attribute_value(owner.operation, weight.type)
    if array is None:
        return None
    digest = hashlib.blake2b(np.ascontiguousarray(array).view(np.uint8).data, digest_size=8)
    digest.update(str(weight.type).encode())
    return int.from_bytes(digest.digest(), "little") >> 2  # an index, with room for its blocks' first columns


def _block_key(fingerprint: int, first_column: ir.Value | None) -> ir.Value:
    """The key of this workgroup's block: the weight's fingerprint plus the block's first
    column (each block is packed on its own). With the plugin's key, which holds the
    block's columns and rows, it names the block's values: executables that split one
    weight in other blocks (compiled for another number of cores) each find their own,
    where the block's number named the middle 16 of 48 columns in three blocks and the
    last 16 in two."""
    index = ir.IndexType.get()
    if first_column is None:
        return arith.constant(index, fingerprint)
    return arith.addi(arith.constant(index, fingerprint), first_column)


def matmuls(module: ir.Operation) -> list[tuple[ir.Operation, ir.Operation | None]]:
    """Each `linalg.matmul` of a dispatch region or of a function's body, with its
    region (None in a function's body)."""
    found = []

    def visit(op):
        if op.name == "linalg.matmul":
            parent = op.operation.parent
            if parent.name == iree_flow.DISPATCH_REGION:
                found.append((op.operation, parent))
            elif parent.name == "func.func":
                found.append((op.operation, None))
        return ir.WalkResult.ADVANCE

    module.walk(visit)
    return found


def _returned_directly(region: ir.Operation) -> ir.Value | None:
    """The value a region returns when it computes nothing but passes it through."""
    body = region.regions[0].blocks[0]
    terminator = body.operations[len(body.operations) - 1]
    value = terminator.operands[0]
    return None if _inside(value, region) else value


def _quantized_row(matmul: ir.Operation) -> tuple[ir.Value, ir.Operation, ir.Value] | None:
    """(the f32 row, the rescale op, the columns' scales) of the int8 product of a lowered
    mlc.quantized_matmul (lower_to_linalg/compute.py marks its steps), or None."""
    def step(op) -> str | None:
        return ir.StringAttr(op.attributes[QUANTIZED_STEP]).value if QUANTIZED_STEP in op.attributes else None

    if step(matmul) != "product":
        return None
    quantize, users = matmul.operands[0].owner, list(matmul.results[0].uses)
    if isinstance(quantize, ir.Block) or step(quantize.operation) != "quantize" or len(users) != 1:
        return None
    rescale = users[0].owner
    if step(rescale) != "rescale":
        return None
    return quantize.operation.operands[0], rescale, rescale.operands[2]


def _only_reader_region(value: ir.Value) -> ir.Operation | None:
    """The dispatch region whose body is the only reader of `value`, or None."""
    uses = list(value.uses)
    if len(uses) != 1:
        return None
    op = uses[0].owner
    op = getattr(op, "operation", op)
    while op is not None and op.name != iree_flow.DISPATCH_REGION:
        op = op.parent
    return op


# Ops without side effects that _erase_dead removes once nothing uses them.
DEAD_WHEN_UNUSED = ("linalg.fill", "tensor.empty", "arith.constant", "linalg.generic", "linalg.matmul",
                    "util.optimization_barrier", *RESHAPES)


def _erase_dead(body: ir.Block) -> None:
    """Ops of the region (or function) left without uses once the matmul moved out (its
    fill, constants; a quantized row's steps)."""
    changed = True
    while changed:
        changed = False
        for op in reversed(list(body.operations)[:-1]):
            unused = all(len(list(result.uses)) == 0 for result in op.results)
            if unused and op.name in DEAD_WHEN_UNUSED:
                op.erase()
                changed = True


@register
class LibraryMatmuls(Pass):
    """Moves the chosen f32 matmuls onto the vendor library (MKL) through mlc's IREE plugin."""

    name = "mlc-library-matmuls"
    # The shapes to move, `MxKxN` joined by commas; `all` moves every matmul that qualifies.
    shapes: str = ""
    # Workgroups per matmul, blocks of columns: 1 where IREE runs the dispatches on the
    # calling thread (local-sync) and the plugin splits each call among its own threads;
    # one per IREE task worker where those run them, each block's call whole.
    workgroups: int = 1
    # Constant weights of matmuls of several rows go to PACKED's functions,
    # which pack each block once (at its first call); false: MKL packs them at every call.
    packed: bool = False
    # A region left with only a bias, a residual and a GELU after the product goes into the
    # library's call (passes/library_epilogue.py); false: it stays IREE's dispatch.
    epilogues: bool = False
    # Of `shapes`, the f32 and bf16 ones whose constant weight's product runs on mlc's own
    # kernel (native/sgemm_avx512.h, gemm_bf16.h; a single row on a CPU with AVX2 but not
    # AVX-512: gemv_avx2.h) rather than MKL's (with `packed`; f32: several rows).
    own_kernel: str = ""

    @property
    def chosen(self) -> set[str] | None:
        """The shapes to move; None for all."""
        return None if self.shapes == "all" else {s.strip() for s in self.shapes.split(",") if s.strip()}

    def run(self, module):
        chosen = self.chosen
        on_own_kernel = {s.strip() for s in self.own_kernel.split(",") if s.strip()}
        module.context.allow_unregistered_dialects = True  # IREE's flow ops, unregistered in mlc's context
        for op, region in matmuls(module):
            shape = matmul_shape(op, region)
            if shape is None:
                continue
            if chosen is not None and shape not in chosen:
                self.count("matmuls left to IREE's kernel")
                continue
            if shape.endswith(QUANTIZED):
                self._move_quantized(op, *_quantized_row(op))
                self.count("quantized rows on the library")
            else:
                self._move(op, region, own_kernel=shape in on_own_kernel)
                if shape in on_own_kernel:
                    self.count("matmuls on mlc's own kernel")
            self.count("matmuls on the library")

    def _move_quantized(self, matmul: ir.Operation, row: ir.Value, rescale: ir.Operation, column_scale: ir.Value) -> None:
        """The steps of a lowered mlc.quantized_matmul, from the f32 rows to the rescaled
        product, as one library call; the steps left without uses go. Of several rows,
        the weight is packed once (`packed`) and the region that reads the product gives
        its epilogue to the call where it is only one (`epilogues`)."""
        weight, rows = matmul.operands[1], row.type.shape[0]
        fingerprint = weight_fingerprint(weight) if self.packed else None
        if self.packed:
            self.count("weights packed once" if fingerprint is not None else "weights packed at each call")
        with ir.InsertionPoint(rescale), rescale.location:
            library = library_region(row, weight, self.workgroups, column_scale, fingerprint=fingerprint)
        rescale.results[0].replace_all_uses_with(library)
        body = rescale.parent.regions[0].blocks[0]
        rescale.erase()
        _erase_dead(body)
        if rows > 1:
            self._take_reader_epilogue(library, row, weight, fingerprint, column_scale)

    def _move(self, matmul: ir.Operation, region: ir.Operation | None, own_kernel: bool = False) -> None:
        """Computes `matmul` in a library region before its own region (or before it,
        outside every region), and removes what only it used. An lhs computed in the
        region goes to a region of its own first (`_prologue_region`). `own_kernel`: on
        mlc's own f32 or bf16 kernel (see `library_region`)."""
        if region is not None and not _from_outside(matmul.operands[0], region):
            _prologue_region(matmul.operands[0], region, matmul)
            self.count("prologues moved out")
        lhs, rhs = (_outside_copy(operand, region) for operand in matmul.operands[:2])
        with ir.InsertionPoint(region or matmul), matmul.location:
            fingerprint = None
            rows = lhs.type.shape[0]
            on_own = own_kernel and own_kernel_takes(_kind(lhs.type.element_type))
            if self.packed and (rows > 1 or on_own):  # else it reads the weight as it lies
                fingerprint = weight_fingerprint(rhs)
                self.count("weights packed once" if fingerprint is not None else "weights packed at each call")
            library = library_region(lhs, rhs, self.workgroups, fingerprint=fingerprint, own_kernel=own_kernel)
        matmul.results[0].replace_all_uses_with(library)
        body = matmul.parent.regions[0].blocks[0]
        matmul.erase()
        _erase_dead(body)
        if region is None:  # a bf16 product: the region that reads it may be its epilogue
            if lhs.type.shape[0] > 1:
                self._take_reader_epilogue(library, lhs, rhs, fingerprint, own_kernel=own_kernel)
            return
        passed = _returned_directly(region)
        if passed is None and self.epilogues and lhs.type.shape[0] > 1:
            passed = self._take_epilogue(region, library, lhs, rhs, fingerprint, own_kernel=own_kernel)
        if passed is not None:
            region.results[0].replace_all_uses_with(passed)
            region.erase()
            self.count("regions left empty")

    def _take_reader_epilogue(self, library: ir.Value, lhs: ir.Value, rhs: ir.Value, fingerprint: int | None,
                              column_scale: ir.Value | None = None, own_kernel: bool = False) -> None:
        """Gives the call of a product that lies outside every region the epilogue of the
        one region that reads it (`epilogues`), and removes that region."""
        reader = _only_reader_region(library)
        if not self.epilogues or reader is None:
            return
        passed = self._take_epilogue(reader, library, lhs, rhs, fingerprint, column_scale, before=reader, own_kernel=own_kernel)
        if passed is not None:
            reader.results[0].replace_all_uses_with(passed)
            reader.erase()
            self.count("regions left empty")

    def _take_epilogue(self, region: ir.Operation, library: ir.Value, lhs: ir.Value, rhs: ir.Value,
                       fingerprint: int | None, column_scale: ir.Value | None = None,
                       before: ir.Operation | None = None, own_kernel: bool = False) -> ir.Value | None:
        """When `region` only applies an epilogue to the product, the product again on the
        library with it (the region's value), in place of the `library` region (placed
        where that was, or `before` an op); else None."""
        epilogue = library_epilogue.find(region, library, lambda value: not _inside(value, region),
                                         narrowing=column_scale is None)
        if epilogue is None:
            return None
        first = library.owner
        with ir.InsertionPoint(before or first), first.location:
            with_epilogue = library_region(lhs, rhs, self.workgroups, column_scale, fingerprint, epilogue,
                                           own_kernel=own_kernel)
        library.replace_all_uses_with(with_epilogue)
        workload = first.operands[0].owner
        first.erase()
        if not list(workload.results[0].uses):
            workload.erase()
        self.count("epilogues on the library")
        return with_epilogue
