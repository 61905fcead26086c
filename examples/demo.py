"""`make demo`: compile a bundled model with mlc for the CPU, run it, and compare
it with PyTorch eager: maximum error, and median latency of each, interleaved."""

import statistics
import sys
import time
from pathlib import Path

import torch

sys.path.insert(0, str(Path(__file__).parent))
import mlc  # noqa: E402
import models  # noqa: E402


def median_latency_ms(functions: dict, args, rounds: int = 20, block: int = 4) -> dict:
    """Runs the functions in turn, `rounds` rounds, so drift hits all alike; each runs a
    block of calls of which the first is not counted (it pays for the other's threads)."""
    times = {name: [] for name in functions}
    for _ in range(rounds):
        for name, function in functions.items():
            for call in range(block):
                start = time.perf_counter()
                function(*args)
                if call:
                    times[name].append((time.perf_counter() - start) * 1e3)
    return {name: statistics.median(samples) for name, samples in times.items()}


def main(name: str = "transformer_block") -> None:
    torch.manual_seed(0)
    model = models.FACTORIES[name]()
    inputs = tuple(torch.randn(shape) for shape in models.EXAMPLE_INPUTS[name])
    print(f"model: {name} {type(model).__name__}, inputs {[list(x.shape) for x in inputs]}")

    start = time.perf_counter()
    compiled = mlc.compile(model, inputs, target="llvm-cpu")
    print(f"compiled with mlc for llvm-cpu in {time.perf_counter() - start:.2f} s "
          f"({len(compiled.vmfb) / 1024:.0f} KiB .vmfb; executable cache: {compiled.report['executable cache']})")
    ops = compiled.report["ops"]
    kinds = compiled.report["dispatches by kind"]
    plugin_calls = kinds["library matmuls"] + kinds["library attention"] + kinds["library layer norms"]
    print(f"mlc graph: {ops['after import']['mlc ops']} ops after import, {ops['after optimization']['mlc ops']} after "
          f"{compiled.report['pipeline']}, in {ops['after optimization']['fusion groups']} fusion groups; "
          f"the executable issues {compiled.report['dispatches']} dispatches per call ({kinds['mlc dispatch regions']} "
          f"fusion groups, {plugin_calls} calls of mlc's plugin, {kinds['data-tiling packs']} data-tiling packs, "
          f"{kinds['formed by IREE']} others)")

    with torch.no_grad():
        expected = model(*inputs)
        actual = compiled(*inputs)
        error = (actual - expected).abs().max().item()
        print(f"max |mlc - eager| = {error:.2e}")
        with torch.inference_mode():
            latency = median_latency_ms({"PyTorch eager": model, "mlc (IREE llvm-cpu)": compiled}, inputs)
    for label, milliseconds in latency.items():
        print(f"median latency  {label:<22} {milliseconds:8.3f} ms")
    print(f"ratio eager / mlc: {latency['PyTorch eager'] / latency['mlc (IREE llvm-cpu)']:.2f}x")
    if error > 1e-4 * max(1.0, expected.abs().max().item()):
        sys.exit(f"error {error} exceeds the float32 tolerance")


if __name__ == "__main__":
    main(*sys.argv[1:])
