"""The whole path: PyTorch model -> torch -> mlc -> linalg -> IREE executable.

Each level is a named pipeline of passes; `compile_model` runs them in order
and keeps the IR text of each level for `Compiled.ir`.
"""

import time

import torch
from torch_mlir import ir

from .. import pipelines
from ..dialects import make_context
from ..errors import UserError
from . import diagnostics, iree_backend, torch_import
from .compiled import Compiled

LEVELS = ("torch", "mlc", "linalg", "vmfb")
TORCH_TO_MLC = (
    "builtin.module(torch-func-backend-type-conversion, mlc-convert-torch-to-mlc,"
    " func.func(torch-finalizing-backend-type-conversion), canonicalize, cse)"
)
MLC_TO_LINALG = "builtin.module(mlc-lower-to-linalg, canonicalize, cse)"
STAGES = {"mlc": TORCH_TO_MLC, "linalg": MLC_TO_LINALG}


def print_ir(module: ir.Operation) -> str:
    """Readable IR: weights elided, locations off."""
    with module.context:
        return module.get_asm(large_elements_limit=16, large_resource_limit=64)


def run_stage(level: str, module: ir.Operation, report: dict) -> None:
    """Runs the pipeline that produces `level`; diagnostics become a UserError."""
    runner = pipelines.PipelineRunner(STAGES[level], context=module.context)
    start = time.perf_counter()
    try:
        runner.run(module)
    except ir.MLIRError as error:
        collector = diagnostics.DiagnosticCollector()
        collector.add_error(error)
        raise UserError("\n".join(d.format() for d in collector.diagnostics)) from None
    report["stages"].append({
        "level": level,
        "seconds": round(time.perf_counter() - start, 4),
        "passes": [{"name": r.name, "statistics": r.statistics, "seconds": round(r.seconds, 4)} for r in runner.records],
    })


def detect_level(module: ir.Operation) -> str:
    """The level of a parsed module: torch if any torch op is left, else mlc if any mlc op."""
    names = set()
    module.walk(lambda op: names.add(op.name.split(".")[0]) or ir.WalkResult.ADVANCE)
    return "torch" if "torch" in names else "mlc" if "mlc" in names else "linalg"


def lower(module: ir.Operation, *, start: str, stop: str, target: str, report: dict, levels: dict | None = None):
    """Runs the stages after `start` up to `stop`; returns the vmfb when `stop` is "vmfb"."""
    order = LEVELS.index
    for level in ("mlc", "linalg"):
        if order(start) < order(level) <= order(stop):
            run_stage(level, module, report)
            if levels is not None:
                levels[level] = print_ir(module)
    if stop != "vmfb":
        return None
    begin = time.perf_counter()
    vmfb = iree_backend.compile_to_vmfb(module, target)
    report["stages"].append({"level": "vmfb", "seconds": round(time.perf_counter() - begin, 4)})
    return vmfb


def import_model(model: torch.nn.Module, example_args, *, dynamic_shapes=None):
    """(program, torch-level module) for a model and its example inputs."""
    if not isinstance(model, torch.nn.Module):
        raise UserError(f"expected a torch.nn.Module, got {type(model).__name__}")
    example_args = tuple(example_args) if isinstance(example_args, (tuple, list)) else (example_args,)
    program = torch_import.export(model, example_args, dynamic_shapes)
    return program, torch_import.import_program(program, make_context()).operation


def compile_model(model: torch.nn.Module, example_args, *, target: str = "llvm-cpu", dynamic_shapes=None) -> Compiled:
    """See `mlc.compile`."""
    iree_backend.check_target(target)
    program, module = import_model(model, example_args, dynamic_shapes=dynamic_shapes)
    report = {"target": target, "stages": []}
    levels = {"torch": print_ir(module)}
    vmfb = lower(module, start="torch", stop="vmfb", target=target, report=report, levels=levels)
    return Compiled(program=program, ir_levels=levels, vmfb=vmfb, target=target, report=report)
