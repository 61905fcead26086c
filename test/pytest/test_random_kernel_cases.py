"""CI's fixed batch of random kernel cases (test/fuzz/kernels.py): the matmul plugin's
own kernels at random sizes against eager. `make fuzz-kernels` runs the open-ended search."""

import os
import random
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
import torch
from conftest import cache_of_its_own

from mlc.driver.backends import matmul_library

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "fuzz"))
import kernels  # noqa: E402

pytestmark = pytest.mark.iree
FUZZ = Path(kernels.__file__)


def test_the_cases_cover_each_kind_precision_and_tail():
    """300 draws hold every kind at every precision it takes, single rows, and sizes that
    are not whole panels (64) or groups (4)."""
    cases = [kernels.draw(random.Random(seed)) for seed in range(300)]
    assert {(c.kind, c.precision) for c in cases} == {
        ("linear", "f32"), ("linear", "bf16"), ("linear", "int8"), ("attention", "f32"), ("attention", "bf16"),
        ("layer norm", "f32"), ("layer norm", "bf16")}
    linear = [c.sizes for c in cases if c.kind == "linear"]
    assert any(s["rows"] == 1 for s in linear) and any(s["rows"] > 64 for s in linear)
    assert any(s["columns"] % 64 and s["depth"] % 4 for s in linear)
    assert {c.sizes["form"] for c in cases if c.kind == "attention"} == {"plain", "causal", "mask", "written out"}


@pytest.mark.skipif(not matmul_library.available()[0], reason="mlc's matmul plugin cannot be built here")
def test_a_wrong_result_is_a_finding(monkeypatch, tmp_path):
    """The check passes a right result and fails one off by more than its budget."""
    monkeypatch.setenv("MLC_CACHE_DIR", str(tmp_path))
    case = kernels.Case("linear", "f32", {"rows": 5, "depth": 70, "columns": 67, "batch": 0, "bias": True,
                                          "activation": "gelu", "residual": True, "back": False})
    assert kernels.check(case, 3) is None
    monkeypatch.setattr(kernels, "error", lambda got, expected: 2 * kernels.F32_BUDGET)
    assert kernels.check(case, 3) == f"error {2 * kernels.F32_BUDGET:.3g}, allowed {kernels.F32_BUDGET:.3g}"


def test_the_bf16_budget_grows_with_eager_own_rounding_error():
    """At bf16 a case may be off by 1 % plus twice what rounding its operands to bf16 costs
    eager; at f32 and int8 the budget is fixed."""
    case = kernels.Case("linear", "bf16", {})
    x = torch.tensor([1.0 + 2 ** -10])  # rounds to 1 in bf16
    allowed = kernels.budget(case, torch.nn.Identity(), (x,), x.numpy())
    assert allowed == pytest.approx(kernels.BF16_FLOOR + 2 * (2 ** -10) / (1 + 2 ** -10))
    assert kernels.budget(kernels.Case("linear", "f32", {}), None, (), None) == kernels.F32_BUDGET
    assert kernels.budget(kernels.Case("linear", "int8", {}), None, (), None) == kernels.INT8_BUDGET
    assert kernels.error(np.array([1.0, 2.0]), np.array([1.0, 4.0])) == 0.5


@pytest.mark.skipif(not matmul_library.available()[0], reason="mlc's matmul plugin cannot be built here")
def test_a_fixed_batch_of_random_kernel_cases_matches_eager(tmp_path):
    """Ten cases on mlc's own kernels, each compiled, run and checked in one process."""
    done = subprocess.run([sys.executable, str(FUZZ), "--cases", "10", "--seed", "20261130", "--configurations", "mlc"],
                          capture_output=True, text=True, env={**os.environ, "MLC_CACHE_DIR": str(cache_of_its_own(tmp_path / "cache"))})
    assert done.returncode == 0, done.stdout + done.stderr[-2000:]
    assert "mlc: 10 cases, 0 findings" in done.stdout


def test_an_unknown_configuration_is_an_error():
    done = subprocess.run([sys.executable, str(FUZZ), "--configurations", "fast"], capture_output=True, text=True)
    assert done.returncode == 2
    assert "unknown configuration 'fast'; choose from mlc, below-amx, mkl" in done.stderr
