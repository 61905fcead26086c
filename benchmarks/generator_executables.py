"""What a generator's executables cost: per setting of `prompt_buckets` and of where the
weights live, the prefill executables compiled for a set of prompt lengths, their compile
time, the process's memory after them, each length's time to first token, and the decode
step's time per token.

    .venv/bin/python benchmarks/generator_executables.py [--model gpt2] [--precision int8]
        [--lengths 9,17,24,32] [--capacity 96] [--buckets exact,powers-of-two]
        [--weights store,inside] [--rounds 7]

`--weights store` is the generator's default: its executables share one WeightStore, each
weight held once; `inside` keeps every weight inside each executable
(`external_params=False`). Each setting runs in a process of its own with an empty
executable cache of its own (holding only mlc's matmul plugin, built once), so that
neither one's compiles nor its memory reach the other's. "first token" is the median of
`--rounds` calls of `generate(prompt, 1)` per length, after one untimed call; "per token"
the median of `--rounds` calls of `generate(prompt, 32)` from the shortest prompt. "PSS" is the process's proportional set
size after every executable was loaded and called: each page it maps counted once, however
many mappings share it (the store's archives are mapped by each executable), while "RSS"
counts a page once per mapping. Both count the model, torch and the compilers too: compare
the settings' rows with each other.
"""

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import torch

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "examples"))
sys.path.insert(0, str(Path(__file__).resolve().parent))
import language_models  # noqa: E402
from compare import machine  # noqa: E402

from mlc.driver.backends import matmul_library  # noqa: E402

NEW_TOKENS = 32


def memory_mib() -> dict:
    """The process's RSS and PSS (/proc/self/smaps_rollup), in MiB."""
    fields = dict(line.split(":", 1) for line in Path("/proc/self/smaps_rollup").read_text().splitlines()[1:])
    return {name: int(fields[name].split()[0]) / 1024 for name in ("Rss", "Pss")}


def measure(args) -> dict:
    """One setting's row, in this process."""
    import mlc

    model = language_models.build(args.model)
    generator = mlc.generator(model, max_cache_len=args.capacity, precision=args.precision,
                              prompt_buckets=args.buckets, **({"external_params": False} if args.weights == "inside" else {}))
    generator.compiled(1)
    lengths = [int(n) for n in args.lengths.split(",")]
    start = time.perf_counter()
    for length in lengths:
        generator.compiled(generator.prompt_bucket(length), prompt=True)
    compile_seconds = time.perf_counter() - start
    first_token, prompts = {}, {}
    for length in lengths:
        prompts[length] = torch.randint(1, model.config.vocab_size, (1, length),
                                        generator=torch.Generator().manual_seed(length))
        generator.generate(prompts[length], 1)
        times = []
        for _ in range(args.rounds):
            generator.generate(prompts[length], 1)
            times.append(generator.timings.first_token * 1e3)
        first_token[length] = statistics.median(times)
    per_token = []
    for _ in range(args.rounds):
        generator.generate(prompts[min(lengths)], NEW_TOKENS, stop_at_eos=False)
        per_token.append(generator.timings.per_token * 1e3)
    prefills = sorted(key[1] for key in generator._compiled if key[3])
    return {"buckets": args.buckets, "weights": args.weights, "prefills": prefills, "compile s": compile_seconds,
            **memory_mib(), "first token ms": first_token, "per token ms": statistics.median(per_token)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--model", default="gpt2")
    parser.add_argument("--precision", default="int8")
    parser.add_argument("--lengths", default="9,17,24,32")
    parser.add_argument("--capacity", type=int, default=96)
    parser.add_argument("--buckets", default="exact,powers-of-two")
    parser.add_argument("--weights", default="store,inside")
    parser.add_argument("--rounds", type=int, default=7)
    parser.add_argument("--one", action="store_true", help=argparse.SUPPRESS)  # a child: one setting, JSON out
    args = parser.parse_args()
    if args.one:
        print(json.dumps(measure(args)))
        return
    rows = []
    for buckets in args.buckets.split(","):
        for weights in args.weights.split(","):
            with tempfile.TemporaryDirectory(prefix="mlc-generator-") as cache:
                matmul_library.share_plugin(Path(cache))  # built once, not in each child
                command = [sys.executable, __file__, "--one", "--model", args.model, "--precision", args.precision,
                           "--lengths", args.lengths, "--capacity", str(args.capacity), "--buckets", buckets,
                           "--weights", weights, "--rounds", str(args.rounds)]
                done = subprocess.run(command, capture_output=True, text=True,
                                      env={**os.environ, "MLC_CACHE_DIR": cache})
                if done.returncode != 0:
                    lines = done.stderr.strip().splitlines()
                    sys.exit(f"{buckets}, weights {weights}: {lines[-1] if lines else done.returncode}")
                rows.append(json.loads(done.stdout.strip().splitlines()[-1]))
    command, cpu, _, versions, _ = machine()
    print("\n".join([command, cpu, versions]))
    print(f"{args.model} {args.precision}, capacity {args.capacity}, prompts of {args.lengths} tokens")
    print("| prompt_buckets | weights | prefills | compile s | PSS MiB | RSS MiB | first token ms (per prompt length) "
          "| ms per token |")
    print("| --- | --- | --- | ---: | ---: | ---: | --- | ---: |")
    for row in rows:
        firsts = " / ".join(f"{ms:.1f}" for ms in row["first token ms"].values())
        print(f"| {row['buckets']} | {row['weights']} | {', '.join(map(str, row['prefills']))} | "
              f"{row['compile s']:.0f} | {row['Pss']:.0f} | {row['Rss']:.0f} | {firsts} | {row['per token ms']:.2f} |")


if __name__ == "__main__":
    main()
