"""Reading `.mlir` input: a file or stdin, whole or split at `// -----`.

Each split chunk is parsed with its lines at their place in the file, so every
location names the real line.
"""

import dataclasses
import sys

from torch_mlir import ir

from ...errors import UserError

SPLIT_MARKER = "// -----"
BYTECODE_MAGIC = b"ML\xefR"


@dataclasses.dataclass
class Chunk:
    """Source text of one module, and where it starts in the file (1-based)."""

    text: str
    first_line: int

    def padded(self) -> str:
        """The text behind blank lines, so parsed locations give file line numbers."""
        return "\n" * (self.first_line - 1) + self.text


def read_input(path: str) -> bytes:
    """The bytes of `path`, or of stdin for "-"; a UserError if unreadable."""
    try:
        if path == "-":
            if sys.stdin is None:
                raise OSError("standard input is closed")
            return sys.stdin.buffer.read()
        with open(path, "rb") as file:
            return file.read()
    except OSError as error:
        name = "standard input" if path == "-" else f"'{path}'"
        raise UserError(f"could not open input file {name}: {error.strerror or error}") from None


def decode(data: bytes, name: str) -> str:
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as error:
        raise UserError(f"input is neither MLIR text (UTF-8) nor MLIR bytecode: {error}", name) from None


def split(text: str) -> list[Chunk]:
    """Splits at lines that start with `// -----`, as mlir-opt does."""
    chunks, current, first_line = [], [], 1
    for number, line in enumerate(text.splitlines(keepends=True), start=1):
        if line.startswith(SPLIT_MARKER):
            chunks.append(Chunk("".join(current), first_line))
            current, first_line = [], number + 1
        else:
            current.append(line)
    chunks.append(Chunk("".join(current), first_line))
    return chunks


def _as_module(op: ir.Operation) -> ir.Operation:
    if op.name == "builtin.module":
        return op
    module = ir.Module.create(loc=op.location)
    module.body.append(op)
    return module.operation


def parse_chunk(chunk: Chunk, source_name: str, context: ir.Context) -> ir.Operation:
    """Parses one chunk into a builtin.module (implicit when the text has none).

    Raises ir.MLIRError carrying the parser's diagnostics.
    """
    with context, ir.Location.unknown():
        text = chunk.padded()
        try:
            return _as_module(ir.Operation.parse(text, source_name=source_name))
        except ir.MLIRError as error:
            if "single top-level operation" not in str(error):
                raise
        # Several top-level ops: wrap them in a module. The opening brace goes on
        # the padding line before the chunk, so no location moves; a chunk that
        # starts the file has no such line and shifts only its first line's columns.
        if chunk.first_line > 1:
            wrapped = "\n" * (chunk.first_line - 2) + "module {\n" + chunk.text + "\n}"
        else:
            wrapped = "module {" + chunk.text + "\n}"
        return ir.Operation.parse(wrapped, source_name=source_name)


def parse_file(path: str, context: ir.Context) -> ir.Operation:
    """Parses a whole file (text or bytecode) as MLIR's own file parser does."""
    with context:
        return ir.Module.parseFile(path).operation


def parse_bytes(data: bytes, source_name: str, context: ir.Context) -> ir.Operation:
    with context, ir.Location.unknown():
        return _as_module(ir.Operation.parse(data, source_name=source_name))
