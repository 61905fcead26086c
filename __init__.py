"""mlc: an MLIR-based compiler for PyTorch models.

    compiled = mlc.compile(model, example_args, target="llvm-cpu")
    compiled(x)             # runs the IREE executable, returns torch tensors
    compiled.ir("mlc")      # the optimized model in mlc's graph dialect
    compiled.report         # what each pass did, its time, the dispatch count
    compiled.save("m.vmfb")
"""

import json

from .errors import UserError

__all__ = ["compile", "UserError"]


def compile(model, example_args, *, target: str = "llvm-cpu", opt_level: int = 2, pipeline=None,
            dynamic_shapes=None, report=None, target_options=None):
    """Compiles `model` for `target` ("llvm-cpu"); returns a callable `Compiled`.

    `example_args` is a tuple of tensors (or one tensor) of the shapes and dtypes
    the compiled model will take. `opt_level` 0, 1 or 2 picks a pipeline from
    `mlc.pipelines.get`; `pipeline` gives one directly (e.g. an edited O2).
    `dynamic_shapes` means what it means to `torch.export.export`. `report`
    names a file to write the JSON report to (it is also `compiled.report`).
    `target_options` holds a target's own options (`mlc-compile --list-targets`).
    """
    from .driver.compile import compile_model

    compiled = compile_model(model, example_args, target=target, opt_level=opt_level, pipeline=pipeline,
                             dynamic_shapes=dynamic_shapes, target_options=target_options)
    if report is not None:
        with open(report, "w") as file:
            json.dump(compiled.report, file, indent=2)
    return compiled
