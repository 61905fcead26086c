"""Random ops: tensors of pseudo-random numbers from a counter-based generator.

Element i (row-major position) of an op with seed s is a pure function of (s, i):
SplitMix64's finalizer of `s + (i + 1) * 0x9E3779B97F4A7C15` (two such words, at
counters 2i and 2i + 1, for the normal distribution). So the numbers are computed in
parallel inside one `linalg.generic`, fuse with their consumers, and never need a
generator state at run time.

What that means for a compiled model: each op's seed is drawn from torch's default
generator when the model is converted to mlc (so `torch.manual_seed(n)` before
`mlc.compile` makes a compile reproducible), and it is an attribute of the op. A
compiled model therefore draws the same numbers on every call: dropout keeps the same
elements each time, `torch.rand` returns the same tensor. Different ops (and the two
uniforms of one `randn`) have different seeds. The numbers are not torch's: the
distribution matches, the values do not.
"""

from collections.abc import Sequence

from torch_mlir import ir
from torch_mlir.dialects import ext
from torch_mlir.dialects.ext import Operand, Result

from .facts import FusionKind, Layout
from .op_base import DYNAMIC, MlcOp, VerifyError, float_attr, int_attr, is_float, is_integer, ranked


class RandomOp(MlcOp):
    """What the random ops share: a seed, and one index operand per dynamic result size."""

    fusion_kind = FusionKind.ELEMENTWISE  # element i depends on its position only: fuses with its consumers
    layout_rule = Layout.FIXED  # no operand for a transpose to pass through
    float_only = True

    def verify(self):
        result_type = ranked(self.result, "result")
        int_attr(self, "seed")
        dynamic = sum(1 for size in result_type.shape if size == DYNAMIC)
        if len(self.sizes) != dynamic:
            raise VerifyError(f"expected {dynamic} size operand(s) (one per dynamic result size), got {len(self.sizes)}")
        element_type = result_type.element_type
        if self.float_only and not is_float(element_type):
            raise VerifyError(f"result must hold floats, got {element_type}")
        if not is_float(element_type) and not is_integer(element_type):
            raise VerifyError(f"result must hold floats or integers, got {element_type}")


class RandomUniformOp(RandomOp, name="random_uniform", traits=[ext.Pure]):
    """Floats uniform on [low, high), as torch's `uniform_` (and so `rand`, `rand_like`,
    and the uniforms torch-mlir makes bernoulli, dropout and exponential of).

    The unit value is k / 2^m for a random integer k < 2^m, m the mantissa width
    (24 bits for f32, 53 for f64, 11 for f16, 8 for bf16): exactly representable, so
    never rounded up to 1."""

    seed: ir.IntegerAttr
    low: ir.FloatAttr
    high: ir.FloatAttr
    sizes: Sequence[Operand[ir.IndexType]]
    result: Result[ir.RankedTensorType]

    def verify(self):
        super().verify()
        if not float_attr(self, "low") <= float_attr(self, "high"):
            raise VerifyError(f"low must not exceed high, got [{float_attr(self, 'low')}, {float_attr(self, 'high')})")


class RandomNormalOp(RandomOp, name="random_normal", traits=[ext.Pure]):
    """Floats normally distributed with mean `mean` and standard deviation `std`, as
    torch's `normal_` (and `randn`, `randn_like`): Box-Muller from two uniforms,
    `sqrt(-2 log u1) cos(2 pi u2)` with u1 in (0, 1] (never log 0), computed in f32
    (f64 for an f64 result, but for the cosine: IREE's CPU target has no f64 cos). Its
    tails end where u1 does: 5.8 std in f32, 8.6 in f64."""

    seed: ir.IntegerAttr
    mean: ir.FloatAttr
    std: ir.FloatAttr
    sizes: Sequence[Operand[ir.IndexType]]
    result: Result[ir.RankedTensorType]

    def verify(self):
        super().verify()
        if float_attr(self, "std") < 0:
            raise VerifyError(f"std must not be negative, got {float_attr(self, 'std')}")


class RandomIntOp(RandomOp, name="random_int", traits=[ext.Pure]):
    """Integers uniform on [low, high), as torch's `randint`, in the result's element
    type (integers, or floats holding integers). The integer is `low + w mod (high -
    low)` for a random 64-bit word w: its bias, (high - low) / 2^64, is below 2^-32
    for ranges below 2^32."""

    float_only = False

    seed: ir.IntegerAttr
    low: ir.IntegerAttr
    high: ir.IntegerAttr
    sizes: Sequence[Operand[ir.IndexType]]
    result: Result[ir.RankedTensorType]

    def verify(self):
        super().verify()
        low, high = int_attr(self, "low"), int_attr(self, "high")
        if not low < high:
            raise VerifyError(f"low must be below high, got [{low}, {high})")
