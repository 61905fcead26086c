"""Executables checked on a machine without mlc: compile here, run there with IREE's tools.

    .venv/bin/python benchmarks/on_device.py prepare DIR --models mlp,transformer_block --precisions f32,bf16
    .venv/bin/python benchmarks/on_device.py prepare DIR --programs 25 --seed 580000    # random programs
    python3 benchmarks/on_device.py check DIR [--device cuda] [--jobs 16] [--benchmark]  # on the device

`prepare` compiles (default: cuda, sm_90) models of `compare.py` and examples/architectures.py
at each precision, or random programs of test/fuzz/graphs.py at -O0 and -O2, and writes
each executable with its inputs, eager's f32 outputs and how close they must be: the
precision's budget of relative error (README, Precision) for a model, the fuzz's own
tolerance for a program. It copies `iree-run-module` and `iree-benchmark-module` beside
them. `check` needs only Python and numpy: it runs each executable with `iree-run-module`
on `--device`, compares, prints a line per finding and a summary, and exits 1 on any;
`--benchmark` adds `iree-benchmark-module`'s median per executable.

This is how the README's cuda results (Targets, Reliability) were made on a lent NVIDIA
H200: carry DIR (64 MiB at most) to the device and run `check` there.
"""

import argparse
import concurrent.futures
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import numpy as np

HERE = Path(__file__).resolve().parent
MANIFEST = "manifest.json"
TOOLS = ("iree-run-module", "iree-benchmark-module")


# --- prepare (here, with mlc) -------------------------------------------------------------


def _save_case(out: Path, key: str, inputs, outputs, closeness: dict) -> dict:
    for index, value in enumerate(inputs):
        np.save(out / f"{key}_in{index}.npy", value.numpy())
    for index, value in enumerate(outputs):
        np.save(out / f"{key}_want{index}.npy", value.detach().numpy())
    return {"inputs": len(inputs), "outputs": len(outputs), "executables": [], **closeness}


def _model_cases(args):
    """(name, model in eval mode, inputs) of each model asked for."""
    sys.path[:0] = [str(HERE), str(HERE.parent / "examples")]
    import architectures
    import compare
    import torch

    class FirstTensor(torch.nn.Module):
        def __init__(self, model):
            super().__init__()
            self.model = model

        def forward(self, *inputs):
            return architectures.first_tensor(self.model(*inputs))

    for name in args.models.split(","):
        if name in architectures.FACTORIES:
            model, inputs = architectures.FACTORIES[name]()
            model = FirstTensor(model).eval()
        else:
            model, inputs = compare.load(name)
        yield name, model, inputs


def _program_cases(args):
    """(key, exported program, inputs, eager outputs, tolerance) of each random program."""
    sys.path.insert(0, str(HERE.parent / "test" / "fuzz"))
    from check import subject, tolerance
    from graphs import programs
    from hypothesis import HealthCheck, Phase, given, seed, settings

    drawn = []
    for batch in range(args.seed, args.seed + args.batches):
        @seed(batch)
        @settings(max_examples=args.programs, deadline=None, database=None, print_blob=False,
                  suppress_health_check=list(HealthCheck), phases=[Phase.generate])
        @given(programs())
        def draw(program):
            drawn.append(program)

        draw()
    for index, program in enumerate(drawn):
        case = subject(program)
        if case.export_error is None:
            yield f"p{args.seed}_{index}", program, case, tolerance(program, case.module, case.inputs)


def prepare(args) -> int:
    import torch
    import torch.utils._pytree as pytree

    import mlc
    from mlc.driver.backends import iree as iree_backend

    out = Path(args.dir)
    out.mkdir(parents=True, exist_ok=True)
    options = {"cuda-sm": args.cuda_sm} if args.target == "cuda" else {}
    if args.target == "llvm-cpu":
        options = {"matmul-library": False}  # the plugin is a file of this machine's
    manifest = {}

    def compile_into(entry, key, model, inputs, **how):
        try:
            compiled = mlc.compile(model, inputs, target=args.target, target_options=options, cache=False, **how)
        except mlc.UserError as error:
            entry.setdefault("compile_errors", {})[str(how)] = str(error).splitlines()[0]
            print(f"{key} {how}: {str(error).splitlines()[0]}", flush=True)
            return
        compiled.save(out / f"{key}.vmfb")
        entry["executables"].append(key)

    if args.models:
        for name, model, inputs in _model_cases(args):
            with torch.no_grad():
                expected = model(*inputs)
            for precision in args.precisions.split(","):
                key = f"{name}_{precision}"
                entry = manifest[key] = _save_case(out, key, inputs, [expected.float()],
                                                   {"budget": BUDGETS[precision]})
                compile_into(entry, key, model, inputs, precision=precision)
    if args.programs:
        for key, program, case, (rtol, atol) in _program_cases(args):
            entry = manifest[key] = _save_case(out, key, case.inputs, pytree.tree_leaves(case.expected),
                                               {"rtol": rtol, "atol": atol, "source": program.source()})
            for level in (2, 0):
                compile_into(entry, f"{key}_O{level}", case.exported, case.inputs, opt_level=level,
                             allow_fallback=False)
    (out / MANIFEST).write_text(json.dumps(manifest, indent=1))
    for tool in TOOLS:
        shutil.copy(iree_backend.runtime_tool(tool), out / tool)
    executables = sum(len(entry["executables"]) for entry in manifest.values())
    print(f"{len(manifest)} cases, {executables} executables in {out}")
    return 0


# --- check (there, with numpy alone) ------------------------------------------------------

# Relative L2 error of a model's output against f32 eager, per precision (README, Precision).
BUDGETS = {"f32": 1e-4, "bf16": 2e-2, "int8": 5e-2}


def _relative_error(got: np.ndarray, want: np.ndarray) -> float:
    return float(np.linalg.norm(got.astype(np.float64) - want) / np.linalg.norm(want.astype(np.float64)))


def _finding(entry: dict, got: np.ndarray, want: np.ndarray, index: int) -> str | None:
    """What is wrong with output `index`, or None."""
    if got.shape != want.shape or got.dtype != want.dtype:
        return f"output {index}: {got.dtype} {list(got.shape)}, eager {want.dtype} {list(want.shape)}"
    if "budget" in entry:
        error = _relative_error(got, want)
        return None if error < entry["budget"] else f"output {index}: relative error {error:.3g} over {entry['budget']}"
    if want.dtype.kind in "fc":
        close = np.isclose(got, want, rtol=entry["rtol"], atol=entry["atol"], equal_nan=True)
    else:
        close = got == want
    if close.all():
        return None
    largest = np.nan_to_num(np.abs(got.astype(np.float64) - want.astype(np.float64)), nan=np.inf).max()
    return f"output {index}: {int((~close).sum())} of {want.size} elements differ, largest by {largest:.3g}"


def _run(directory: Path, device: str, case: str, entry: dict, executable: str) -> str | None:
    inputs = [f"--input=@{case}_in{index}.npy" for index in range(entry["inputs"])]
    outputs = [f"--output=@got_{executable}_{index}.npy" for index in range(entry["outputs"])]
    try:
        done = subprocess.run([f"./{TOOLS[0]}", f"--device={device}", f"--module={executable}.vmfb",
                               "--function=main", *inputs, *outputs], cwd=directory, capture_output=True,
                              text=True, timeout=120)
    except subprocess.TimeoutExpired:
        return "run error: no result in 120 s"
    if done.returncode != 0:
        return "run error: " + done.stderr.strip()[-300:]
    for index in range(entry["outputs"]):
        found = _finding(entry, np.load(directory / f"got_{executable}_{index}.npy"),
                         np.load(directory / f"{case}_want{index}.npy"), index)
        if found:
            return "wrong result: " + found
    return None


def _median_ms(directory: Path, device: str, entry: dict, case: str, executable: str) -> str:
    inputs = [f"--input=@{case}_in{index}.npy" for index in range(entry["inputs"])]
    done = subprocess.run([f"./{TOOLS[1]}", f"--device={device}", f"--module={executable}.vmfb", "--function=main",
                           *inputs, "--benchmark_repetitions=5", "--benchmark_min_time=0.2s"], cwd=directory,
                          capture_output=True, text=True)
    medians = [line.split()[1:3] for line in done.stdout.splitlines() if "_median" in line]
    return " ".join(medians[0]) if medians else "no timing: " + done.stderr.strip()[-200:]


def check(args) -> int:
    directory = Path(args.dir)
    manifest = json.loads((directory / MANIFEST).read_text())
    for tool in TOOLS:
        os.chmod(directory / tool, 0o755)
    jobs = [(case, executable) for case, entry in sorted(manifest.items()) for executable in entry["executables"]]
    with concurrent.futures.ThreadPoolExecutor(args.jobs) as pool:
        found = list(pool.map(lambda job: _run(directory, args.device, job[0], manifest[job[0]], job[1]), jobs))
    findings = [(executable, finding) for (_, executable), finding in zip(jobs, found) if finding]
    for executable, finding in findings:
        print(f"{executable}: {finding}")
    for (case, executable), finding in zip(jobs, found):
        if "budget" in manifest[case] and not finding:  # a model: how far from f32 eager it is
            error = _relative_error(np.load(directory / f"got_{executable}_0.npy"), np.load(directory / f"{case}_want0.npy"))
            print(f"{executable}: relative error {error:.2g}")
    if args.benchmark:
        for case, executable in jobs:
            print(f"{executable}: median {_median_ms(directory, args.device, manifest[case], case, executable)}")
    errors = sum(len(entry.get("compile_errors", {})) for entry in manifest.values())
    print(f"{len(manifest)} cases, {len(jobs)} executables run on {args.device}: {len(findings)} findings "
          f"({errors} compile errors at prepare)")
    return 1 if findings else 0


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    commands = parser.add_subparsers(dest="command", required=True)
    make = commands.add_parser("prepare", help="compile here, with mlc")
    make.add_argument("dir")
    make.add_argument("--target", default="cuda", help="cuda (default), vulkan-spirv or llvm-cpu")
    make.add_argument("--cuda-sm", type=int, default=90)
    make.add_argument("--models", default="", help="compare.py or examples/architectures.py names")
    make.add_argument("--precisions", default="f32")
    make.add_argument("--programs", type=int, default=0, help="random programs per batch")
    make.add_argument("--batches", type=int, default=1)
    make.add_argument("--seed", type=int, default=580000)
    run = commands.add_parser("check", help="run and compare there, with numpy alone")
    run.add_argument("dir")
    run.add_argument("--device", default="cuda", help="IREE's driver: cuda, vulkan, local-task")
    run.add_argument("--jobs", type=int, default=16)
    run.add_argument("--benchmark", action="store_true", help="also time each executable")
    args = parser.parse_args()
    if args.command == "prepare" and not (args.models or args.programs):
        parser.error("prepare needs --models or --programs")
    return prepare(args) if args.command == "prepare" else check(args)


if __name__ == "__main__":
    sys.exit(main())
