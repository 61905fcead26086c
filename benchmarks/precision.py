"""mlc at each precision against PyTorch at the same precision, one table.

    .venv/bin/python benchmarks/precision.py [--models bert_base,vit_b_16,gpt2] [--precisions f32,bf16,int8]
                                             [--rounds 5] [--markdown]

Per model, every variant of every precision is built, checked and timed in one run by
compare.py's `benchmark` (interleaved blocks, medians; f32 variants against eager within
f32's tolerance, bf16 within 2 % and int8 within 5 % relative error of f32 eager):
    f32     mlc O2, eager, torch.compile
    bf16    mlc O2 bf16, eager and torch.compile under torch.autocast("cpu", torch.bfloat16),
            f32 eager with oneDNN's matmuls in bf16 (torch.backends.mkldnn.matmul.fp32_precision)
    int8    mlc O2 int8, eager with torch.ao.quantization.quantize_dynamic (nn.Linear, qint8),
            torch.compile of torchao's PT2E with X86InductorQuantizer (static int8, oneDNN)
"mlc / best" divides mlc's latency by the fastest peer's at the same precision. "GFLOP/s"
is the model's FLOPs (torch's FlopCounterMode) over mlc's latency, and "0.8x needs" what
issue 24's goal (at most 0.8x the best peer) asks: set beside the f32 GEMM rate printed
above the table (torch.mm of 2048x2048, MKL on every thread), a goal over it at f32 asks
the whole model to run faster than MKL's GEMM at its best. "kernels"
is what mlc's executable code uses for its matmuls (driver/backends/cpu_instructions.py),
and how many matmul shapes run on each kernel of the matmul plugin (MKL's, or mlc's own
VNNI, AVX-512-BF16, AVX-512 f32 and AMX kernels: matmul_choice.kernels).
"""

import argparse
import math
import os
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import torch  # noqa: E402
from compare import benchmark, cpu, log, machine, ms, print_grid, warm_up_compilers  # noqa: E402

VARIANTS = {
    "f32": ("mlc O2", ["eager", "torch.compile"]),
    "bf16": ("mlc O2 bf16", ["eager bf16", "torch.compile bf16", "eager bf16 matmuls"]),
    "int8": ("mlc O2 int8", ["eager int8", "torch.compile int8"]),
}
PEER_COLUMNS = 3  # eager, torch.compile, eager with bf16 matmuls (bf16 only)


def kernels(facts: dict) -> str:
    used = [kind for kind, count in facts.get("kernels", {}).items() if count]
    used += [f"{kernel} ({count} shapes)" for kernel, count in facts.get("library kernels", {}).items()]
    return ", ".join(used)


def f32_gemm_gflops(size: int = 2048, calls: int = 5) -> float:
    """The best f32 GEMM rate of this machine: torch.mm of two size x size matrices (MKL,
    every thread), the fastest of `calls`."""
    a, b = torch.randn(size, size), torch.randn(size, size)
    torch.mm(a, b)
    fastest = math.inf
    for _ in range(calls):
        begin = time.perf_counter()
        torch.mm(a, b)
        fastest = min(fastest, time.perf_counter() - begin)
    return 2 * size**3 / fastest / 1e9


def gflops(flops: int, milliseconds: float) -> str:
    return f"{flops / milliseconds / 1e6:.0f}"


def rows_of(result: dict, precisions: list[str]) -> list[list[str]]:
    rows = []
    for precision in precisions:
        mine, peers = VARIANTS[precision]
        latency = result["latency"]
        cells = [result["model"], precision, ms(latency[mine]) if mine in latency else "fails"]
        cells += [ms(latency[p]) if p in latency else "fails" for p in peers]
        cells += [""] * (PEER_COLUMNS - len(peers))
        timed = [latency[p] for p in peers if p in latency]
        ratio = latency[mine] / min(timed) if timed and mine in latency else math.nan
        cells += [f"{ratio:.2f}", gflops(result["flops"], latency[mine]) if mine in latency else "",
                  gflops(result["flops"], 0.8 * min(timed)) if timed else "", kernels(result["facts"].get(mine, {}))]
        rows.append(cells)
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--models", default="bert_base,vit_b_16,gpt2")
    parser.add_argument("--precisions", default="f32,bf16,int8")
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--block", type=int, default=2, help="counted calls per variant per round (default 2)")
    parser.add_argument("--markdown", action="store_true")
    args = parser.parse_args()
    precisions = args.precisions.split(",")
    variants = [v for p in precisions for v in (VARIANTS[p][0], *VARIANTS[p][1])]
    log("warming up mlc and torch.compile")
    warm_up_compilers()
    results = [benchmark(name, variants, args.rounds, args.block) for name in args.models.split(",")]
    for line in machine() + [f"f32 GEMM rate: {f32_gemm_gflops():.0f} GFLOP/s (torch.mm 2048x2048, every thread)"]:
        print(f"- {line}" if args.markdown else line)
    header = ["model", "precision", "mlc ms", "eager ms", "torch.compile ms", "eager bf16 matmuls ms",
              "mlc / best peer", "GFLOP/s", "0.8x needs", "kernels (mlc)"]
    table = [header] + [row for result in results for row in rows_of(result, precisions)]
    print()
    print_grid(table, args.markdown)
    for result in results:
        for variant, text in result["failures"].items():
            print(f"{result['model']}, {variant} fails: {text}")
    print(f"CPU: {cpu()[0]}; load average {os.getloadavg()[0]:.2f} at the end; latencies are medians in ms.")


if __name__ == "__main__":
    main()
