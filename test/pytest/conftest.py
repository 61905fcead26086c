"""Shared pytest fixtures and helpers: the bundled example models, the one way a test
compares a compiled model with eager (`compile_and_compare`, `assert_matches`), and
the `iree` marker's check."""

import dataclasses
import functools
import os
import sys
from collections.abc import Callable
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
from mlc.driver.backends import iree as iree_backend  # noqa: E402
from mlc.driver.backends import matmul_library  # noqa: E402

# IREE's runtime reads the plugin flag once, when a process makes its CPU driver. Hand it
# mlc's matmul plugin now, before a test points MLC_CACHE_DIR at a directory where the
# plugin cannot be built and loads an executable there (the driver would lack it for the
# rest of the worker's tests).
matmul_library.register()


def cache_of_its_own(directory: Path) -> Path:
    """A new executable cache at `directory`, for a process whose settings (environment
    variables the cache's keys do not hold) must neither read nor leave executables or
    measurements in the tests' cache. It starts with the matmul plugin this session built
    (matmul_library.share_plugin: about 5 s of gcc a process saved); nothing else is shared."""
    matmul_library.share_plugin(directory)
    return directory


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


@dataclasses.dataclass
class OpCase:
    """One op-level case: `fn` (taking `module` first, if given) applied to `inputs`."""

    id: str
    fn: Callable
    inputs: Callable[[], tuple]  # makes them fresh
    module: Callable[[], torch.nn.Module] | None = None  # a layer `fn` takes first (weights), built seeded
    rtol: float = RTOL
    atol: float = ATOL
    group: str = ""  # the xdist group and module the case compiles in

    def make(self) -> tuple[torch.nn.Module, tuple]:
        inner = None
        if self.module is not None:
            torch.manual_seed(0)
            inner = self.module().eval()
        return Apply(self.fn, inner).eval(), self.inputs()


class SideBySide(torch.nn.Module):
    """Several cases in one module: `forward` takes each case's inputs in turn and
    returns the tuple of each case's results."""

    def __init__(self, parts: list[torch.nn.Module], arities: list[int]):
        super().__init__()
        self.parts = torch.nn.ModuleList(parts)
        self.arities = arities

    def forward(self, *args):
        results, start = [], 0
        for part, arity in zip(self.parts, self.arities):
            results.append(part(*args[start:start + arity]))
            start += arity
        return tuple(results)


class Family:
    """Op-level cases that compile as one module per group (a section of at most `size`
    cases): one IREE compile instead of one per case. Each case is still its own test,
    decided by its own result against eager. A group that does not compile whole (or only
    at -O1) fails `check_group`, and its cases are then compiled one by one.

        ops = Family("scatter", target="llvm-cpu", allow_fallback=False)
        ops.case("index_add", lambda x, v: x.index_add(0, i, v), make_x, make_v)

        @pytest.mark.parametrize("case", ops.params())
        def test_matches_eager(case): ops.check(case)
    """

    def __init__(self, name: str, size: int = 32, **options):
        self.cases: list[OpCase] = []
        self.size, self.options = size, {"target": "llvm-cpu", **options}
        self._section = name
        self._results = {}

    def section(self, name: str) -> None:
        """The cases that follow compile together (in groups of at most `size`)."""
        self._section = name

    def case(self, id, fn, *inputs, module=None, **tolerance) -> None:
        """`inputs` are tensors or zero-argument makers of them (made fresh, seeded)."""
        before = sum(c.group.startswith(self._section + " #") for c in self.cases)
        make = lambda: tuple(i() if callable(i) else i for i in inputs)  # noqa: E731
        self.cases.append(OpCase(id, fn, make, module, **tolerance, group=f"{self._section} #{before // self.size + 1}"))

    def params(self) -> list:
        return [pytest.param(c, id=c.id, marks=pytest.mark.xdist_group(c.group)) for c in self.cases]

    def group_params(self) -> list:
        groups = dict.fromkeys(c.group for c in self.cases)
        return [pytest.param(g, marks=pytest.mark.xdist_group(g)) for g in groups]

    def check_group(self, group: str) -> None:
        """The group compiled as one module at the options' level."""
        results = self.results(group)
        assert "failure" not in results, results.get("failure")

    def check(self, case: OpCase) -> None:
        results = self.results(case.group)
        inputs, actual = results[case.id] if "failure" not in results else self._alone(case)
        model, _ = case.make()
        assert_matches(actual, model(*inputs), rtol=case.rtol, atol=case.atol)

    def results(self, group: str) -> dict:
        """Each case of `group` by id -> (its inputs, its result from the group's module);
        {"failure": why} when the group did not compile whole."""
        if group not in self._results:
            self._results[group] = self._compile(group)
        return self._results[group]

    def _compile(self, group: str) -> dict:
        members = [c for c in self.cases if c.group == group]
        made = [c.make() for c in members]
        inputs = [x for _, case_inputs in made for x in case_inputs]
        model = SideBySide([m for m, _ in made], [len(i) for _, i in made]).eval()
        try:
            compiled = mlc.compile(model, tuple(inputs), **self.options)
        except mlc.UserError as error:
            return {"failure": f"{group}: {error}"}
        if "retried" in compiled.report:
            return {"failure": f"{group}: {compiled.report['retried']['note']}"}
        kept = [tuple(x.clone() for x in case_inputs) for _, case_inputs in made]  # as they were before the call
        return {c.id: (case_inputs, result) for c, case_inputs, result in zip(members, kept, compiled(*inputs))}

    def _alone(self, case: OpCase) -> tuple:
        model, inputs = case.make()
        kept = tuple(x.clone() for x in inputs)
        return kept, mlc.compile(model, inputs, **self.options)(*inputs)


@pytest.fixture(params=sorted(models.FACTORIES))
def example_model(request):
    """(name, model, example inputs) for each bundled model."""
    torch.manual_seed(1)
    name = request.param
    inputs = tuple(torch.randn(shape) for shape in models.EXAMPLE_INPUTS[name])
    return name, models.FACTORIES[name](), inputs


@pytest.hookimpl(tryfirst=True)  # before xdist's own hook reads the groups
def pytest_collection_modifyitems(items):
    """Under pytest-xdist (`--dist loadgroup`), the tests that share a module-scoped fixture
    (a compiled model) run on one worker, so the fixture is built once, not once a worker."""
    for item in items:
        if item.get_closest_marker("xdist_group"):
            continue
        fixtures = getattr(item, "_fixtureinfo", None)  # pytest's record of what the test requests
        ours = [d for defs in (fixtures.name2fixturedefs.values() if fixtures else ()) for d in defs
                if d.baseid]  # defined in a test file or conftest.py, not by pytest or a plugin (tmp_path_factory)
        if any(d.scope in ("module", "package", "session") for d in ours):
            item.add_marker(pytest.mark.xdist_group(item.module.__name__))


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
