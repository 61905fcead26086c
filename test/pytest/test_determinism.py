"""The same model and options compile to the same .vmfb bytes in two fresh processes
(with different hash seeds, so no set or dict order leaks into the output). The
executable cache keys on mlc's output, so a difference here would be a miss in every
new process."""

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]

SCRIPT = """
import hashlib, sys, torch, mlc, models
name = sys.argv[1]
model = models.FACTORIES[name]()
torch.manual_seed(1)
inputs = tuple(torch.randn(shape) for shape in models.EXAMPLE_INPUTS[name])
compiled = mlc.compile(model, inputs, cache=False)
print(hashlib.sha256(compiled.vmfb).hexdigest(), hashlib.sha256(compiled.ir("linalg").encode()).hexdigest())
"""


def digests(name: str, hash_seed: int) -> str:
    environment = {**os.environ, "PYTHONHASHSEED": str(hash_seed),
                   "PYTHONPATH": os.pathsep.join([str(ROOT / "examples"), os.environ.get("PYTHONPATH", "")])}
    done = subprocess.run([sys.executable, "-c", SCRIPT, name], capture_output=True, text=True, env=environment,
                          timeout=600)
    assert done.returncode == 0, done.stderr[-2000:]
    return done.stdout.strip().splitlines()[-1]


@pytest.mark.iree
@pytest.mark.parametrize("name", ["cnn", "transformer_block"])
def test_two_fresh_processes_build_the_same_executable(name):
    first, second = digests(name, 1), digests(name, 2)
    assert first.split()[1] == second.split()[1], "mlc's lowered IR differs between the processes"
    assert first.split()[0] == second.split()[0], "the .vmfb bytes differ between the processes"
