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


# A C program on the plugin's own source: the team started by a thread named and pinned as
# IREE's task workers are (one core each), as an attention's one workgroup calls it.
PINNED_WORKER = r"""
#include "mlc_matmul.c" /* first: it defines _GNU_SOURCE */
#include <stdio.h>

static _Atomic int parts_on_helpers;
static pthread_t caller;

static void part(void* job, size_t index, size_t parts) {
  (void)job, (void)index, (void)parts;
  if (!pthread_equal(pthread_self(), caller)) atomic_fetch_add(&parts_on_helpers, 1);
  const uint64_t until = now_ns() + 2000000; /* 2 ms of work: time for a helper to wake */
  while (now_ns() < until) __builtin_ia32_pause();
}

static void* worker(void* unused) {
  (void)unused;
  caller = pthread_self();
  cpu_set_t one;
  CPU_ZERO(&one);
  CPU_SET(sched_getcpu(), &one);
  pthread_setaffinity_np(caller, sizeof one, &one);
  pthread_setname_np(caller, "iree-worker-0");
  printf("%zu threads, ", team_threads());
  team_run(part, NULL, 8);
  printf("%d parts on helpers, ", atomic_load(&parts_on_helpers));
  return NULL;
}

int main(void) {
  pthread_t thread;
  pthread_create(&thread, NULL, worker, NULL);
  pthread_join(thread, NULL);
  printf("%d from a worker\n", atomic_load(&team.from_worker));
  return 0;
}
"""


def test_a_team_started_on_a_pinned_task_worker_has_the_processs_helpers(tmp_path):
    """IREE pins each task worker to one core, and an attention's one workgroup calls the
    plugin from one: the team takes the process's CPUs, not the caller's, so the heads are
    shared (before, no helper started: a ViT-B/16 layer's attention took 1.7 ms on
    local-task against 0.85 on local-sync, AMD EPYC), and the call is marked as a worker's,
    after which the helpers sleep at once."""
    include, libraries, compiler = matmul_library._tools()
    source, program = tmp_path / "pinned_worker.c", tmp_path / "pinned_worker"
    source.write_text(PINNED_WORKER)
    subprocess.run([compiler, "-O2", f"-I{matmul_library.NATIVE}", f"-I{include}", str(source), "-o", str(program),
                    *map(str, libraries), f"-Wl,-rpath,{libraries[0].parent}", "-lm", "-lpthread"], check=True)
    unset = {key: value for key, value in os.environ.items() if key != "MLC_PLUGIN_THREADS"}
    printed = subprocess.run([str(program)], capture_output=True, text=True, check=True, timeout=60,
                             env=unset).stdout.strip()
    cpus = len(os.sched_getaffinity(0))
    assert printed.startswith(f"{cpus} threads, ") and printed.endswith("1 from a worker"), printed
    if cpus > 1:
        assert int(printed.split(", ")[1].split()[0]) > 0, printed
