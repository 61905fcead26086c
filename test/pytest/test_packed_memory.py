"""Packed weights live in 2 MiB pages (driver/backends/native/packed_memory.h): a decode
step streams every weight once, and on 4 KiB pages each page took a TLB miss. Run in a
fresh process, whose huge pages before the first call are the baseline."""

import subprocess
import sys
from pathlib import Path

import pytest

from mlc.driver.backends import matmul_library

TRANSPARENT_HUGE_PAGES = Path("/sys/kernel/mm/transparent_hugepage/enabled")

pytestmark = [
    pytest.mark.iree,
    pytest.mark.skipif(not matmul_library.available()[0], reason="mlc's matmul plugin cannot be built here"),
    pytest.mark.skipif(not TRANSPARENT_HUGE_PAGES.exists() or "[never]" in TRANSPARENT_HUGE_PAGES.read_text(),
                       reason="Linux gives this process no transparent huge pages"),
]

PACKED = """
import re, torch, mlc
torch.manual_seed(0)

def huge_kib():
    return int(re.search(r"AnonHugePages:\\s+(\\d+)", open("/proc/self/smaps_rollup").read()).group(1))

model, x = torch.nn.Linear(1024, 2048).eval(), torch.randn(16, 1024)
compiled = mlc.compile(model, (x,), target_options={"matmul-library": True})
assert compiled.report["dispatches by kind"]["library matmuls"] >= 1, compiled.report["dispatches by kind"]
before = huge_kib()
with torch.no_grad():
    torch.testing.assert_close(compiled(x), model(x), rtol=1e-4, atol=1e-4)  # packs the 8 MB weight
    torch.testing.assert_close(compiled(x), model(x), rtol=1e-4, atol=1e-4)  # finds it packed
print("grew", huge_kib() - before)
"""


def test_a_packed_weight_lies_in_huge_pages():
    done = subprocess.run([sys.executable, "-c", PACKED], capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr[-3000:]
    grew = int(done.stdout.split("grew")[-1])
    assert grew >= 4096, f"AnonHugePages grew by {grew} KiB at the first call"  # the weight's 8 MB, at least half
