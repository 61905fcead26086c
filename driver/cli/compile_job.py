"""What `mlc-compile` does once its flags are checked (mlc_compile.py): load the model,
compile it to the level asked for, and write what it made. Loading this module loads
torch-mlir and IREE; torch is loaded only for a model (.py, .pt2), not for .mlir input
(1.2 of the 1.8 s of `--emit linalg` on a small .mlir file, AMD EPYC Zen 5)."""

import json
import sys
from pathlib import Path

from torch_mlir import ir

from ...dialects import make_context
from ...errors import UserError
from ...passes.lower_torch_fallback import fallback_note
from .. import diagnostics, executable_cache
from ..backends import matmul_library, targets
from ..compilation import Compilation, detect_level, import_program, resolve_pipeline
from ..frontend import source
from ..levels import LEVELS
from ..progress import Progress
from ..tools import profile as profiling
from ..tools.plan_graph import PlanGraph
from .mlc_compile import PROFILE_NEEDS
from .tool import write_output


def run(args) -> int:
    """The command: --list-targets, --coverage, --bisect, or a compilation to args.emit."""
    if args.list_targets:
        print(targets.describe())
        return 0
    if args.coverage:
        return _coverage(args)
    if args.bisect:
        return _bisect(args)
    return _compile(args)


def _load(args) -> tuple[ir.Operation, str]:
    """The module to compile and its level."""
    program = _load_program(args)
    if program is None:
        return _load_mlir(args)
    return import_program(program, args.allow_fallback), "torch"


def _load_mlir(args) -> tuple[ir.Operation, str]:
    """An .mlir input and its level."""
    context = make_context()
    with diagnostics.collect(context) as collector:
        try:
            source.read_input(args.model)
            module = source.parse_file(args.model, context)
        except ir.MLIRError as error:
            collector.add_error(error)
            raise UserError("\n".join(d.format() for d in collector.diagnostics)) from None
    return module, detect_level(module)


def _load_program(args):
    """The exported program of a .py or .pt2 model; None for an .mlir input."""
    if args.model.endswith(".mlir"):
        return None
    from ..frontend import dynamic_shapes, model_loading, torch_import  # torch, for a model only

    if args.model.endswith(".pt2"):
        return torch_import.prepare(model_loading.load_exported_program(args.model))
    model = model_loading.load_python_model(args.model)
    inputs = tuple(model_loading.example_input(*model_loading.parse_input_shape(s)) for s in args.input_shape)
    dynamic = dynamic_shapes.parse_flags(args.dynamic_dim, len(inputs))
    program = torch_import.export(model, inputs, dynamic)
    args.dynamic_shapes_report = dynamic_shapes.report(program, dynamic, model)
    args.example_inputs = [x.numpy() for x in inputs]
    return program


def _coverage(args) -> int:
    """--coverage: what mlc does with each op type of the model, checked before compiling it."""
    from ..tools import coverage  # torch, for its stand-ins of unknown ops

    chosen = [args.target] if args.target else None
    program = _load_program(args)
    if program is not None:  # ops torch-mlir does not know become rows of the table
        report = coverage.program_coverage(program, chosen)
    else:
        module, level = _load_mlir(args)
        report = coverage.module_coverage(module, chosen, level=level)
    write_output(str(report) + "\n", args.output)
    if args.report:
        write_output(json.dumps(report.to_dict(), indent=2) + "\n", args.report)
    return 0


def _bisect(args) -> int:
    """--bisect: where the compiled result first departs from eager."""
    from ..frontend import model_loading
    from ..tools.bisect import bisect

    model = model_loading.load_python_model(args.model)
    inputs = tuple(model_loading.example_input(*model_loading.parse_input_shape(s)) for s in args.input_shape)
    report = bisect(model, inputs, target=args.target or "llvm-cpu", opt_level=args.opt_level)
    write_output(str(report) + "\n", args.output)
    return 0


def _bound_target(args):
    """The target of args.target with the options its flags give, checked."""
    target_options = {"cuda-sm": args.cuda_sm} if args.cuda_sm is not None else {}
    if args.no_data_tiling:
        target_options["data-tiling"] = False
    if args.matmul_library is not None:
        target_options["matmul-library"] = args.matmul_library
    if args.cpu is not None:
        target_options["cpu"] = args.cpu
    target = targets.bind(args.target or "llvm-cpu", target_options)
    if args.profile and not target.profiles:
        raise UserError(PROFILE_NEEDS)
    if args.params is not None:
        targets.check_external_params(target, args.params)
    return target


def _compile(args) -> int:
    """The model compiled to args.emit and written."""
    target = _bound_target(args)
    progress = Progress(not args.quiet)
    with progress.stage("import"):
        module, level = _load(args)
    if LEVELS.index(level) > LEVELS.index(args.emit):
        raise UserError(f"the input is already at level '{level}', below --emit={args.emit}")
    if args.graph is not None and LEVELS.index(level) > LEVELS.index("mlc"):
        raise UserError(f"--graph draws the mlc graph: the input is already at level '{level}'")
    compilation = Compilation(module, target=target, level=level, pipeline=resolve_pipeline(args.opt_level),
                              precision=args.precision,
                              allow_fallback=args.allow_fallback, params=args.params, repro=args.repro,
                              progress=progress, cache=executable_cache.resolve(args.cache))
    report = compilation.report
    report.input_level = level
    seen = {}
    compilation.observe(lambda reached, module_there: seen.__setitem__(reached, _what_to_keep(reached, module_there,
                                                                                               compilation, args)))
    if getattr(args, "dynamic_shapes_report", None) is not None:
        report.dynamic_shapes = args.dynamic_shapes_report
    vmfb = compilation.run(args.emit)
    if report.retried:
        print(f"mlc-compile: warning: {report.retried.note}", file=sys.stderr)
    if report.fallback:
        print(f"mlc-compile: note: {fallback_note(report.fallback)}", file=sys.stderr)
    if args.graph is not None:
        write_output(seen["mlc"].html(f"mlc fusion plan: {args.model}"), args.graph)
    if args.emit == "vmfb":
        _write_executable(args, compilation, vmfb, seen)
    else:
        with compilation.module.context:
            write_output(compilation.module.get_asm(), args.output)
    if args.report:
        write_output(json.dumps(report.to_json(), indent=2) + "\n", args.report)
    return 0


def _write_executable(args, compilation, vmfb: bytes, seen: dict) -> None:
    """The .vmfb, the matmul plugin beside it where it calls one, and --profile's table."""
    write_output(vmfb, args.output)
    if matmul_library.calls_plugin(vmfb):
        plugin = matmul_library.copy_plugin(Path(args.output).parent)
        print(f"mlc-compile: note: {len(compilation.report.matmul_library['library'])} matmul shape(s) run on mlc's "
              f"matmul library; the executable needs its plugin, written to {plugin}:\n  iree-run-module "
              f"--module={args.output} --device={compilation.runtime_driver} {matmul_library.run_flag(plugin)} "
              "--function=main --input=...", file=sys.stderr)
    if args.profile:
        inputs = getattr(args, "example_inputs", None) or profiling.example_inputs(compilation.module)
        print(profiling.profile(vmfb, inputs, planned=seen.get("target") or [], parameters=args.params,
                                driver=compilation.runtime_driver))


def _what_to_keep(level, module, compilation, args):
    """The optimized graph's picture for --graph, what each dispatch runs for --profile."""
    if level == "mlc" and args.graph is not None:
        return PlanGraph.of(module)
    if level == "target" and args.profile:
        return profiling.planned_dispatches(module, compilation.target, compilation.report)
    return None
