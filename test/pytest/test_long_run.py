"""Long runs: a compiled model called 10,000 times at alternating dynamic sizes keeps
its resident memory flat after warm-up, and its results right (issue 23, item 5). Slow:
marked `models`, so `make test-models` runs it."""

import time

import pytest
import torch
from torch.export import Dim

import mlc
import models  # examples/models.py, on the path through conftest.py

CALLS = 10_000
BATCHES = (2, 3, 4, 5, 8)
# What a leak would show: 1 MB per 1,000 calls is 10 MB over the run, where the
# measured slope is 0.008 MB per 1,000 calls (README, Reliability).
SLOPE_LIMIT_MB = 1.0


def resident_mb() -> float:
    with open("/proc/self/status") as status:
        kib = next(int(line.split()[1]) for line in status if line.startswith("VmRSS:"))
    return kib / 1024


@pytest.mark.iree
@pytest.mark.models
def test_ten_thousand_calls_at_dynamic_sizes_keep_memory_flat():
    model = models.make_transformer_block()
    compiled = mlc.compile(model, (torch.randn(2, 16, 128),), dynamic_shapes=({0: Dim("batch", max=8)},))
    inputs = {batch: torch.randn(batch, 16, 128) for batch in BATCHES}
    with torch.no_grad():
        expected = {batch: model(x) for batch, x in inputs.items()}
    samples, latencies = {}, []
    for call in range(CALLS):
        batch = BATCHES[call % len(BATCHES)]
        start = time.perf_counter()
        result = compiled(inputs[batch])
        latencies.append(time.perf_counter() - start)
        if call % 997 == 0:  # every batch size, now and then
            torch.testing.assert_close(result, expected[batch], rtol=1e-4, atol=1e-4)
        if call + 1 in (1_000, CALLS):
            samples[call + 1] = resident_mb()
    slope = (samples[CALLS] - samples[1_000]) / ((CALLS - 1_000) / 1_000)
    assert slope < SLOPE_LIMIT_MB, f"resident memory grew {slope:.3f} MB per 1,000 calls ({samples})"
    early, late = sorted(latencies[1_000:2_000]), sorted(latencies[-1_000:])
    assert late[len(late) // 2] < 2 * early[len(early) // 2], "the median call got more than 2x slower"
