"""Gaps of mlc's strict path (allow_fallback=False) that torch-mlir's e2e suite found:
ops on unsigned integers whose results depend on the sign (division, remainders,
max/min, comparisons, right shifts, casts), which mlc computes widened to the next
signed type, and integer threshold_backward. Each compiled with `mlc.compile` for
llvm-cpu without the fallback, run by IREE and compared with eager: integers bit for
bit, the floats some of them make (sqrt, true division) to conftest's tolerance.
"""

import pytest
import torch
from conftest import Family

pytestmark = pytest.mark.iree


def _tensor(rows, dtype=torch.int64):
    """A maker of the tensor (Family makes each case's inputs fresh)."""
    return lambda: torch.tensor(rows, dtype=dtype)


A = _tensor([[0, 127, 128, 200, 255], [1, 2, 3, 254, 129]], torch.uint8)  # edges of int8 and uint8
B = _tensor([[1, 3, 128, 7, 255], [255, 2, 200, 2, 128]], torch.uint8)  # no zeros: eager raises on integer division by 0
SHIFTS = _tensor([[0, 1, 7, 8, 9], [3, 15, 16, 200, 255]], torch.uint8)  # past the width: eager gives 0
U32 = _tensor([0, 1, 2**31, 2**32 - 1, 12345], torch.uint32)
V32 = _tensor([1, 3, 2**31, 7, 2**32 - 1], torch.uint32)

OPS = Family("strict gaps: unsigned integers", size=64, allow_fallback=False)  # mlc's own conversions only

# the result depends on the sign: computed widened (uint8 in int16, uint32 in int64)
SIGNED_DIFFERENTLY = {
    "div_floor": lambda a, b: torch.div(a, b, rounding_mode="floor"),
    "div_trunc": lambda a, b: torch.div(a, b, rounding_mode="trunc"),
    "div_true": lambda a, b: a / b,
    "remainder": torch.remainder,
    "fmod": torch.fmod,
    "maximum": torch.maximum,
    "minimum": torch.minimum,
    "compare": lambda a, b: (a < b, a <= b, a > b, a >= b, a == b, a != b),
    "right_shift": torch.bitwise_right_shift,
    "threshold_backward": lambda a, b: torch.ops.aten.threshold_backward(a, b, 128),
}
for name, fn in SIGNED_DIFFERENTLY.items():
    OPS.case(name, fn, A, B)
OPS.case("right_shift_past_width", torch.bitwise_right_shift, A, SHIFTS)
# integer scalars wrap into uint8 as in eager (300 is 44, -3 is 253); float ones compare as floats
OPS.case("scalars", lambda a: (a // 7, a % 300, a % -3, a >> 3, a < 300, a >= 128, a == 200.0, a < 200.5,
                               torch.clamp(a, 3, 200), torch.clamp(a, -5, 100)), A)
OPS.case("clamp_by_tensors", lambda a, b: (torch.clamp(a, b, a.flip(1)), torch.clamp_min(a, b), torch.clamp_max(a, b)),
         A, B)
OPS.case("pow", lambda a, b: (a ** 2, a ** 3, torch.pow(a, b.remainder(4))), A, B)  # wrapping at 256
OPS.case("reductions", lambda a: (a.amax(1), a.amin(0), a.max(), a.min(), tuple(a.max(1)), tuple(a.min(0)),
                                  a.argmax(1), a.argmin(), tuple(a.sort(1)), tuple(a.sort(0, descending=True))), A)
OPS.case("sums_and_products", lambda a: (a.sum(), a.sum(1), a.sum(dtype=torch.uint8), a.cumsum(1), a.prod(1),
                                         a.cumprod(1)), A)
OPS.case("casts", lambda a: (a.float(), a.double(), a.long(), a.int(), a.to(torch.int16), a.to(torch.int8), a.bool()), A)
OPS.case("unary", lambda a: (a.abs(), torch.sign(a), torch.relu(a), a.sqrt(), a.exp(), torch.sigmoid(a)), A)
OPS.case("logical", lambda a, b: (torch.logical_and(a, b - 1), torch.logical_or(a, b - 1), torch.logical_xor(a, b - 1),
                                  torch.logical_not(a)), A, B)
OPS.case("mixed_types", lambda a, b: (a + b.long(), a * 2.5, torch.where(a > b, a, b.long()), a < b.float()), A, B)
# the same bits either way: computed as they stand
OPS.case("sign_agnostic", lambda a, b, s: (a + b, a - b, a * b, a & b, a | b, a ^ b, ~a, -a, a << 2,
                                           torch.bitwise_left_shift(a, s), torch.where(a > b, a, b)), A, B, SHIFTS)
# (a uint8 constant blob, a mask buffer's kind, is left to the fallback: passes/convert_torch_to_mlc/data.py)
# uint32: eager casts, divides (true division), compares for equality and multiplies
OPS.case("uint32", lambda u, v: (u.float(), u.double(), u.long(), u.to(torch.int32), u / v, u == v, u * v), U32, V32)

OPS.section("strict gaps: threshold_backward")
GRAD = _tensor([[-3, -1, 0, 2, 5, 7], [4, -4, 9, 1, 0, -2]])
X = _tensor([[-2, 0, 1, 1, 2, 3], [-1, 0, 0, 2, -3, 5]])
# integers: the threshold truncated toward zero (-0.5 is 0, 1.9 is 1)
for threshold in (1, 0, -0.5, 1.9, -1.5):
    OPS.case(f"threshold_backward-int64-{threshold}", lambda g, x, t=threshold: torch.ops.aten.threshold_backward(g, x, t),
             GRAD, X)
OPS.case("threshold_backward-int32-int8", lambda g, x: torch.ops.aten.threshold_backward(g.int(), x.to(torch.int8), 1),
         GRAD, X)
# mixed: x compared in torch's promotion of the two (0.75 > 0.5). torch.export types the result
# as the gradient's where eager promotes int64 with float32 to float32: the values agree
OPS.case("threshold_backward-int-grad-float-x",
         lambda g, x: torch.ops.aten.threshold_backward(g, x * 0.75, 0.5).long(), GRAD, X)
OPS.case("threshold_backward-int8-grad-int32-x",
         lambda g, x: torch.ops.aten.threshold_backward(g.to(torch.int8), x.int() * 100, 150).to(torch.int8), GRAD, X)
OPS.case("threshold_backward-float-grad-int-x", lambda g, x: torch.ops.aten.threshold_backward(g * 0.5, x, 0.5), GRAD, X)


@pytest.mark.parametrize("group", OPS.group_params())
def test_compiles_as_one_module(group):
    OPS.check_group(group)


@pytest.mark.parametrize("case", OPS.params())
def test_matches_eager(case):
    OPS.check(case)
