"""benchmarks/on_device.py, the way the README's cuda results were made: executables and
eager's outputs prepared here, then run and compared by IREE's tools alone. Here the
"device" is this CPU (llvm-cpu, local-task); a result off its budget is a finding."""

import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

TOOL = Path(__file__).resolve().parents[2] / "benchmarks" / "on_device.py"


@pytest.mark.iree
def test_prepared_executables_are_checked_and_a_wrong_output_is_found(tmp_path):
    prepared = subprocess.run([sys.executable, str(TOOL), "prepare", str(tmp_path), "--target", "llvm-cpu",
                               "--models", "mlp", "--precisions", "f32,int8", "--programs", "2"],
                              capture_output=True, text=True)
    assert prepared.returncode == 0, prepared.stderr[-2000:]
    assert f"4 cases, 6 executables in {tmp_path}" in prepared.stdout
    check = [sys.executable, str(TOOL), "check", str(tmp_path), "--device", "local-task", "--jobs", "2"]
    done = subprocess.run(check, capture_output=True, text=True)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "4 cases, 6 executables run on local-task: 0 findings" in done.stdout
    # int8's budget is 5 % of eager's f32 output: 10 % off must be found.
    expected = np.load(tmp_path / "mlp_int8_want0.npy")
    np.save(tmp_path / "mlp_int8_want0.npy", expected * 1.1)
    done = subprocess.run(check, capture_output=True, text=True)
    assert done.returncode == 1
    assert "mlp_int8: wrong result: output 0: relative error" in done.stdout and "1 findings" in done.stdout
