"""mlc: an MLIR-based compiler for PyTorch models.

    compiled = mlc.compile(model, example_args, target="llvm-cpu")
    compiled(x)             # runs the IREE executable, returns torch tensors
    compiled.ir("mlc")      # the optimized model in mlc's graph dialect
    compiled.report         # what each pass did, its time, the dispatch count
    compiled.save("m.vmfb")
"""

import json

from .driver.frontend import torchvision_ops
from .errors import UserError

torchvision_ops.install()  # `import torchvision` works after `import mlc` (see the module)

__all__ = ["bisect", "compile", "coverage", "generator", "UserError", "WeightStore"]


def __getattr__(name):
    if name == "WeightStore":  # loaded when asked for, as the compiler is
        from .driver.backends.weight_store import WeightStore

        return WeightStore
    raise AttributeError(f"module 'mlc' has no attribute '{name}'")


def compile(model, example_args=None, *, target: str = "llvm-cpu", opt_level: int = 2, pipeline=None,
            precision: str = "f32", dynamic_shapes=None, report=None, target_options=None,
            allow_fallback: bool = True, external_params=False, repro=None, progress: bool = False, cache=True):
    """Compiles `model` for `target` ("llvm-cpu"); returns a callable `Compiled`.

    `example_args` is a tuple of tensors (or one tensor) of the shapes and dtypes
    the compiled model will take. `model` may also be a `torch.export.ExportedProgram`;
    its own inputs are then the example (`example_args` may be None, or must match them),
    and one in ATen's inference dialect (`run_decompositions` ran) is not traced again. `opt_level` 0, 1 or 2 picks a pipeline from
    `mlc.pipelines.get`; `pipeline` gives one directly (e.g. an edited O2).
    `precision="bf16"` multiplies the matmuls in bfloat16, summing in float32 (weights
    stored in bf16; everything else stays float32): about twice the matmul speed on CPUs
    with AVX-512 BF16, at about 1e-2 relative error (README, Precision).
    `precision="int8"` multiplies the matmuls by constant weights in int8, summing in
    int32 (weights quantized per column when compiling, activations per row at each call,
    as torch's quantize_dynamic; a quarter of the weight bytes), at about 2e-2 relative
    error; it needs -O1 or -O2, which fold the weights to constants.
    `dynamic_shapes` means what it means to `torch.export.export`. `report`
    names a file to write the JSON report to (it is also `compiled.report`).
    `target_options` holds a target's own options (`mlc-compile --list-targets`).
    `allow_fallback` (on by default) hands the torch ops mlc cannot convert to
    torch-mlir's own lowering; `compiled.report["fallback"]` counts them.
    `allow_fallback=False` fails instead, naming every such op: for those who want
    every op through mlc's passes.
    `external_params` keeps the large weights out of the executable, in an IREE
    parameter archive: True for a temporary file the result owns, or a path
    ("weights.irpa"); `compiled.save("m.vmfb")` then also writes "m.irpa". Or an
    `mlc.WeightStore()` passed to several compiles of one model: each weight is held
    once for all of them (what `mlc.generator` does).
    `repro` names the directory a reproducer goes to when a stage fails for a reason
    that is not the user's (default: a new temporary one; the error names it).
    `progress=True` shows each stage and its time on stderr, when stderr is a terminal.
    `cache` keeps IREE's executables between compiles and processes: True (the default)
    uses `MLC_CACHE_DIR` or ~/.cache/mlc, a path uses that directory, False compiles
    afresh. mlc's passes run either way; `compiled.report["executable cache"]` says
    "hit" when IREE's compile was skipped.
    """
    from .driver.compile import compile_model

    compiled = compile_model(model, example_args, target=target, opt_level=opt_level, pipeline=pipeline,
                             precision=precision, dynamic_shapes=dynamic_shapes, target_options=target_options,
                             allow_fallback=allow_fallback, external_params=external_params, repro=repro,
                             progress=progress, cache=cache)
    if report is not None:
        with open(report, "w") as file:
            json.dump(compiled.report.to_json(), file, indent=2)
    return compiled


def generator(model, *, max_cache_len: int = 256, prompt_buckets="powers-of-two", **compile_options):
    """A Hugging Face causal LM compiled for generation with a static key/value cache.

    `generator.generate(input_ids, max_new_tokens, **options)` gives what `model.generate(
    input_ids, max_new_tokens=..., **options)` gives: greedy, or sampled (`do_sample`,
    `temperature`, `top_k`, `top_p`, `min_p`) at the same seed, with the model's generation
    config for what `options` leave unset (`input_ids` [batch, length]: prompts of one
    length; the prompt plus the new tokens fit in `max_cache_len`), and `generator.timings`
    the time to first token and per token.
    `compile_options` are `mlc.compile`'s (`target`, `precision`, `opt_level`, ...); the
    prefill and the decode step are compiled on first use. A prompt runs right-padded to the
    smallest of `prompt_buckets` that holds it, so one prefill executable serves each
    bucket: "powers-of-two" (16, 32, 64, ... up to `max_cache_len`), "exact" (one per
    prompt length), or a list of lengths (a prompt past the largest runs at its own).
    """
    from .driver.tools.generate import Generator

    return Generator(model, max_cache_len=max_cache_len, prompt_buckets=prompt_buckets, **compile_options)


def coverage(model, example_args, *, dynamic_shapes=None, targets=None):
    """What mlc can do with each torch op type of `model`, checked before compiling it.

    Returns a `CoverageReport`: per op type its count and source lines, whether it
    converts to mlc (into which ops), whether those lower to linalg, whether
    torch-mlir's fallback lowers it when mlc cannot, and whether each target
    (`targets`, default all) compiles it; `str(report)` is a table, with every
    failure and its source lines, and `report.to_dict()` is JSON-ready.
    """
    from .driver.tools.coverage import coverage as check_coverage

    return check_coverage(model, example_args, dynamic_shapes=dynamic_shapes, targets=targets)


def bisect(model, example_args, *, target: str = "llvm-cpu", opt_level: int = 2, pipeline=None, rtol: float = 1e-4,
           atol: float = 1e-4):
    """Where mlc's result first departs from eager: the pass after which it does, and the
    first op of that pass's output whose value eager never computed at its source line.
    Returns a `BisectReport` (`pass_name`, `op`, `location`, `max_error`; None where all
    match) whose str() says it in one line. `pipeline` may hold passes of your own."""
    from .driver.tools.bisect import bisect as bisect_model

    return bisect_model(model, example_args, target=target, opt_level=opt_level, pipeline=pipeline, rtol=rtol,
                        atol=atol)
