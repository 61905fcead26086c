"""torch's random ops through mlc (dialects/random_ops.py): the values are mlc's own
counter-based generator's, not torch's, so these tests check statistics of many
samples, ranges, and that shapes and dtypes match eager. Every model compiles
strictly (no fallback), so the numbers are mlc's random ops'.

The semantics checked at the end: a seed drawn from torch's generator at compile time
(torch.manual_seed before mlc.compile reproduces a compile), the same numbers on
every call, different numbers for different ops.
"""

import pytest
import torch
import torch.nn.functional as F
from conftest import Apply

import mlc

pytestmark = pytest.mark.iree
N = 100_000  # samples per statistic: the standard error of a uniform's mean is 0.0009


def run(fn, *inputs, **options):
    """(mlc's results, eager's results, the compiled model) of `fn` on `inputs`."""
    compiled = mlc.compile(Apply(fn), inputs, allow_fallback=False, **options)
    return compiled(*inputs), fn(*inputs), compiled


def same_kind(actual, expected):
    assert actual.shape == expected.shape
    assert actual.dtype == expected.dtype


def test_uniform():
    x = torch.zeros(N)
    (rand, ranged, like), eager, compiled = run(
        lambda x: (torch.rand(N), x.clone().uniform_(-3, 5), torch.rand_like(x, dtype=torch.float64)), x)
    for actual, expected in zip((rand, ranged, like), eager):
        same_kind(actual, expected)
    for unit in (rand, like.float()):
        assert 0 <= unit.min() and unit.max() < 1
        assert abs(unit.mean() - 0.5) < 0.01
        assert abs(unit.var() - 1 / 12) < 0.01
    assert -3 <= ranged.min() and ranged.max() < 5
    assert abs(ranged.mean() - 1) < 0.08 and abs(ranged.var() - 64 / 12) < 0.08
    assert "mlc.random_uniform" in compiled.ir("mlc")


@pytest.mark.parametrize("dtype", [torch.float16, torch.bfloat16])
def test_uniform_half(dtype):
    """Units on the type's own grid: never rounded up to 1."""
    x = torch.zeros(N)
    actual, expected, _ = run(lambda x: torch.rand_like(x, dtype=dtype), x)
    same_kind(actual, expected)
    assert 0 <= actual.min() and actual.max() < 1
    assert abs(actual.float().mean() - 0.5) < 0.01


def test_normal():
    x = torch.zeros(N)
    results, eager, compiled = run(
        lambda x: (torch.randn(N), torch.randn_like(x), x.clone().normal_(1.5, 2), torch.randn(N, dtype=torch.float64)), x)
    for actual, expected in zip(results, eager):
        same_kind(actual, expected)
    standard, like, shifted, double = results
    for sample in (standard, like, double):
        assert abs(sample.mean()) < 0.02 and abs(sample.std() - 1) < 0.02
        assert torch.isfinite(sample).all()
    assert abs(shifted.mean() - 1.5) < 0.04 and abs(shifted.std() - 2) < 0.04
    assert abs((standard.abs() < 1).float().mean() - 0.6827) < 0.01  # a normal, not just its two moments
    assert abs(torch.corrcoef(torch.stack([standard, like]))[0, 1]) < 0.02  # two ops, two independent streams
    assert "mlc.random_normal" in compiled.ir("mlc")


def test_normal_overloads():
    """torch.normal of tensors and floats: mlc's decompositions into randn and normal_."""
    mean, std = torch.full((N,), 3.0), torch.full((N,), 0.5)
    results, eager, _ = run(lambda m, s: (torch.normal(m, s), torch.normal(m, 2.0), torch.normal(-1.0, s),
                                          torch.normal(4.0, 3.0, (N,))), mean, std)
    for actual, expected in zip(results, eager):
        same_kind(actual, expected)
    for sample, (mu, sigma) in zip(results, [(3, 0.5), (3, 2), (-1, 0.5), (4, 3)]):
        assert abs(sample.mean() - mu) < 0.02 * sigma and abs(sample.std() - sigma) < 0.02 * sigma


def test_bernoulli():
    p = torch.rand(N)
    (of_tensor, of_float), eager, _ = run(lambda p: (torch.bernoulli(p), torch.bernoulli(p, 0.3)), p)
    for actual, expected in zip((of_tensor, of_float), eager):
        same_kind(actual, expected)
    assert set(of_tensor.unique().tolist()) == {0.0, 1.0}
    assert abs(of_float.mean() - 0.3) < 0.01
    assert abs(of_tensor.mean() - p.mean()) < 0.01
    low, high = p < 0.2, p > 0.8  # each element follows its own p
    assert of_tensor[low].mean() < 0.12 and of_tensor[high].mean() > 0.88


def test_randint():
    x = torch.zeros(N)
    results, eager, compiled = run(lambda x: (torch.randint(-3, 7, (N,)), torch.randint(5, (N,), dtype=torch.float32),
                                              torch.randint_like(x, 2, 6), torch.randint(0, 4, (N,), dtype=torch.int32)), x)
    for actual, expected in zip(results, eager):
        same_kind(actual, expected)
    for sample, (low, high) in zip(results, [(-3, 7), (0, 5), (2, 6), (0, 4)]):
        assert sorted(sample.unique().tolist()) == list(range(low, high))  # within [low, high), every value hit
        counts = torch.bincount((sample - low).long())
        assert (counts - N / (high - low)).abs().max() < 0.05 * N / (high - low)
    assert "mlc.random_int" in compiled.ir("mlc")


def test_dropout_training():
    x = torch.rand(N) + 1  # no zeros of its own
    p = 0.3
    actual, expected, compiled = run(lambda x: F.dropout(x, p, training=True), x)
    same_kind(actual, expected)
    kept = actual != 0
    assert abs(kept.float().mean() - (1 - p)) < 0.01
    torch.testing.assert_close(actual[kept], x[kept] / (1 - p))
    assert compiled.report["dispatches"] == 1  # the mask is made where it is used


def test_exponential():
    x = torch.zeros(N)
    actual, expected, _ = run(lambda x: x.clone().exponential_(2.0), x)
    same_kind(actual, expected)
    assert actual.min() >= 0 and torch.isfinite(actual).all()
    assert abs(actual.mean() - 0.5) < 0.01 and abs(actual.std() - 0.5) < 0.01


def test_dynamic_shape():
    """rand_like of an input whose first size is known at run time only."""
    x = torch.zeros(8, 1000)
    compiled = mlc.compile(Apply(lambda x: torch.rand_like(x) + x), (x,), allow_fallback=False,
                           dynamic_shapes=(({0: torch.export.Dim("n", min=2)},),))
    actual = compiled(torch.zeros(50, 1000))
    assert actual.shape == (50, 1000)
    assert 0 <= actual.min() and actual.max() < 1 and abs(actual.mean() - 0.5) < 0.01


def test_seed_semantics():
    """Fixed at compile time from torch's generator: the same numbers on every call,
    the same again for a compile after the same torch.manual_seed, others after another."""
    x = torch.zeros(1000)

    def compile_with_seed(seed):
        torch.manual_seed(seed)
        return mlc.compile(Apply(lambda x: torch.rand_like(x)), (x,), allow_fallback=False)

    first = compile_with_seed(0)
    assert torch.equal(first(x), first(x))
    assert torch.equal(compile_with_seed(0)(x), first(x))
    assert not torch.equal(compile_with_seed(1)(x), first(x))
