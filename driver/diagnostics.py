"""Collects MLIR diagnostics and prints them as `file:line:col: error: message`.

MLIR reports errors raised during parsing, verification or a pass run through
`ir.MLIRError`; warnings and remarks come through the context's handler. Both
end up here as plain `Diagnostic` records.
"""

import contextlib
import dataclasses
import re
import sys

from torch_mlir import ir

_FILE_LINE_COL = re.compile(r'"([^"]*)":(\d+):(\d+)')
_SEVERITIES = {
    ir.DiagnosticSeverity.ERROR: "error",
    ir.DiagnosticSeverity.WARNING: "warning",
    ir.DiagnosticSeverity.NOTE: "note",
    ir.DiagnosticSeverity.REMARK: "remark",
}


@dataclasses.dataclass
class Diagnostic:
    severity: str  # error, warning, note or remark
    message: str
    file: str | None = None
    line: int = 0
    column: int = 0
    notes: list["Diagnostic"] = dataclasses.field(default_factory=list)

    @property
    def location(self) -> str | None:
        return f"{self.file}:{self.line}:{self.column}" if self.file is not None else None

    def format(self) -> str:
        prefix = f"{self.location}: " if self.location else ""
        lines = [f"{prefix}{self.severity}: {self.message}"]
        lines += [note.format() for note in self.notes]
        return "\n".join(lines)


def parse_location(location: ir.Location | str) -> tuple[str | None, int, int]:
    """(file, line, column) of the first file location inside `location`."""
    match = _FILE_LINE_COL.search(str(location))
    if not match:
        return None, 0, 0
    return match.group(1), int(match.group(2)), int(match.group(3))


def from_mlir(diagnostic) -> Diagnostic:
    """Copies an `ir.Diagnostic` or `ir.DiagnosticInfo` (they are only valid briefly)."""
    file, line, column = parse_location(diagnostic.location)
    return Diagnostic(
        severity=_SEVERITIES[diagnostic.severity],
        message=str(diagnostic.message),
        file=file,
        line=line,
        column=column,
        notes=[from_mlir(note) for note in diagnostic.notes],
    )


class DiagnosticCollector:
    """Records every diagnostic of a context while active (see `collect`)."""

    def __init__(self):
        self.diagnostics: list[Diagnostic] = []

    def add_error(self, error: ir.MLIRError) -> None:
        self.diagnostics += [from_mlir(d) for d in error.error_diagnostics]
        if not error.error_diagnostics:
            self.diagnostics.append(Diagnostic("error", error.message))

    @property
    def has_errors(self) -> bool:
        return any(d.severity == "error" for d in self.diagnostics)


@contextlib.contextmanager
def collect(context: ir.Context):
    """Routes the context's diagnostics into a DiagnosticCollector while active."""
    collector = DiagnosticCollector()

    def handler(diagnostic):
        collector.diagnostics.append(from_mlir(diagnostic))
        return True

    handle = context.attach_diagnostic_handler(handler)
    try:
        yield collector
    finally:
        handle.detach()


def print_diagnostics(diagnostics: list[Diagnostic], stream=None) -> None:
    stream = stream or sys.stderr
    for diagnostic in diagnostics:
        print(diagnostic.format(), file=stream)
