"""Ops the conformance suite found missing from mlc's strict path, each compiled
with `mlc.compile` for llvm-cpu (no fallback), run by IREE and compared with eager.
Floats match to rtol=1e-4 / atol=1e-5 (NaN and infinities match themselves);
integers, dtypes and shapes match exactly.
"""

import pytest
import torch
from conftest import compile_and_compare

pytestmark = pytest.mark.iree
STRICT = {"target": "llvm-cpu", "allow_fallback": False}  # mlc's own conversions only


def _unit_interval_and_edges():
    inside = torch.rand(3, 5, generator=torch.Generator().manual_seed(0))
    edges = torch.tensor([0.0, 1.0, -0.5, 1.5, 0.5])
    return torch.cat([inside, edges[None]])


@pytest.mark.parametrize("eps", [None, 0.0, 0.2])
def test_logit(eps):
    compile_and_compare(lambda x: torch.logit(x, eps=eps), _unit_interval_and_edges(), **STRICT)


def test_logit_of_integers():
    compile_and_compare(lambda x: torch.logit(x, eps=0.25), torch.tensor([-1, 0, 1, 2]), **STRICT)


def _pool_input(*shape):
    x = torch.randn(*shape, generator=torch.Generator().manual_seed(1))
    x.view(-1)[::5] = 0.5  # ties: the first maximum in row-major order wins
    return x


@pytest.mark.parametrize("fn, shape, out", [
    (torch.nn.functional.adaptive_max_pool1d, (2, 3, 7), 3),
    (torch.nn.functional.adaptive_max_pool1d, (3, 10), 4),
    (torch.nn.functional.adaptive_max_pool2d, (2, 3, 7, 5), (3, 2)),
    (torch.nn.functional.adaptive_max_pool2d, (3, 6, 9), (4, 4)),
    (torch.nn.functional.adaptive_max_pool3d, (1, 2, 5, 4, 7), (2, 3, 3)),
], ids=["1d", "1d-unbatched", "2d", "2d-unbatched", "3d"])
def test_adaptive_max_pool_with_indices_of_uneven_windows(fn, shape, out):
    compile_and_compare(lambda x: fn(x, out, return_indices=True), _pool_input(*shape), **STRICT)


def test_adaptive_max_pool_with_indices_and_nan():
    x = _pool_input(1, 2, 9)
    x[0, 1, 4] = float("nan")
    compile_and_compare(lambda x: torch.nn.functional.adaptive_max_pool1d(x, 4, return_indices=True), x, **STRICT)


def test_byte_of_floats_keeps_the_low_bits():
    """torch truncates toward zero and wraps modulo 256: -1.5 -> 255, 300.0 -> 44, -200.0 -> 56."""
    x = torch.tensor([-1.5, -0.5, 0.9, 127.9, 128.5, 200.7, 255.9, 256.0, 300.0, -129.0, -200.0])
    compile_and_compare(lambda x: (x.byte(), x.double().to(torch.uint8)), x, **STRICT)


def test_byte_of_integers_and_bools():
    compile_and_compare(lambda y, b: (y.byte(), b.byte(), y.byte() == 212), torch.tensor([-1, 256, 300, -300, 7]),
                        torch.tensor([True, False]), **STRICT)


@pytest.mark.parametrize("p", [0.0, 1.0, 2.0, 3.5, float("inf"), float("-inf")])
def test_dist(p):
    x, y = torch.randn(3, 4, generator=torch.Generator().manual_seed(2)), torch.randn(4)
    x[0, 0] = y[0]  # a zero difference, counted by p = 0
    compile_and_compare(lambda x, y: torch.dist(x, y, p), x, y, **STRICT)


def test_norm_over_a_dim():
    compile_and_compare(lambda x: (torch.norm(x, 3, dim=1, keepdim=True), torch.norm(x, dim=(0, 2))),
                        torch.randn(2, 3, 4, generator=torch.Generator().manual_seed(3)), **STRICT)


@pytest.mark.parametrize("indexing", ["ij", "xy"])
def test_meshgrid(indexing):
    """torch-mlir's own decomposition of meshgrid left unranked !torch.tensor results;
    the import takes PyTorch's (driver/torch_import.py DECOMPOSED_BEFORE_IMPORT)."""
    compile_and_compare(lambda a, b, c: torch.meshgrid(a, b, c, indexing=indexing), torch.randn(1),
                        torch.arange(3.0), torch.randn(2), **STRICT)


def test_meshgrid_of_a_list_of_integers():
    compile_and_compare(lambda a, b: torch.meshgrid([a, b], indexing="ij"), torch.arange(4), torch.tensor([5, -1]),
                        **STRICT)


def test_quantile():
    """quantile broadcasts a float and a bool tensor together: PyTorch's decomposition of
    broadcast_tensors is taken, torch-mlir typed the mixed list as its first tensor."""
    x = torch.randn(3, 4, generator=torch.Generator().manual_seed(4))
    compile_and_compare(lambda x: (torch.quantile(x, 0.3), torch.quantile(torch.tensor(1.5) + x.sum(), 0.5)), x,
                        **STRICT)


def test_broadcast_tensors_of_mixed_dtypes():
    compile_and_compare(lambda a, b: torch.broadcast_tensors(a, b), torch.randn(3, 1), torch.tensor([True, False]),
                        **STRICT)


@pytest.mark.parametrize("fn", [torch.cummax, torch.cummin], ids=["cummax", "cummin"])
@pytest.mark.parametrize("dim", [1, 0])
def test_cumulative_extremes_with_ties_and_nan(fn, dim):
    """Unknown to torch-mlir, decomposed by mlc (driver/decompositions.py): the index on a
    tie is the later position, and a NaN wins and stays, with the last NaN's index."""
    nan = float("nan")
    x = torch.tensor([[1.0, 3.0, 3.0, 2.0, nan, 5.0, nan, 0.0], [2.0, 2.0, 1.0, 1.0, -1.0, 7.0, 7.0, -9.0]])
    compile_and_compare(lambda x: fn(x, dim), x, **STRICT)


@pytest.mark.parametrize("fn", [torch.cummax, torch.cummin], ids=["cummax", "cummin"])
def test_cumulative_extremes_of_integers_and_a_scalar(fn):
    compile_and_compare(lambda x, s: (fn(x, -2), fn(s, 0)),
                        torch.randint(-3, 3, (3, 5), generator=torch.Generator().manual_seed(5)), torch.tensor(2.5),
                        **STRICT)


def test_integers_to_bfloat16_round_to_nearest_even():
    """Through f32 as torch converts; 257 and 259 are ties (to 256 and 260)."""
    compile_and_compare(lambda x: (x.bfloat16(), x.half()),
                        torch.tensor([-8, 0, 1, 257, 259, 2**24 + 1, 65000, -(2**40) - 12345]), **STRICT)
