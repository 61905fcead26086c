"""Scatter-like torch ops through mlc's own conversions (no fallback) to
`mlc.scatter` and IREE's llvm-cpu, compared with PyTorch eager: index_put
(accumulating or not), index_add, scatter (src and value), scatter_add and
scatter_reduce with every reduction, with and without include_self.

Indices are chosen with duplicates where the combination is order-free (add,
mul, max, min, mean) and without where it is not (replace).
"""

import pytest
import torch
from conftest import Family

pytestmark = pytest.mark.iree


def _values(shape, dtype):
    generator = torch.Generator().manual_seed(sum(shape))
    if dtype.is_floating_point:
        return torch.randn(shape, generator=generator, dtype=dtype)
    return torch.randint(-5, 6, shape, generator=generator, dtype=dtype)


DTYPES = [torch.float32, torch.int64]
ROWS = torch.tensor([0, -1, 2])
COLS = torch.tensor([1, 3, -4])
DUPLICATE_ROWS = torch.tensor([0, 2, 0, -1])
# scatter along dim 1 of a [3, 5] tensor: [3, 2] positions, duplicates within row 0 and 2
DIM1_INDEX = torch.tensor([[1, 1], [4, 0], [3, 3]])
UNIQUE_DIM1_INDEX = torch.tensor([[1, 2], [4, 0], [3, 0]])


# All of them compile as one module (conftest.py's Family), each case compared on its own.
OPS = Family("scatter", allow_fallback=False)  # mlc's own conversions only


def values(shape, dtype):
    return lambda: _values(shape, dtype)


for dtype in DTYPES:
    name = str(dtype).removeprefix("torch.")
    for accumulate in (False, True):
        rows = ROWS if not accumulate else torch.tensor([0, -1, 0])
        cols = COLS if not accumulate else torch.tensor([1, 3, 1])
        OPS.case(f"index_put_two_index_tensors-{accumulate}-{name}",
                 lambda x, v, r=rows, c=cols, a=accumulate: torch.index_put(x, (r, c), v, accumulate=a),
                 values((3, 4), dtype), values((3,), dtype))
        rows = DUPLICATE_ROWS if accumulate else ROWS
        OPS.case(f"index_put_rows-{accumulate}-{name}",
                 lambda x, v, r=rows, a=accumulate: torch.index_put(x, (r,), v, accumulate=a),
                 values((3, 4), dtype), values((len(rows), 4), dtype))
    OPS.case(f"index_add-{name}", lambda x, v: x.index_add(1, torch.tensor([2, 0, 2]), v, alpha=2),
             values((3, 4), dtype), values((3, 3), dtype))
    OPS.case(f"scatter_src-{name}", lambda x, s: x.scatter(1, UNIQUE_DIM1_INDEX, s), values((3, 5), dtype),
             values((3, 4), dtype))
    OPS.case(f"scatter_value-{name}", lambda x, v=2.5 if dtype.is_floating_point else 7:
             x.scatter(0, torch.tensor([[2, 0, 1, 1, 0]]), v), values((3, 5), dtype))
    OPS.case(f"scatter_add-{name}", lambda x, s: x.scatter_add(1, DIM1_INDEX, s), values((3, 5), dtype),
             values((3, 2), dtype))
    for reduce in ("sum", "prod", "mean", "amax", "amin"):
        for include_self in (True, False):
            OPS.case(f"scatter_reduce-{reduce}-{include_self}-{name}",
                     lambda x, s, r=reduce, i=include_self: x.scatter_reduce(1, DIM1_INDEX, s, r, include_self=i),
                     values((3, 5), dtype), values((3, 2), dtype))
OPS.case("index_put_broadcast_value", lambda x, v: torch.index_put(x, (ROWS,), v), values((3, 4), torch.float32),
         values((4,), torch.float32))


@pytest.mark.parametrize("group", OPS.group_params())
def test_compiles_as_one_module(group):
    OPS.check_group(group)


@pytest.mark.parametrize("case", OPS.params())
def test_matches_eager(case):
    OPS.check(case)


class CacheWrite(torch.nn.Module):
    """A static cache's write of one token at a run-time position (transformers' StaticCache)."""

    def forward(self, cache, row, position):
        return cache.index_copy(2, torch.arange(1) + position, row)


@pytest.mark.parametrize("dtype", DTYPES)
def test_index_copy_at_a_run_time_position_is_one_update_slice(dtype):
    """mlc-form-update-slice makes the scatter an `mlc.update_slice`: every position in
    range gives eager's result; one past the end writes the last row (clamped), never
    outside the cache, where eager raises IndexError."""
    import mlc

    cache, row = _values((1, 2, 8, 3), dtype), _values((1, 2, 1, 3), dtype) + 100
    compiled = mlc.compile(CacheWrite(), (cache, row, torch.tensor(0)))
    assert compiled.report.pass_statistic("mlc-form-update-slice", "scatters made update_slice") == 1
    for position in range(8):
        expected = CacheWrite()(cache, row, torch.tensor(position))
        assert torch.equal(compiled(cache, row, torch.tensor(position)), expected), position
    assert torch.equal(compiled(cache, row, torch.tensor(8)), CacheWrite()(cache, row, torch.tensor(7)))
