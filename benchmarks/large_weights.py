"""Large weights: compile time, time to a loaded module, and peak memory, with the
weights in an IREE parameter archive (mlc's `external_params`) or inline in the .vmfb,
beside torch-mlir -> IREE on the same model.

    .venv/bin/python benchmarks/large_weights.py              # BERT-base, seq 128 (examples/zoo.py)
    .venv/bin/python benchmarks/large_weights.py --smoke      # a 2-layer mini BERT, seconds

Each variant runs in a fresh process, one after another, so that its peak resident
memory (VmHWM) is its own: the peak counts everything the process holds (Python,
torch, the compilers' libraries, the model), and the table also gives it minus the
process's size before the model was built. Times: import is PyTorch to MLIR (for mlc
torch.export and the import to torch's backend contract; for torch-mlir its whole
`export_and_import` to linalg), compile is the rest up to the .vmfb (and the archive),
and "to loaded" runs from the start of the import to a module loaded in iree.runtime
and ready to call. Each loaded module is run once and checked against eager.

torch-mlir's frozen import fails on BERT's non-persistent buffers (`position_ids`,
`token_type_ids`; see /work/shared/TOOLCHAIN.md); for it they are made persistent
before export, which changes no value.
"""

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "examples"))

VARIANTS = ("mlc O2 external params", "mlc O2 inline", "torch-mlir -> IREE")
TARGET = "llvm-cpu"


def memory_kib(field: str) -> int:
    """VmRSS (now) or VmHWM (peak) of this process, in KiB."""
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith(field + ":"):
            return int(line.split()[1])
    raise RuntimeError(f"no {field} in /proc/self/status")


def build_model(smoke: bool):
    """(model, inputs): BERT-base from the zoo, or a 2-layer mini BERT for the smoke run."""
    import torch
    import zoo

    if not smoke:
        return zoo.build("bert_base")
    import transformers

    torch.manual_seed(0)
    config = transformers.BertConfig(vocab_size=1000, hidden_size=128, num_hidden_layers=2, num_attention_heads=2,
                                     intermediate_size=512)
    return transformers.BertModel(config).eval(), (torch.randint(0, 1000, (1, 32)),)


def persistent_buffers(model) -> None:
    """Makes every buffer persistent (in the state_dict) for torch-mlir's frozen import."""
    for module in model.modules():
        module._non_persistent_buffers_set.clear()


def run_mlc(model, inputs, external: bool, workdir: str) -> dict:
    from mlc.driver.backends import targets
    from mlc.driver.compilation import Compilation, import_model
    from mlc.driver.compiled import Compiled

    start = time.perf_counter()
    program, module = import_model(model, inputs)
    imported = time.perf_counter()
    params = os.path.join(workdir, "weights.irpa") if external else None
    target = targets.bind(TARGET)
    compilation = Compilation(module, target=target, params=params, keep_ir=True)  # as mlc.compile keeps each level's IR
    vmfb = compilation.run("vmfb")
    compiled_at = time.perf_counter()
    compiled = Compiled(program=program, ir_levels=compilation.levels, artifact=vmfb, target=target,
                        report=compilation.report, parameters=params, runtime_driver=compilation.runtime_driver)
    loaded = time.perf_counter()
    return {"import s": imported - start, "compile s": compiled_at - imported, "to loaded s": loaded - start,
            "vmfb bytes": len(vmfb), "archive bytes": os.path.getsize(params) if params else 0,
            "run": lambda: compiled(*inputs)}


def run_torch_mlir(model, inputs) -> dict:
    import io

    import iree.compiler
    import numpy as np
    import torch
    import torch_mlir.fx

    from mlc.driver.backends import iree as iree_backend

    persistent_buffers(model)
    start = time.perf_counter()
    module = torch_mlir.fx.export_and_import(model, *inputs, output_type="linalg-on-tensors")
    imported = time.perf_counter()
    buffer = io.BytesIO()
    module.operation.write_bytecode(buffer)
    del module
    vmfb = iree.compiler.compile_str(buffer.getvalue(), extra_args=list(iree_backend.CPU_FLAGS))
    del buffer
    compiled_at = time.perf_counter()
    main = iree_backend.load(vmfb)
    loaded = time.perf_counter()

    def run():
        results = main(*[iree_backend.host_array(x) for x in inputs])
        results = results if isinstance(results, tuple) else (results,)
        return [torch.from_numpy(np.asarray(r.to_host())) for r in results]

    return {"import s": imported - start, "compile s": compiled_at - imported, "to loaded s": loaded - start,
            "vmfb bytes": len(vmfb), "archive bytes": 0, "run": run}


def measure(variant: str, smoke: bool) -> dict:
    """One variant, in this (fresh) process."""
    import iree.compiler  # noqa: F401
    import iree.runtime  # noqa: F401
    import torch
    import transformers  # noqa: F401  (the model's library is no part of the compile's memory)
    import zoo

    import mlc  # noqa: F401  (imports torch-mlir and IREE, as every variant needs)

    baseline = memory_kib("VmRSS")
    model, inputs = build_model(smoke)
    with torch.no_grad():
        expected = zoo.outputs(model(*inputs))
    weights = zoo.weight_bytes(model)
    with tempfile.TemporaryDirectory() as workdir, torch.no_grad():
        if variant == "torch-mlir -> IREE":
            facts = run_torch_mlir(model, inputs)
        else:
            facts = run_mlc(model, inputs, variant.endswith("external params"), workdir)
        peak = memory_kib("VmHWM")
        actual = zoo.outputs(facts.pop("run")())
        peak_after_call = memory_kib("VmHWM")
    error = max(float((a - e).abs().max() / e.abs().max()) for a, e in zip(actual, expected[: len(actual)]))
    return {**facts, "variant": variant, "weight bytes": weights, "baseline KiB": baseline, "peak KiB": peak,
            "peak after call KiB": peak_after_call,
            "relative error": error}


def measure_in_fresh_process(variant: str, smoke: bool) -> dict:
    command = [sys.executable, __file__, "--variant", variant] + (["--smoke"] if smoke else [])
    result = subprocess.run(command, capture_output=True, text=True)
    if result.returncode != 0:
        lines = [line for line in result.stderr.strip().splitlines() if line.strip()]
        return {"variant": variant, "failed": lines[-1] if lines else f"exit {result.returncode}"}
    return json.loads(result.stdout.strip().splitlines()[-1])


def table(rows: list[dict]) -> str:
    mib = 2**20
    lines = ["| variant | import s | compile s | start to loaded s | peak RSS MiB | peak / weights | "
             "(peak - baseline) / weights | peak after 1st call MiB | .vmfb MiB | archive MiB | max rel. error |",
             "| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |"]
    for row in rows:
        if "failed" in row:
            lines.append(f"| {row['variant']} | fails: {row['failed'][:200]} |" + " |" * 9)
            continue
        weights, peak, base = row["weight bytes"], row["peak KiB"] * 1024, row["baseline KiB"] * 1024
        lines.append(f"| {row['variant']} | {row['import s']:.1f} | {row['compile s']:.1f} | {row['to loaded s']:.1f} | "
                     f"{peak / mib:.0f} | {peak / weights:.2f} | {(peak - base) / weights:.2f} | "
                     f"{row['peak after call KiB'] / 1024:.0f} | "
                     f"{row['vmfb bytes'] / mib:.2f} | {row['archive bytes'] / mib:.1f} | {row['relative error']:.1e} |")
    return "\n".join(lines)


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--smoke", action="store_true", help="a 2-layer mini BERT instead of BERT-base (fast)")
    parser.add_argument("--variant", choices=VARIANTS, help=argparse.SUPPRESS)  # one measurement, in this process
    args = parser.parse_args(argv)
    if args.variant:
        print(json.dumps(measure(args.variant, args.smoke)))
        return 0
    rows = []
    for variant in VARIANTS:
        print(f"measuring {variant} ...", file=sys.stderr, flush=True)
        rows.append(measure_in_fresh_process(variant, args.smoke))
    weights = next((row["weight bytes"] for row in rows if "weight bytes" in row), 0)
    model = "mini BERT (2 layers, hidden 128), 1x32" if args.smoke else "transformers BERT-base, 1x128, random weights"
    print(f"{model}: {weights / 2**20:.0f} MiB of weights; target {TARGET}; {os.cpu_count()} cores; "
          f"command: {' '.join([Path(sys.executable).name, *sys.argv])}\n")
    print(table(rows))
    return 0


if __name__ == "__main__":
    sys.exit(main())
