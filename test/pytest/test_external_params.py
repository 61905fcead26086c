"""External parameters: `mlc.compile(..., external_params=...)` keeps the large weights
in an IREE parameter archive, out of the .vmfb, and the runtime (mlc's and
iree-run-module) loads them from there."""

import gc
import os
import subprocess
import sys
import tempfile
from pathlib import Path

import numpy as np
import pytest
import torch
from conftest import ATOL, RTOL

import mlc
from mlc.driver.backends import matmul_library, parameters, targets

pytestmark = pytest.mark.slow

TOOLS = Path(sys.executable).parent


def plugin_flags(directory: Path, compiled) -> list[str]:
    """The flag that loads mlc's matmul plugin saved beside the executable, where it calls
    the plugin (a matmul the choice measured faster on the library: which ones varies by CPU)."""
    if not matmul_library.calls_plugin(compiled.artifact):
        return []
    return [matmul_library.run_flag(directory / matmul_library.PLUGIN_NAME)]


def make_mlp():
    """About 4 MiB of weights in two matrices; biases small enough to stay inline but one."""
    torch.manual_seed(0)
    return torch.nn.Sequential(torch.nn.Linear(512, 1024), torch.nn.GELU(), torch.nn.Linear(1024, 512)).eval()


def weight_bytes(model) -> int:
    return sum(p.numel() * p.element_size() for p in model.parameters())


@pytest.fixture(scope="module")
def mlp():
    model = make_mlp()
    x = torch.randn(4, 512)
    with torch.no_grad():
        expected = model(x)
    return model, x, expected


@pytest.fixture(scope="module")
def inline_and_external(mlp):
    model, x, _ = mlp
    return mlc.compile(model, (x,)), mlc.compile(model, (x,), external_params=True)


@pytest.mark.iree
def test_archive_holds_the_weights_and_the_vmfb_does_not(mlp, inline_and_external):
    model, _, _ = mlp
    inline, external = inline_and_external
    archive = os.path.getsize(external.parameters)
    large = sum(p.numel() * 4 for p in model.parameters() if p.numel() * 4 >= parameters.MIN_BYTES)
    assert large <= archive <= large + 64 * 1024  # the weights, a header and alignment
    assert external.report["parameters"]["count"] == 3  # two weight matrices and the 4 KiB bias
    assert len(external.vmfb) < len(inline.vmfb) / 20
    assert len(inline.vmfb) > weight_bytes(model)


@pytest.mark.iree
def test_results_match_eager(mlp, inline_and_external):
    """External weights give inline weights' results, to the rounding of the sums: the
    4-row matmuls run on the plugin (a decode batch's rows, measured since 2026-12-01),
    where mlc's own kernel packs an inline weight once and an external one, whose values
    may change after compiling, goes to MKL, which sums in another order."""
    _, x, expected = mlp
    inline, external = inline_and_external
    torch.testing.assert_close(external(x), expected, rtol=RTOL, atol=ATOL)
    torch.testing.assert_close(external(x), inline(x), rtol=1e-5, atol=1e-6)


@pytest.mark.iree
def test_results_on_one_kernel_are_bit_identical(mlp):
    """On one kernel for both (IREE's), external weights give inline weights' results bit for bit."""
    model, x, _ = mlp
    iree_only = {"target_options": {"matmul-library": False}}
    inline = mlc.compile(model, (x,), **iree_only)
    external = mlc.compile(model, (x,), external_params=True, **iree_only)
    torch.testing.assert_close(external(x), inline(x), rtol=0, atol=0)


@pytest.mark.iree
def test_saved_pair_runs_under_iree_run_module(tmp_path, mlp, inline_and_external):
    _, x, expected = mlp
    _, external = inline_and_external
    external.save(tmp_path / "m.vmfb")
    assert (tmp_path / "m.irpa").read_bytes() == Path(external.parameters).read_bytes()
    np.save(tmp_path / "x.npy", x.numpy())
    subprocess.run([str(TOOLS / "iree-run-module"), *plugin_flags(tmp_path, external), f"--module={tmp_path / 'm.vmfb'}",
                    f"--parameters=model={tmp_path / 'm.irpa'}", "--device=local-task", "--function=main",
                    f"--input=@{tmp_path / 'x.npy'}", f"--output=@{tmp_path / 'y.npy'}"],
                   capture_output=True, text=True, check=True)
    torch.testing.assert_close(torch.from_numpy(np.load(tmp_path / "y.npy")), expected, rtol=RTOL, atol=ATOL)


@pytest.mark.iree
def test_saved_vmfb_alone_has_no_weights(tmp_path, inline_and_external):
    _, external = inline_and_external
    external.save(tmp_path / "m.vmfb", params=tmp_path / "weights.irpa")
    assert (tmp_path / "weights.irpa").exists() and not (tmp_path / "m.irpa").exists()
    result = subprocess.run([str(TOOLS / "iree-run-module"), *plugin_flags(tmp_path, external),
                             f"--module={tmp_path / 'm.vmfb'}", "--device=local-task", "--function=main",
                             "--input=4x512xf32=0"], capture_output=True, text=True)
    assert result.returncode != 0 and "no provider registered that handles scopes like 'model'" in result.stderr


@pytest.mark.iree
def test_archive_at_a_given_path_stays(tmp_path, mlp):
    model, x, expected = mlp
    path = tmp_path / "weights.irpa"
    compiled = mlc.compile(model, (x,), external_params=path)
    assert compiled.parameters == str(path)
    torch.testing.assert_close(compiled(x), expected, rtol=RTOL, atol=ATOL)
    compiled.save(tmp_path / "weights.vmfb")  # the archive is already there: nothing to copy
    del compiled
    gc.collect()
    assert path.exists()


@pytest.mark.iree
def test_temporary_archive_goes_with_the_compiled_model(mlp):
    model, x, _ = mlp
    compiled = mlc.compile(model, (x,), external_params=True)
    path = compiled.parameters
    assert os.path.exists(path)
    del compiled
    gc.collect()
    assert not os.path.exists(path)


@pytest.mark.iree
def test_vulkan_loads_the_archive(mlp):
    model, x, expected = mlp
    runs, why = targets.get("vulkan-spirv").can_run()
    if not runs:
        pytest.skip(f"vulkan-spirv cannot run here: {why}")
    compiled = mlc.compile(model, (x,), target="vulkan-spirv", external_params=True)
    assert compiled._main.driver == "vulkan"
    torch.testing.assert_close(compiled(x), expected, rtol=RTOL, atol=ATOL)


@pytest.mark.iree
def test_small_constants_stay_inline():
    """A model with no weight of MIN_BYTES or more writes an empty archive and still runs."""
    model = torch.nn.Linear(4, 3).eval()
    x = torch.randn(2, 4)
    compiled = mlc.compile(model, (x,), external_params=True)
    assert compiled.report["parameters"]["count"] == 0
    torch.testing.assert_close(compiled(x), model(x).detach(), rtol=RTOL, atol=ATOL)


def test_target_without_archives_is_refused(mlp):
    model, x, _ = mlp
    with pytest.raises(mlc.UserError, match=r"^target 'mlir-cpu' cannot load weights from a parameter archive "
                                            r"\(external params work on: llvm-cpu, vulkan-spirv, cuda\)$"):
        mlc.compile(model, (x,), target="mlir-cpu", external_params=True)


def test_unwritable_path_is_refused_before_compiling(tmp_path, mlp):
    model, x, _ = mlp
    with pytest.raises(mlc.UserError, match=r"cannot write the parameter archive '.*missing/w.irpa': "
                                            r"its directory does not exist or is not writable"):
        mlc.compile(model, (x,), external_params=tmp_path / "missing" / "w.irpa")


def test_bad_value_is_refused(mlp):
    model, x, _ = mlp
    with pytest.raises(mlc.UserError, match=r"external_params must be True, False or a path to an .irpa file, got 3"):
        mlc.compile(model, (x,), external_params=3)


def test_archive_write_failure_is_a_user_error(tmp_path):
    with pytest.raises(mlc.UserError, match=r"^could not write the parameter archive '.*missing/w.irpa': "):
        parameters.write_archive({"w": np.zeros(1024, np.float32)}, tmp_path / "missing" / "w.irpa")


@pytest.mark.iree
def test_failed_iree_compile_leaves_no_temporary_archive(tmp_path, monkeypatch, mlp):
    """The archive is written before IREE compiles; when IREE then fails, the temporary
    one is removed (an archive at a path the user chose stays: it shows the order)."""
    model, x, _ = mlp
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path / "tmp"))
    (tmp_path / "tmp").mkdir()
    rejected = {"target": "vulkan-spirv", "target_options": {"vulkan-target": "no-such-gpu"}}
    with pytest.raises(mlc.UserError, match=r"^IREE failed to compile for vulkan-spirv:\n.*Unknown Vulkan target") as failed:
        mlc.compile(model, (x,), external_params=True, **rejected)
    # what stays is the reproducer the error names (driver/reproducer.py), not the archive
    left = list((tmp_path / "tmp").iterdir())
    assert len(left) == 1 and left[0].name.startswith("mlc-repro-") and f"reproducer: {left[0]}" in str(failed.value)
    assert not list(left[0].glob("*.irpa"))
    with pytest.raises(mlc.UserError, match=r"^IREE failed to compile for vulkan-spirv"):
        mlc.compile(model, (x,), external_params=tmp_path / "w.irpa", **rejected)
    assert (tmp_path / "w.irpa").stat().st_size > weight_bytes(model) / 2
