"""A decode step's read rate next to the bandwidth probe's, alternated in one process.

    .venv/bin/python benchmarks/step_against_probe.py [--model gpt2] [--precision f32]
                                                      [--windows 8] [--tokens 33] [--markdown]

generate.py divides a step's bytes by the probe's best or median read. On a virtual
machine the probe's rate swings (an AMD EPYC read 31-35 GB/s, then 56-59, seconds apart),
so a ratio to a limit read minutes away says little. This alternates them: per window,
three probe reads, three timed `generate`s of `--tokens` new tokens and three of one
(medians; the first token's time taken off, as generate.py does), three probe reads. The
step's rate is the bytes one step reads (generate.py's `bytes_per_token`) over its time
per token. A step that reads what the probe reads in the same window is at the machine's
limit; one that reads less in every window is not.
"""

import argparse
import statistics
import sys
import time
from pathlib import Path

import torch

import mlc

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "examples"))
sys.path.insert(0, str(Path(__file__).resolve().parent))
import language_models  # noqa: E402
from compare import cpu, print_grid  # noqa: E402
from generate import bytes_per_token, read_bandwidths  # noqa: E402


def step_seconds(generator, prompt, tokens: int, repeats: int = 3) -> float:
    """Seconds per token after the first: the median generate of `tokens` less the median
    generate of a single token, over `repeats` of each."""
    def median_seconds(count: int) -> float:
        times = []
        for _ in range(repeats):
            start = time.perf_counter()
            generator.generate(prompt, count, stop_at_eos=False)
            times.append(time.perf_counter() - start)
        return statistics.median(times)

    first = median_seconds(1)
    return (median_seconds(tokens) - first) / (tokens - 1)


def _span(rates: list[float]) -> str:
    return f"{min(rates) / 1e9:.1f}-{max(rates) / 1e9:.1f}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--model", default="gpt2")
    parser.add_argument("--precision", default="f32", choices=["f32", "bf16", "int8"])
    parser.add_argument("--windows", type=int, default=8)
    parser.add_argument("--tokens", type=int, default=33, help="new tokens per timed generate")
    parser.add_argument("--prompt", type=int, default=32)
    parser.add_argument("--markdown", action="store_true")
    args = parser.parse_args()
    if args.tokens < 2 or args.windows < 1:
        parser.error("--tokens must be at least 2 and --windows at least 1")
    model = language_models.build(args.model)
    prompt = torch.randint(0, model.config.vocab_size, (1, args.prompt), generator=torch.Generator().manual_seed(0))
    generator = mlc.generator(model, max_cache_len=args.prompt + args.tokens, precision=args.precision)
    generator.generate(prompt, args.tokens, stop_at_eos=False)  # compiles and warms
    step_bytes = bytes_per_token(model, args.precision)
    lines = [["window", "probe before GB/s", "step ms / token", "step GB/s", "probe after GB/s",
              "step / probe's slowest"]]
    for window in range(args.windows):
        before = read_bandwidths(repeats=3)
        seconds = step_seconds(generator, prompt, args.tokens)
        after = read_bandwidths(repeats=3)
        step_rate = step_bytes / seconds
        lines.append([str(window + 1), _span(before), f"{seconds * 1e3:.2f}", f"{step_rate / 1e9:.1f}",
                      _span(after), f"{step_rate / min(before + after):.2f}"])
    print(f"{args.model} {args.precision}: {step_bytes / 1e6:.0f} MB a step; CPU: {cpu()[0]}; "
          f"{torch.get_num_threads()} threads; median step {statistics.median(float(row[2]) for row in lines[1:]):.2f} ms")
    print_grid(lines, args.markdown)


if __name__ == "__main__":
    main()
