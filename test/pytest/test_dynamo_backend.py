"""`torch.compile(model, backend="mlc")` end to end: Dynamo's graphs compiled by mlc,
run by IREE on llvm-cpu, and compared with eager (rtol 1e-4, atol 1e-5).

A recording backend wraps mlc's, so that each test also checks that mlc, not an
eager fallback, ran the graphs it should have."""

import subprocess
import sys
import warnings
from pathlib import Path

import pytest
import torch
from conftest import assert_matches
from torch import nn

from mlc.driver.tools.dynamo_backend import CompiledGraph, mlc_backend

pytestmark = pytest.mark.slow


@pytest.fixture(autouse=True)
def fresh_dynamo():
    torch._dynamo.reset()
    yield
    torch._dynamo.reset()


class Recording:
    """mlc's backend, keeping the CompiledGraph of each graph Dynamo handed over."""

    def __init__(self):
        self.graphs: list[CompiledGraph] = []

    def __call__(self, graph, example_inputs, **kwargs):
        compiled = mlc_backend(graph, example_inputs, **kwargs)
        self.graphs.append(compiled)
        return compiled

    def executables(self) -> list:
        return [e for graph in self.graphs for e in graph.executables.values()]


class MLP(nn.Module):
    def __init__(self):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(16, 32), nn.GELU(), nn.Linear(32, 8))

    def forward(self, x):
        return self.net(x)


class ConvNet(nn.Module):
    def __init__(self):
        super().__init__()
        self.net = nn.Sequential(nn.Conv2d(3, 8, 3, padding=1), nn.BatchNorm2d(8), nn.ReLU(), nn.AdaptiveAvgPool2d(1))

    def forward(self, x):
        return self.net(x).flatten(1)


class WithGraphBreak(nn.Module):
    """`.item()` and `print` in forward: Dynamo splits it into two graphs."""

    def __init__(self):
        super().__init__()
        self.first, self.second = nn.Linear(8, 8), nn.Linear(8, 4)

    def forward(self, x):
        y = torch.relu(self.first(x))
        print(f"norm {y.norm().item():.3f}")
        return self.second(y) * 2


class ComplexResult(nn.Module):
    """A complex FFT: no conversion in mlc and no lowering in torch-mlir."""

    def forward(self, x):
        return torch.fft.rfft(x) * 2


def seeded(cls):
    torch.manual_seed(0)
    return cls().eval()


def matches_eager(model, compiled, *shapes):
    """`compiled` (the torch.compile'd `model`) matches eager on a random input of each shape."""
    with torch.no_grad():
        for shape in shapes:
            x = torch.randn(*shape)
            assert_matches(compiled(x), model(x))


def test_found_by_name_without_importing_mlc():
    code = "import torch; from torch._dynamo.backends.registry import lookup_backend; print(lookup_backend('mlc'))"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert "mlc_backend" in out


@pytest.mark.iree
@pytest.mark.parametrize("cls, shape", [(MLP, (4, 16)), (ConvNet, (2, 3, 16, 16))])
def test_matches_eager_and_runs_on_mlc(cls, shape):
    model, backend = seeded(cls), Recording()
    matches_eager(model, torch.compile(model, backend=backend), shape, shape)
    assert len(backend.executables()) == 1 and None not in backend.executables()


@pytest.mark.iree
def test_graph_break(capsys):
    model, backend = seeded(WithGraphBreak), Recording()
    matches_eager(model, torch.compile(model, backend=backend), (3, 8))
    assert "norm" in capsys.readouterr().out
    assert len(backend.graphs) >= 2 and None not in backend.executables()


@pytest.mark.iree
def test_new_shapes_compile_once_each():
    """Dynamo recompiles on the second shape with the batch size symbolic (its automatic
    dynamic): mlc compiles that graph once, with a dynamic batch, for all later sizes."""
    model, backend = seeded(MLP), Recording()
    matches_eager(model, torch.compile(model, backend=backend), (2, 16), (3, 16), (3, 16), (2, 16), (5, 16))
    static, dynamic = backend.graphs
    assert len(static.executables) == 1 and static.dynamic is None and None not in backend.executables()
    assert dynamic.dynamic is not None and dynamic.executables == {}


@pytest.mark.iree
def test_dynamic_true():
    model, backend = seeded(MLP), Recording()
    matches_eager(model, torch.compile(model, backend=backend, dynamic=True), (2, 16), (7, 16), (3, 16))
    (graph,) = backend.graphs
    assert graph.dynamic is not None and graph.executables == {}
    assert graph.dynamic.report["dynamic shapes"]  # mlc's own dynamic shapes, one executable


@pytest.mark.iree
def test_options_reach_mlc():
    model, backend = seeded(MLP), Recording()
    matches_eager(model, torch.compile(model, backend=backend, options={"opt_level": 0}), (4, 16))
    assert backend.graphs[0].settings.opt_level == 0
    assert backend.executables()[0].report["pipeline"] != Recording and None not in backend.executables()


@pytest.mark.parametrize("options, message", [
    ({"tile": 4}, "unknown option 'tile' \\(known: target, opt_level, precision\\)"),
    ({"opt_level": "2"}, "option 'opt_level' expects int, got '2'"),
])
def test_bad_options_are_errors(options, message):
    model = seeded(MLP)
    with pytest.raises(Exception, match=message):
        torch.compile(model, backend="mlc", options=options)(torch.randn(2, 16))


@pytest.mark.iree
def test_changed_weights_recompile():
    model, backend = seeded(MLP), Recording()
    compiled = torch.compile(model, backend=backend)
    matches_eager(model, compiled, (4, 16))
    with torch.no_grad():
        model.net[0].weight.mul_(2)
    matches_eager(model, compiled, (4, 16))


def test_uncompilable_graph_runs_eagerly_with_one_warning():
    model, backend = seeded(ComplexResult), Recording()
    compiled = torch.compile(model, backend=backend)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        matches_eager(model, compiled, (3, 8), (3, 8))
    messages = [str(w.message) for w in caught if "mlc" in str(w.message)]
    assert len(messages) == 1 and "runs eagerly" in messages[0]
    assert "no conversion to mlc" in messages[0] and "test_dynamo_backend.py" in messages[0]  # the op, located
    assert backend.executables() == [None]


def test_autograd_runs_eagerly():
    model, backend = seeded(MLP), Recording()
    x = torch.randn(4, 16)
    with pytest.warns(UserWarning, match="autograd"):
        result = torch.compile(model, backend=backend)(x)
    result.sum().backward()
    assert model.net[0].weight.grad is not None and backend.executables() == []


@pytest.mark.models
@pytest.mark.iree
@pytest.mark.parametrize("name", ["resnet18", "bert_base"])
def test_zoo_model_matches_eager(name):
    """Real architectures through Dynamo: one graph each, compiled by mlc, within the zoo's tolerance."""
    sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "examples"))
    import zoo

    model, inputs = zoo.build(name)
    backend = Recording()
    with torch.no_grad():
        actual = zoo.outputs(torch.compile(model, backend=backend)(*inputs))
        expected = zoo.outputs(model(*inputs))
    assert backend.executables() and None not in backend.executables()
    for got, want in zip(actual, expected, strict=True):
        assert (got - want).abs().max().item() <= zoo.TOLERANCE[name] * want.abs().max().item()
