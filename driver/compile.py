"""The whole path: PyTorch model -> torch -> mlc -> (optimized) mlc -> linalg -> IREE executable.

`lower` runs the stages between two levels; the graph passes and the lowering
come from an optimization-level `Pipeline` (mlc.pipelines), and every stage adds
its passes' statistics and times to the report.
"""

import time
import warnings

import torch
from torch_mlir import ir

from .. import pipelines
from ..dialects import make_context
from ..errors import UserError
from ..passes.lower_torch_fallback import fallback_ops
from ..pipelines.torch_to_mlc import torch_to_mlc
from . import diagnostics, executable_cache, reproducer
from .backends import iree as iree_backend
from .backends import parameters as external_parameters
from .backends import targets
from .compiled import Compiled, output_roles
from .executable_cache import ExecutableCache
from .frontend import torch_import
from .frontend.dynamic_shapes import report as dynamic_shapes_report
from .graph_summary import count_ops, fusion_groups, matmul_flops
from .progress import SILENT, Progress
from .tools import profile as profiling
from .tools.plan_graph import PlanGraph

LEVELS = ("torch", "mlc", "linalg", "vmfb")


def print_ir(module: ir.Operation) -> str:
    """Readable IR: weights elided, locations off. Printed in local scope, so without the
    file's resource section: MLIR renders every blob there as hex before it elides it
    (transiently more memory than the weights, and it pages in weights kept on disk)."""
    with module.context:
        return module.get_asm(large_elements_limit=16, use_local_scope=True)


def detect_level(module: ir.Operation) -> str:
    """The level of a parsed module: torch if any torch op is left, else mlc if any mlc op."""
    names = set()
    module.walk(lambda op: names.add(op.name.split(".")[0]) or ir.WalkResult.ADVANCE)
    return "torch" if "torch" in names else "mlc" if "mlc" in names else "linalg"


def run_stage(stage: str, elements: list, module: ir.Operation, report: dict) -> None:
    """Runs one stage's passes; their diagnostics become a UserError."""
    runner = pipelines.PipelineRunner(elements, context=module.context)
    start = time.perf_counter()
    try:
        runner.run(module)
    except ir.MLIRError as error:
        collector = diagnostics.DiagnosticCollector()
        collector.add_error(error)
        raise UserError("\n".join(d.format() for d in collector.diagnostics)) from None
    report["stages"].append({
        "stage": stage,
        "seconds": round(time.perf_counter() - start, 4),
        "passes": [{"name": r.name, "statistics": r.statistics, "seconds": round(r.seconds, 4)} for r in runner.records],
    })


def run_stage_or_reproduce(stage: str, elements: list, module: ir.Operation, report: dict, repro=None) -> None:
    """`run_stage`, keeping the module from before it (a clone: the weights are shared, not
    copied) for a reproducer when the failure is mlc's: any in the graph passes or the
    lowering, and an internal error in converting from torch (an op mlc does not convert
    is the model's)."""
    before = module.clone()
    try:
        run_stage(stage, elements, module, report)
    except UserError as error:
        if stage == "torch to mlc" and "internal error in pass" not in str(error):
            raise
        written = reproducer.for_passes(repro, stage, before, reproducer.pipeline_text(elements))
        raise UserError(f"{error}\n{reproducer.note(written)}") from None
    finally:
        before.erase()


# IREE's CPU code generation refuses a dispatch whose stack frame exceeds 32 KB; some
# groups mlc plans reach it (RegNet's grouped convolutions in NHWC) where IREE's own
# dispatches of the unoptimized graph do not.
TARGET_LIMIT = "exceeded stack allocation limit"


class PlanOverTargetLimit(UserError):
    """IREE could not compile a dispatch of mlc's plan within the target's limits."""


def lower_or_retry(module, *, pipeline: pipelines.Pipeline, report: dict, levels=None, **options):
    """`lower`; when IREE cannot compile mlc's -O2 plan within the target's limits, the
    model is compiled again at -O1 (folding only: IREE forms the dispatches) and
    `report["retried"]` says why, for the caller to tell the user. A pipeline of the
    user's is never replaced."""
    if pipeline != pipelines.get("O2") or options.get("stop") != "vmfb":
        return lower(module, pipeline=pipeline, report=report, levels=levels, **options)
    pristine = module.clone()  # the weights are shared, not copied
    try:
        return lower(module, pipeline=pipeline, report=report, levels=levels, **options)
    except PlanOverTargetLimit as error:
        why = next(line for line in str(error).splitlines() if TARGET_LIMIT in line).split("error: ")[-1]
        retry = pipelines.get("O1")
        report.update(new_report(options["target"], retry), retried={
            "pipeline": "O1", "because": why,
            "note": f"IREE could not compile mlc's -O2 plan for {options['target']} ({why}); "
                    "compiled at -O1 instead (no layout change, no fusion)"})
        if levels is not None:
            for level in [level for level in levels if level != "torch"]:
                del levels[level]
        return lower(pristine, pipeline=retry, report=report, levels=levels, **options)
    finally:
        pristine.erase()


def lower(module, *, start: str, stop: str, target: str, pipeline: pipelines.Pipeline, report: dict, levels=None,
          target_options=None, allow_fallback=True, params=None, repro=None, progress: Progress = SILENT,
          observe=None, cache: ExecutableCache | None = None):
    """Runs the stages after `start` up to `stop`; returns the executable when `stop` is "vmfb".
    With `params` (a path), the large weights go to a parameter archive there, not into the executable.
    A stage that fails for a reason that is not the user's writes a reproducer (to `repro`, a
    directory, or a temporary one) and names it in the error. `observe(level, module)`, if
    given, sees the module at each level reached ("mlc": the optimized graph, "linalg").
    With `cache`, IREE's compile is skipped when it compiled the same module before.

    The "mlc" level is the optimized graph: conversion from torch, then the
    pipeline's graph passes.
    """
    order = LEVELS.index
    folded = external_parameters.keep_folded_weights_on_disk(module.context, params) if params is not None else None

    def reached(level):
        if levels is not None:
            levels[level] = print_ir(module)
        if observe is not None:
            observe(level, module)

    def stage(name: str, elements: list) -> None:
        with progress.stage(name):
            run_stage_or_reproduce(name, elements, module, report, repro)

    if order(start) < order("mlc") <= order(stop):
        stage("torch to mlc", torch_to_mlc(allow_fallback))
        if allow_fallback and fallback_ops(report):  # which ops took torch-mlir's lowering, if any did
            report["fallback"] = fallback_ops(report)
        report["ops"]["after import"] = count_ops(module)
    if order(start) < order("linalg") and order("mlc") <= order(stop) and pipeline.passes:
        stage(f"{pipeline.name} graph passes", pipeline.graph_passes(targets.get(target).runs_alone, targets.get(target).left_outside))
    if order(start) < order("linalg"):
        report["ops"]["after optimization"] = count_ops(module)
        report["matmul flops"] = matmul_flops(module)
        report["fusion groups"] = fusion_groups(module)
    if order(start) <= order("mlc") <= order(stop):
        reached("mlc")
    if order(start) < order("linalg") <= order(stop):
        stage("lowering to linalg", pipeline.lowering(targets.get(target).dispatch_regions))
        reached("linalg")
    if stop != "vmfb":
        return None
    chosen = targets.get(target)
    options = targets.check_options(chosen, target_options or {})
    if chosen.target_passes is not None:
        with progress.stage(f"{target} passes"):
            elements, facts = chosen.target_passes(module, options)
        report.update(facts)
        if elements:
            stage(f"{target} passes", elements)
    planned = profiling.plan(module) if chosen.is_iree and chosen.dispatch_regions else []
    groups = report.get("fusion groups", [])
    if len([p for p in planned if p.group is not None]) == len(groups):  # no group was inlined: name mlc's ops
        for entry in planned:
            if entry.group is not None:
                entry.ops = [name.removeprefix("mlc.") for name in groups[entry.group]]
    if params is not None:
        external_parameters.export(module, params, report, folded=folded)
    begin = time.perf_counter()
    try:
        with progress.stage(f"compile for {target}"):
            artifact = chosen.compile(module, options, cache)
    except reproducer.IreeCompileFailure as failure:
        written = reproducer.for_iree(repro, f"compile for {target}", failure)
        error = PlanOverTargetLimit if TARGET_LIMIT in str(failure) else UserError
        raise error(f"{failure}\n{reproducer.note(written)}") from None
    report["stages"].append({"stage": f"compile for {target}", "seconds": round(time.perf_counter() - begin, 4)})
    if chosen.is_iree:
        report["executable cache"] = artifact.cache
        artifact.planned = planned  # what each dispatch runs, for Compiled.profile
        report["runtime driver"] = iree_backend.runtime_driver(target, report.get("matmul flops"), target_options or {})
        report["dispatches"] = iree_backend.dispatch_count(artifact)
        counted = getattr(artifact, "statistics", {})
        if "regions" in counted:
            report["dispatches by kind"] = dispatch_kinds(counted, report)
        if "data tiling" in counted:
            report["data tiling"] = counted["data tiling"]
        report["distinct kernels"] = iree_backend.kernel_count(artifact)
    return artifact


def pass_statistic(report: dict, pass_name: str, statistic: str) -> int:
    """A statistic of a pass, summed over the stages that ran it."""
    return sum(record["statistics"].get(statistic, 0) for stage in report["stages"]
               for record in stage.get("passes", []) if record["name"] == pass_name)


def dispatch_kinds(counted: dict, report: dict) -> dict:
    """What one call's dispatches are: mlc's dispatch regions (one per fusion group),
    those IREE forms itself (the padded inputs of convolutions, groups inlined for
    untraceable dynamic sizes, ops mlc did not group), and the activation packs of data
    tiling; the matmuls on mlc's matmul library; and what runs once at load (the weights
    packed for the microkernels)."""
    library = pass_statistic(report, "mlc-library-matmuls", "matmuls on the library")
    regions = (pass_statistic(report, "mlc-form-dispatch-regions", "dispatch regions")
               - pass_statistic(report, "mlc-library-matmuls", "regions left empty"))
    return {"mlc dispatch regions": regions, "library matmuls": library,
            "formed by IREE": counted["regions"] - regions - library,
            "data-tiling packs": counted["encodings"], "at load": counted["at load"]}


def new_report(target: str, pipeline: pipelines.Pipeline) -> dict:
    passes = pipeline.names(targets.get(target).dispatch_regions)
    return {"target": target, "pipeline": pipeline.name, "passes": passes, "ops": {}, "stages": []}


def export_model(model: torch.nn.Module, example_args, *, dynamic_shapes=None) -> torch.export.ExportedProgram:
    """The checked model and example inputs, exported (torch_import.export)."""
    if not isinstance(model, torch.nn.Module):
        raise UserError(f"expected a torch.nn.Module, got {type(model).__name__}")
    example_args = tuple(example_args) if isinstance(example_args, (tuple, list)) else (example_args,)
    return torch_import.export(model, example_args, dynamic_shapes)


def import_model(model: torch.nn.Module, example_args, *, dynamic_shapes=None, allow_fallback=True):
    """(program, torch-level module) for a model and its example inputs. Ops torch-mlir
    does not know stop the import; they are reported in one error with every other op
    that would stop the compile (`allow_fallback` says which those are)."""
    program = export_model(model, example_args, dynamic_shapes=dynamic_shapes)
    if torch_import.unknown_ops(program):
        raise UserError(every_unsupported_op(program, allow_fallback))
    return program, torch_import.import_program(program, make_context()).operation


def every_unsupported_op(program: torch.export.ExportedProgram, allow_fallback: bool) -> str:
    """The ops torch-mlir does not know, and then, with zeros standing in for them, the
    ops that conversion (and the fallback, if allowed) would refuse: one round of errors."""
    try:
        unknown = torch_import.stand_in_unknown_ops(program)
    except UserError as error:  # an unknown op with several results: nothing past it can be checked
        return str(error)
    width = max(len(name) for name in unknown)
    lines = [f"{sum(map(len, unknown.values()))} torch op(s) of {len(unknown)} kind(s) are unknown to torch-mlir "
             "(neither mlc nor its fallback can take them):"]
    for name, places in sorted(unknown.items(), key=lambda item: (-len(item[1]), item[0])):
        unique = list(dict.fromkeys(places))
        lines.append(f"  {name:<{width}}  x{len(places)}  at {', '.join(unique[:5])}{' ...' if len(unique) > 5 else ''}")
    try:
        module = torch_import.import_program(program, make_context()).operation
        run_stage("torch to mlc", torch_to_mlc(allow_fallback), module, {"stages": []})
    except UserError as error:
        lines += ["and", str(error)]
    return "\n".join(lines)


def resolve_pipeline(opt_level=2, pipeline=None) -> pipelines.Pipeline:
    if pipeline is not None:
        return pipeline
    if opt_level not in (0, 1, 2):
        raise UserError(f"opt_level must be 0, 1 or 2, got {opt_level!r}")
    return pipelines.get(f"O{opt_level}")


def compile_model(model, example_args, *, target="llvm-cpu", opt_level=2, pipeline=None, dynamic_shapes=None,
                  target_options=None, allow_fallback=True, external_params=False, repro=None,
                  progress=False, cache=True) -> Compiled:
    """See `mlc.compile`."""
    targets.check_options(targets.get(target), target_options or {})
    cache = executable_cache.resolve(cache)
    params, owned = external_parameters.resolve(external_params, targets.get(target))
    pipeline = resolve_pipeline(opt_level, pipeline)
    start = time.perf_counter()
    shown = Progress(progress)
    with shown.stage("import"):
        program, module = import_model(model, example_args, dynamic_shapes=dynamic_shapes,
                                       allow_fallback=allow_fallback)
    output_roles(program)  # refuses a model that changes its buffers before compiling it
    report = new_report(target, pipeline)
    report["dynamic shapes"] = dynamic_shapes_report(program, dynamic_shapes, model)
    levels = {"torch": print_ir(module)}
    plans = {}

    def keep_plan(level, optimized):
        if level == "mlc":
            plans["mlc"] = PlanGraph.of(optimized)

    try:
        artifact = lower_or_retry(module, start="torch", stop="vmfb", target=target, pipeline=pipeline,
                                  report=report, levels=levels, target_options=target_options,
                                  allow_fallback=allow_fallback, params=params, repro=repro, progress=shown,
                                  observe=keep_plan, cache=cache)
    except BaseException:
        if owned:  # the temporary archive is written before IREE compiles; nobody would remove it
            external_parameters.remove(params)
        raise
    if "retried" in report:
        warnings.warn(f"mlc: {report['retried']['note']}", stacklevel=3)
    report["seconds"] = round(time.perf_counter() - start, 3)
    return Compiled(program=program, ir_levels=levels, artifact=artifact, target=target, report=report,
                    parameters=params, owns_parameters=owned, plan=plans.get("mlc"))
