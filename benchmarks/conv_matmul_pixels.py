"""mlc O2 with mlc-conv-to-matmul's max-pixels at several values, against eager, timed
interleaved in one process: the measurement behind llvm-cpu's per-CPU choice
(driver/backends/cpu_instructions.py, conv_matmul_pixels).

    .venv/bin/python benchmarks/conv_matmul_pixels.py --model resnet18 --pixels 256,1024,3136
"""

import argparse

import compare  # benchmarks/, beside this file
import torch

import mlc
from mlc import pipelines


def o2(max_pixels: int) -> pipelines.Pipeline:
    pipeline = pipelines.get("O2")
    pipeline.passes = [f"mlc-conv-to-matmul{{max-pixels={max_pixels}}}" if p == "mlc-conv-to-matmul" else p
                       for p in pipeline.passes]
    return pipeline


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--model", default="resnet18", help="a model of compare.py (default resnet18)")
    parser.add_argument("--pixels", default="256,1024", help="comma-separated max-pixels values")
    parser.add_argument("--rounds", type=int, default=7)
    parser.add_argument("--block", type=int, default=3)
    args = parser.parse_args()
    print("\n".join(compare.machine()))
    model, inputs = compare.load(args.model)
    functions = {"eager": model}
    with torch.inference_mode():
        expected = model(*inputs)
    for pixels in map(int, args.pixels.split(",")):
        compiled = mlc.compile(model, inputs, target="llvm-cpu", pipeline=o2(pixels))
        with torch.inference_mode():
            error = (compiled(*inputs) - expected).abs().max().item()
        chosen = compiled.report.get("matmul library", {})
        print(f"max-pixels {pixels}: {compiled.report['dispatches']} dispatches, matmul shapes on library / IREE "
              f"{len(chosen.get('library', []))} / {len(chosen.get('iree', []))}, max error {error:.1e}", flush=True)
        functions[f"max-pixels {pixels}"] = compiled
    for name, ms in compare.time_blocks(functions, inputs, args.rounds, args.block).items():
        print(f"{name:18s} {ms:9.2f} ms")


if __name__ == "__main__":
    main()
