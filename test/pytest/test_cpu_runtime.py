"""How mlc runs a model on the CPU: IREE's data tiling (on by default, off on request or
where IREE fails with it) and the runtime driver, chosen by the model's matmul work."""

import pytest
import torch
from torch import nn

import mlc
import models  # examples/models.py, on the path through conftest.py
from mlc.driver.backends import iree as iree_backend
from mlc.driver.backends import matmul_choice, matmul_library

pytestmark = pytest.mark.slow


@pytest.mark.iree
def test_matmul_flops_count_matmuls_and_convolutions():
    model = nn.Sequential(nn.Conv2d(3, 8, 3, padding=1), nn.Flatten(), nn.Linear(8 * 6 * 6, 10)).eval()
    x = torch.randn(2, 3, 6, 6)
    compiled = mlc.compile(model, (x,), opt_level=1)  # O1: the convolution stays a convolution
    conv = 2 * (2 * 6 * 6 * 8) * (3 * 3 * 3)
    linear = 2 * (2 * 10) * (8 * 6 * 6)
    assert compiled.report["matmul flops"] == conv + linear


@pytest.mark.iree
def test_small_models_run_on_the_calling_thread():
    torch.manual_seed(0)
    small, x = models.make_mlp(), torch.randn(8, 64)
    compiled = mlc.compile(small, (x,))
    assert compiled.report["matmul flops"] < iree_backend.SINGLE_THREAD_FLOPS
    assert compiled.report["runtime driver"] == "local-sync"
    big = models.MLP(512, 2048, 512).eval()
    y = torch.randn(64, 512)
    compiled_big = mlc.compile(big, (y,), target_options={"matmul-library": False})
    assert compiled_big.report["runtime driver"] == "local-task"
    forced = mlc.compile(small, (x,), target_options={"driver": "local-task"})
    assert forced.report["runtime driver"] == "local-task"
    with torch.no_grad():
        for model, args, result in ((small, (x,), compiled), (big, (y,), compiled_big), (small, (x,), forced)):
            torch.testing.assert_close(result(*args), model(*args), rtol=1e-4, atol=1e-5)


@pytest.mark.iree
@pytest.mark.skipif(not matmul_library.available()[0], reason="mlc's matmul plugin cannot be built here")
def test_work_on_the_library_does_not_count_for_the_driver():
    """The library's calls split among the plugin's own threads on either driver, so a
    model whose matmuls all run there leaves IREE's code too little for its workers, and
    runs on the calling thread; the plan then weighs the library against IREE's kernel on
    one thread. A convolution the library cannot take keeps the workers."""
    torch.manual_seed(0)
    big, y = models.MLP(512, 2048, 512).eval(), torch.randn(64, 512)
    on_library = mlc.compile(big, (y,), target_options={"matmul-library": True})
    assert on_library.report["matmul library"]["library"] == ["64x512x2048", "64x2048x512"]
    assert on_library.report["runtime driver"] == "local-sync"
    convolutions = nn.Sequential(nn.Conv2d(64, 64, 3, padding=1), nn.ReLU(), nn.Conv2d(64, 64, 3, padding=1)).eval()
    z = torch.randn(2, 64, 32, 32)  # 2 x 151 MFLOP, on IREE's code
    wide = mlc.compile(convolutions, (z,), target_options={"matmul-library": True})
    assert wide.report["runtime driver"] == "local-task"
    with torch.no_grad():
        torch.testing.assert_close(on_library(y), big(y), rtol=1e-4, atol=1e-4)
        torch.testing.assert_close(wide(z), convolutions(z), rtol=1e-4, atol=1e-4)


# Timings as each CPU measured the MLP's two shapes (ms): on the AMD EPYC (Zen 4) IREE's
# kernel on its two workers beat the library, which beat it on one thread; on the Xeons
# MKL beats both.
ZEN4 = {"iree ms": 0.78, "iree one thread ms": 1.42, "library ms": 1.15}
XEON = {"iree ms": 1.2, "iree one thread ms": 2.0, "library ms": 0.6}


@pytest.mark.iree
@pytest.mark.skipif(not matmul_library.available()[0], reason="mlc's matmul plugin cannot be built here")
@pytest.mark.parametrize("cpu, library, driver", [(ZEN4, [], "local-task"),
                                                 (XEON, ["64x512x2048", "64x2048x512"], "local-sync")])
def test_the_plan_runs_the_matmuls_where_they_measured_fastest(monkeypatch, cpu, library, driver):
    """Small enough for the calling thread, the MLP's matmuls go there on the library
    only where that measured faster than IREE's kernel on its workers; otherwise they
    run on IREE's workers (the MLP 2.84 ms the first way, 2.15 the second, AMD EPYC)."""
    monkeypatch.setattr(matmul_choice.Measurements, "get", lambda self, shapes: {s: cpu for s in shapes})
    torch.manual_seed(0)
    big, y = models.MLP(512, 2048, 512).eval(), torch.randn(64, 512)
    compiled = mlc.compile(big, (y,))
    assert compiled.report["matmul library"]["library"] == library
    assert compiled.report["runtime driver"] == driver
    with torch.no_grad():
        torch.testing.assert_close(compiled(y), big(y), rtol=1e-4, atol=1e-4)


def test_cpu_options_are_checked():
    model, x = models.make_mlp(), torch.randn(8, 64)
    with pytest.raises(mlc.UserError, match="driver must be auto, local-task or local-sync, got 'gpu'"):
        mlc.compile(model, (x,), target_options={"driver": "gpu"})
    with pytest.raises(mlc.UserError, match="data-tiling must be true or false, got 'yes'"):
        mlc.compile(model, (x,), target_options={"data-tiling": "yes"})
    with pytest.raises(mlc.UserError, match="zero-masked-tail must be true or false, got 1"):
        mlc.compile(model, (x,), target_options={"zero-masked-tail": 1})


@pytest.mark.iree
def test_data_tiling_falls_back_where_iree_fails_with_it():
    """IREE 3.13's data tiling breaks nn.MultiheadAttention at dynamic sizes; mlc compiles
    again without it, says why, and the model still runs."""
    model = models.make_transformer_block()
    dims = {0: torch.export.Dim("batch", max=8), 1: torch.export.Dim("seq", min=2, max=64)}
    compiled = mlc.compile(model, (torch.randn(2, 16, 128),), dynamic_shapes=(dims,))
    assert compiled.report["data tiling"].startswith("off: IREE failed with it (")
    x = torch.randn(3, 40, 128)
    with torch.no_grad():
        torch.testing.assert_close(compiled(x), model(x), rtol=1e-4, atol=1e-5)
