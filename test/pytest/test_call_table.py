"""Every way a user may call a compiled model, as a table: each row gives the eager
result or one clear `UserError`, never a wrong number or another exception.
(What a compiled model returns, in place changes and unsigned results:
test_calling_convention.py.)"""

import numpy as np
import pytest
import torch
from conftest import assert_matches

import mlc
from mlc.errors import UserError


class MatmulAndSum(torch.nn.Module):
    def forward(self, x, y):
        return torch.relu(x @ y) + x.sum(), x * 2


class Pool(torch.nn.Module):
    def forward(self, x):
        return torch.nn.functional.avg_pool2d(x, 2) * 3


class Outer(torch.nn.Module):
    def forward(self, x, y):
        return x * y


def generator():
    return torch.Generator().manual_seed(0)


def randn(*shape):
    return torch.randn(*shape, generator=generator())


X, Y = randn(4, 6), randn(6, 5)
SHARED = randn(6, 6)
SPECIAL = torch.tensor([[float("nan")] * 6, [float("inf")] * 6, [-float("inf")] * 6, [1.0] * 6])

# (row, the arguments of the call, None for eager's result or the UserError's message)
CALLS = [
    ("contiguous", lambda: (X, Y), None),
    ("a transposed view", lambda: (randn(6, 4).t(), Y), None),
    ("a strided slice", lambda: (randn(4, 12)[:, ::2], Y), None),
    ("a view at an offset", lambda: (randn(5, 6)[1:], Y), None),
    ("an expanded row (stride 0)", lambda: (randn(1, 6).expand(4, 6), Y), None),
    ("a tensor that requires grad", lambda: (X.clone().requires_grad_(), Y), None),
    ("NaN and infinities", lambda: (SPECIAL, Y), None),
    ("two views of one tensor", lambda: (SHARED[:4], SHARED[:, :5]), None),
    ("one tensor twice", lambda: (SHARED[:4, :6], SHARED[:6, :5]), None),
    ("numpy arrays", lambda: (X.numpy(), Y.numpy()), None),
    ("the wrong dtype", lambda: (X.double(), Y), "input 0: expected dtype torch.float32, got torch.float64"),
    ("the wrong shape", lambda: (randn(3, 6), Y), r"input 0: expected shape \[4, 6\], got \[3, 6\]"),
    ("a 0-d tensor", lambda: (torch.tensor(1.0), Y), r"input 0: expected shape \[4, 6\], got \[\]"),
    ("a Python number", lambda: (1.0, Y), "input 0: expected a tensor, got float"),
    ("a nested list", lambda: (X.tolist(), Y), "input 0: expected a tensor, got a list"),
    ("a tensor on another device", lambda: (X.to("meta"), Y), "input 0: expected a tensor in CPU memory, got one on 'meta'"),
    ("too few inputs", lambda: (X,), r"expected 2 input\(s\), got 1"),
]


@pytest.fixture(scope="module")
def compiled():
    return mlc.compile(MatmulAndSum().eval(), (X, Y))


@pytest.mark.iree
@pytest.mark.parametrize("row, arguments, error", CALLS, ids=[row for row, _, _ in CALLS])
def test_a_call(compiled, row, arguments, error):
    args = arguments()
    if error is not None:
        with pytest.raises(UserError, match=error):
            compiled(*args)
        return
    got = compiled(*args)
    as_tensors = [torch.from_numpy(a) if isinstance(a, np.ndarray) else a.detach() for a in args]
    assert_matches(got, MatmulAndSum()(*as_tensors))
    assert not any(result.requires_grad for result in got)


@pytest.mark.iree
def test_channels_last_input():
    x = randn(2, 3, 8, 8)
    compiled = mlc.compile(Pool(), (x,))
    assert_matches(compiled(x.to(memory_format=torch.channels_last)), Pool()(x))


@pytest.mark.iree
@pytest.mark.parametrize("dtype", [torch.bfloat16, torch.float16])
def test_16_bit_float_inputs(dtype):
    """numpy has no bfloat16: a bf16 input's `.numpy()` raised TypeError inside the call."""
    x, y = X.to(dtype), Y.to(dtype)
    compiled = mlc.compile(MatmulAndSum(), (x, y))
    got = compiled(x, y)
    assert all(result.dtype == dtype for result in got)
    assert_matches([r.float() for r in got], [e.float() for e in MatmulAndSum()(x, y)], rtol=2e-2, atol=5e-2)


@pytest.mark.iree
def test_zero_size_dimension():
    x = randn(0, 6)
    compiled = mlc.compile(MatmulAndSum(), (x, Y))
    assert_matches(compiled(x, Y), MatmulAndSum()(x, Y))


@pytest.mark.iree
def test_a_result_too_large_to_allocate_is_a_user_error():
    n, m = torch.export.Dim("n", max=10**7), torch.export.Dim("m", max=10**7)
    compiled = mlc.compile(Outer(), (randn(4, 1), randn(1, 5)), dynamic_shapes=({0: n}, {1: m}))
    assert_matches(compiled(randn(3, 1), randn(1, 2)), Outer()(randn(3, 1), randn(1, 2)))
    with pytest.raises(UserError, match=r"needs more memory than IREE could allocate \(RESOURCE_EXHAUSTED\)"):
        compiled(torch.zeros(2_000_000, 1), torch.zeros(1, 2_000_000))  # a 16 TB result


@pytest.mark.iree
@pytest.mark.parametrize("row, arguments", [
    ("a transposed view", lambda: (randn(6, 4).t(), Y)),
    ("a tensor that requires grad", lambda: (X.clone().requires_grad_(), Y)),
    ("NaN and infinities", lambda: (SPECIAL, Y)),
], ids=["transposed", "requires-grad", "nan-inf"])
def test_the_dynamo_backend(row, arguments):
    model = MatmulAndSum()
    compiled = torch.compile(model, backend="mlc")
    args = arguments()
    with torch.no_grad():
        assert_matches(compiled(*args), model(*args))
