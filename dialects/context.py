"""The MLIR context of every mlc tool: upstream, torch and mlc dialects loaded."""

from torch_mlir import ir, passmanager
from torch_mlir.dialects import torch as torch_dialect

from .dialect import load_dialect


def _load_torch_conversion_dialect(context: ir.Context) -> None:
    """torch-mlir's Python API registers `torch` but not `torch_c`; running one of
    its passes (here on an empty module) loads `torch_c` as a dependent dialect."""
    with context, ir.Location.unknown():
        empty = ir.Module.create()
        passmanager.PassManager.parse("builtin.module(torch-func-backend-type-conversion)").run(empty.operation)


def make_context() -> ir.Context:
    """A fresh context in which mlc, torch, torch_c and upstream dialects parse."""
    context = ir.Context()
    torch_dialect.register_dialect(context)
    _load_torch_conversion_dialect(context)
    load_dialect(context)
    return context
