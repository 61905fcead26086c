"""What a library matmul's region leaves after the product, when the plugin can apply it
itself: the epilogue of `mlc-library-matmuls`.

Once the matmul has moved out (passes/library_matmuls.py), its fusion group's region often
holds only a linear layer's bias, a skip connection's residual and a GELU. As a region of
its own, that is a dispatch that reads the product back from memory (ViT-B/16: 50 such
dispatches, 4.7 ms of a 103 ms call). The plugin's `mlc_sgemm_epilogue` applies them to
each block of the product while it is in cache: post(A B + bias + residual).

`find` accepts a region whose body (constants and empty tensors aside) is a chain of
parallel 2-D `linalg.generic`s from the product to the region's result, each used only by
the next: adds of a bias [N] (read along columns) and of a residual [M, N], each at most
once, then at most one GELU (lowered by mlc, marked with its form), and last, where the
caller allows it, mlc's cast of the f32 result to bf16 (marked `TO_BF16`): at bf16 the
region after a product ends in the cast for the next product. Anything else stays in
IREE's region.
"""

import dataclasses

from torch_mlir import ir

from .lower_to_linalg.data import TO_BF16
from .lower_to_linalg.elementwise import GELU

# The plugin's flags (driver/backends/native/mlc_matmul.c).
BIAS, RESIDUAL, GELU_ERF, GELU_TANH, PACKED, BF16_RESULT, OWN_KERNEL = 1, 2, 4, 8, 16, 32, 64
IGNORED = ("arith.constant", "tensor.empty")


@dataclasses.dataclass
class Epilogue:
    bias: ir.Value | None = None  # [N]
    residual: ir.Value | None = None  # [M, N]
    gelu: str | None = None  # "none" (erf) or "tanh"
    to_bf16: bool = False  # the result rounded to bf16

    @property
    def flags(self) -> int:
        gelu = {"none": GELU_ERF, "tanh": GELU_TANH, None: 0}[self.gelu]
        return ((BIAS if self.bias is not None else 0) | (RESIDUAL if self.residual is not None else 0) | gelu
                | (BF16_RESULT if self.to_bf16 else 0))


def _maps(op) -> list[str]:
    return [str(ir.AffineMapAttr(m).value) for m in ir.ArrayAttr(op.attributes["indexing_maps"])]


IDENTITY, COLUMNS = "(d0, d1) -> (d0, d1)", "(d0, d1) -> (d1)"


def _is_add_of_block_arguments(op) -> bool:
    """The generic's body is `yield addf(input 0, input 1)` in either order."""
    body = op.regions[0].blocks[0]
    ops = list(body.operations)
    if len(ops) != 2 or ops[0].name != "arith.addf" or ops[1].name != "linalg.yield":
        return False
    (left, right), (first, second) = list(ops[0].operands), list(body.arguments)[:2]
    return ops[1].operands[0] == ops[0].results[0] and (
        (left == first and right == second) or (left == second and right == first))


def _step(op, previous: ir.Value, epilogue: Epilogue, outside, narrowing: bool) -> bool:
    """Takes `op` into `epilogue` if it is its next step from `previous`."""
    if op.name != "linalg.generic" or len(op.results) != 1 or epilogue.to_bf16:
        return False
    if any("parallel" not in str(t) for t in ir.ArrayAttr(op.attributes["iterator_types"])):
        return False
    inputs = list(op.operands)[: len(op.operands) - 1]
    maps = _maps(op)
    if maps[-1] != IDENTITY or previous not in [v for v, m in zip(inputs, maps) if m == IDENTITY]:
        return False
    if TO_BF16 in op.attributes:
        epilogue.to_bf16 = narrowing and len(inputs) == 1
        return epilogue.to_bf16
    if str(op.results[0].type.element_type) != "f32":
        return False
    if GELU in op.attributes:
        if len(inputs) != 1 or epilogue.gelu is not None:
            return False
        epilogue.gelu = ir.StringAttr(op.attributes[GELU]).value
        return True
    if len(inputs) != 2 or epilogue.gelu is not None or not _is_add_of_block_arguments(op):
        return False
    other, other_map = next((v, m) for v, m in zip(inputs, maps) if v != previous)
    if not outside(other) or str(other.type.element_type) != "f32":
        return False
    if other_map == COLUMNS and other.type.rank == 1 and epilogue.bias is None:
        epilogue.bias = other
        return True
    if other_map == IDENTITY and list(other.type.shape) == list(previous.type.shape) and epilogue.residual is None:
        epilogue.residual = other
        return True
    return False


def find(region: ir.Operation, product: ir.Value, outside, narrowing: bool = False) -> Epilogue | None:
    """The epilogue that is all `region` computes from `product`, or None (see the module
    docstring). `outside(value)`: whether a value comes from outside the region;
    `narrowing`: whether the epilogue may end in the cast to bf16."""
    body = region.regions[0].blocks[0]
    ops = [op for op in body.operations if op.name not in IGNORED]
    *steps, terminator = ops
    if not steps or terminator.name != "flow.return" or len(terminator.operands) != 1:
        return None
    epilogue, previous = Epilogue(), product
    for op in steps:
        if len(list(previous.uses)) != 1 or not _step(op, previous, epilogue, outside, narrowing):
            return None
        previous = op.results[0]
    return epilogue if terminator.operands[0] == previous else None
