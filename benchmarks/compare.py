"""mlc against its peers, one table: graph size, dispatches, compile times and latency.

    .venv/bin/python benchmarks/compare.py [--models mlp,cnn,transformer_block,resnet18,bert]
                                           [--repeats N] [--markdown]
    .venv/bin/python benchmarks/compare.py --models resnet50,mobilenet_v3_small,vit_b_16,bert_base,gpt2
                                           (the zoo, examples/zoo.py: each model's main output)

Per model it builds five variants of the same seeded model and input:
    mlc O0, mlc O2    mlc.compile(model, inputs, opt_level=0 | 2), IREE llvm-cpu
    eager             PyTorch eager under torch.inference_mode
    torch.compile     default backend (inductor), warmed up; its first call is its compile time
    IREE direct       torch-mlir's own linalg (torch_mlir.fx.export_and_import) compiled by IREE
                      with the same flags as mlc: IREE without mlc's passes
checks each one's output against eager once (a wrong or failing variant gets no
latency), then times them all interleaved, round-robin in one loop, and reports
medians. The machine is noisy: read the ratios, not the absolute times.
torch.compile starts from an empty inductor cache, so its compile times are cold ones;
one tiny model goes through mlc and torch.compile first, so that neither compiler's
one-time start-up is charged to whichever model comes first.
"""

import argparse
import io
import os
import shlex
import statistics
import sys
import tempfile
import time
from importlib import metadata
from pathlib import Path

os.environ.setdefault("TORCHINDUCTOR_CACHE_DIR", tempfile.mkdtemp(prefix="mlc-compare-inductor-"))

import iree.compiler  # noqa: E402
import numpy as np  # noqa: E402
import torch  # noqa: E402
import torch_mlir.fx  # noqa: E402

import mlc  # noqa: E402
from mlc.driver import iree_backend  # noqa: E402

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "examples"))
import large_models  # noqa: E402
import models  # noqa: E402
import zoo  # noqa: E402

MODELS = ["mlp", "cnn", "transformer_block", "resnet18", "bert"]
ROUNDS = {"resnet18": 10, "bert": 10, **dict.fromkeys(zoo.FACTORIES, 5)}  # timed rounds without --repeats; others 30
WARMUP_ROUNDS = 3
RTOL = ATOL = 1e-4  # each variant must match eager to allclose(rtol, atol x max(1, max |eager|))
TARGET = "llvm-cpu"


class MainOutput(torch.nn.Module):
    """A zoo model returning only its first output tensor (logits, last hidden state),
    which every variant can return alike."""

    def __init__(self, model):
        super().__init__()
        self.model = model

    def forward(self, *args):
        return zoo.outputs(self.model(*args))[0]


def load(name: str):
    """(model, inputs), both seeded."""
    if name in large_models.FACTORIES:  # resnet18 is large_models' (the zoo's is the same network)
        return large_models.FACTORIES[name](), large_models.example_inputs(name)
    if name in zoo.FACTORIES:
        model, inputs = zoo.build(name)
        return MainOutput(model).eval(), inputs
    torch.manual_seed(0)
    return models.FACTORIES[name](), tuple(torch.randn(shape) for shape in models.EXAMPLE_INPUTS[name])


# Variant builders: each returns (callable, compile seconds, extra facts for the table).

def build_eager(model, inputs):
    return model, None, {}


def build_mlc(model, inputs, opt_level):
    compiled = mlc.compile(model, inputs, target=TARGET, opt_level=opt_level)
    report = compiled.report
    facts = {"ops import": report["ops"]["after import"]["mlc ops"],
             "ops opt": report["ops"]["after optimization"]["mlc ops"], "dispatches": report["dispatches"]}
    return compiled, report["seconds"], facts


def build_torch_compile(model, inputs):
    function = torch.compile(model)
    start = time.perf_counter()
    with torch.inference_mode():
        function(*inputs)  # compiles
        seconds = time.perf_counter() - start
        function(*inputs)
    return function, seconds, {}


def build_iree_direct(model, inputs):
    start = time.perf_counter()
    module = torch_mlir.fx.export_and_import(model, *inputs, output_type="linalg-on-tensors")
    buffer = io.BytesIO()
    module.operation.write_bytecode(buffer)
    vmfb = iree.compiler.compile_str(buffer.getvalue(), extra_args=iree_backend.TARGET_FLAGS[TARGET])
    seconds = time.perf_counter() - start
    main = iree_backend.load(vmfb, TARGET)

    def run(*args):  # the same conversions as mlc's Compiled.__call__
        result = main(*[np.ascontiguousarray(arg.numpy()) for arg in args])
        return torch.from_numpy(np.asarray(result.to_host()))

    return run, seconds, {"dispatches": iree_backend.dispatch_count(vmfb)}


VARIANTS = {
    "mlc O0": lambda model, inputs: build_mlc(model, inputs, 0),
    "mlc O2": lambda model, inputs: build_mlc(model, inputs, 2),
    "eager": build_eager,
    "torch.compile": build_torch_compile,
    "IREE direct": build_iree_direct,
}


def warm_up_compilers() -> None:
    """Pays each compiler's one-time start-up (imports, inductor's C++ headers) up front."""
    model, inputs = torch.nn.Sequential(torch.nn.Linear(4, 4), torch.nn.GELU()).eval(), (torch.randn(2, 4),)
    mlc.compile(model, inputs, target=TARGET)
    with torch.inference_mode():
        torch.compile(model)(*inputs)


def first_line(error: Exception) -> str:
    lines = [line.strip() for line in str(error).splitlines() if line.strip()]
    error_lines = [line for line in lines if "error:" in line]
    return f"{type(error).__name__}: {(error_lines or lines or [''])[0][:300]}"


def time_interleaved(functions: dict, inputs, rounds: int) -> dict:
    """Median ms of each function; one call of each per round, the starting one rotating."""
    names = list(functions)
    samples = {name: [] for name in names}
    with torch.inference_mode():
        for round_ in range(WARMUP_ROUNDS + rounds):
            shift = round_ % len(names)
            for name in names[shift:] + names[:shift]:
                start = time.perf_counter()
                functions[name](*inputs)
                if round_ >= WARMUP_ROUNDS:
                    samples[name].append((time.perf_counter() - start) * 1e3)
    return {name: statistics.median(values) for name, values in samples.items()}


def benchmark(name: str, rounds: int) -> dict:
    """One model: build and check every variant, then time those that work."""
    begin = time.perf_counter()
    model, inputs = load(name)
    with torch.inference_mode():
        expected = model(*inputs)
    row = {"model": name, "failures": {}, "compile": {}, "facts": {}, "error": 0.0}
    working = {}
    for variant, build in VARIANTS.items():
        log(f"{name}: building {variant}")
        try:
            function, seconds, facts = build(model, inputs)
            with torch.inference_mode():
                actual = torch.as_tensor(function(*inputs))
        except Exception as error:  # a failing variant is a table cell, not the end of the run
            row["failures"][variant] = first_line(error)
            continue
        error = (actual - expected).abs().max().item()
        atol = ATOL * max(1.0, expected.abs().max().item())  # float32 sums: error grows with the magnitude
        if actual.shape != expected.shape or not torch.allclose(actual, expected, rtol=RTOL, atol=atol):
            row["failures"][variant] = f"wrong result: shape {list(actual.shape)}, max |error| {error:.2e}"
            continue
        working[variant], row["compile"][variant] = function, seconds
        row["facts"][variant] = facts
        row["error"] = max(row["error"], error)
    built = time.perf_counter()
    log(f"{name}: timing {', '.join(working)} for {rounds} rounds")
    row["latency"] = time_interleaved(working, inputs, rounds)
    row["wall"] = {"build": built - begin, "timing": time.perf_counter() - built}
    log(f"{name}: built in {row['wall']['build']:.1f} s, timed in {row['wall']['timing']:.1f} s")
    return row


# The table ---------------------------------------------------------------------------------------

COLUMNS = [
    "model", "mlc ops import", "mlc ops O2", "dispatches O2 (direct)", "compile s O0", "compile s O2",
    "compile s torch.compile", "compile s IREE direct", "ms mlc O0", "ms mlc O2", "ms eager",
    "ms torch.compile", "ms IREE direct", "eager/O2", "direct/O2", "max abs err",
]


def cells(row: dict) -> list[str]:
    latency, compile_s, failures = row["latency"], row["compile"], row["failures"]
    facts = row["facts"].get("mlc O2", {})

    def cell(table, variant, form):
        if variant in failures:
            return "fails"
        return form(table[variant]) if variant in table else "-"

    def seconds(value):
        return f"{value:.1f}"

    def ms(value):  # three significant digits, trailing zeros kept
        return f"{value:.{max(0, 2 - int(np.floor(np.log10(max(value, 1e-3)))))}f}"

    def ratio(numerator):
        if numerator in latency and "mlc O2" in latency:
            return f"{latency[numerator] / latency['mlc O2']:.2f}x"
        return "-"

    direct = row["facts"].get("IREE direct", {}).get("dispatches")
    dispatches = f"{facts.get('dispatches', '-')} ({direct if direct is not None else '-'})"
    return [
        row["model"], str(facts.get("ops import", "-")), str(facts.get("ops opt", "-")), dispatches,
        *(cell(compile_s, variant, seconds) for variant in ("mlc O0", "mlc O2", "torch.compile", "IREE direct")),
        *(cell(latency, variant, ms) for variant in ("mlc O0", "mlc O2", "eager", "torch.compile", "IREE direct")),
        ratio("eager"), ratio("IREE direct"), f"{row['error']:.1e}",
    ]


def print_table(rows: list[dict], markdown: bool) -> None:
    table = [COLUMNS] + [cells(row) for row in rows]
    if markdown:
        print("| " + " | ".join(COLUMNS) + " |")
        print("| --- " + "| ---: " * (len(COLUMNS) - 1) + "|")
        for line in table[1:]:
            print("| " + " | ".join(line) + " |")
    else:
        widths = [max(len(line[i]) for line in table) for i in range(len(COLUMNS))]
        for line in table:
            print("  ".join(c.ljust(w) if i == 0 else c.rjust(w) for i, (c, w) in enumerate(zip(line, widths))))
    failures = [(row["model"], variant, text) for row in rows for variant, text in row["failures"].items()]
    if failures:
        print()
        for model, variant, text in failures:
            print(f"{'- ' if markdown else ''}{model}, {variant} fails: {text}")


def machine() -> list[str]:
    cpu = "unknown"
    with open("/proc/cpuinfo") as file:
        for line in file:
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    with open("/proc/cpuinfo") as file:
        avx512 = " avx512f " in file.read()
    versions = ", ".join(f"{package} {metadata.version(package)}"
                         for package in ("torch", "torch-mlir", "iree-base-compiler", "iree-base-runtime"))
    return [
        f"command: {shlex.join(['python'] + sys.argv)}",
        f"machine: {os.cpu_count()} CPUs, {cpu}{' (AVX-512)' if avx512 else ''}, "
        f"torch threads {torch.get_num_threads()}, load average {os.getloadavg()[0]:.2f} at start",
        f"versions: {versions}",
        f"IREE flags (mlc and IREE direct): {' '.join(iree_backend.TARGET_FLAGS[TARGET])}",
    ]


def log(message: str) -> None:
    print(f"[compare] {message}", file=sys.stderr, flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--models", default=",".join(MODELS),
                        help=f"comma-separated, from {','.join(MODELS + sorted(set(zoo.FACTORIES) - set(MODELS)))}")
    parser.add_argument("--repeats", type=int, help="timed rounds per model (default 30; 10 for resnet18, bert)")
    parser.add_argument("--markdown", action="store_true", help="print a Markdown table")
    args = parser.parse_args()
    names = [name for name in args.models.split(",") if name]
    known = MODELS + sorted(set(zoo.FACTORIES) - set(MODELS))
    unknown = [name for name in names if name not in known]
    if unknown:
        parser.error(f"unknown model(s) {', '.join(unknown)} (known: {', '.join(known)})")

    for line in machine():
        print(f"- {line}" if args.markdown else line)
    print()
    log("warming up mlc and torch.compile")
    warm_up_compilers()
    rows = [benchmark(name, args.repeats or ROUNDS.get(name, 30)) for name in names]
    print_table(rows, args.markdown)
    print()
    print(f"Load average at end: {os.getloadavg()[0]:.2f}. Latency: medians of interleaved rounds in ms; compile: seconds; dispatches O2 (direct): per call, "
          f"mlc O2 (IREE direct); max abs err: worst variant against eager (each must pass "
          f"allclose rtol={RTOL}, atol={ATOL} x max(1, max |eager|)).")


if __name__ == "__main__":
    main()
