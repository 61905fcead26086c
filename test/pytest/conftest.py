"""Shared pytest fixtures and helpers: the bundled example models, the one way a test
compares a compiled model with eager (`compile_and_compare`, `assert_matches`), and
the `iree` marker's check."""

import functools
import os
import sys
from pathlib import Path

import iree.compiler
import pytest
import torch
import torch.utils._pytree as pytree

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = ROOT / "examples"
sys.path.insert(0, str(EXAMPLES))
# The executable cache of the tests: `make` names one under build/, which a fresh clone has
# empty; a user's ~/.cache/mlc is left alone.
os.environ.setdefault("MLC_CACHE_DIR", str(ROOT / "build" / "cache"))

import mlc  # noqa: E402
import models  # noqa: E402
from mlc.driver import iree_backend  # noqa: E402

# Floats match to these unless a case says otherwise (NaN matches NaN); integers,
# booleans, dtypes and shapes match exactly.
RTOL, ATOL = 1e-4, 1e-5


class Apply(torch.nn.Module):
    """A torch function as an `nn.Module`, the form `mlc.compile` and `torch.export` take."""

    def __init__(self, fn, inner: torch.nn.Module | None = None):
        super().__init__()
        self.fn = fn
        self.inner = inner  # a layer `fn` takes first (embedding weights, a weight-normed conv)

    def forward(self, *args):
        return self.fn(self.inner, *args) if self.inner is not None else self.fn(*args)


def assert_matches(actual, expected, *, rtol=RTOL, atol=ATOL) -> None:
    """`actual` is eager's `expected`: the same structure, dtypes and shapes; floats (and
    complex) within the tolerance, NaN where eager has NaN; everything else exactly."""
    actual_leaves, expected_leaves = pytree.tree_leaves(actual), pytree.tree_leaves(expected)
    assert len(actual_leaves) == len(expected_leaves), f"{len(actual_leaves)} results, eager has {len(expected_leaves)}"
    for index, (a, e) in enumerate(zip(actual_leaves, expected_leaves)):
        if not isinstance(e, torch.Tensor):
            a = a.item() if isinstance(a, torch.Tensor) and a.dim() == 0 else a
            assert a == e or (e != e and a != a), f"result {index}: {a!r}, eager {e!r}"
            continue
        assert isinstance(a, torch.Tensor), f"result {index}: a {type(a).__name__}, eager a tensor"
        assert (a.dtype, a.shape) == (e.dtype, e.shape), f"result {index}: {a.dtype} {list(a.shape)}, eager {e.dtype} {list(e.shape)}"
        if e.dtype.is_floating_point or e.dtype.is_complex:
            torch.testing.assert_close(a, e, rtol=rtol, atol=atol, equal_nan=True, msg=lambda m, i=index: f"result {i}: {m}")
        else:
            assert torch.equal(a, e), f"result {index}: {a}, eager {e}"


def compile_and_compare(model, *inputs, rtol=RTOL, atol=ATOL, call_with=None, **options):
    """Compiles `model` (a module, or a function of the inputs) with `mlc.compile(...,
    **options)` at `inputs`, runs it on `call_with` (default: the same inputs) and asserts
    it matches eager there. Returns the `Compiled`."""
    model = model if isinstance(model, torch.nn.Module) else Apply(model)
    model.eval()
    compiled = mlc.compile(model, inputs, **options)
    for args in call_with or [inputs]:
        with torch.no_grad():
            expected = model(*args)
        assert_matches(compiled(*args), expected, rtol=rtol, atol=atol)
    return compiled


@pytest.fixture(params=sorted(models.FACTORIES))
def example_model(request):
    """(name, model, example inputs) for each bundled model."""
    torch.manual_seed(1)
    name = request.param
    inputs = tuple(torch.randn(shape) for shape in models.EXAMPLE_INPUTS[name])
    return name, models.FACTORIES[name](), inputs


# --- the `iree` marker is true -------------------------------------------------------------
# A test that is not marked `iree` (or `models`) must not compile through IREE: `make
# test-fast` deselects the marked ones, which are most of the suite's time. IREE's compile
# entry points are wrapped for the whole session, so a compile in a fixture of any scope
# counts against the test whose setup made it.

_RUNNING: list[pytest.Item | None] = [None]


@pytest.hookimpl(tryfirst=True)
def pytest_runtest_setup(item):
    _RUNNING[0] = item


def _only_in_marked_tests(function):
    @functools.wraps(function)
    def checked(*args, **kwargs):
        item = _RUNNING[0]
        if item is not None and not (item.get_closest_marker("iree") or item.get_closest_marker("models")):
            pytest.fail(f"{item.nodeid} compiles through IREE: mark it @pytest.mark.iree", pytrace=False)
        return function(*args, **kwargs)

    return checked


iree.compiler.compile_str = _only_in_marked_tests(iree.compiler.compile_str)
iree_backend.compile_to_vmfb = _only_in_marked_tests(iree_backend.compile_to_vmfb)
