"""`mlc-opt`: the mlir-opt of mlc. Parses MLIR holding mlc, torch and upstream
ops, runs a pass pipeline on it, and prints the result."""

import sys
from typing import NoReturn

from torch_mlir import ir

from ... import pipelines
from ...dialects import make_context
from ...errors import UserError
from ...passes import PASSES
from .. import diagnostics
from ..frontend import source
from ..tools import op_facts
from .tool import ArgumentParser, exit_now, run_tool, write_output
from .verify_diagnostics import parse_expectations, verify


def _argument_parser() -> ArgumentParser:
    parser = ArgumentParser(prog="mlc-opt", description=__doc__)
    parser.add_argument("input", nargs="?", default="-", help="input .mlir file ('-' for stdin, the default)")
    parser.add_argument("-o", dest="output", default="-", help="output file ('-' for stdout, the default)")
    parser.add_argument("--pass-pipeline", help="pipeline to run, e.g. 'builtin.module(mlc-simplify,cse)'")
    parser.add_argument("--split-input-file", action="store_true", help="treat '// -----' lines as module boundaries")
    parser.add_argument("--verify-diagnostics", action="store_true", help="check diagnostics against expected-* comments")
    parser.add_argument("--mlir-print-ir-after-all", action="store_true", help="print the IR after each pass (stderr)")
    parser.add_argument("--mlir-timing", action="store_true", help="print each pass's time (stderr)")
    parser.add_argument("--mlir-pass-statistics", action="store_true", help="print what each mlc pass did (stderr)")
    parser.add_argument("--mlir-print-debuginfo", action="store_true", help="print locations in the output")
    parser.add_argument("--mlir-print-op-generic", action="store_true", help="print every op in the generic form")
    parser.add_argument("--list-passes", action="store_true", help="list mlc's passes with their options")
    parser.add_argument("--list-ops", action="store_true",
                        help="list mlc's ops: what each computes, how it fuses, folds and lowers, which torch ops make it")
    parser.add_argument("--list-pipelines", action="store_true", help="list the named pipelines (O0, O1, O2)")
    return parser


def list_passes() -> str:
    lines = ["mlc passes:"]
    for name in sorted(PASSES):
        cls = PASSES[name]
        lines.append(f"  {name:<28} {cls.description()}")
        for option in cls.options():
            help_text = option.metadata.get("help", "")
            type_name = getattr(option.type, "__name__", option.type)
            lines.append(f"      {option.name.replace('_', '-')}=<{type_name}>  {help_text} (default: {option.default})")
    lines.append("")
    lines.append("Upstream MLIR and torch-mlir passes (canonicalize, cse, convert-linalg-to-loops, ...)")
    lines.append("are accepted by their mlir-opt names in the same pipeline.")
    return "\n".join(lines)


def print_statistics(records) -> None:
    """MLIR's statistics report, for mlc's passes."""
    print("===" + "-" * 73 + "===\n" + " " * 27 + "... Pass statistics report ...\n" + "===" + "-" * 73 + "===",
          file=sys.stderr)
    for record in records:
        print(f"'{record.name}'", file=sys.stderr)
        for statistic, value in record.statistics.items():
            print(f"  ({value}) {statistic}", file=sys.stderr)


def _process(chunk, args, name, context, runner, whole_file: bool):
    """Parses and transforms one module; returns (printed module or None, failed)."""
    module = None
    with diagnostics.collect(context) as collector:
        try:
            if whole_file:
                module = source.parse_file(args.input, context)
            else:
                module = source.parse_chunk(chunk, name, context)
            if runner:
                runner.run(module)
        except ir.MLIRError as error:
            collector.add_error(error)
    if args.verify_diagnostics:
        problems = verify(collector.diagnostics, parse_expectations(chunk.text, chunk.first_line), name)
        diagnostics.print_diagnostics(problems)
        failed = bool(problems)
    else:
        diagnostics.print_diagnostics(collector.diagnostics)
        failed = collector.has_errors
    if module is None or collector.has_errors:
        return None, failed
    with context:
        printed = module.get_asm(
            print_generic_op_form=args.mlir_print_op_generic, enable_debug_info=args.mlir_print_debuginfo
        )
    return printed, failed


def _main(argv) -> int:
    args = _argument_parser().parse_args(argv)
    if args.list_passes:
        print(list_passes())
        return 0
    if args.list_pipelines:
        print(pipelines.describe())
        return 0
    if args.list_ops:
        print(op_facts.describe())
        return 0
    context = make_context()
    runner = pipelines.PipelineRunner(args.pass_pipeline, context=context) if args.pass_pipeline else None
    if runner and args.mlir_print_ir_after_all:
        runner.enable_ir_printing()
    if runner and args.mlir_timing:
        runner.enable_timing()

    data = source.read_input(args.input)
    name = "<stdin>" if args.input == "-" else args.input
    is_bytecode = data.startswith(source.BYTECODE_MAGIC)
    text = "" if is_bytecode else source.decode(data, name)
    if is_bytecode and args.split_input_file:
        raise UserError("--split-input-file needs textual MLIR, not bytecode", name)
    chunks = source.split(text) if args.split_input_file else [source.Chunk(text, 1)]
    # A named file is parsed by MLIR's own file parser: exact locations, text or bytecode.
    whole_file = not args.split_input_file and args.input != "-"
    if is_bytecode and not whole_file:
        raise UserError("bytecode on stdin is not supported; pass a file", name)

    outputs, failed = [], False
    for chunk in chunks:
        printed, chunk_failed = _process(chunk, args, name, context, runner, whole_file)
        failed |= chunk_failed
        if printed is not None:
            outputs.append(printed)
    if runner and args.mlir_pass_statistics:
        print_statistics(runner.records)
    write_output("// -----\n".join(outputs), args.output)
    return 1 if failed else 0


def main(argv=None) -> int:
    return run_tool("mlc-opt", lambda: _main(argv))


def command() -> NoReturn:
    """The installed `mlc-opt`: `main` on the command line, then `exit_now`."""
    exit_now("mlc-opt", main())


if __name__ == "__main__":
    command()
