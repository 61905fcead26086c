"""Scatter-like torch ops through mlc's own conversions (no fallback) to
`mlc.scatter` and IREE's llvm-cpu, compared with PyTorch eager: index_put
(accumulating or not), index_add, scatter (src and value), scatter_add and
scatter_reduce with every reduction, with and without include_self.

Indices are chosen with duplicates where the combination is order-free (add,
mul, max, min, mean) and without where it is not (replace).
"""

import pytest
import torch
from conftest import compile_and_compare

pytestmark = pytest.mark.iree
STRICT = {"target": "llvm-cpu", "allow_fallback": False}  # mlc's own conversions only


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


@pytest.mark.parametrize("dtype", DTYPES, ids=str)
@pytest.mark.parametrize("accumulate", [False, True])
def test_index_put_two_index_tensors(dtype, accumulate):
    rows = ROWS if not accumulate else torch.tensor([0, -1, 0])
    cols = COLS if not accumulate else torch.tensor([1, 3, 1])
    compile_and_compare(lambda x, v: torch.index_put(x, (rows, cols), v, accumulate=accumulate),
                        _values((3, 4), dtype), _values((3,), dtype), **STRICT)


@pytest.mark.parametrize("dtype", DTYPES, ids=str)
@pytest.mark.parametrize("accumulate", [False, True])
def test_index_put_rows(dtype, accumulate):
    rows = DUPLICATE_ROWS if accumulate else ROWS
    compile_and_compare(lambda x, v: torch.index_put(x, (rows,), v, accumulate=accumulate),
                        _values((3, 4), dtype), _values((len(rows), 4), dtype), **STRICT)


def test_index_put_broadcast_value():
    compile_and_compare(lambda x, v: torch.index_put(x, (ROWS,), v), _values((3, 4), torch.float32),
                        _values((4,), torch.float32), **STRICT)


@pytest.mark.parametrize("dtype", DTYPES, ids=str)
def test_index_add(dtype):
    compile_and_compare(lambda x, v: x.index_add(1, torch.tensor([2, 0, 2]), v, alpha=2),
                        _values((3, 4), dtype), _values((3, 3), dtype), **STRICT)


@pytest.mark.parametrize("dtype", DTYPES, ids=str)
def test_scatter_src(dtype):
    compile_and_compare(lambda x, s: x.scatter(1, UNIQUE_DIM1_INDEX, s), _values((3, 5), dtype),
                        _values((3, 4), dtype), **STRICT)


@pytest.mark.parametrize("dtype", DTYPES, ids=str)
def test_scatter_value(dtype):
    value = 2.5 if dtype.is_floating_point else 7
    compile_and_compare(lambda x: x.scatter(0, torch.tensor([[2, 0, 1, 1, 0]]), value), _values((3, 5), dtype),
                        **STRICT)


@pytest.mark.parametrize("dtype", DTYPES, ids=str)
def test_scatter_add(dtype):
    compile_and_compare(lambda x, s: x.scatter_add(1, DIM1_INDEX, s), _values((3, 5), dtype),
                        _values((3, 2), dtype), **STRICT)


@pytest.mark.parametrize("dtype", DTYPES, ids=str)
@pytest.mark.parametrize("include_self", [True, False])
@pytest.mark.parametrize("reduce", ["sum", "prod", "mean", "amax", "amin"])
def test_scatter_reduce(reduce, include_self, dtype):
    compile_and_compare(lambda x, s: x.scatter_reduce(1, DIM1_INDEX, s, reduce, include_self=include_self),
                        _values((3, 5), dtype), _values((3, 2), dtype), **STRICT)
