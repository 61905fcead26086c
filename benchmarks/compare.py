"""mlc against its peers, one table: latency, GFLOP/s, % of the CPU's peak, and mlc / best peer.

    .venv/bin/python benchmarks/compare.py [--models mlp,cnn,...] [--variants ...] [--rounds N] [--markdown]

Per model it builds each variant of the same seeded model and input:
    mlc O2          mlc.compile(model, inputs): the default, IREE llvm-cpu with data tiling
    eager           PyTorch eager under torch.inference_mode
    torch.compile   default backend (inductor), warmed up; its first call is its compile time
    IREE direct     torch-mlir's own linalg (torch_mlir.fx.export_and_import) compiled by IREE
                    with the flags mlc gives it (host CPU, data tiling, microkernels): IREE
                    without mlc's passes
and, on request (--variants), "mlc O0" (mlc's conversion only), "mlc O2 no data tiling",
"mlc O2 bf16" with its peers at the same precision, "eager bf16" and "torch.compile bf16"
(under torch.autocast("cpu", torch.bfloat16); these are checked by a relative error of
2 %, not f32's tolerances), "mlc O2 int8" with "eager int8" (torch's quantize_dynamic of
the Linear layers) and "torch.compile int8" (torchao's PT2E with X86InductorQuantizer,
then inductor; int8 variants are checked by a relative error of 5 %), "eager bf16 matmuls"
(f32 eager with torch.backends.mkldnn.matmul.fp32_precision = "bf16"), and
"mlc O2 no library" / "mlc O2 all library" (matmul-library off / on: no f32 matmul, or every
one, on MKL through mlc's plugin; the default measures each shape on this CPU and picks).
The column "matmul shapes on library / IREE" says how mlc O2's default chose.
It checks each one's output against eager once (a wrong or failing variant gets no
latency), then times them interleaved in blocks: each round runs every variant for
`--block` counted calls in a row, in an order that rotates from round to round. Before
them, each block runs uncounted calls for at least WARM_UP_MS (one call at least): a
call right after another framework's pays for that one's threads. PyTorch's OpenMP
workers spin for several ms after each op (libgomp's default wait policy), taking a CPU
from whatever runs next: on 2 cores, mlc's MLP took 1.45, 1.90, 1.49, then 1.11 ms a
call right after eager's, and 0.98 from its second call with OMP_WAIT_POLICY=PASSIVE.
Medians.

GFLOP/s is the model's floating-point work (torch.utils.flop_counter on eager: matmuls,
convolutions, attention) over the latency. The peak is the CPU's FMA throughput at its
nominal clock: cores x FMA units (2) x lanes (16 f32 with AVX-512, 8 with AVX2, and 8
on AMD's Zen 4, whose units run an AVX-512 FMA as two halves: one core's measured 112
GFLOP/s at 3.5 GHz is 32 FLOP a cycle) x 2 FLOP x GHz. "mlc / best" divides mlc O2's
latency by the fastest peer's; the geomean is over the models where both ran.
"""

import argparse
import collections
import copy
import io
import math
import os
import shlex
import statistics
import sys
import tempfile
import time
from importlib import metadata
from pathlib import Path

os.environ.setdefault("TORCHINDUCTOR_CACHE_DIR", tempfile.mkdtemp(prefix="mlc-compare-inductor-"))
# The matmul library keeps each model's packed weights for the life of the process, up to a
# twelfth of memory by default; a run compiles all its models in one process (precision.py:
# each at three precisions), and past that limit the later ones would run unpacked.
os.environ.setdefault("MLC_PACKED_WEIGHTS_LIMIT", str(os.sysconf("SC_PHYS_PAGES") * os.sysconf("SC_PAGE_SIZE") // 4))

import iree.compiler  # noqa: E402
import numpy as np  # noqa: E402
import torch  # noqa: E402
import torch_mlir.fx  # noqa: E402
from torch.utils.flop_counter import FlopCounterMode  # noqa: E402

import mlc  # noqa: E402
from mlc.driver.backends import cpu_instructions  # noqa: E402
from mlc.driver.backends import iree as iree_backend  # noqa: E402
from mlc.driver.backends.matmul_choice import kernels as library_kernels  # noqa: E402

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "examples"))
import large_models  # noqa: E402
import zoo  # noqa: E402

import models  # noqa: E402

MODELS = ["mlp", "cnn", "transformer_block", "resnet18", "resnet50", "mobilenet_v3_small", "vit_b_16", "bert_base",
          "gpt2"]
# The small models at the sizes the issue tracker and TOOLCHAIN.md measure them (the
# tests use smaller ones): MLP 64x512 -> 2048 -> 512, CNN 8x3x64x64, block 4x128x256.
SMALL = {
    "mlp": (lambda: models.MLP(512, 2048, 512), [(64, 512)]),
    "cnn": (models.CNN, [(8, 3, 64, 64)]),
    "transformer_block": (lambda: models.TransformerBlock(dim=256, heads=8, hidden=1024), [(4, 128, 256)]),
}
PEERS = ("eager", "torch.compile", "IREE direct")
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
    if name in SMALL:
        factory, shapes = SMALL[name]
        torch.manual_seed(0)
        model = models.seeded(factory)() if isinstance(factory, type) else factory().eval()
        return model, tuple(torch.randn(shape) for shape in shapes)
    if name in large_models.FACTORIES:  # resnet18 (the zoo's is the same network) and a 2-layer BERT
        return large_models.FACTORIES[name](), large_models.example_inputs(name)
    model, inputs = zoo.build(name)
    return MainOutput(model).eval(), inputs


def flops(model, inputs) -> int:
    with FlopCounterMode(display=False) as counter, torch.inference_mode():
        model(*inputs)
    return counter.get_total_flops()


# Variant builders: each returns (callable, compile seconds, facts for the table).

def build_eager(model, inputs):
    return model, None, {}


def build_mlc(model, inputs, opt_level=2, data_tiling=True, matmul_library="auto", precision="f32"):
    compiled = mlc.compile(model, inputs, target=TARGET, opt_level=opt_level, precision=precision,
                           target_options={"data-tiling": data_tiling, "matmul-library": matmul_library})
    chosen = compiled.report.get("matmul library", {})
    return compiled, compiled.report["seconds"], {"dispatches": compiled.report["dispatches"],
                                                  "library": len(chosen.get("library", [])),
                                                  "library kernels": dict(collections.Counter(
                                                      library_kernels(chosen))),
                                                  "iree": len(chosen.get("iree", [])),
                                                  "kernels": cpu_instructions.census(compiled.vmfb)}


def build_torch_compile(model, inputs):
    function = torch.compile(model)
    start = time.perf_counter()
    with torch.inference_mode():
        function(*inputs)  # compiles
        seconds = time.perf_counter() - start
        function(*inputs)
    return function, seconds, {}


def _under_bf16_autocast(function):
    def run(*args):
        with torch.autocast("cpu", dtype=torch.bfloat16):
            return function(*args).float()

    return run


def build_eager_bf16(model, inputs):
    return _under_bf16_autocast(model), None, {}


def build_torch_compile_bf16(model, inputs):
    function = _under_bf16_autocast(torch.compile(model))
    start = time.perf_counter()
    with torch.inference_mode():
        function(*inputs)  # compiles
        seconds = time.perf_counter() - start
    return function, seconds, {}


def build_eager_int8(model, inputs):
    """PyTorch's dynamic quantization of the Linear layers (qint8 weights, activations
    quantized per call; fbgemm's kernels), the peer of mlc's precision="int8"."""
    quantized = torch.ao.quantization.quantize_dynamic(copy.deepcopy(model), {torch.nn.Linear}, dtype=torch.qint8)
    return quantized, None, {}


def build_eager_bf16_matmuls(model, inputs):
    """Eager in f32 with oneDNN's matmuls in bf16 (torch.backends.mkldnn.matmul.fp32_precision),
    the third bf16 peer: the model's own dtype, PyTorch's lower-precision matmul kernels."""
    def run(*args):
        saved = torch.backends.mkldnn.matmul.fp32_precision
        torch.backends.mkldnn.matmul.fp32_precision = "bf16"
        try:
            return model(*args)
        finally:
            torch.backends.mkldnn.matmul.fp32_precision = saved

    return run, None, {}


def build_torch_compile_int8(model, inputs):
    """PyTorch's static int8 flow for x86 (torchao's PT2E with X86InductorQuantizer,
    calibrated on the example input, compiled by inductor with freezing), the int8 peer
    that uses oneDNN's int8 kernels (AMX where the CPU has it)."""
    from torchao.quantization.pt2e.quantize_pt2e import convert_pt2e, prepare_pt2e
    from torchao.quantization.pt2e.quantizer import x86_inductor_quantizer as x86

    start = time.perf_counter()
    graph = torch.export.export(model, inputs).module()
    graph.graph.eliminate_dead_code()  # an unused output's partitions (BERT's pooler) break the quantizer
    graph.recompile()
    quantizer = x86.X86InductorQuantizer().set_global(x86.get_default_x86_inductor_quantization_config())
    prepared = prepare_pt2e(graph, quantizer)
    with torch.no_grad():
        prepared(*inputs)  # calibration
    function = torch.compile(convert_pt2e(prepared))
    # Compiled under inference_mode, as it is called: a call in another grad mode would
    # fail dynamo's guards and compile again, without freezing.
    with torch.inference_mode(), torch._inductor.config.patch(freezing=True):
        function(*inputs)  # compiles
    return function, time.perf_counter() - start, {}


def build_iree_direct(model, inputs):
    start = time.perf_counter()
    module = torch_mlir.fx.export_and_import(model, *inputs, output_type="linalg-on-tensors")
    buffer = io.BytesIO()
    module.operation.write_bytecode(buffer)
    flags = list(iree_backend.CPU_FLAGS) + iree_backend.DATA_TILING_FLAGS
    vmfb = iree.compiler.compile_str(buffer.getvalue(), extra_args=flags)
    seconds = time.perf_counter() - start
    main = iree_backend.load(vmfb)

    def run(*args):  # the same conversions as mlc's Compiled.__call__
        result = main(*[iree_backend.host_array(arg) for arg in args])
        return torch.from_numpy(np.asarray(result.to_host()))

    return run, seconds, {}


VARIANTS = {
    "mlc O2": build_mlc,
    "eager": build_eager,
    "torch.compile": build_torch_compile,
    "IREE direct": build_iree_direct,
    "mlc O0": lambda model, inputs: build_mlc(model, inputs, opt_level=0),
    "mlc O2 no data tiling": lambda model, inputs: build_mlc(model, inputs, data_tiling=False),
    "mlc O2 no library": lambda model, inputs: build_mlc(model, inputs, matmul_library=False),
    "mlc O2 all library": lambda model, inputs: build_mlc(model, inputs, matmul_library=True),
    "mlc O2 bf16": lambda model, inputs: build_mlc(model, inputs, precision="bf16"),
    "eager bf16": build_eager_bf16,
    "torch.compile bf16": build_torch_compile_bf16,
    "mlc O2 int8": lambda model, inputs: build_mlc(model, inputs, precision="int8"),
    "eager int8": build_eager_int8,
    "eager bf16 matmuls": build_eager_bf16_matmuls,
    "torch.compile int8": build_torch_compile_int8,
}
# Variants that multiply in bf16 or int8: checked against eager's f32 result by the relative
# error budget of mlc's precision (test_precision.py), not by f32's tolerances.
BUDGETS = {"mlc O2 bf16": 2e-2, "eager bf16": 2e-2, "torch.compile bf16": 2e-2, "mlc O2 int8": 5e-2, "eager int8": 5e-2,
           "eager bf16 matmuls": 2e-2, "torch.compile int8": 5e-2}
DEFAULT_VARIANTS = ["mlc O2", *PEERS]


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


# Uncounted calls that begin each block: longer than the previous variant's threads keep a
# CPU busy after its last call (see the module docstring).
WARM_UP_MS = 10.0


def time_blocks(functions: dict, inputs, rounds: int, block: int) -> dict:
    """Median ms per call of each function, timed in blocks (see the module docstring)."""
    names = list(functions)
    samples = {name: [] for name in names}
    with torch.inference_mode():
        for round_ in range(rounds):
            shift = round_ % len(names)
            for name in names[shift:] + names[:shift]:
                warm_until = time.perf_counter() + WARM_UP_MS / 1e3
                functions[name](*inputs)
                while time.perf_counter() < warm_until:
                    functions[name](*inputs)
                for _ in range(block):
                    start = time.perf_counter()
                    functions[name](*inputs)
                    samples[name].append((time.perf_counter() - start) * 1e3)
    return {name: statistics.median(values) for name, values in samples.items()}


def benchmark(name: str, variants: list[str], rounds: int, block: int) -> dict:
    """One model: build and check every variant, then time those that work."""
    begin = time.perf_counter()
    model, inputs = load(name)
    with torch.inference_mode():
        expected = model(*inputs)
    row = {"model": name, "failures": {}, "compile": {}, "facts": {}, "error": 0.0, "flops": flops(model, inputs)}
    working = {}
    for variant in variants:
        log(f"{name}: building {variant}")
        try:
            function, seconds, facts = VARIANTS[variant](model, inputs)
            with torch.inference_mode():
                actual = torch.as_tensor(function(*inputs))
        except Exception as error:  # a failing variant is a table cell, not the end of the run
            row["failures"][variant] = first_line(error)
            continue
        error = (actual - expected).abs().max().item()
        atol = ATOL * max(1.0, expected.abs().max().item())  # float32 sums: error grows with the magnitude
        if variant in BUDGETS and actual.shape == expected.shape:
            relative = float((actual.float() - expected).norm() / expected.norm())
            close = relative < BUDGETS[variant]
            log(f"{name}: {variant} relative error {relative:.2e}")
            error = 0.0  # the f32 variants' largest error is the column; a lower precision's is by design
        else:
            close = actual.shape == expected.shape and torch.allclose(actual, expected, rtol=RTOL, atol=atol)
        if not close and variant in BUDGETS and actual.shape == expected.shape:
            row["failures"][variant] = f"relative error {relative:.2e}, over the budget of {BUDGETS[variant]:.0e}"
        elif not close:
            row["failures"][variant] = f"wrong result: shape {list(actual.shape)}, max |error| {error:.2e}"
            continue
        working[variant], row["compile"][variant] = function, seconds
        row["facts"][variant] = facts
        row["error"] = max(row["error"], error)
    built = time.perf_counter()
    log(f"{name}: timing {', '.join(working)} for {rounds} rounds of {block}")
    row["latency"] = time_blocks(working, inputs, rounds, block)
    log(f"{name}: built in {built - begin:.1f} s, timed in {time.perf_counter() - built:.1f} s")
    return row


# The table ---------------------------------------------------------------------------------------

def cpu() -> tuple[str, str, int, float]:
    """(model name, "AVX-512" or "AVX2", f32 lanes an FMA unit computes per cycle, nominal
    GHz) from /proc/cpuinfo."""
    fields = {}
    with open("/proc/cpuinfo") as file:
        for line in file:
            key, _, value = line.partition(":")
            fields.setdefault(key.strip(), value.strip())
    name, ghz = fields.get("model name", "unknown CPU"), float(fields.get("cpu MHz", 0)) / 1000
    avx512 = "avx512f" in fields.get("flags", "").split()
    zen4 = fields.get("vendor_id") == "AuthenticAMD" and fields.get("cpu family") == "25"
    return name, "AVX-512" if avx512 else "AVX2", 16 if avx512 and not zen4 else 8, ghz


def peak_gflops() -> float:
    _, _, lanes, ghz = cpu()
    return os.cpu_count() * 2 * lanes * 2 * ghz


def ms(value: float) -> str:
    """Three significant digits."""
    return f"{value:.{max(0, 2 - int(np.floor(np.log10(max(value, 1e-3)))))}f}"


def best_peer(row) -> tuple[str, float] | None:
    timed = [(row["latency"][p], p) for p in PEERS if p in row["latency"]]
    return (min(timed)[1], min(timed)[0]) if timed else None


def ratio(row) -> float | None:
    """mlc O2's latency over the best peer's."""
    best = best_peer(row)
    return row["latency"]["mlc O2"] / best[1] if best and "mlc O2" in row["latency"] else None


def cells(row: dict, variants: list[str], peak: float) -> list[str]:
    latency = row["latency"]

    def time_cell(variant):
        if variant in row["failures"]:
            return "fails"
        return ms(latency[variant]) if variant in latency else "-"

    mine = latency.get("mlc O2")
    gflops = row["flops"] / mine / 1e6 if mine else None
    compile_ratio = ("-" if not row["compile"].get("IREE direct") or "mlc O2" not in row["compile"]
                     else f"{row['compile']['mlc O2'] / row['compile']['IREE direct']:.2f}")
    best, r = best_peer(row), ratio(row)
    return [
        row["model"], f"{row['flops'] / 1e9:.2f}", *(time_cell(v) for v in variants),
        f"{gflops:.0f}" if gflops else "-", f"{100 * gflops / peak:.0f}%" if gflops else "-",
        f"{r:.2f} ({best[0]})" if r else "-",
        str(row["facts"].get("mlc O2", {}).get("dispatches", "-")),
        "{library} / {iree}".format(**row["facts"]["mlc O2"]) if "mlc O2" in row["facts"] else "-",
        f"{row['compile']['mlc O2']:.1f}" if "mlc O2" in row["compile"] else "-", compile_ratio,
    ]


def print_table(rows: list[dict], variants: list[str], markdown: bool) -> None:
    peak = peak_gflops()
    columns = ["model", "GFLOP", *(f"ms {v}" for v in variants), "GFLOP/s mlc O2", "% of peak", "mlc / best",
               "dispatches", "matmul shapes on library / IREE", "compile s", "compile / IREE"]
    table = [columns] + [cells(row, variants, peak) for row in rows]
    ratios = [r for r in map(ratio, rows) if r]
    if markdown:
        print("| " + " | ".join(columns) + " |")
        print("| --- " + "| ---: " * (len(columns) - 1) + "|")
        for line in table[1:]:
            print("| " + " | ".join(line) + " |")
    else:
        widths = [max(len(line[i]) for line in table) for i in range(len(columns))]
        for line in table:
            print("  ".join(c.ljust(w) if i == 0 else c.rjust(w) for i, (c, w) in enumerate(zip(line, widths))))
    print()
    if ratios:
        geomean = math.exp(sum(map(math.log, ratios)) / len(ratios))
        slower = [row["model"] for row in rows if (ratio(row) or 0) > 1]
        print(f"Geomean of mlc O2 / best peer over {len(ratios)} models: {geomean:.2f} "
              f"(below 1: mlc is faster). Slower than the best peer: {', '.join(slower) or 'none'}.")
    failures = [(row["model"], variant, text) for row in rows for variant, text in row["failures"].items()]
    for model, variant, text in failures:
        print(f"{'- ' if markdown else ''}{model}, {variant} fails: {text}")


def print_grid(table: list[list[str]], markdown: bool) -> None:
    """A header row and its rows, as a Markdown table or as aligned columns."""
    if markdown:
        print("| " + " | ".join(table[0]) + " |\n|" + "---|" * len(table[0]))
        for row in table[1:]:
            print("| " + " | ".join(row) + " |")
        return
    widths = [max(len(row[i]) for row in table) for i in range(len(table[0]))]
    for row in table:
        print("  ".join(cell.ljust(width) for cell, width in zip(row, widths)))


def machine() -> list[str]:
    name, isa, lanes, ghz = cpu()
    versions = ", ".join(f"{package} {metadata.version(package)}"
                         for package in ("torch", "torch-mlir", "iree-base-compiler", "iree-base-runtime"))
    return [
        f"command: {shlex.join(['python'] + sys.argv)}",
        f"machine: {os.cpu_count()} CPUs, {name} ({isa}, {ghz:.2f} GHz nominal), "
        f"torch threads {torch.get_num_threads()}, load average {os.getloadavg()[0]:.2f} at start",
        f"peak: {os.cpu_count()} cores x 2 FMA x {lanes} lanes x 2 FLOP x {ghz:.2f} GHz = {peak_gflops():.0f} GFLOP/s",
        f"versions: {versions}",
        f"IREE flags (mlc O2 and IREE direct): "
        f"{' '.join(list(iree_backend.CPU_FLAGS) + iree_backend.DATA_TILING_FLAGS)}",
    ]


def log(message: str) -> None:
    print(f"[compare] {message}", file=sys.stderr, flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    known = MODELS + sorted((set(zoo.FACTORIES) | set(large_models.FACTORIES)) - set(MODELS))
    parser.add_argument("--models", default=",".join(MODELS), help=f"comma-separated, from {','.join(known)}")
    parser.add_argument("--variants", default=",".join(DEFAULT_VARIANTS),
                        help=f"comma-separated, from {','.join(VARIANTS)}")
    parser.add_argument("--rounds", type=int, default=7, help="timed rounds per model (default 7)")
    parser.add_argument("--block", type=int, default=3, help="counted calls per variant per round (default 3)")
    parser.add_argument("--markdown", action="store_true", help="print a Markdown table")
    args = parser.parse_args()
    names = [name for name in args.models.split(",") if name]
    variants = [v for v in args.variants.split(",") if v]
    unknown = [n for n in names if n not in known] + [v for v in variants if v not in VARIANTS]
    if unknown or args.block < 1:
        parser.error(f"unknown model(s) or variant(s) {', '.join(unknown)}" if unknown else "--block must be >= 1")

    for line in machine():
        print(f"- {line}" if args.markdown else line)
    print()
    log("warming up mlc and torch.compile")
    warm_up_compilers()
    rows = [benchmark(name, variants, args.rounds, args.block) for name in names]
    print_table(rows, variants, args.markdown)
    print(f"Load average at end: {os.getloadavg()[0]:.2f}. Latency: medians in ms; compile: seconds (mlc O2), and "
          f"its ratio to IREE direct's (import + compile); every variant matched eager within "
          f"rtol={RTOL}, atol={ATOL} x max(1, max |eager|), worst {max((r['error'] for r in rows), default=0):.1e}.")


if __name__ == "__main__":
    main()
