"""PyTorch -> mlc -> IREE llvm-cpu -> iree.runtime, compared with PyTorch eager.

Tolerance: float32 results must match eager within rtol=1e-4 and atol=1e-5
(relative to each element), the expectation for float32 reassociation in GEMMs
and reductions.
"""

import io
import zipfile

import pytest
import torch
from conftest import ATOL, RTOL

import mlc
import models  # examples/models.py, on the path through conftest.py

pytestmark = [pytest.mark.slow, pytest.mark.iree]


def test_matches_eager(example_model):
    name, model, inputs = example_model
    compiled = mlc.compile(model, inputs, target="llvm-cpu")
    with torch.no_grad():
        expected = model(*inputs)
    actual = compiled(*inputs)
    assert isinstance(actual, torch.Tensor)
    torch.testing.assert_close(actual, expected, rtol=RTOL, atol=ATOL)
    # Other data than the example: the executable is not specialized to it.
    fresh = tuple(torch.randn_like(x) for x in inputs)
    with torch.no_grad():
        torch.testing.assert_close(compiled(*fresh), model(*fresh), rtol=RTOL, atol=ATOL)


def test_every_level_is_inspectable(example_model):
    name, model, inputs = example_model
    compiled = mlc.compile(model, inputs)
    assert "torch.aten" in compiled.ir("torch")
    assert '"mlc.' in compiled.ir("mlc") and "torch.aten" not in compiled.ir("mlc")
    assert "linalg." in compiled.ir("linalg") and '"mlc.' not in compiled.ir("linalg")
    archive = zipfile.ZipFile(io.BytesIO(compiled.vmfb))
    assert archive.read("module.fb")[8:12] == b"IREE"  # the flatbuffer's file identifier
    assert any(name.endswith("_x86_64.so") for name in archive.namelist())  # the llvm-cpu kernels


class TwoOutputs(torch.nn.Module):
    def forward(self, x):
        return torch.relu(x), [x * 2.0, x.sum(dim=1)]


def test_structured_outputs_and_numpy_inputs():
    x = torch.randn(4, 8)
    compiled = mlc.compile(TwoOutputs(), (x,))
    relu, (doubled, summed) = compiled(x.numpy())
    torch.testing.assert_close(relu, torch.relu(x))
    torch.testing.assert_close(doubled, x * 2.0)
    torch.testing.assert_close(summed, x.sum(dim=1), rtol=RTOL, atol=ATOL)


def test_saved_vmfb_runs_under_iree_run_module(tmp_path):
    import subprocess
    import sys
    from pathlib import Path

    x = torch.ones(2, 3)
    compiled = mlc.compile(TwoOutputs(), (x,))
    path = tmp_path / "model.vmfb"
    compiled.save(path)
    tool = Path(sys.executable).parent / "iree-run-module"
    result = subprocess.run(
        [str(tool), f"--module={path}", "--device=local-task", "--function=main", "--input=2x3xf32=1"],
        capture_output=True, text=True, check=True,
    )
    assert "2x3xf32=[1 1 1][1 1 1]" in result.stdout
    assert "2xf32=3 3" in result.stdout


def test_the_loaded_executable_is_held_once():
    """IREE keeps its own copy of a loaded .vmfb, and `Compiled` reads that one: a second
    copy in Python would hold every weight inside once more (GPT-2 f32: 620 MiB an
    executable). tracemalloc counts IREE's copy (made through Python's allocator), not
    torch's tensors; a first compile makes the compilers' imports outside the count."""
    import gc
    import tracemalloc

    torch.manual_seed(0)
    mlc.compile(torch.nn.Linear(8, 8), (torch.randn(1, 8),))
    model, x = torch.nn.Linear(1024, 4096).eval(), torch.randn(1, 1024)  # 16 MiB of weights
    tracemalloc.start()
    try:
        compiled = mlc.compile(model, (x,))
        gc.collect()
        held = tracemalloc.get_traced_memory()[0]
    finally:
        tracemalloc.stop()
    size = len(compiled.vmfb)
    assert size > 16 << 20 and compiled.vmfb == compiled.artifact
    assert held < 1.5 * size, f"{held >> 20} MiB held in Python for a .vmfb of {size >> 20} MiB"
    torch.testing.assert_close(compiled(x), model(x).detach(), rtol=RTOL, atol=ATOL)


class Threshold(torch.nn.Module):
    """Comparisons and where: boolean tensors inside the graph and out of it."""

    def forward(self, x):
        return torch.where(x > 0.5, x, -x), x > 0.25


def test_comparisons_and_boolean_outputs():
    x = torch.rand(4, 8)
    selected, mask = mlc.compile(Threshold(), (x,))(x)
    torch.testing.assert_close(selected, torch.where(x > 0.5, x, -x))
    assert mask.dtype == torch.bool and torch.equal(mask, x > 0.25)


def test_float64_model_keeps_float64():
    """IREE demotes f64 to f32 by default; on the CPU mlc keeps f64, so a float64
    model takes and returns float64 and matches to double precision."""
    model = models.make_cnn().double()
    x = torch.randn(2, 3, 32, 32, dtype=torch.float64)
    result = mlc.compile(model, (x,))(x)
    assert result.dtype == torch.float64
    with torch.no_grad():
        torch.testing.assert_close(result, model(x), rtol=1e-12, atol=1e-12)
