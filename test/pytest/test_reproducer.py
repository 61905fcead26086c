"""Reproducers: a stage that fails for a reason that is not the user's writes the module
from before the stage, its pipeline or IREE flags, and a repro.sh that reruns just that
stage, and the one error names the directory."""

import subprocess
import sys
import tempfile
from pathlib import Path

import pytest
import torch

import mlc
from mlc.driver.cli import mlc_opt
from mlc.passes import create
from mlc.passes.simplify import Simplify

BIN = Path(sys.executable).parent

# IREE's CPU backend cannot legalize math.ipowi: a module mlc-compile takes, that IREE fails on.
IPOWI = """
func.func @main(%x: tensor<4xi32>, %y: tensor<4xi32>) -> tensor<4xi32> {
  %empty = tensor.empty() : tensor<4xi32>
  %0 = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>,
                                        affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]}
      ins(%x, %y : tensor<4xi32>, tensor<4xi32>) outs(%empty : tensor<4xi32>) {
  ^bb0(%a: i32, %b: i32, %out: i32):
    %p = math.ipowi %a, %b : i32
    linalg.yield %p : i32
  } -> tensor<4xi32>
  return %0 : tensor<4xi32>
}
"""


def mlp():
    torch.manual_seed(0)
    return torch.nn.Sequential(torch.nn.Linear(8, 16), torch.nn.ReLU(), torch.nn.Linear(16, 4)).eval()


def reproducer_of(message: str) -> Path:
    line = next(line for line in message.splitlines() if line.startswith("reproducer: "))
    return Path(line.removeprefix("reproducer: ").split(" (")[0])


@pytest.mark.iree
def test_iree_failure(tmp_path):
    (tmp_path / "ipowi.mlir").write_text(IPOWI)
    directory = tmp_path / "repro"
    failed = subprocess.run([BIN / "mlc-compile", "ipowi.mlir", "-o", "x.vmfb", "--repro", directory],
                            cwd=tmp_path, capture_output=True, text=True)
    assert failed.returncode == 1 and "Traceback" not in failed.stderr
    assert "IREE failed to compile" in failed.stderr and reproducer_of(failed.stderr) == directory
    assert sorted(p.name for p in directory.iterdir()) == ["flags.txt", "input.mlirbc", "repro.sh"]
    assert "--iree-hal-target-device=local" in (directory / "flags.txt").read_text().split()
    rerun = subprocess.run([directory / "repro.sh"], capture_output=True, text=True)
    assert rerun.returncode != 0 and "math.ipowi" in rerun.stderr  # the same failure, from iree-compile alone


def test_pass_failure(tmp_path, monkeypatch):
    def broken(self, module):
        raise RuntimeError("simplify broke")

    monkeypatch.setattr(Simplify, "run", broken)
    with pytest.raises(mlc.UserError) as raised:
        mlc.compile(mlp(), (torch.randn(2, 8),), repro=tmp_path)
    message = str(raised.value)
    assert "internal error in pass 'mlc-simplify'" in message and reproducer_of(message) == tmp_path
    assert "mlc-simplify" in (tmp_path / "pipeline.txt").read_text()
    assert "mlc.matmul" in mlc_opt_output(tmp_path / "input.mlirbc", "builtin.module()")  # before the stage: mlc

    # repro.sh reruns the stage: with the pass still broken (here) it fails the same way,
    assert mlc_opt.main([str(tmp_path / "input.mlirbc"), f"--pass-pipeline={(tmp_path / 'pipeline.txt').read_text()}"]) == 1
    monkeypatch.undo()
    # and once it is fixed (a fresh process), the stage runs.
    rerun = subprocess.run([tmp_path / "repro.sh"], capture_output=True, text=True)
    assert rerun.returncode == 0 and "mlc.fusion_group" in rerun.stdout, rerun.stderr


def mlc_opt_output(path: Path, pipeline: str) -> str:
    result = subprocess.run([BIN / "mlc-opt", path, f"--pass-pipeline={pipeline}"], capture_output=True, text=True)
    assert result.returncode == 0, result.stderr
    return result.stdout


def test_default_directory_is_temporary(monkeypatch, tmp_path):
    monkeypatch.setattr(Simplify, "run", lambda self, module: 1 / 0)
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))
    with pytest.raises(mlc.UserError) as raised:
        mlc.compile(mlp(), (torch.randn(2, 8),))
    directory = reproducer_of(str(raised.value))
    assert directory.parent == tmp_path and directory.name.startswith("mlc-repro-")
    assert (directory / "repro.sh").exists()


def test_model_errors_write_none():
    class Zeta(torch.nn.Module):
        def forward(self, x):
            return torch.special.zeta(x, x)

    with pytest.raises(mlc.UserError) as raised:
        mlc.compile(Zeta(), (torch.randn(4),), allow_fallback=False)
    assert "unknown to torch-mlir" in str(raised.value) and "reproducer: " not in str(raised.value)


def test_unwritable_directory_is_an_error(tmp_path, monkeypatch):
    monkeypatch.setattr(Simplify, "run", lambda self, module: 1 / 0)
    (tmp_path / "file").write_text("")
    with pytest.raises(mlc.UserError, match="cannot write the reproducer to"):
        mlc.compile(mlp(), (torch.randn(2, 8),), repro=tmp_path / "file" / "repro")


def test_pass_text_round_trips_options():
    assert create("mlc-fuse", {"isolate": "concat"}).text() == "mlc-fuse{isolate=concat}"
    assert create("mlc-convert-torch-to-mlc", {"allow-fallback": "true"}).text() == \
        "mlc-convert-torch-to-mlc{allow-fallback=true}"
    assert create("mlc-simplify", {}).text() == "mlc-simplify"
