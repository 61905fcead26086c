"""Greedy decoding with a key/value cache: mlc.generator against transformers' generate,
at each precision, next to the memory-bandwidth limit.

    .venv/bin/python benchmarks/generate.py [--models gpt2,llama] [--precisions f32,bf16,int8]
                                            [--prompt 32] [--new-tokens 64] [--batch 1] [--rounds 3] [--iree-kernels]
                                            [--max-cache-len N] [--markdown]

Per model (examples/language_models.py: random weights, nothing downloaded) and precision:
    mlc             mlc.generator(model, precision=...): a prefill executable and a decode step
    eager           model.generate, transformers' default (dynamic) cache
    eager static    model.generate(cache_implementation="static")
    torch.compile   model.generate(cache_implementation="static") with model.forward compiled
                    (inductor), f32 only (--torch-compile; its compile takes minutes here)
    mlc, IREE's kernels
                    mlc.generator with target_options={"matmul-library": False}: every
                    matmul on IREE's own kernel, none on mlc's plugin (--iree-kernels; what
                    the plugin's kernels gain)
The peers at bf16 run under torch.autocast("cpu", torch.bfloat16); at int8, with
torch.ao.quantization.quantize_dynamic of the nn.Linear layers (GPT-2's layers are
transformers' Conv1D, which it leaves in f32: only GPT-2's LM head is an nn.Linear).

mlc's cache holds the prompt and the new tokens, as eager's do, unless `--max-cache-len`
sets its capacity: an application compiles one generator for its longest conversation,
and each step's attention reads the cache up to its position only (`zero-masked-tail`).

With `--batch N`, every variant generates for N prompts of the same length at once, and
"tokens / s" counts the tokens of all N sequences: a decode step reads the weights once
for the whole batch.

Every variant generates the same `--new-tokens` greedy tokens (no end-of-text stop). Time
to first token is the median time of a generate call with one new token; ms per token is
(time of the whole generate - time to first token) / (new tokens - 1), medians over
`--rounds`. The tokens of each f32 variant must equal eager's ("tokens" column); a
narrow precision's are compared with f32 eager's as the count of leading tokens that agree.

The limit is the bytes one decode step must read, over this machine's measured memory
bandwidth: every weight a matmul reads, at the precision's element size (the LM head
once, also where it shares the input embedding's tensor), and every 1-D weight (norms,
biases) in f32; embedding rows and the cache are left out (a few MB). The bandwidth is
the best of 5 reads of a 1 GiB tensor in 2 MiB pages by torch on every core (a sum),
read just before and just after each row's timing, the larger of the two (the "GB/s"
column): a virtual machine's memory can change speed within minutes (an AMD EPYC read
27.0 GB/s at one run's start and 51.7 at the next one's, eight minutes later), and a
limit read once for the whole run set some rows below 1 and others near 2. The best read
is the machine's fastest moment, while ms per token is a median over the rounds, so the
table also gives the median of the ten reads and the ratio to the limit at it ("median
GB/s", "/ median limit"): on the same AMD EPYC the reads of half a minute ranged from 28 to
52 GB/s with the 1 GiB all in 2 MiB pages, and the decode steps' kernels, timed beside a
plain read in one process, read what it read. "kernels"
lists what the decode executable's matmul code uses (driver/backends/cpu_instructions.py).
"""

import argparse
import collections
import functools
import mmap
import os
import statistics
import sys
import time
from pathlib import Path

import torch

import mlc
from mlc.driver.backends import cpu_instructions, matmul_choice

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "examples"))
sys.path.insert(0, str(Path(__file__).resolve().parent))
import language_models  # noqa: E402
from compare import cpu, machine, print_grid  # noqa: E402

ELEMENT_BYTES = {"f32": 4, "bf16": 2, "int8": 1}


@functools.cache
def probe(gib: float) -> torch.Tensor:
    """A tensor of `gib` GiB, larger than any cache, made once a run (filling 1 GiB takes
    about 0.6 s, and each row reads the bandwidth twice). It lies in 2 MiB pages, as the
    plugin's packed weights do (native/packed_memory.h): on 4 KiB pages the same sum read
    10-40 % less (AMD EPYC), a limit mlc's decode steps then beat."""
    memory = mmap.mmap(-1, int(gib * 2**30), flags=mmap.MAP_PRIVATE | mmap.MAP_ANONYMOUS)
    memory.madvise(mmap.MADV_HUGEPAGE)
    return torch.frombuffer(memory, dtype=torch.float32).fill_(1)  # the tensor holds the mapping


def read_bandwidths(gib: float = 1.0, repeats: int = 5) -> list[float]:
    """Bytes per second each of `repeats` sums over the probe's tensor reads, on every core."""
    data = probe(gib)
    rates = []
    for _ in range(repeats):
        start = time.perf_counter()
        data.sum()
        rates.append(data.numel() * 4 / (time.perf_counter() - start))
    return rates


def bytes_per_token(model: torch.nn.Module, precision: str) -> int:
    """What a decode step reads of the weights: each matmul weight at the precision's size
    (plus a f32 scale per column for int8), each 1-D weight in f32; input embeddings only
    as the LM head where tied (one row is gathered otherwise)."""
    head = model.get_output_embeddings().weight
    embeddings = {id(m.weight) for m in model.modules() if isinstance(m, torch.nn.Embedding)} - {id(head)}
    total, seen = 0, set()
    for parameter in model.parameters():
        if id(parameter) in seen or id(parameter) in embeddings:
            continue
        seen.add(id(parameter))
        if parameter.dim() == 2:
            columns = parameter.shape[0] if parameter is head else min(parameter.shape)
            scales = 4 * columns if precision == "int8" else 0
            total += parameter.numel() * ELEMENT_BYTES[precision] + scales
        else:
            total += parameter.numel() * 4
    return total


def eager_variant(model, precision: str, **generate_options):
    """A generate function of transformers' at `precision`, or None where torch has no such peer."""
    if precision == "int8":
        quantized = torch.ao.quantization.quantize_dynamic(model, {torch.nn.Linear}, dtype=torch.qint8)
        if not any(type(m).__module__.startswith("torch.ao.nn.quantized") for m in quantized.modules()):
            return None  # no nn.Linear: nothing quantized (GPT-2's Conv1D)
        model = quantized

    def generate(prompt, new_tokens):
        with torch.autocast("cpu", torch.bfloat16, enabled=precision == "bf16"):
            return language_models.eager_generate(model, prompt, new_tokens, **generate_options)

    return generate


def timed(generate, prompt, new_tokens: int, rounds: int) -> tuple[float, float, torch.Tensor]:
    """(time to first token, seconds per later token, the tokens), medians over rounds."""
    generate(prompt, new_tokens)  # warm-up: compiles, allocations, the caches
    first, whole = [], []
    for _ in range(rounds):
        start = time.perf_counter()
        generate(prompt, 1)
        first.append(time.perf_counter() - start)
        start = time.perf_counter()
        tokens = generate(prompt, new_tokens)
        whole.append(time.perf_counter() - start)
    ttft = statistics.median(first)
    return ttft, (statistics.median(whole) - ttft) / (new_tokens - 1), tokens


def kernels(generator, batch: int) -> str:
    decode = generator.compiled(1, batch)
    used = cpu_instructions.census(decode.vmfb)
    named = [kind for kind, count in used.items() if count]
    library = collections.Counter(matmul_choice.kernels(decode.report.get("matmul library") or {}))
    named.extend(f"{kernel} ({count} shapes)" for kernel, count in library.items())
    return ", ".join(named) or "scalar/AVX2"


def log(message: str) -> None:
    print(f"[generate] {message}", file=sys.stderr, flush=True)


def run_model(name: str, precisions: list[str], args) -> list[dict]:
    model = language_models.build(name)
    prompt = torch.randint(0, model.config.vocab_size, (args.batch, args.prompt),
                           generator=torch.Generator().manual_seed(0))
    cache = args.max_cache_len or args.prompt + args.new_tokens
    rows, reference = [], None
    for precision in precisions:
        variants = {}
        start = time.perf_counter()
        generator = mlc.generator(model, max_cache_len=cache, precision=precision)
        generator.compiled(generator.prompt_bucket(args.prompt), args.batch, prompt=True)
        generator.compiled(1, args.batch)
        log(f"{name} {precision}: mlc compiled in {time.perf_counter() - start:.0f} s")
        variants["eager"] = eager_variant(model, precision)  # first: f32 eager's tokens are the reference
        variants["eager static"] = eager_variant(model, precision, cache_implementation="static")
        if args.torch_compile and precision == "f32":
            compiled_model = language_models.build(name)
            compiled_model.forward = torch.compile(compiled_model.forward)
            variants["torch.compile"] = eager_variant(compiled_model, precision, cache_implementation="static")
        generators = {"mlc": generator}
        if args.iree_kernels:
            generators["mlc, IREE's kernels"] = mlc.generator(model, max_cache_len=cache, precision=precision,
                                                              target_options={"matmul-library": False})
        variants.update((variant, functools.partial(mlc_generator.generate, stop_at_eos=False))
                        for variant, mlc_generator in generators.items())  # eager's min_new_tokens: no stop
        for variant, generate in variants.items():
            if generate is None:
                rows.append({"model": name, "precision": precision, "variant": variant,
                             "failure": "no peer: nothing to quantize (no nn.Linear)"})
                continue
            try:
                reads = read_bandwidths()
                ttft, per_token, tokens = timed(generate, prompt, args.new_tokens, args.rounds)
                reads += read_bandwidths()
            except Exception as error:  # a peer that cannot run this combination: its row says why
                failure = "fails: " + str(error).strip().splitlines()[0][:60]
                rows.append({"model": name, "precision": precision, "variant": variant, "failure": failure})
                log(f"{name} {precision} {variant} fails: {failure}")
                continue
            if reference is None:  # f32 eager comes first when f32 is asked for
                reference = tokens if (precision, variant) == ("f32", "eager") else None
            agree = _leading_agreement(tokens, reference, args.prompt) if reference is not None else None
            rows.append({"model": name, "precision": precision, "variant": variant, "ttft": ttft,
                         "per_token": per_token, "agree": agree,
                         "kernels": kernels(generators[variant], args.batch) if variant in generators else "",
                         "bandwidth": max(reads), "median bandwidth": statistics.median(reads),
                         "bytes": bytes_per_token(model, precision)})
            log(f"{name} {precision} {variant}: first token {ttft * 1e3:.1f} ms, {per_token * 1e3:.2f} ms per token")
    _check_f32_tokens(rows, args.new_tokens)
    return rows


def _leading_agreement(tokens, reference, prompt: int) -> int:
    """How many leading new tokens agree, in the sequence that agrees least."""
    return min(next((i for i, (a, b) in enumerate(zip(new, expected)) if a != b), len(new))
               for new, expected in zip(tokens[:, prompt:].tolist(), reference[:, prompt:].tolist(), strict=True))


def _check_f32_tokens(rows, new_tokens: int) -> None:
    """The f32 variants' tokens are eager's; mlc's must be, or the timing means nothing."""
    for row in rows:
        if row["precision"] == "f32" and row.get("agree") is not None and row["agree"] != new_tokens:
            raise SystemExit(f"{row['model']} f32 {row['variant']}: tokens differ from eager's after "
                             f"{row['agree']} of {new_tokens}")


def print_table(rows, args) -> None:
    header = ["model", "precision", "variant", "first token ms", "ms / token", "tokens / s", "GB/s",
              "limit ms / token", "/ limit", "median GB/s", "/ median limit", "tokens = f32 eager", "kernels (mlc)"]
    lines = [header]
    for row in rows:
        if "failure" in row:
            lines.append([row["model"], row["precision"], row["variant"], row["failure"], *[""] * (len(header) - 4)])
            continue
        lines.append([row["model"], row["precision"], row["variant"], f"{row['ttft'] * 1e3:.1f}",
                      f"{row['per_token'] * 1e3:.2f}", f"{args.batch / row['per_token']:.0f}",
                      f"{row['bandwidth'] / 1e9:.1f}", f"{row['bytes'] / row['bandwidth'] * 1e3:.2f}",
                      f"{row['per_token'] * row['bandwidth'] / row['bytes']:.2f}",
                      f"{row['median bandwidth'] / 1e9:.1f}",
                      f"{row['per_token'] * row['median bandwidth'] / row['bytes']:.2f}",
                      "" if row["agree"] is None else f"{row['agree']}/{args.new_tokens}", row["kernels"]])
    print_grid(lines, args.markdown)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--models", default="gpt2,llama")
    parser.add_argument("--precisions", default="f32,bf16,int8")
    parser.add_argument("--prompt", type=int, default=32, help="prompt tokens")
    parser.add_argument("--new-tokens", type=int, default=64)
    parser.add_argument("--batch", type=int, default=1, help="prompts generated together")
    parser.add_argument("--max-cache-len", type=int, default=None,
                        help="mlc's cache capacity (default: the prompt and the new tokens; eager's caches hold those)")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--torch-compile", action="store_true", help="also torch.compile's forward (f32)")
    parser.add_argument("--iree-kernels", action="store_true", help="also mlc with every matmul on IREE's kernel")
    parser.add_argument("--markdown", action="store_true")
    args = parser.parse_args()
    precisions = args.precisions.split(",")
    if precisions[0] != "f32":
        precisions = ["f32"] + [p for p in precisions if p != "f32"] if "f32" in precisions else precisions
    rows = [row for name in args.models.split(",") for row in run_model(name, precisions, args)]
    for line in machine():
        print(line)
    print(f"memory read bandwidth (GB/s): sums over 1 GiB in 2 MiB pages on {torch.get_num_threads()} threads, "
          f"5 before and 5 after each row's timing, the best and the median; CPU: {cpu()[0]}; load average "
          f"{os.getloadavg()[0]:.2f} at the end")
    print_table(rows, args)


if __name__ == "__main__":
    main()
