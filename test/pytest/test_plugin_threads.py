"""The matmul plugin's own threads (driver/backends/native/team.h): each library call splits
its columns, or attention's heads, among the calling thread and helpers. Run in fresh
processes, where MLC_PLUGIN_THREADS sets the number of threads before the plugin starts
them: three threads on two cores cut columns into uneven blocks, and a block packed
once is found again by its number."""

import os
import subprocess
import sys

import pytest

from mlc.driver.backends import matmul_library

pytestmark = [pytest.mark.iree, pytest.mark.skipif(not matmul_library.available()[0],
                                                   reason="mlc's matmul plugin cannot be built here")]

SPLIT = """
import torch, mlc
torch.manual_seed(0)
ON = {"matmul-library": True}

class Block(torch.nn.Module):
    '''A linear layer with GELU, one with a residual, and attention of 5 heads.'''
    def __init__(self):
        super().__init__()
        self.up, self.down = torch.nn.Linear(96, 200), torch.nn.Linear(200, 96)
        self.attention = torch.nn.MultiheadAttention(40, 5, batch_first=True)
    def forward(self, x, y):
        h = x + self.down(torch.nn.functional.gelu(self.up(x)))
        return h, self.attention(y, y, y, need_weights=False)[0]

model = Block().eval()
x, y = torch.randn(64, 96), torch.randn(3, 50, 40)
with torch.no_grad():
    expected = model(x, y)
for precision, tolerance in (("f32", 1e-4), ("bf16", 3e-2)):
    compiled = mlc.compile(model, (x, y), precision=precision, target_options=ON)
    kinds = compiled.report["dispatches by kind"]
    assert kinds["library matmuls"] >= 2 and kinds["library attention"] == 1, kinds
    for call in range(3):  # the first packs each block, the others find it
        for got, want in zip(compiled(x, y), expected):
            error = float((torch.as_tensor(got) - want).norm() / want.norm())
            assert error < tolerance, (precision, call, error)
print("ok", compiled.report["runtime driver"])
"""

FORK = """
import os, torch, mlc
torch.manual_seed(0)
model, x = torch.nn.Sequential(torch.nn.Linear(64, 512), torch.nn.GELU(), torch.nn.Linear(512, 64)).eval(), torch.randn(32, 64)
compiled = mlc.compile(model, (x,), target_options={"matmul-library": True})
with torch.no_grad():
    expected = model(x)
torch.testing.assert_close(compiled(x), expected, rtol=1e-4, atol=1e-4)  # the parent's helpers start
child = os.fork()
if child == 0:  # the helpers did not come across: the child starts its own
    try:
        for _ in range(3):
            torch.testing.assert_close(compiled(x), expected, rtol=1e-4, atol=1e-4)
        os._exit(0)
    except BaseException:
        os._exit(1)
_, status = os.waitpid(child, 0)
torch.testing.assert_close(compiled(x), expected, rtol=1e-4, atol=1e-4)
print("child", os.waitstatus_to_exitcode(status))
"""


def run(script: str, **env) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=600,
                          env={**os.environ, **env})


@pytest.mark.parametrize("threads", ["1", "3"])
def test_calls_split_among_threads_match_eager(threads):
    """One thread: every call whole on the caller. Three: f32 and bf16 columns of 200 in
    blocks of 80, 80 and 40 (bias, GELU and residual offset with each), packed weights
    keyed per block, and 3 x 5 heads of attention shared out."""
    done = run(SPLIT, MLC_PLUGIN_THREADS=threads)
    assert done.returncode == 0 and done.stdout.startswith("ok"), done.stdout + done.stderr[-3000:]
    assert done.stdout.split()[1] == "local-sync"  # everything heavy is on the library


def test_a_forked_child_starts_helpers_of_its_own():
    done = run(FORK)
    assert done.returncode == 0 and "child 0" in done.stdout, done.stdout + done.stderr[-3000:]


def test_plugin_threads_mirror_the_plugin(monkeypatch):
    """The compiler's view of the split (a bf16 row's block for the row kernel) reads the
    same setting as the plugin."""
    monkeypatch.setenv("MLC_PLUGIN_THREADS", "3")
    assert matmul_library.plugin_threads() == 3
    monkeypatch.setenv("MLC_PLUGIN_THREADS", "0")
    assert matmul_library.plugin_threads() == len(os.sched_getaffinity(0))
