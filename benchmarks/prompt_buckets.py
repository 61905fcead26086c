"""What a generator's prompt buckets cost and save: per `prompt_buckets` setting, the
prefill executables compiled for a set of prompt lengths, their compile time, the
process's memory after them, and each length's time to first token.

    .venv/bin/python benchmarks/prompt_buckets.py [--model gpt2] [--precision int8]
                                                 [--lengths 9,17,24,32] [--capacity 96]
                                                 [--buckets exact,powers-of-two] [--rounds 7]

Each setting runs in a process of its own with an empty executable cache of its own, so
that neither one's compiles nor its memory reach the other's. "first token" is the median
of `--rounds` calls of `generate(prompt, 1)` per length, after one untimed call; "RSS" is
the process's resident memory after every executable was loaded and called (it counts
the model, torch and the compilers too: compare the settings' rows with each other).
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


def resident_mib() -> float:
    return int(Path("/proc/self/statm").read_text().split()[1]) * os.sysconf("SC_PAGESIZE") / 2**20


def measure(args) -> dict:
    """One setting's row, in this process."""
    import mlc

    model = language_models.build(args.model)
    generator = mlc.generator(model, max_cache_len=args.capacity, precision=args.precision,
                              prompt_buckets=args.buckets)
    generator.compiled(1)
    lengths = [int(n) for n in args.lengths.split(",")]
    start = time.perf_counter()
    for length in lengths:
        generator.compiled(generator.prompt_bucket(length), prompt=True)
    compile_seconds = time.perf_counter() - start
    first_token = {}
    for length in lengths:
        prompt = torch.randint(1, model.config.vocab_size, (1, length), generator=torch.Generator().manual_seed(length))
        generator.generate(prompt, 1)
        times = []
        for _ in range(args.rounds):
            generator.generate(prompt, 1)
            times.append(generator.timings.first_token * 1e3)
        first_token[length] = statistics.median(times)
    prefills = sorted(key[1] for key in generator._compiled if key[3])
    return {"buckets": args.buckets, "prefills": prefills, "compile s": compile_seconds,
            "rss MiB": resident_mib(), "first token ms": first_token}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--model", default="gpt2")
    parser.add_argument("--precision", default="int8")
    parser.add_argument("--lengths", default="9,17,24,32")
    parser.add_argument("--capacity", type=int, default=96)
    parser.add_argument("--buckets", default="exact,powers-of-two")
    parser.add_argument("--rounds", type=int, default=7)
    parser.add_argument("--one", action="store_true", help=argparse.SUPPRESS)  # a child: one setting, JSON out
    args = parser.parse_args()
    if args.one:
        print(json.dumps(measure(args)))
        return
    rows = []
    for buckets in args.buckets.split(","):
        with tempfile.TemporaryDirectory(prefix="mlc-buckets-") as cache:
            command = [sys.executable, __file__, "--one", "--model", args.model, "--precision", args.precision,
                       "--lengths", args.lengths, "--capacity", str(args.capacity), "--buckets", buckets,
                       "--rounds", str(args.rounds)]
            done = subprocess.run(command, capture_output=True, text=True, env={**os.environ, "MLC_CACHE_DIR": cache})
            if done.returncode != 0:
                sys.exit(f"{buckets}: {done.stderr.strip().splitlines()[-1] if done.stderr.strip() else done.returncode}")
            rows.append(json.loads(done.stdout.strip().splitlines()[-1]))
    command, cpu, _, versions, _ = machine()
    print("\n".join([command, cpu, versions]))
    print(f"{args.model} {args.precision}, capacity {args.capacity}, prompts of {args.lengths} tokens")
    print("| prompt_buckets | prefills | compile s | RSS MiB | first token ms (per prompt length) |")
    print("| --- | --- | ---: | ---: | --- |")
    for row in rows:
        firsts = " / ".join(f"{ms:.1f}" for ms in row["first token ms"].values())
        print(f"| {row['buckets']} | {', '.join(map(str, row['prefills']))} | {row['compile s']:.0f} | "
              f"{row['rss MiB']:.0f} | {firsts} |")


if __name__ == "__main__":
    main()
