"""`--verify-diagnostics`: checks emitted diagnostics against `expected-*` comments.

As in mlir-opt, a comment `// expected-error @+1 {{message}}` expects an error
whose message contains `message` on the line below; `@-N`, `@+N`, `@above`,
`@below` and `@unknown` (no location) also work, and with no `@` the comment's
own line is meant. Every emitted diagnostic must be expected, and every
expectation met.
"""

import dataclasses
import re

from ..diagnostics import Diagnostic

_EXPECTED = re.compile(
    r"expected-(?P<severity>error|warning|note|remark)"
    r"(?:\s*@(?P<offset>[+-]\d+|above|below|unknown))?"
    r"\s*\{\{(?P<message>.*?)\}\}"
)


@dataclasses.dataclass
class Expectation:
    severity: str
    message: str
    line: int | None  # None: a diagnostic with no location
    comment_line: int
    column: int
    matched: bool = False


def _target_line(offset: str | None, comment_line: int, lines: list[str]) -> int | None:
    if offset is None:
        return comment_line
    if offset == "unknown":
        return None
    if offset in ("above", "below"):
        step = -1 if offset == "above" else 1
        line = comment_line + step
        # the nearest line that is not itself only an expected-* comment
        while 1 <= line <= len(lines) and _EXPECTED.search(lines[line - 1]) and lines[line - 1].lstrip().startswith("//"):
            line += step
        return line
    return comment_line + int(offset)


def parse_expectations(text: str, first_line: int) -> list[Expectation]:
    lines = text.splitlines()
    all_lines = [""] * (first_line - 1) + lines
    expectations = []
    for index, line in enumerate(lines):
        number = first_line + index
        for match in _EXPECTED.finditer(line):
            expectations.append(
                Expectation(
                    severity=match.group("severity"),
                    message=match.group("message"),
                    line=_target_line(match.group("offset"), number, all_lines),
                    comment_line=number,
                    column=match.start() + 1,
                )
            )
    return expectations


def _flatten(diagnostics: list[Diagnostic]) -> list[Diagnostic]:
    flat = []
    for diagnostic in diagnostics:
        flat.append(diagnostic)
        flat += _flatten(diagnostic.notes)
    return flat


def verify(diagnostics: list[Diagnostic], expectations: list[Expectation], source_name: str) -> list[Diagnostic]:
    """Matches diagnostics to expectations; returns the mismatches as errors."""
    problems = []
    for diagnostic in _flatten(diagnostics):
        line = diagnostic.line if diagnostic.file is not None else None
        match = next(
            (
                e
                for e in expectations
                if not e.matched
                and e.severity == diagnostic.severity
                and e.line == line
                and e.message in diagnostic.message
            ),
            None,
        )
        if match:
            match.matched = True
        else:
            problems.append(
                Diagnostic(
                    "error",
                    f"unexpected {diagnostic.severity}: {diagnostic.message}",
                    diagnostic.file if diagnostic.file is not None else source_name,
                    diagnostic.line,
                    diagnostic.column,
                )
            )
    for expectation in expectations:
        if not expectation.matched:
            problems.append(
                Diagnostic(
                    "error",
                    f'expected {expectation.severity} "{expectation.message}" was not produced',
                    source_name,
                    expectation.comment_line,
                    expectation.column,
                )
            )
    return problems
