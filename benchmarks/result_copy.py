"""What a call pays to hand its results out: copied out of IREE's buffers, or with the
buffers kept alive by the arrays (driver/backends/iree.py, `host_result`).

The hand-out is timed alone, on the results of one call (a whole call's time varies by
more than the hand-out costs), both ways interleaved in one process, beside the median
time of a whole call: the MLP of compare.py (64x512 -> 2048 -> 512) and BERT-base
(1x128 tokens). Run:
    .venv/bin/python benchmarks/result_copy.py
"""

import argparse
import math
import platform
import statistics
import sys
import time
from pathlib import Path

import torch

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "examples"))

import zoo  # noqa: E402

import mlc  # noqa: E402
import models  # noqa: E402
from mlc.driver.backends import iree as iree_backend  # noqa: E402

WAYS = {"copied (every result)": math.inf, "kept (results >= 16 KiB)": iree_backend.COPY_RESULTS_BELOW}


def _cpu() -> str:
    for line in Path("/proc/cpuinfo").read_text().splitlines():
        if line.startswith("model name"):
            return line.split(":", 1)[1].strip()
    return platform.processor()


def hand_out(results, repeats: int = 2000) -> dict[str, float]:
    """Median microseconds to hand out one call's results, each way, in interleaved blocks."""
    times = {way: [] for way in WAYS}
    for _ in range(repeats // 100):
        for way, threshold in WAYS.items():
            iree_backend.COPY_RESULTS_BELOW = threshold
            start = time.perf_counter()
            for _ in range(100):
                [iree_backend.host_result(result) for result in results]
            times[way].append((time.perf_counter() - start) / 100 * 1e6)
    iree_backend.COPY_RESULTS_BELOW = WAYS["kept (results >= 16 KiB)"]
    return {way: statistics.median(values) for way, values in times.items()}


def call_ms(compiled, inputs, calls: int = 20) -> float:
    with torch.no_grad():
        compiled(*inputs)
        times = []
        for _ in range(calls):
            start = time.perf_counter()
            compiled(*inputs)
            times.append((time.perf_counter() - start) * 1e3)
    return statistics.median(times)


def main(argv=None) -> int:
    argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter).parse_args(argv)
    torch.manual_seed(0)
    cases = {"MLP 64x512->2048->512": (models.MLP(512, 2048, 512).eval(), (torch.randn(64, 512),))}
    cases["BERT-base s128"] = zoo.build("bert_base")
    print(f"CPU: {_cpu()}, torch {torch.__version__}")
    print(f"| model | one call | {' | '.join(WAYS)} | saved per call |")
    print("| --- | --- |" + " --- |" * (len(WAYS) + 1))
    for name, (model, inputs) in cases.items():
        compiled = mlc.compile(model, inputs)
        main = iree_backend.load(compiled.artifact, driver=compiled.runtime_driver)
        results = main(*[iree_backend.host_array(x) for x in inputs])
        results = results if isinstance(results, tuple) else (results,)
        copied, kept = hand_out(results).values()
        print(f"| {name} | {call_ms(compiled, inputs):.2f} ms | {copied:.1f} us | {kept:.1f} us | "
              f"{copied - kept:.1f} us |", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
