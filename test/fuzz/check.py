"""One random program through mlc, compared with eager: the property the fuzzer and
CI's fixed batch check, the tolerance it allows, and the reproducer a failure leaves."""

import dataclasses
import math
import shlex
import traceback
import zlib
from pathlib import Path

import torch
import torch.utils._pytree as pytree
from graphs import Program

# Per op on the longest path: a relative error of 1e-4 and an absolute one of 1e-5 of
# the largest magnitude the program computes (a difference of two large values may be
# near zero; a correct compiler's rounding differs from eager's there by that much).
RTOL_PER_OP, ATOL_PER_OP = 1e-4, 1e-5


class Finding(AssertionError):
    """A program on which mlc departs from eager: a wrong result or a failed compile."""

    def __init__(self, kind: str, detail: str):
        super().__init__(f"{kind}: {detail}")
        self.kind, self.detail = kind, detail


@dataclasses.dataclass(frozen=True)
class Configuration:
    target: str = "llvm-cpu"
    opt_level: int = 2
    # Every matmul that qualifies on mlc's plugin (MKL), epilogues included, however
    # small: at the default (measured) choice a random program's matmuls are too small.
    matmul_library: bool = False

    def __str__(self):
        return f"{self.target} -O{self.opt_level}" + (" matmul-library=on" if self.matmul_library else "")

    def flags(self) -> list[str]:
        library = ["--matmul-library", "on"] if self.matmul_library else []
        return ["--target", self.target, "-O", str(self.opt_level), *library, "--no-fallback"]

    def target_options(self) -> dict:
        return {"matmul-library": True} if self.matmul_library else {}


# What mlc can hand to the plugin's matmuls: a program with none of these gets no
# matmul-library configuration.
MATMULS = ("F.linear(", "torch.matmul(", "F.conv1d(", "F.conv2d(")


def has_matmul(source: str) -> bool:
    return any(call in source for call in MATMULS)


def configurations(source: str, also: list[str], every: int, library: bool = False) -> list[Configuration]:
    """llvm-cpu at -O0 and -O2; with `library`, -O2 with every matmul on the plugin for a
    program that has one; and the `also` targets at -O2 for about one program in
    `every`, chosen by the program's text: Hypothesis runs a failing program again to
    confirm it, and that run must get the same targets (chosen by a count of the
    programs tried, a finding on a sampled target passed when run again and was never
    reduced)."""
    chosen = [Configuration("llvm-cpu", 0), Configuration("llvm-cpu", 2)]
    if library and has_matmul(source):
        chosen.append(Configuration("llvm-cpu", 2, matmul_library=True))
    if also and zlib.crc32(source.encode()) % every == 0:
        chosen += [Configuration(target, 2) for target in also]
    return chosen


def tolerance(program: Program, module, inputs) -> tuple[float, float]:
    """(rtol, atol) for `program`: each grows with its depth, atol with its magnitudes."""
    every_module, _ = program.instantiate(every_value=True)
    with torch.no_grad():
        values = every_module(*inputs)
    finite = [value.abs()[value.isfinite()] for value in values if value.is_floating_point() and value.numel()]
    scale = max([1.0] + [float(value.max()) for value in finite if value.numel()])
    steps = 1 + program.depth
    return RTOL_PER_OP * steps, ATOL_PER_OP * steps * scale


# What a target refuses by design, each with its own test (test_gpu_targets.py): no finding.
REFUSED_BY_DESIGN = ("without a named Vulkan target cannot compute in float16",
                     "without a named Vulkan target cannot divide int64 values")


@dataclasses.dataclass
class Subject:
    """A program's module, inputs and eager results, and its exported program, which
    every configuration compiles (torch.export traces it once, not once per configuration)."""
    module: torch.nn.Module
    inputs: tuple
    expected: object
    exported: torch.export.ExportedProgram | None
    export_error: Finding | None


_SUBJECTS: dict[str, Subject] = {}  # the last program's, by its source


def subject(program: Program) -> Subject:
    source = program.source()
    if source not in _SUBJECTS:
        _SUBJECTS.clear()
        _SUBJECTS[source] = _subject(program)
    return _SUBJECTS[source]


def _subject(program: Program) -> Subject:
    module, inputs = program.instantiate()
    with torch.no_grad():
        expected = module(*inputs)
    try:  # as mlc.compile exports a module; its failure is the compile's
        exported = torch.export.export(module, inputs, strict=False).run_decompositions({})
    except Exception as error:  # noqa: BLE001 - torch.export raises many types
        return Subject(module, inputs, expected, None, Finding("compile error", f"torch.export failed: {error}"))
    return Subject(module, inputs, expected, exported, None)


def check(program: Program, configuration: Configuration) -> None:
    """Compiles `program` with mlc's own conversions (no fallback) and raises `Finding`
    unless every output matches eager."""
    import mlc

    drawn = subject(program)
    if drawn.export_error:
        raise drawn.export_error
    inputs, expected = drawn.inputs, drawn.expected
    try:
        compiled = mlc.compile(drawn.exported, inputs, target=configuration.target,
                               opt_level=configuration.opt_level, target_options=configuration.target_options(),
                               allow_fallback=False, cache=False)
    except mlc.UserError as error:
        if any(refusal in str(error) for refusal in REFUSED_BY_DESIGN):
            return
        raise Finding("compile error", _first_line(str(error))) from error
    except Exception as error:  # noqa: BLE001 - any other exception is mlc's bug, which the finding names
        raise Finding("crash", f"{type(error).__name__}: {_first_line(str(error))}") from error
    try:
        actual = compiled(*inputs)
    except Exception as error:  # noqa: BLE001
        raise Finding("run error", f"{type(error).__name__}: {_first_line(str(error))}") from error
    rtol, atol = tolerance(program, drawn.module, inputs)
    for index, (got, want) in enumerate(zip(pytree.tree_leaves(actual), pytree.tree_leaves(expected))):
        if got.shape != want.shape or got.dtype != want.dtype:
            raise Finding("wrong result", f"output {index}: {got.dtype} {list(got.shape)}, eager "
                          f"{want.dtype} {list(want.shape)}")
        close = torch.isclose(got, want, rtol=rtol, atol=atol, equal_nan=True)
        if not bool(close.all()):
            error = (got - want).abs().nan_to_num(math.inf).max()
            raise Finding("wrong result", f"output {index} {list(want.shape)}: {int((~close).sum())} of "
                          f"{want.numel()} elements differ, largest by {float(error):.3g} "
                          f"(rtol {rtol:.1e}, atol {atol:.1e})")


def finding(program: Program, configuration: Configuration) -> Finding | None:
    """What `check` finds on `program`, or None where it matches eager."""
    try:
        check(program, configuration)
    except Finding as found:
        return found
    return None


def _first_line(text: str) -> str:
    """The message's first line, and the next where the first only introduces it
    ("IREE failed to compile for llvm-cpu:")."""
    lines = [line.strip() for line in text.strip().splitlines() if line.strip()] or ["(no message)"]
    return " ".join(lines[:2]) if lines[0].endswith(":") else lines[0]


def reproducer(program: Program, configuration: Configuration, finding: Finding) -> str:
    """A script that shows `finding` on its own: the module, its inputs, the comparison
    with eager and the `mlc-compile` line."""
    shapes = " ".join(f"--input-shape {shape}" for shape in program.input_shapes())
    command = f"mlc-compile reproducer.py:Model {shapes} {shlex.join(configuration.flags())}"
    return "\n".join([
        f'"""mlc on a random program ({configuration}): {finding}',
        "",
        "Run it: python reproducer.py (compares with eager). The compile alone:",
        f"    {command}",
        '"""',
        "",
        program.source(),
        "",
        'if __name__ == "__main__":',
        "    import mlc",
        "",
        "    model, inputs = Model().eval(), example_inputs()",
        f"    compiled = mlc.compile(model, inputs, target={configuration.target!r}, "
        f"opt_level={configuration.opt_level}, target_options={configuration.target_options()!r}, "
        "allow_fallback=False, cache=False)",
        "    with torch.no_grad():",
        "        expected = model(*inputs)",
        "    for got, want in zip(compiled(*inputs), expected):",
        "        print('largest difference:', float((got - want).abs().max()))",
        "",
    ])


def write_reproducer(directory: Path, name: str, program: Program, configuration: Configuration,
                     finding: Finding) -> Path:
    directory.mkdir(parents=True, exist_ok=True)
    path = directory / f"{name}.py"
    path.write_text(reproducer(program, configuration, finding))
    return path


def describe(error: BaseException) -> str:
    return "".join(traceback.format_exception_only(type(error), error)).strip()
