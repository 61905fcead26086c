"""mlc's tiles for IREE's direct convolutions (mlc-conv-tiles) against IREE's own, and eager,
on a CPU with AVX2 but not AVX-512, or this one held to AVX2.

    .venv/bin/python benchmarks/conv_tiles.py [--models cnn,resnet18,resnet50] [--cpu x86-64-v3] [--rounds N]

With `--cpu x86-64-v3` on a machine with AVX-512, IREE compiles for AVX2 and eager is held
to AVX2 too (ATEN_CPU_CAPABILITY=avx2, ONEDNN_MAX_CPU_ISA=AVX2, MKL_ENABLE_INSTRUCTIONS=AVX2,
set before torch loads): an AVX2 machine's instructions, not its caches or memory. Each
variant is checked against eager once, then all are timed interleaved by compare.py's
time_blocks (blocks of 3 calls, each begun by uncounted calls); medians in ms.
"""

import argparse
import os
import sys
from pathlib import Path


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--models", default="cnn,resnet18,resnet50")
    parser.add_argument("--cpu", default="host", help="the LLVM CPU to compile for (x86-64-v3: AVX2)")
    parser.add_argument("--rounds", type=int, default=10)
    arguments = parser.parse_args()
    if arguments.cpu != "host":
        os.environ.update(ATEN_CPU_CAPABILITY="avx2", ONEDNN_MAX_CPU_ISA="AVX2", MKL_ENABLE_INSTRUCTIONS="AVX2")

    import torch

    import mlc
    from mlc.driver.backends import cpu_instructions

    sys.path.insert(0, str(Path(__file__).resolve().parent))
    from compare import load, machine, ms, print_grid, time_blocks

    options = {"cpu": arguments.cpu}
    if not cpu_instructions.avx2_without_avx512(options):
        parser.error(f"cpu {arguments.cpu!r} has AVX-512 (or is not x86): mlc-conv-tiles leaves it to IREE")
    print("\n".join(machine()), f"\nIREE compiles for: {arguments.cpu}; eager: {torch.backends.cpu.get_cpu_capability()}\n")
    table = [["model", "ms eager", "ms mlc, IREE's tiles", "ms mlc, mlc-conv-tiles", "mlc-conv-tiles / IREE's",
              "convolutions tiled"]]
    for name in arguments.models.split(","):
        model, inputs = load(name)  # compare.py's models, seeded
        tiled = mlc.compile(model, inputs, target_options=options)
        chosen = cpu_instructions.avx2_without_avx512
        cpu_instructions.avx2_without_avx512 = lambda options: False  # the pass left out: IREE's own tiles
        try:
            untiled = mlc.compile(model, inputs, target_options=options)
        finally:
            cpu_instructions.avx2_without_avx512 = chosen
        with torch.inference_mode():
            expected = model(*inputs)
            for variant, compiled in (("IREE's tiles", untiled), ("mlc-conv-tiles", tiled)):  # as test_architectures
                error = (torch.as_tensor(compiled(*inputs)) - expected).abs().max() / expected.abs().max()
                if error > 1e-4:
                    sys.exit(f"{name}: {variant}: relative error {error:.2e} against eager")
        median = time_blocks({"eager": model, "IREE's tiles": untiled, "mlc-conv-tiles": tiled}, inputs,
                             arguments.rounds, 3)
        count = tiled.report.pass_statistic("mlc-conv-tiles", "convolutions tiled for AVX2") or 0
        ratio = median["mlc-conv-tiles"] / median["IREE's tiles"]
        table.append([name, ms(median["eager"]), ms(median["IREE's tiles"]), ms(median["mlc-conv-tiles"]),
                      f"{ratio:.2f}", str(count)])
    print_grid(table, markdown=True)


if __name__ == "__main__":
    main()
