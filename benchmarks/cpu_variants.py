"""Variants of mlc's CPU output, side by side: IREE llvm-cpu at O2 as mlc compiles it (IREE
-O2, data tiling and microkernels), the same without those flags, and mlc's own mlir-cpu path.

    .venv/bin/python benchmarks/cpu_variants.py [--models cnn,transformer_block,resnet18,bert] [--rounds N]

Each variant is checked against PyTorch eager once, then all are timed interleaved;
medians in ms. Dispatches are per call (data tiling adds the packs of activations).
"""

import argparse
import statistics
import sys
import time
from pathlib import Path

import torch

from mlc import pipelines
from mlc.driver import compilation as driver
from mlc.driver.backends import iree as iree_backend
from mlc.driver.backends import targets

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "examples"))
import large_models  # noqa: E402

import models  # noqa: E402


def load(name):
    if name in large_models.FACTORIES:
        return large_models.FACTORIES[name](), large_models.example_inputs(name)
    torch.manual_seed(0)
    return models.FACTORIES[name](), tuple(torch.randn(shape) for shape in models.EXAMPLE_INPUTS[name])


def linalg_module(model, inputs, target):
    """The O2 linalg module for `target` (with or without dispatch regions)."""
    _, module = driver.import_model(model, inputs)
    pipeline = pipelines.get("O2")
    driver.Compilation(module, target=targets.bind(target), pipeline=pipeline).run("linalg")
    return module


def variants(model, inputs):
    """name -> (function of numpy arrays, dispatches per call or None)."""
    built = {}
    for label, flags in (("llvm-cpu O2 (mlc's default)", iree_backend.DATA_TILING_FLAGS),
                         ("llvm-cpu O2, no data tiling", [])):
        vmfb = iree_backend.compile_to_vmfb(linalg_module(model, inputs, "llvm-cpu"), iree_backend.LLVM_CPU, flags)
        built[label] = (iree_backend.host_function(vmfb), iree_backend.dispatch_count(vmfb))
    jit = targets.bind("mlir-cpu")
    built["mlir-cpu O2"] = (jit.load(jit.compile(linalg_module(model, inputs, "mlir-cpu"))), None)
    return built


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--models", default="cnn,transformer_block,resnet18,bert")
    parser.add_argument("--rounds", type=int, default=10)
    args = parser.parse_args()
    print(f"command: python {' '.join(sys.argv)}")
    print("| model | variant | dispatches | median ms | max abs err vs eager |\n| --- | --- | ---: | ---: | ---: |")
    for name in args.models.split(","):
        model, inputs = load(name)
        arrays = [x.numpy() for x in inputs]
        with torch.no_grad():
            expected = model(*inputs).numpy()
        built = variants(model, inputs)
        errors = {label: float(abs(function(*arrays)[0] - expected).max()) for label, (function, _) in built.items()}
        times = {label: [] for label in built}
        for _ in range(args.rounds):
            for label, (function, _) in built.items():
                start = time.perf_counter()
                function(*arrays)
                times[label].append((time.perf_counter() - start) * 1e3)
        for label, (_, dispatches) in built.items():
            shown = "-" if dispatches is None else dispatches
            print(f"| {name} | {label} | {shown} | {statistics.median(times[label]):.3f} | {errors[label]:.1e} |")


if __name__ == "__main__":
    main()
