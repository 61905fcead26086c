"""Progress on long compiles: each stage and its time on stderr when it is a terminal
(a pseudo-terminal here), nothing with --quiet, nothing into a pipe or a log."""

import os
import pty
import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
BIN = Path(sys.executable).parent
MLP = [str(BIN / "mlc-compile"), f"{ROOT}/examples/models.py:make_mlp", "--input-shape", "8x64xf32"]
STAGES = ["import", "torch to mlc", "O2 graph passes", "lowering to linalg", "llvm-cpu passes", "compile for llvm-cpu"]
pytestmark = [pytest.mark.slow, pytest.mark.iree]  # each child compiles with IREE
ESCAPES = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]")


def on_terminal(argv) -> tuple[int, str]:
    """Runs `argv` with stderr on a pseudo-terminal; returns its exit status and what it showed there."""
    main, secondary = pty.openpty()
    env = {**os.environ, "TERM": "xterm", "COLUMNS": "100"}
    process = subprocess.Popen(argv, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=secondary, env=env)
    os.close(secondary)
    shown = b""
    while True:
        try:
            chunk = os.read(main, 4096)
        except OSError:  # the process closed the terminal
            break
        if not chunk:
            break
        shown += chunk
    os.close(main)
    return process.wait(), ESCAPES.sub("", shown.decode(errors="replace")).replace("\r", "\n")


def finished(shown: str) -> list[str]:
    """The stages a progress display reported done, in order."""
    return [m.group(1).strip() for m in re.finditer(r"^done (.+?)\s+\d+\.\d s", shown, re.M)]


def test_mlc_compile_shows_each_stage_on_a_terminal(tmp_path):
    status, shown = on_terminal(MLP + ["-o", str(tmp_path / "mlp.vmfb")])
    assert status == 0 and finished(shown) == STAGES
    assert re.search(r"compile for llvm-cpu\s+\d+\.\d s\s+\(total \d+\.\d s\)", shown)


def test_quiet_and_pipes_show_nothing(tmp_path):
    status, shown = on_terminal(MLP + ["-o", str(tmp_path / "mlp.vmfb"), "--quiet"])
    assert status == 0 and shown == ""
    piped = subprocess.run(MLP + ["-o", str(tmp_path / "mlp.vmfb")], capture_output=True, text=True)
    assert piped.returncode == 0 and piped.stderr == ""


def test_python_api_only_when_asked():
    code = ("import torch, mlc; from torch import nn; m = nn.Sequential(nn.Linear(4, 4)).eval(); "
            "mlc.compile(m, (torch.randn(2, 4),), progress={})")
    assert finished(on_terminal([sys.executable, "-c", code.format(True)])[1]) == STAGES
    assert finished(on_terminal([sys.executable, "-c", code.format(False)])[1]) == []
