"""`mlc-reduce-precision`: float32 matmuls multiply in bfloat16 and accumulate in float32.

Each f32 `mlc.matmul` becomes `matmul(cast(a, bf16), cast(b, bf16)) -> f32`: the CPU
multiplies bf16 pairs at twice the f32 rate (AVX-512 BF16's `vdpbf16ps`, IREE's bf16
microkernel), the sums keep f32's range and most of its precision, and every other op
(normalizations, softmax, the elementwise epilogues) stays f32. Run before
`mlc-fold-constants`, the casts of constant weights fold into bf16 constants at compile
time (half the bytes); the cast of an activation is an elementwise op that `mlc-fuse`
puts in its producer's dispatch.

A matmul of another type, or whose operands are already narrower, is left as it is.
"""

import dataclasses

from torch_mlir import ir

from ..dialects import compute_ops
from ..errors import UserError
from .graph import cast_to, tensor_type
from .registry import register
from .rewriting import Pattern, PatternPass

NARROW_TYPES = {"bf16": ir.BF16Type.get}


class NarrowMatmul(Pattern):
    """matmul(a, b) : f32 -> matmul(cast(a), cast(b)) : f32, the casts to `narrow`."""

    op = compute_ops.MatmulOp
    statistic = "matmuls in bf16, accumulated in f32"

    def __init__(self, narrow: str):
        self.narrow = narrow

    def match(self, matmul):
        f32 = ir.F32Type.get()
        types = (matmul.lhs.type.element_type, matmul.rhs.type.element_type, matmul.result.type.element_type)
        return matmul if all(t == f32 for t in types) else None

    def rewrite(self, matmul, _) -> ir.Value:
        narrow = NARROW_TYPES[self.narrow]()
        lhs, rhs = cast_to(matmul.lhs, narrow), cast_to(matmul.rhs, narrow)
        return compute_ops.MatmulOp(lhs, rhs, tensor_type(matmul.result.type.shape, matmul.result.type.element_type)).result


@register
class ReducePrecision(PatternPass):
    """Multiplies f32 matmuls in bf16, accumulating in f32."""

    name = "mlc-reduce-precision"
    type: str = dataclasses.field(default="bf16", metadata={"help": "the multiplication's type: bf16"})

    def __post_init__(self):
        if self.type not in NARROW_TYPES:
            raise UserError(f"option 'type' of pass '{self.name}' must be {' or '.join(NARROW_TYPES)}, got '{self.type}'")

    def patterns(self) -> list[Pattern]:
        return [NarrowMatmul(self.type)]
