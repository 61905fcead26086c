"""Ops the conformance suite found missing from mlc's strict path, each compiled
with `mlc.compile` for llvm-cpu (no fallback), run by IREE and compared with eager.
Floats match to rtol=1e-4 / atol=1e-5 (NaN and infinities match themselves);
integers, dtypes and shapes match exactly.
"""

import pytest
import torch
from conftest import Family

pytestmark = pytest.mark.iree


def _unit_interval_and_edges():
    inside = torch.rand(3, 5, generator=torch.Generator().manual_seed(0))
    edges = torch.tensor([0.0, 1.0, -0.5, 1.5, 0.5])
    return torch.cat([inside, edges[None]])


def _pool_input(*shape):
    x = torch.randn(*shape, generator=torch.Generator().manual_seed(1))
    x.view(-1)[::5] = 0.5  # ties: the first maximum in row-major order wins
    return x


def _pool_input_with_nan():
    x = _pool_input(1, 2, 9)
    x[0, 1, 4] = float("nan")
    return x


def _dist_inputs():
    x, y = torch.randn(3, 4, generator=torch.Generator().manual_seed(2)), torch.randn(4, generator=torch.Generator().manual_seed(6))
    x[0, 0] = y[0]  # a zero difference, counted by p = 0
    return x, y


NAN = float("nan")
TIES_AND_NAN = torch.tensor([[1.0, 3.0, 3.0, 2.0, NAN, 5.0, NAN, 0.0], [2.0, 2.0, 1.0, 1.0, -1.0, 7.0, 7.0, -9.0]])

# Every case compiles in one module (conftest.py's Family), each compared on its own.
OPS = Family("conformance gaps", allow_fallback=False)  # mlc's own conversions only

for eps in (None, 0.0, 0.2):
    OPS.case(f"logit-{eps}", lambda x, e=eps: torch.logit(x, eps=e), _unit_interval_and_edges)
OPS.case("logit_of_integers", lambda x: torch.logit(x, eps=0.25), torch.tensor([-1, 0, 1, 2]))

# adaptive max pooling with indices of uneven windows; ties: the first maximum in row-major order wins
for name, fn, shape, out in [
    ("1d", torch.nn.functional.adaptive_max_pool1d, (2, 3, 7), 3),
    ("1d-unbatched", torch.nn.functional.adaptive_max_pool1d, (3, 10), 4),
    ("2d", torch.nn.functional.adaptive_max_pool2d, (2, 3, 7, 5), (3, 2)),
    ("2d-unbatched", torch.nn.functional.adaptive_max_pool2d, (3, 6, 9), (4, 4)),
    ("3d", torch.nn.functional.adaptive_max_pool3d, (1, 2, 5, 4, 7), (2, 3, 3)),
]:
    OPS.case(f"adaptive_max_pool_with_indices-{name}", lambda x, f=fn, o=out: f(x, o, return_indices=True),
             lambda s=shape: _pool_input(*s))
OPS.case("adaptive_max_pool_with_indices_and_nan",
         lambda x: torch.nn.functional.adaptive_max_pool1d(x, 4, return_indices=True), _pool_input_with_nan)

# torch truncates toward zero and wraps modulo 256: -1.5 -> 255, 300.0 -> 44, -200.0 -> 56
OPS.case("byte_of_floats_keeps_the_low_bits", lambda x: (x.byte(), x.double().to(torch.uint8)),
         torch.tensor([-1.5, -0.5, 0.9, 127.9, 128.5, 200.7, 255.9, 256.0, 300.0, -129.0, -200.0]))
OPS.case("byte_of_integers_and_bools", lambda y, b: (y.byte(), b.byte(), y.byte() == 212),
         torch.tensor([-1, 256, 300, -300, 7]), torch.tensor([True, False]))

for p in (0.0, 1.0, 2.0, 3.5, float("inf"), float("-inf")):
    OPS.case(f"dist-{p}", lambda x, y, p=p: torch.dist(x, y, p), lambda: _dist_inputs()[0], lambda: _dist_inputs()[1])
OPS.case("norm_over_a_dim", lambda x: (torch.norm(x, 3, dim=1, keepdim=True), torch.norm(x, dim=(0, 2))),
         torch.randn(2, 3, 4, generator=torch.Generator().manual_seed(3)))

# torch-mlir's own decomposition of meshgrid left unranked !torch.tensor results; the
# import takes PyTorch's (driver/frontend/torch_import.py DECOMPOSED_BEFORE_IMPORT)
for indexing in ("ij", "xy"):
    OPS.case(f"meshgrid-{indexing}", lambda a, b, c, i=indexing: torch.meshgrid(a, b, c, indexing=i),
             torch.randn(1, generator=torch.Generator().manual_seed(7)), torch.arange(3.0),
             torch.randn(2, generator=torch.Generator().manual_seed(8)))
OPS.case("meshgrid_of_a_list_of_integers", lambda a, b: torch.meshgrid([a, b], indexing="ij"), torch.arange(4),
         torch.tensor([5, -1]))

# quantile broadcasts a float and a bool tensor together: PyTorch's decomposition of
# broadcast_tensors is taken, torch-mlir typed the mixed list as its first tensor
OPS.case("quantile", lambda x: (torch.quantile(x, 0.3), torch.quantile(torch.tensor(1.5) + x.sum(), 0.5)),
         torch.randn(3, 4, generator=torch.Generator().manual_seed(4)))
OPS.case("broadcast_tensors_of_mixed_dtypes", lambda a, b: torch.broadcast_tensors(a, b),
         torch.randn(3, 1, generator=torch.Generator().manual_seed(9)), torch.tensor([True, False]))

# Unknown to torch-mlir, decomposed by mlc (driver/frontend/decompositions.py): the index on a tie is
# the later position, and a NaN wins and stays, with the last NaN's index.
for fn in (torch.cummax, torch.cummin):
    for dim in (1, 0):
        OPS.case(f"{fn.__name__}_with_ties_and_nan-{dim}", lambda x, f=fn, d=dim: f(x, d), TIES_AND_NAN)
    OPS.case(f"{fn.__name__}_of_integers_and_a_scalar", lambda x, s, f=fn: (f(x, -2), f(s, 0)),
             torch.randint(-3, 3, (3, 5), generator=torch.Generator().manual_seed(5)), torch.tensor(2.5))

# through f32 as torch converts; 257 and 259 are ties (to 256 and 260)
OPS.case("integers_to_bfloat16_round_to_nearest_even", lambda x: (x.bfloat16(), x.half()),
         torch.tensor([-8, 0, 1, 257, 259, 2**24 + 1, 65000, -(2**40) - 12345]))


@pytest.mark.parametrize("group", OPS.group_params())
def test_compiles_as_one_module(group):
    OPS.check_group(group)


@pytest.mark.parametrize("case", OPS.params())
def test_matches_eager(case):
    OPS.check(case)
