"""Where the time goes: every dispatch of one call of `main`, timed by IREE's own
profiler, with the fusion group it runs and the model's source lines.

`compiled.profile(*args)` and `mlc-compile --profile` write the executable and the
inputs to a temporary folder and run IREE's `iree-benchmark-module` there with HAL
profiling on (host execution events: the wall time of each dispatch), in a process
of its own, so nothing of the profiler stays in the caller. `iree-profile` reads the
recording back. The first call (which pages weights in) is dropped; each dispatch's
time is the median over the others.

Dispatches are matched to mlc's plan by position. IREE's scheduling statistics list
the dispatches of `main` in the order one call issues them; the encoding kernels
among them are data tiling's packs, and the others follow the function's program
order: mlc's dispatch regions, and before each region the dispatches IREE forms
itself for ops mlc left outside (a convolution's padded input). When the counts do
not agree, dispatches keep IREE's kernel name only.
"""

import collections
import dataclasses
import json
import statistics
import subprocess
import tempfile
from pathlib import Path

import numpy as np
from torch_mlir import ir

from ...dialects import iree_flow
from ...dialects.locations import source_line
from ...errors import UserError
from ...passes.form_dispatch_regions import GROUP
from ...passes.lower_to_linalg.attention import FUNCTION as ATTENTION
from ...passes.lower_to_linalg.normalization import LAYER_NORM_FUNCTION
from ..backends import iree as iree_backend
from ..backends import matmul_library
from ..backends import parameters as external_parameters
from ..report import Report

# Ops that IREE folds into their consumers or leaves as metadata: no dispatch of their own.
NO_DISPATCH = ("arith.", "tensor.empty", "tensor.dim", "tensor.collapse_shape", "tensor.expand_shape",
               "func.return", "util.", "flow.", "mlc.", "affine.apply")


@dataclasses.dataclass
class PlannedDispatch:
    """What mlc's plan runs at one position: a fusion group, or an op IREE dispatches itself."""

    kind: str  # "fusion group", "formed by IREE", "library matmul", "library attention" or "library layer norm"
    ops: list[str]
    sources: list[str]
    group: int | None = None


def _main(module: ir.Operation):
    """The function `main` of the module, or None."""
    return next((op for op in module.regions[0].blocks[0].operations
                 if op.operation.name == "func.func" and ir.StringAttr(op.attributes["sym_name"]).value == "main"), None)


def plan(module: ir.Operation) -> list[PlannedDispatch]:
    """The dispatches of `main` in program order, from the linalg module with its regions."""
    main = _main(module)
    if main is None:
        return []
    outlined = _outlined_calls(module)
    planned = []
    for op in main.regions[0].blocks[0].operations:
        name = op.operation.name
        if name == iree_flow.DISPATCH_REGION and _calls_library(op):
            planned.append(_library_dispatch(_plugin_calls(op.regions[0].blocks[0]), op))
        elif name == "flow.dispatch" and _entry_point(op) in outlined:
            planned.append(_library_dispatch(outlined[_entry_point(op)], op))
        elif name == iree_flow.DISPATCH_REGION:
            inner = [o for o in op.regions[0].blocks[0].operations if not o.operation.name.startswith(NO_DISPATCH)]
            group = ir.IntegerAttr(op.attributes[GROUP]).value if GROUP in op.attributes else None
            planned.append(PlannedDispatch("fusion group", [o.operation.name for o in inner], _sources(inner),
                                           group=group))
        elif not name.startswith(NO_DISPATCH) and any(isinstance(r.type, ir.ShapedType) for r in op.results):
            planned.append(PlannedDispatch("formed by IREE", [name], _sources([op])))
    return planned


def planned_dispatches(module: ir.Operation, target, report: Report) -> list[PlannedDispatch]:
    """`plan` of the module a target compiles (none for a target without dispatch
    regions), each fusion group named by mlc's ops when no group was inlined."""
    if not (target.is_iree and target.dispatch_regions):
        return []
    planned = plan(module)
    groups = report.fusion_groups or []
    for entry in planned:
        if entry.group is not None and entry.group < len(groups):
            entry.ops = [name.removeprefix("mlc.") for name in groups[entry.group]]
    return planned


def _calls_library(region: ir.Operation) -> bool:
    """A region of `mlc-library-matmuls` or of a lowered mlc.attention or library
    mlc.layer_norm: a call of mlc's plugin."""
    return bool(_plugin_calls(region.regions[0].blocks[0]))


def _plugin_calls(block: ir.Block) -> list:
    return [op for op in block.operations if op.operation.name == iree_flow.UKERNEL]


def _outlined_calls(module: ir.Operation) -> dict:
    """The plugin calls of each executable `mlc-outline-library-dispatches` made, by name."""
    calls = {}
    for op in module.regions[0].blocks[0].operations:
        if op.operation.name != "flow.executable":
            continue
        name = ir.StringAttr(op.attributes["sym_name"]).value
        for inner in op.regions[0].blocks[0].operations:
            if inner.operation.name == "builtin.module":
                for function in inner.regions[0].blocks[0].operations:
                    calls[name] = _plugin_calls(function.regions[0].blocks[0])
    return calls


def _entry_point(dispatch: ir.Operation) -> str:
    return ir.SymbolRefAttr(ir.ArrayAttr(dispatch.attributes["entry_points"])[0]).value[0]


def _library_dispatch(calls: list, op: ir.Operation) -> PlannedDispatch:
    """A matmul, attention's heads or a LayerNorm's rows on mlc's plugin."""
    function = ir.StringAttr(calls[0].attributes["u_kernel_fn_name"]).value
    if function == ATTENTION:
        return PlannedDispatch("library attention", ["mlc.attention"], _sources([op]))
    if function == LAYER_NORM_FUNCTION:
        return PlannedDispatch("library layer norm", ["mlc.layer_norm"], _sources([op]))
    return PlannedDispatch("library matmul", ["linalg.matmul"], _sources([op]))


def _sources(ops) -> list[str]:
    lines = [source_line(op.location) for op in ops]
    return sorted({line for line in lines if line != "unknown location"})


NUMPY_TYPES = {"f32": np.float32, "f16": np.float16, "f64": np.float64, "i64": np.int64, "i32": np.int32,
               "i8": np.int8, "i1": np.bool_}


def example_inputs(module: ir.Operation) -> list[np.ndarray]:
    """Seeded inputs of the types `main` takes (an .mlir model has no example data)."""
    main = _main(module)
    if main is None:
        raise UserError("--profile runs the function 'main', and the module has none")
    generator, arrays = np.random.default_rng(0), []
    for argument in main.regions[0].blocks[0].arguments:
        type_ = argument.type
        element = str(type_.element_type) if isinstance(type_, ir.RankedTensorType) else str(type_)
        if not isinstance(type_, ir.RankedTensorType) or not type_.has_static_shape or element not in NUMPY_TYPES:
            raise UserError(f"--profile needs inputs of static shapes and numeric types; main takes {type_}")
        dtype = NUMPY_TYPES[element]
        values = generator.standard_normal(type_.shape) if np.dtype(dtype).kind == "f" else np.zeros(type_.shape)
        arrays.append(values.astype(dtype))
    return arrays


@dataclasses.dataclass
class DispatchTime:
    position: int  # in the order one call issues them
    kernel: str  # IREE's kernel (executable function) name
    kind: str  # a PlannedDispatch's kind, "data-tiling pack", or "dispatch" when unmatched
    microseconds: float  # median over the profiled calls
    ops: list[str] = dataclasses.field(default_factory=list)
    sources: list[str] = dataclasses.field(default_factory=list)
    group: int | None = None


@dataclasses.dataclass
class Profile:
    """The dispatches of one call, slowest first (see the module docstring)."""

    dispatches: list[DispatchTime]
    call_ms: float  # median wall time of a call, first dispatch start to last end
    calls: int

    def to_dict(self) -> dict:
        return {"call ms": self.call_ms, "calls": self.calls,
                "dispatches": [dataclasses.asdict(d) for d in self.dispatches]}

    def __str__(self) -> str:
        total = sum(d.microseconds for d in self.dispatches) or 1.0
        lines = [f"{len(self.dispatches)} dispatches per call; a call takes {self.call_ms:.3f} ms "
                 f"(median of {self.calls}); dispatch times are medians, slowest first",
                 f"{'us':>10}  {'share':>6}  {'what':<22}  kernel / ops / source"]
        by_kind = collections.Counter()
        for d in sorted(self.dispatches, key=lambda d: -d.microseconds):
            by_kind[d.kind] += d.microseconds
            what = f"fusion group {d.group}" if d.group is not None else d.kind
            detail = d.kernel
            if d.ops:
                detail += f"  [{', '.join(d.ops)}]"
            if d.sources:
                detail += f"  at {', '.join(d.sources[:3])}{' ...' if len(d.sources) > 3 else ''}"
            lines.append(f"{d.microseconds:10.1f}  {100 * d.microseconds / total:5.1f}%  {what:<22}  {detail}")
        lines.append("by kind: " + ", ".join(f"{kind} {100 * t / total:.0f}%" for kind, t in by_kind.most_common()))
        return "\n".join(lines)


def profile(vmfb: bytes, inputs: list[np.ndarray], *, planned: list[PlannedDispatch], calls: int = 20,
            parameters=None, driver: str = "local-task") -> Profile:
    """Runs `main` `calls` + 1 times under IREE's profiler; see the module docstring."""
    if calls < 1:
        raise UserError(f"profile: calls must be at least 1, got {calls}")
    with tempfile.TemporaryDirectory(prefix="mlc-profile-") as directory:
        folder = Path(directory)
        (folder / "model.vmfb").write_bytes(vmfb)
        flags = [f"--module={folder / 'model.vmfb'}", f"--device={driver}", "--function=main",
                 f"--device_allocator={iree_backend.cpu_allocator()}",  # as in this process
                 f"--benchmark_min_time={calls + 1}x", "--device_profiling_mode=host-execution",
                 f"--device_profiling_output={folder / 'run.ireeprof'}"]
        if parameters is not None:
            flags[:0] = [f"--parameters=model={path}" for path in external_parameters.archive_paths(parameters)]
        if matmul_library.calls_plugin(vmfb):
            flags.insert(0, matmul_library.run_flag())
        for i, array in enumerate(inputs):
            np.save(folder / f"input{i}.npy", array)
            flags.append(f"--input=@{folder / f'input{i}.npy'}")
        _run("iree-benchmark-module", flags)
        events = _run("iree-profile", ["dispatch", "--dispatch_events", "--format=jsonl", str(folder / "run.ireeprof")])
    return _summarize(events, getattr(vmfb, "statistics", {}).get("main dispatches", []), planned, runs=calls + 1)


def _run(tool: str, arguments: list[str]) -> str:
    done = subprocess.run([str(iree_backend.runtime_tool(tool)), *arguments], capture_output=True, text=True)
    if done.returncode != 0:
        message = (done.stderr or done.stdout).strip().splitlines()
        raise UserError(f"profiling failed: {tool}: {message[-1] if message else f'exit {done.returncode}'}")
    return done.stdout


def _summarize(jsonl: str, scheduled: list[str], planned: list[PlannedDispatch], runs: int = 0) -> Profile:
    """The dispatches of `runs` calls (0: one submission each). A call submits its work
    once, or once more after each run-time check (mlc.check_nonzero: the host reads a flag
    between two submissions): consecutive submissions make one call when they divide evenly."""
    events = [json.loads(line) for line in jsonl.splitlines() if line.startswith("{")]
    events = [e for e in events if e.get("type") == "host_dispatch_event"]
    by_submission = collections.defaultdict(list)
    for event in events:
        by_submission[event["submission_id"]].append(event)
    submissions = [sorted(by_submission[s], key=lambda e: e["command_index"]) for s in sorted(by_submission)]
    per_call = len(submissions) // runs if runs and len(submissions) % runs == 0 else 1
    calls = [sum(submissions[i:i + per_call], []) for i in range(0, len(submissions), per_call)]
    calls = [c for c in calls if len(c) == len(calls[-1])][1:]  # same program each time; the first is cold
    if not calls:
        raise UserError("profiling failed: IREE's profiler recorded no call of main")
    spans = [(max(e["end_host_time_ns"] for e in c) - min(e["start_host_time_ns"] for e in c)) / 1e6 for c in calls]
    dispatches = [DispatchTime(i, first["key"], "dispatch",
                               statistics.median(c[i]["duration_ns"] for c in calls) / 1e3)
                  for i, first in enumerate(calls[0])]
    _label(dispatches, scheduled, planned)
    return Profile(dispatches, statistics.median(spans), len(calls))


def _label(dispatches: list[DispatchTime], scheduled: list[str], planned: list[PlannedDispatch]) -> None:
    """Data tiling's packs by name; the rest by position in mlc's plan, when it agrees."""
    if [d.kernel for d in dispatches] != scheduled:
        return
    others = [d for d in dispatches if not d.kernel.startswith("_encoding")]
    for d in dispatches:
        if d.kernel.startswith("_encoding"):
            d.kind = "data-tiling pack"
    if len(others) != len(planned):
        return
    for d, p in zip(others, planned):
        d.kind, d.ops, d.sources, d.group = p.kind, p.ops, p.sources, p.group
