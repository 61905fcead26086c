"""The MLIR context of every mlc tool: upstream, torch and mlc dialects loaded."""

from torch_mlir import ir, passmanager
from torch_mlir.dialects import torch as torch_dialect

from .dialect import load_dialect


def _load_torch_mlir_dialects(context: ir.Context) -> None:
    """torch-mlir's Python API registers `torch` but not `torch_c` or `tm_tensor`
    (mlc.scatter lowers to tm_tensor.scatter); running passes that make their ops
    (here on an empty module) loads them as dependent dialects."""
    with context, ir.Location.unknown():
        empty = ir.Module.create()
        passmanager.PassManager.parse(
            "builtin.module(torch-func-backend-type-conversion, func.func(convert-torch-to-tmtensor))"
        ).run(empty.operation)


def make_context() -> ir.Context:
    """A fresh context in which mlc, torch, torch_c, tm_tensor and upstream dialects parse."""
    context = ir.Context()
    torch_dialect.register_dialect(context)
    _load_torch_mlir_dialects(context)
    load_dialect(context)
    return context
