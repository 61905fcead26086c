"""`mlc-compile`: a model in, an IREE executable (or the IR of any level) out.

    mlc-compile model.py:Net --input-shape 1x3x224x224xf32 -o net.vmfb
    mlc-compile model.py:Net --input-shape 8x64xf32 --emit=mlc
    mlc-compile model.py:Net --input-shape 1x128xi64 -o net.vmfb --params net.irpa
    mlc-compile exported.pt2 -o net.vmfb
    mlc-compile graph.mlir --emit=linalg
"""

import json
import sys
from pathlib import Path
from typing import NoReturn

from torch_mlir import ir

from ...dialects import make_context
from ...errors import UserError
from ...passes.lower_torch_fallback import fallback_note
from .. import diagnostics, executable_cache
from ..backends import matmul_library, targets
from ..compilation import LEVELS, Compilation, detect_level, import_program, resolve_pipeline
from ..frontend import dynamic_shapes, model_loading, source, torch_import
from ..progress import Progress
from ..tools import coverage
from ..tools import profile as profiling
from ..tools.bisect import bisect
from ..tools.plan_graph import PlanGraph
from .tool import ArgumentParser, exit_now, run_tool, write_output


def _argument_parser() -> ArgumentParser:
    parser = ArgumentParser(prog="mlc-compile", description=__doc__.split("\n")[0])
    parser.add_argument("model", nargs="?", help="file.py:ClassOrFactory, an ExportedProgram .pt2, or an .mlir file")
    parser.add_argument("--input-shape", action="append", default=[], metavar="DIMSxDTYPE",
                        help="an example input, e.g. 1x3x224x224xf32 (repeat per input; .py models only)")
    parser.add_argument("--dynamic-dim", action="append", default=[], metavar="INPUT:DIM[=NAME]",
                        help="make size DIM of input INPUT dynamic (.py models), e.g. 0:0=batch 0:1=seq; "
                             "sizes sharing a NAME are equal; --report says which torch.export specialized")
    parser.add_argument("--target", help="what to compile for (see --list-targets; default llvm-cpu)")
    parser.add_argument("--list-targets", action="store_true", help="list the targets, what they need, and whether they run here")
    parser.add_argument("--cuda-sm", type=int, metavar="N", help="the CUDA compute capability for --target cuda, e.g. 80 or 90")
    parser.add_argument("--matmul-library", choices=("auto", "on", "off", "mlc"),
                        help="llvm-cpu: run matmuls (f32, and bf16 or int8 at those precisions) on MKL through "
                             "mlc's IREE plugin: auto (the default) where it measured faster than IREE's kernel on "
                             "this CPU, on for every one, off for none, mlc for every one with mlc's own f32 and "
                             "bf16 kernels where they can run it")
    parser.add_argument("--cpu", metavar="NAME",
                        help="llvm-cpu: the LLVM CPU to generate code for (default host: every instruction this CPU "
                             "has); e.g. x86-64-v3 for AVX2 without AVX-512, or another machine's, like sapphirerapids")
    parser.add_argument("--no-data-tiling", action="store_true",
                        help="llvm-cpu: keep IREE's data tiling and microkernels off (they pack matmul operands)")
    parser.add_argument("--emit", choices=LEVELS, help="stop at this level and write it (default vmfb)")
    parser.add_argument("-o", dest="output", default=None, help="output file (text levels default to stdout)")
    parser.add_argument("-O", dest="opt_level", type=int, choices=(0, 1, 2), default=2,
                        help="optimization level: -O0 lowering only, -O1 folding, -O2 (default) BN folding, layout, fusion")
    parser.add_argument("--precision", choices=("f32", "bf16", "int8"), default="f32",
                        help="what matmuls multiply in: f32 (default); bf16 summing in f32 (weights stored in "
                             "bf16; about twice the matmul speed with AVX-512 BF16, about 1e-2 relative error); int8 "
                             "summing in int32, for matmuls by constant weights (weights per column, activations per "
                             "row at run time; -O1 or -O2; about 2e-2 relative error)")
    parser.add_argument("--no-fallback", dest="allow_fallback", action="store_false",
                        help="fail on the torch ops mlc cannot convert, naming each, instead of lowering them with "
                             "torch-mlir's own lowering (the default, which says on stderr which ops took it)")
    parser.add_argument("--allow-fallback", dest="allow_fallback", action="store_true",
                        help="lower the torch ops mlc cannot convert with torch-mlir's (the default)")
    parser.add_argument("--params", metavar="FILE.irpa",
                        help="keep the large weights out of the .vmfb, in an IREE parameter archive "
                             "(run with iree-run-module --parameters=model=FILE.irpa)")
    parser.add_argument("--repro", metavar="DIR",
                        help="where a reproducer goes when a stage fails for a reason that is not the model's "
                             "(a pass raising, IREE failing): the module before the stage, its pipeline or IREE "
                             "flags, and repro.sh (default: a new temporary directory)")
    parser.add_argument("--graph", metavar="FILE.html",
                        help="draw the fusion plan: a self-contained HTML page of the optimized mlc graph, each "
                             "fusion group a numbered box, each op's kind, shape and source line on hover")
    parser.add_argument("--bisect", action="store_true",
                        help="compare with eager after each pass (Python models): print the first pass after which "
                             "the result departs from eager, and the first op it got wrong, with its source line")
    parser.add_argument("--no-cache", dest="cache", action="store_false",
                        help="compile with IREE afresh, not from the executable cache (MLC_CACHE_DIR, default "
                             "~/.cache/mlc; the report's 'executable cache' says hit or miss)")
    parser.add_argument("--quiet", action="store_true",
                        help="no progress on stderr (shown only on a terminal: each stage and its time)")
    parser.add_argument("--coverage", action="store_true",
                        help="print per torch op type whether it converts, lowers, and compiles for each target "
                             "(or --target), then stop; --report writes it as JSON")
    parser.add_argument("--profile", action="store_true",
                        help="llvm-cpu: time each dispatch of 20 calls (example inputs) with IREE's profiler and "
                             "print where the time goes, per fusion group and source line")
    parser.add_argument("--report", metavar="FILE",
                        help="write each pass's statistics and time, op and dispatch counts as JSON ('-' for stdout)")
    return parser


def _load(args) -> tuple[ir.Operation, str]:
    """The module to compile and its level."""
    program = _load_program(args)
    if program is None:
        return _load_mlir(args)
    return import_program(program, args.allow_fallback), "torch"


def _load_mlir(args) -> tuple[ir.Operation, str]:
    """An .mlir input and its level."""
    if args.input_shape:
        raise UserError("--input-shape applies to Python models only; an .mlir file has its own types")
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
    if not args.model.endswith(".py") and ".py:" not in args.model and args.dynamic_dim:
        raise UserError("--dynamic-dim applies to Python models only; .pt2 and .mlir files have their shapes")
    if args.model.endswith(".mlir"):
        return None
    if args.model.endswith(".pt2"):
        program = torch_import.prepare(model_loading.load_exported_program(args.model))
    elif ":" in args.model and args.model.rpartition(":")[0].endswith(".py"):
        if not args.input_shape:
            raise UserError("a Python model needs --input-shape for each input, e.g. --input-shape 1x3x224x224xf32")
        model = model_loading.load_python_model(args.model)
        inputs = tuple(model_loading.example_input(*model_loading.parse_input_shape(s)) for s in args.input_shape)
        dynamic = dynamic_shapes.parse_flags(args.dynamic_dim, len(inputs))
        program = torch_import.export(model, inputs, dynamic)
        args.dynamic_shapes_report = dynamic_shapes.report(program, dynamic, model)
        args.example_inputs = [x.numpy() for x in inputs]
    else:
        raise UserError(f"cannot tell what '{args.model}' is: expected file.py:Name, a .pt2 or an .mlir file")
    return program


def _coverage(args) -> int:
    """--coverage: what mlc does with each op type of the model, checked before compiling it."""
    for flag, value in (("--emit", args.emit), ("--params", args.params), ("--cuda-sm", args.cuda_sm), ("--cpu", args.cpu),
                        ("--no-data-tiling", args.no_data_tiling or None), ("--matmul-library", args.matmul_library)):
        if value is not None:
            raise UserError(f"--coverage checks each target with its default options and writes no IR or executable: "
                            f"drop {flag}")
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
    if ".py:" not in args.model:
        raise UserError("--bisect compares with eager PyTorch: it needs a Python model (file.py:Name)")
    if not args.input_shape:
        raise UserError("a Python model needs --input-shape for each input, e.g. --input-shape 1x3x224x224xf32")
    if args.dynamic_dim or args.params or args.emit:
        raise UserError("--bisect compiles at the example shapes with the weights inline: drop --dynamic-dim, "
                        "--params and --emit")
    model = model_loading.load_python_model(args.model)
    inputs = tuple(model_loading.example_input(*model_loading.parse_input_shape(s)) for s in args.input_shape)
    report = bisect(model, inputs, target=args.target or "llvm-cpu", opt_level=args.opt_level)
    write_output(str(report) + "\n", args.output)
    return 0


def _main(argv) -> int:
    args = _argument_parser().parse_args(argv)
    if args.list_targets:
        print(targets.describe())
        return 0
    if args.model is None:
        raise UserError("no model given: mlc-compile MODEL (file.py:Name, .pt2 or .mlir)")
    if args.coverage:
        return _coverage(args)
    if args.bisect:
        return _bisect(args)
    args.emit = args.emit or "vmfb"
    target_options = {"cuda-sm": args.cuda_sm} if args.cuda_sm is not None else {}
    if args.no_data_tiling:
        target_options["data-tiling"] = False
    if args.matmul_library is not None:
        target_options["matmul-library"] = args.matmul_library
    if args.cpu is not None:
        target_options["cpu"] = args.cpu
    target = targets.bind(args.target or "llvm-cpu", target_options)
    if args.emit == "vmfb" and args.output in (None, "-"):
        raise UserError("the executable is binary: name an output file with -o model.vmfb")
    if args.profile and (args.emit != "vmfb" or not target.profiles):
        raise UserError("--profile runs the executable: it needs --emit=vmfb (the default) and --target llvm-cpu")
    if args.params is not None:
        if args.emit != "vmfb":
            raise UserError(f"--params applies to --emit=vmfb only (at --emit={args.emit} the weights stay in the IR)")
        targets.check_external_params(target, args.params)
    progress = Progress(not args.quiet)
    with progress.stage("import"):
        module, level = _load(args)
    if LEVELS.index(level) > LEVELS.index(args.emit):
        raise UserError(f"the input is already at level '{level}', below --emit={args.emit}")
    if args.graph is not None and LEVELS.index(level) > LEVELS.index("mlc"):
        raise UserError(f"--graph draws the mlc graph: the input is already at level '{level}'")
    if args.graph is not None and LEVELS.index(args.emit) < LEVELS.index("mlc"):
        raise UserError("--graph draws the optimized mlc graph: it needs --emit=mlc or later")
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
        write_output(vmfb, args.output)
        if matmul_library.calls_plugin(vmfb):
            plugin = matmul_library.copy_plugin(Path(args.output).parent)
            print(f"mlc-compile: note: {len(report.matmul_library['library'])} matmul shape(s) run on mlc's matmul "
                  f"library; the executable needs its plugin, written to {plugin}:\n  iree-run-module "
                  f"--module={args.output} --device={compilation.runtime_driver} {matmul_library.run_flag(plugin)} "
                  "--function=main --input=...", file=sys.stderr)
        if args.profile:
            inputs = getattr(args, "example_inputs", None) or profiling.example_inputs(compilation.module)
            print(profiling.profile(vmfb, inputs, planned=seen.get("target") or [], parameters=args.params,
                                    driver=compilation.runtime_driver))
    else:
        with compilation.module.context:
            write_output(compilation.module.get_asm(), args.output)
    if args.report:
        write_output(json.dumps(report.to_json(), indent=2) + "\n", args.report)
    return 0


def _what_to_keep(level, module, compilation, args):
    """The optimized graph's picture for --graph, what each dispatch runs for --profile."""
    if level == "mlc" and args.graph is not None:
        return PlanGraph.of(module)
    if level == "target" and args.profile:
        return profiling.planned_dispatches(module, compilation.target, compilation.report)
    return None


def main(argv=None) -> int:
    return run_tool("mlc-compile", lambda: _main(argv))


def command() -> NoReturn:
    """The installed `mlc-compile`: `main` on the command line, then `exit_now`."""
    exit_now("mlc-compile", main())


if __name__ == "__main__":
    command()
