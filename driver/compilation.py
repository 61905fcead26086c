"""One compilation: a module on its way down the levels torch -> mlc -> linalg -> vmfb.

`Compilation` is the session every entry point drives (`mlc.compile`, `mlc-compile`,
the dynamo backend; coverage and bisect run its stages one by one), modelled on IREE's
compiler Session/Invocation. It holds the module, the target bound to its options once
(backends/target.py), the pipeline of an optimization level (mlc.pipelines) and the
report, and runs the stages: conversion from torch, the graph passes, the lowering,
the target's own passes and its compile. When IREE cannot compile mlc's -O2 plan
within the target's limits, the compilation runs again at -O1 (IREE forms the
dispatches) and the report says why.

Importing it loads no torch: the functions that export and import a PyTorch model load
it, so that mlc-compile takes an .mlir file without it (driver/cli/compile_job.py).
"""

from __future__ import annotations

import os
import time
from typing import TYPE_CHECKING

from torch_mlir import ir

from .. import pipelines
from ..dialects import make_context
from ..errors import UserError
from ..passes.lower_torch_fallback import LowerTorchFallback
from ..pipelines.torch_to_mlc import torch_to_mlc
from . import diagnostics, reproducer
from .backends import iree as iree_backend
from .backends import parameters as external_parameters
from .backends import targets
from .backends.target import BoundTarget
from .backends.weight_store import WeightStore
from .executable_cache import ExecutableCache
from .failures import IreeCompileFailure, PlanOverTargetLimit, StageFailure
from .graph_summary import count_ops, fusion_groups, matmul_flops
from .levels import LEVELS
from .progress import SILENT, Progress
from .report import PassRecord, Report, Retried, StageRecord

if TYPE_CHECKING:
    import torch


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


def run_stage(stage: str, elements: list, module: ir.Operation) -> StageRecord:
    """Runs one stage's passes; their diagnostics become a `StageFailure`."""
    runner = pipelines.PipelineRunner(elements, context=module.context)
    start = time.perf_counter()
    try:
        runner.run(module)
    except ir.MLIRError as error:
        collector = diagnostics.DiagnosticCollector()
        collector.add_error(error)
        raise StageFailure("\n".join(d.format() for d in collector.diagnostics), stage=stage,
                           internal=bool(runner.internal_errors), declined=runner.declined) from None
    return StageRecord(stage, round(time.perf_counter() - start, 4),
                       tuple(PassRecord(r.name, r.statistics, round(r.seconds, 4)) for r in runner.records))


def new_report(target: BoundTarget, pipeline: pipelines.Pipeline, precision: str) -> Report:
    return Report(target=target.name, pipeline=pipeline.name, passes=pipeline.names(target), precision=precision,
                  target_options=dict(target.options) or None)


def export_model(model, example_args, *, dynamic_shapes=None) -> torch.export.ExportedProgram:
    """The checked model and example inputs, exported (torch_import.export); a program
    torch.export made already is checked against the example inputs, if any, and prepared
    for the import (torch_import.prepare)."""
    import torch

    from .frontend import torch_import

    if isinstance(model, torch.export.ExportedProgram):
        if dynamic_shapes is not None:
            raise UserError("dynamic_shapes applies to a torch.nn.Module: an exported program has the shapes "
                            "torch.export.export gave it")
        if example_args is not None:
            check_example_args(model, _as_tuple(example_args))
        return torch_import.prepare(model)
    if not isinstance(model, torch.nn.Module):
        raise UserError(f"expected a torch.nn.Module or a torch.export.ExportedProgram, got {type(model).__name__}")
    if example_args is None:
        raise UserError("a torch.nn.Module needs example_args: a tuple of tensors of the shapes it will take")
    return torch_import.export(model, _as_tuple(example_args), dynamic_shapes)


def _as_tuple(example_args) -> tuple:
    return tuple(example_args) if isinstance(example_args, (tuple, list)) else (example_args,)


def check_example_args(program: torch.export.ExportedProgram, example_args: tuple) -> None:
    """Example inputs given with an exported program must be the ones it takes: the
    compiled model is the program's, whatever the arguments say."""
    import torch
    import torch.utils._pytree as pytree

    from .compiled import shape_matches, user_input_values

    expected = user_input_values(program)
    given = pytree.tree_leaves(example_args)
    if len(given) != len(expected):
        raise UserError(f"the exported program takes {len(expected)} input(s); example_args has {len(given)}")
    for index, (arg, want) in enumerate(zip(given, expected)):
        if not isinstance(arg, torch.Tensor) or arg.dtype != want.dtype or not shape_matches(arg.shape, want.shape):
            got = f"a {list(arg.shape)} {arg.dtype} tensor" if isinstance(arg, torch.Tensor) else type(arg).__name__
            raise UserError(f"example_args[{index}]: the exported program takes a {list(want.shape)} {want.dtype} "
                            f"tensor, got {got}")


def import_model(model: torch.nn.Module, example_args, *, dynamic_shapes=None, allow_fallback=True):
    """(program, torch-level module) for a model and its example inputs. Ops torch-mlir
    does not know stop the import; they are reported in one error with every other op
    that would stop the compile (`allow_fallback` says which those are)."""
    program = export_model(model, example_args, dynamic_shapes=dynamic_shapes)
    return program, import_program(program, allow_fallback)


def import_program(program: torch.export.ExportedProgram, allow_fallback=True) -> ir.Operation:
    """The torch-level module of a prepared exported program (see `import_model`)."""
    from .frontend import torch_import

    if torch_import.unknown_ops(program):
        raise UserError(every_unsupported_op(program, allow_fallback))
    return torch_import.import_program(program, make_context()).operation


def every_unsupported_op(program: torch.export.ExportedProgram, allow_fallback: bool) -> str:
    """The ops torch-mlir does not know, and then, with zeros standing in for them, the
    ops that conversion (and the fallback, if allowed) would refuse: one round of errors."""
    from .frontend import torch_import

    try:
        program, unknown = torch_import.stand_in_unknown_ops(program)
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
        run_stage("torch to mlc", torch_to_mlc(allow_fallback), module)
    except UserError as error:
        lines += ["and", str(error)]
    return "\n".join(lines)


def resolve_pipeline(opt_level=2, pipeline=None) -> pipelines.Pipeline:
    if pipeline is not None:
        return pipeline
    if opt_level not in (0, 1, 2):
        raise UserError(f"opt_level must be 0, 1 or 2, got {opt_level!r}")
    return pipelines.get(f"O{opt_level}")


class Compilation:
    """The module of one compile, the bound target, the pipeline and the report, and
    the stages that take the module from `level` down to a later one.

    `keep_ir` keeps each level's IR as text (`levels`); `observe(level, module)`
    callbacks see the module at each level reached: "mlc" (the optimized graph),
    "linalg", and "target" (what the target compiles, after its own passes)."""

    def __init__(self, module: ir.Operation, *, target: BoundTarget, level: str = "torch", pipeline=None,
                 precision: str = "f32", allow_fallback: bool = True, params: "str | WeightStore | None" = None,
                 repro: str | None = None, progress: Progress = SILENT, cache: ExecutableCache | None = None,
                 keep_ir: bool = False, program: torch.export.ExportedProgram | None = None):
        targets.check_precision(target, precision)
        self.module, self.level, self.target, self.precision = module, level, target, precision
        self.pipeline = (pipeline if pipeline is not None else pipelines.get("O2")).with_precision(precision)
        self.allow_fallback, self.params, self.repro = allow_fallback, params, repro
        self.progress, self.cache, self.program = progress, cache, program
        self.report = new_report(target, self.pipeline, precision)
        self.levels: dict[str, str] | None = {level: print_ir(module)} if keep_ir and level == "torch" else (
            {} if keep_ir else None)
        self.observers: list = []
        self.runtime_driver: str | None = None  # the IREE driver that runs the executable best

    @classmethod
    def of_model(cls, model, example_args, *, target: BoundTarget, dynamic_shapes=None, allow_fallback=True,
                 progress: Progress = SILENT, **options) -> "Compilation":
        """A compilation of a PyTorch model, imported at its example inputs."""
        from .frontend.dynamic_shapes import report as dynamic_shapes_report

        targets.check_precision(target, options.get("precision", "f32"))  # before the import's seconds
        with progress.stage("import"):
            program, module = import_model(model, example_args, dynamic_shapes=dynamic_shapes,
                                           allow_fallback=allow_fallback)
        compilation = cls(module, target=target, allow_fallback=allow_fallback, progress=progress, program=program,
                          **options)
        compilation.report.dynamic_shapes = dynamic_shapes_report(program, dynamic_shapes, model)
        return compilation

    def observe(self, callback) -> "Compilation":
        self.observers.append(callback)
        return self

    def run(self, stop: str = "vmfb"):
        """Runs the stages down to `stop`; returns the executable when `stop` is "vmfb".
        At -O2, a plan IREE cannot compile within the target's limits is compiled again
        at -O1, and `report.retried` says why, for the caller to tell the user. A
        pipeline of the user's is never replaced."""
        if self.pipeline != pipelines.get("O2").with_precision(self.precision) or stop != "vmfb":
            return self._lower(self.module, stop)
        pristine = self.module.clone()  # the weights are shared, not copied
        try:
            return self._lower(self.module, stop)
        except PlanOverTargetLimit as error:
            self.pipeline = pipelines.get("O1").with_precision(self.precision)
            self.report.record(  # in place: a client may hold the report already
                pipeline=self.pipeline.name, passes=self.pipeline.names(self.target), ops={}, stages=[],
                retried=Retried("O1", error.reason,
                                f"IREE could not compile mlc's -O2 plan for {self.target.name} ({error.reason}); "
                                "compiled at -O1 instead (no layout change, no fusion)"))
            if self.levels is not None:
                for level in [level for level in self.levels if level != "torch"]:
                    del self.levels[level]
            self.module = pristine
            pristine = None
            return self._lower(self.module, stop)
        finally:
            if pristine is not None:
                pristine.erase()

    # --- the stages ---------------------------------------------------------------------

    def _reached(self, level: str, module: ir.Operation) -> None:
        if self.levels is not None and level in LEVELS:
            self.levels[level] = print_ir(module)
        for callback in self.observers:
            callback(level, module)

    def _stage(self, name: str, elements: list, module: ir.Operation) -> None:
        """Runs a stage, shown as one step of the progress display."""
        with self.progress.stage(name):
            self._run_stage(name, elements, module)

    def _run_stage(self, name: str, elements: list, module: ir.Operation) -> None:
        """Runs a stage's passes; when they fail for a reason that is not the model's (any
        failure in the graph passes or the lowering, an internal error in converting from
        torch), a reproducer holds the module from before it (a clone: the weights are
        shared)."""
        before = module.clone()
        try:
            self.report.stages.append(run_stage(name, elements, module))
        except StageFailure as failure:
            if name == "torch to mlc" and not failure.internal:
                raise
            written = reproducer.for_passes(self.repro, name, before, reproducer.pipeline_text(elements))
            raise StageFailure(f"{failure}\n{reproducer.note(written)}", stage=failure.stage,
                               internal=failure.internal, declined=failure.declined) from None
        finally:
            before.erase()

    def _lower(self, module: ir.Operation, stop: str):
        order, start, report, pipeline = LEVELS.index, self.level, self.report, self.pipeline
        folded = (external_parameters.keep_folded_weights_on_disk(module.context, self._archive_directory())
                  if self.params is not None else None)
        if order(start) < order("mlc") <= order(stop):
            self._stage("torch to mlc", torch_to_mlc(self.allow_fallback), module)
            if self.allow_fallback:  # which ops took torch-mlir's lowering, if any did
                report.fallback = report.pass_statistics(LowerTorchFallback.name) or None
            report.ops["after import"] = count_ops(module)
        if order(start) < order("linalg") and order("mlc") <= order(stop) and pipeline.passes:
            self._stage(f"{pipeline.name} graph passes", pipeline.graph_passes(self.target), module)
        if order(start) < order("linalg"):
            report.ops["after optimization"] = count_ops(module)
            report.matmul_flops = matmul_flops(module)
            report.fusion_groups = fusion_groups(module)
        if order(start) <= order("mlc") <= order(stop):
            self._reached("mlc", module)
        if order(start) < order("linalg") <= order(stop):
            self._stage("lowering to linalg", pipeline.lowering(self.target), module)
            self._reached("linalg", module)
        if stop != "vmfb":
            return None
        return self._compile(module, folded)

    def _archive_directory(self) -> str:
        """Where the weights go: the store's directory, or the archive's."""
        if isinstance(self.params, WeightStore):
            return self.params.directory
        return os.path.dirname(os.path.abspath(self.params))

    def _compile(self, module: ir.Operation, folded):
        target, report = self.target, self.report
        if target.target_passes is not None:
            # One step of the progress display: choosing the passes (matmul_choice may time
            # kernels) and running them (on an AVX2 CPU always mlc-conv-tiles), where a
            # display of each showed "llvm-cpu passes" twice.
            with self.progress.stage(f"{target.name} passes"):
                weights_fixed = self.params is None or isinstance(self.params, WeightStore)
                elements, facts = target.passes(module, weights_fixed=weights_fixed, flops=report.matmul_flops)
                report.record(**facts)
                if elements:
                    self._run_stage(f"{target.name} passes", elements, module)
        self._reached("target", module)
        if isinstance(self.params, WeightStore):
            self.params.export(module, report, folded=folded)
        elif self.params is not None:
            external_parameters.export(module, self.params, report, folded=folded)
        begin = time.perf_counter()
        try:
            with self.progress.stage(f"compile for {target.name}"):
                artifact = target.compile(module, self.cache)
        except IreeCompileFailure as failure:
            written = reproducer.for_iree(self.repro, f"compile for {target.name}", failure)
            message = f"{failure}\n{reproducer.note(written)}"
            if failure.over_target_limit:
                raise PlanOverTargetLimit(message, failure.first_error.split("error: ")[-1]) from None
            raise UserError(message) from None
        report.stages.append(StageRecord(f"compile for {target.name}", round(time.perf_counter() - begin, 4)))
        self.runtime_driver = report.runtime_driver or target.driver_for(report.matmul_flops)
        if target.is_iree:
            self._report_executable(artifact)
        return artifact

    def _report_executable(self, artifact) -> None:
        report = self.report
        report.executable_cache = artifact.cache
        report.runtime_driver = self.runtime_driver
        report.dispatches = iree_backend.dispatch_count(artifact)
        counted = getattr(artifact, "statistics", {})
        if "regions" in counted:
            report.dispatches_by_kind = dispatch_kinds(counted, report)
        report.data_tiling = counted.get("data tiling")
        report.distinct_kernels = iree_backend.kernel_count(artifact)


def dispatch_kinds(counted: dict, report: Report) -> dict:
    """What one call's dispatches are: mlc's dispatch regions (one per fusion group),
    those IREE forms itself (the padded inputs of convolutions, groups inlined for
    untraceable dynamic sizes, ops mlc did not group), and the activation packs of data
    tiling; the matmuls, attention heads and LayerNorms on mlc's matmul library; and what runs once at load (the
    weights packed for the microkernels)."""
    library = report.pass_statistic("mlc-library-matmuls", "matmuls on the library")
    attention = report.pass_statistic("mlc-form-attention", "attentions formed")  # on the library
    layer_norms = report.pass_statistic("mlc-library-layer-norms", "layer norms on the library")
    regions = (report.pass_statistic("mlc-form-dispatch-regions", "dispatch regions")
               - report.pass_statistic("mlc-library-matmuls", "regions left empty")
               - report.pass_statistic("mlc-attention-output-views", "transposes written by the attention"))
    return {"mlc dispatch regions": regions, "library matmuls": library, "library attention": attention,
            "library layer norms": layer_norms,
            "formed by IREE": counted["regions"] - regions - library - attention - layer_norms,
            "data-tiling packs": counted["encodings"], "at load": counted["at load"]}
