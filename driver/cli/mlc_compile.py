"""`mlc-compile`: a model in, an IREE executable (or the IR of any level) out.

    mlc-compile model.py:Net --input-shape 1x3x224x224xf32 -o net.vmfb
    mlc-compile model.py:Net --input-shape 8x64xf32 --emit=mlc
    mlc-compile model.py:Net --input-shape 1x128xi64 -o net.vmfb --params net.irpa
    mlc-compile exported.pt2 -o net.vmfb
    mlc-compile graph.mlir --emit=linalg
"""

# The flags are read and checked here, before torch, torch-mlir and IREE load (5 s of
# imports on an AMD EPYC): a bad flag, a flag that does not apply, or no model is answered
# at once. compile_job.py does the work.

from typing import NoReturn

from ...errors import UserError
from ..levels import LEVELS
from .tool import ArgumentParser, exit_now, run_tool

PROFILE_NEEDS = "--profile runs the executable: it needs --emit=vmfb (the default) and --target llvm-cpu"


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


def _check_flags(args) -> None:
    """What the flags alone can tell is wrong, before anything is loaded."""
    if args.list_targets:
        return
    if args.model is None:
        raise UserError("no model given: mlc-compile MODEL (file.py:Name, .pt2 or .mlir)")
    if args.coverage:
        _check_coverage_flags(args)
    elif args.bisect:
        _check_bisect_flags(args)
    _check_model_flags(args)
    if not (args.coverage or args.bisect):
        _check_output_flags(args)


def _check_model_flags(args) -> None:
    """The flags that apply to one kind of model only."""
    python = ":" in args.model and args.model.rpartition(":")[0].endswith(".py")
    if not args.model.endswith(".py") and ".py:" not in args.model and args.dynamic_dim:
        raise UserError("--dynamic-dim applies to Python models only; .pt2 and .mlir files have their shapes")
    if args.model.endswith(".mlir") and args.input_shape:
        raise UserError("--input-shape applies to Python models only; an .mlir file has its own types")
    if not (python or args.model.endswith((".mlir", ".pt2"))):
        raise UserError(f"cannot tell what '{args.model}' is: expected file.py:Name, a .pt2 or an .mlir file")
    if python and not args.input_shape:
        raise UserError("a Python model needs --input-shape for each input, e.g. --input-shape 1x3x224x224xf32")


def _check_coverage_flags(args) -> None:
    """--coverage checks each target with its defaults and writes no IR or executable."""
    for flag, value in (("--emit", args.emit), ("--params", args.params), ("--cuda-sm", args.cuda_sm), ("--cpu", args.cpu),
                        ("--no-data-tiling", args.no_data_tiling or None), ("--matmul-library", args.matmul_library)):
        if value is not None:
            raise UserError(f"--coverage checks each target with its default options and writes no IR or executable: "
                            f"drop {flag}")


def _check_bisect_flags(args) -> None:
    """--bisect runs the model in eager PyTorch, at its example shapes."""
    if ".py:" not in args.model:
        raise UserError("--bisect compares with eager PyTorch: it needs a Python model (file.py:Name)")
    if args.dynamic_dim or args.params or args.emit:
        raise UserError("--bisect compiles at the example shapes with the weights inline: drop --dynamic-dim, "
                        "--params and --emit")


def _check_output_flags(args) -> None:
    """What is written, and where: args.emit is vmfb unless the flags name a level."""
    args.emit = args.emit or "vmfb"
    if args.emit == "vmfb" and args.output in (None, "-"):
        raise UserError("the executable is binary: name an output file with -o model.vmfb")
    if args.profile and args.emit != "vmfb":
        raise UserError(PROFILE_NEEDS)
    if args.params is not None and args.emit != "vmfb":
        raise UserError(f"--params applies to --emit=vmfb only (at --emit={args.emit} the weights stay in the IR)")
    if args.graph is not None and LEVELS.index(args.emit) < LEVELS.index("mlc"):
        raise UserError("--graph draws the optimized mlc graph: it needs --emit=mlc or later")


def _main(argv) -> int:
    args = _argument_parser().parse_args(argv)
    _check_flags(args)
    from . import compile_job  # torch, torch-mlir and IREE: loaded once the flags are good

    return compile_job.run(args)


def main(argv=None) -> int:
    return run_tool("mlc-compile", lambda: _main(argv))


def command() -> NoReturn:
    """The installed `mlc-compile`: `main` on the command line, then `exit_now`."""
    exit_now("mlc-compile", main())


if __name__ == "__main__":
    command()
