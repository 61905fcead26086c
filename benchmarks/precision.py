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
"mlc / best" divides mlc's latency by the fastest peer's at the same precision. "kernels"
is what mlc's executable code uses for its matmuls (driver/backends/cpu_instructions.py),
and how many matmul shapes run on each kernel of the matmul plugin (MKL's, or mlc's own
VNNI, AVX-512-BF16, AVX-512 f32 and AMX kernels: matmul_choice.kernels).
"""

import argparse
import math
import os
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
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
        cells += [f"{ratio:.2f}", kernels(result["facts"].get(mine, {}))]
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
    for line in machine():
        print(f"- {line}" if args.markdown else line)
    header = ["model", "precision", "mlc ms", "eager ms", "torch.compile ms", "eager bf16 matmuls ms",
              "mlc / best peer", "kernels (mlc)"]
    table = [header] + [row for result in results for row in rows_of(result, precisions)]
    print()
    print_grid(table, args.markdown)
    for result in results:
        for variant, text in result["failures"].items():
            print(f"{result['model']}, {variant} fails: {text}")
    print(f"CPU: {cpu()[0]}; load average {os.getloadavg()[0]:.2f} at the end; latencies are medians in ms.")


if __name__ == "__main__":
    main()
