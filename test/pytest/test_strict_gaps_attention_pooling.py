"""Gaps of mlc's strict path (allow_fallback=False) that torch-mlir's e2e suite found:
grouped-query attention (enable_gqa), unbatched adaptive_avg_pool2d, and the explicit
upsample_nearest{1,2}d overloads (an output size and static scales). Each compiled with
`mlc.compile` for llvm-cpu without the fallback, run by IREE and compared with eager.
"""

import itertools

import pytest
import torch
import torch.nn.functional as F
from conftest import Family

import mlc

pytestmark = pytest.mark.iree


_SEEDS = itertools.count()


def _randn(*shape):
    """A maker of a seeded random input, each input its own seed (k and v differ)."""
    seed = next(_SEEDS)
    return lambda: torch.randn(*shape, generator=torch.Generator().manual_seed(seed))


def _mask(queries, keys):
    """A boolean mask with a fully masked query (row 0): torch gives it zero weights."""
    mask = torch.rand(queries, keys, generator=torch.Generator().manual_seed(3)) > 0.4
    mask[0] = False
    mask[1:, 0] = True
    return mask


OPS = Family("strict gaps: attention, pooling, resampling", allow_fallback=False)  # mlc's own conversions only

# grouped-query attention: each of k/v's heads serves Hq / Hkv consecutive query heads
OPS.case("gqa", lambda q, k, v: F.scaled_dot_product_attention(q, k, v, enable_gqa=True),
         _randn(1, 4, 5, 8), _randn(1, 2, 5, 8), _randn(1, 2, 5, 8))
OPS.case("gqa-causal", lambda q, k, v: F.scaled_dot_product_attention(q, k, v, is_causal=True, enable_gqa=True),
         _randn(2, 6, 5, 8), _randn(2, 2, 5, 8), _randn(2, 2, 5, 8))
OPS.case("gqa-mask", lambda q, k, v, m: F.scaled_dot_product_attention(q, k, v, attn_mask=m, enable_gqa=True),
         _randn(1, 4, 3, 8), _randn(1, 2, 5, 8), _randn(1, 2, 5, 8), _mask(3, 5))
OPS.case("gqa-unbatched-causal", lambda q, k, v: F.scaled_dot_product_attention(q, k, v, is_causal=True, enable_gqa=True),
         _randn(4, 5, 8), _randn(1, 5, 8), _randn(1, 5, 8))
OPS.case("gqa-equal-heads", lambda q, k, v: F.scaled_dot_product_attention(q, k, v, enable_gqa=True),
         _randn(1, 2, 4, 8), _randn(1, 2, 5, 8), _randn(1, 2, 5, 8))

# unbatched [C, H, W] adaptive pooling: equal windows, uneven windows, global
for size, out in [((3, 6, 8), (2, 2)), ((3, 7, 5), (3, 2)), ((2, 5, 6), (1, 1))]:
    OPS.case(f"adaptive_avg_pool2d-unbatched-{size}-{out}", lambda x, o=out: F.adaptive_avg_pool2d(x, o), _randn(*size))
OPS.case("adaptive_max_pool2d-unbatched", lambda x: F.adaptive_max_pool2d(x, (2, 4)), _randn(3, 6, 8))

# nearest upsampling, the explicit overloads: eager reads i // 2 for twice the size whatever
# the scale, otherwise floor(i / scale) for a given scale and floor(i * in / out) without
for name, sizes, scales in [("scale-2", [6, 8], (2.0, 2.0)), ("no-scales", [5, 7], (None, None)),
                            ("twice-ignores-scale", [6, 8], (3.0, 3.0)), ("own-scales", [5, 7], (3.0, 1.5))]:
    OPS.case(f"upsample_nearest2d-{name}", lambda x, o=sizes, s=scales: torch.ops.aten.upsample_nearest2d(x, o, *s),
             _randn(1, 2, 3, 4))
OPS.case("upsample_nearest1d", lambda x: torch.ops.aten.upsample_nearest1d(x, [9], None), _randn(1, 2, 5))
# F.interpolate's path: only eager's 2-D kernel reads i // 2 for twice the size and copies the same size
for shape, factor in [((1, 2, 10), 2.09), ((1, 1, 10, 7), (2.09, 1.1)), ((1, 1, 10, 3, 2), (1.05, 2.09, 1.0))]:
    OPS.case(f"interpolate-nearest-{len(shape) - 2}d-{factor}",
             lambda x, f=factor: F.interpolate(x, scale_factor=f, mode="nearest"), _randn(*shape))


@pytest.mark.parametrize("group", OPS.group_params())
def test_compiles_as_one_module(group):
    OPS.check_group(group)


@pytest.mark.parametrize("case", OPS.params())
def test_matches_eager(case):
    OPS.check(case)


class UnbatchedPool(torch.nn.Module):
    def forward(self, x):
        return F.adaptive_avg_pool2d(x, (2, 2))


def test_unbatched_adaptive_avg_pool2d_dynamic_channels():
    """A dynamic channel count keeps the windows static: one executable for any."""
    channels = {"x": {0: torch.export.Dim("channels", min=2, max=16)}}
    compiled = mlc.compile(UnbatchedPool(), (torch.randn(3, 6, 8),), dynamic_shapes=channels, allow_fallback=False)
    for count in (3, 5):
        x = torch.randn(count, 6, 8)
        torch.testing.assert_close(compiled(x), UnbatchedPool()(x))


def test_unbatched_adaptive_avg_pool2d_dynamic_height_declined():
    """A dynamic height moves the windows at run time; mlc's windows are constants."""
    height = {"x": {1: torch.export.Dim("height", min=2, max=64)}}
    with pytest.raises(mlc.UserError, match="adaptive_avg_pool2d of a dynamic height or width"):
        mlc.compile(UnbatchedPool(), (torch.randn(3, 6, 8),), dynamic_shapes=height, allow_fallback=False)
