"""Textual pass pipelines in MLIR's syntax, where mlc and upstream passes mix.

    builtin.module(mlc-fuse, func.func(canonicalize, cse), mlc-lower-to-linalg{opt=1})

MLIR cannot name Python passes in its own pipeline strings, so mlc parses the
text itself: names in mlc's registry become Python passes, and every other
element goes to MLIR's pass manager as text, which checks it.
"""

import dataclasses
import re

from ..errors import UserError
from ..passes import registry

SOURCE_NAME = "<pass-pipeline>"


@dataclasses.dataclass
class PassElement:
    name: str
    options: dict[str, str]
    options_text: str
    column: int

    def text(self) -> str:
        return f"{self.name}{{{self.options_text}}}" if self.options_text else self.name

    def is_mlc(self) -> bool:
        return self.name in registry.PASSES


@dataclasses.dataclass
class Anchor:
    """`op-name(...)`: the nested elements run on each op of that name."""

    op_name: str
    elements: list
    column: int

    def text(self) -> str:
        return f"{self.op_name}({','.join(e.text() for e in self.elements)})"

    def has_mlc_pass(self) -> bool:
        return any(e.has_mlc_pass() if isinstance(e, Anchor) else e.is_mlc() for e in self.elements)


class _Parser:
    NAME = re.compile(r"[A-Za-z0-9_.\-]+")

    def __init__(self, text: str):
        self.text = text
        self.pos = 0

    def error(self, message: str, pos: int | None = None) -> UserError:
        return UserError(message, f"{SOURCE_NAME}:1:{(self.pos if pos is None else pos) + 1}")

    def skip_space(self):
        while self.pos < len(self.text) and self.text[self.pos].isspace():
            self.pos += 1

    def peek(self) -> str:
        self.skip_space()
        return self.text[self.pos] if self.pos < len(self.text) else ""

    def expect(self, char: str):
        if self.peek() != char:
            found = repr(self.peek()) if self.peek() else "end of pipeline"
            raise self.error(f"expected '{char}', found {found}")
        self.pos += 1

    def element(self):
        self.skip_space()
        start = self.pos
        match = self.NAME.match(self.text, self.pos)
        if not match:
            found = repr(self.peek()) if self.peek() else "end of pipeline"
            raise self.error(f"expected a pass or op name, found {found}")
        self.pos = match.end()
        name = match.group()
        if self.peek() == "(":
            self.pos += 1
            elements = self.elements(closing=")")
            self.expect(")")
            return Anchor(name, elements, start)
        options_text = ""
        if self.peek() == "{":
            options_text = self.braced()
        return PassElement(name, self.options(options_text, start), options_text, start)

    def elements(self, closing: str) -> list:
        if self.peek() == closing:
            return []
        elements = [self.element()]
        while self.peek() == ",":
            self.pos += 1
            elements.append(self.element())
        return elements

    def braced(self) -> str:
        """The text between balanced braces at the cursor, without them."""
        start = self.pos
        depth = 0
        while self.pos < len(self.text):
            char = self.text[self.pos]
            self.pos += 1
            depth += {"{": 1, "}": -1}.get(char, 0)
            if depth == 0:
                return self.text[start + 1 : self.pos - 1].strip()
        raise self.error("unbalanced '{' in pass options", start)

    def options(self, text: str, column: int) -> dict[str, str]:
        options = {}
        for item in _split_options(text):
            key, equals, value = item.partition("=")
            if not equals or not key:
                raise self.error(f"pass option '{item}' is not of the form key=value", column)
            options[key.strip()] = value.strip().strip("'\"")
        return options


def _split_options(text: str) -> list[str]:
    """Splits `a=1 b={x,y} c='s t'` at top-level spaces."""
    items, depth, quote, current = [], 0, "", ""
    for char in text:
        if quote:
            quote = "" if char == quote else quote
        elif char in "'\"":
            quote = char
        elif char in "{[(":
            depth += 1
        elif char in "}])":
            depth -= 1
        elif char.isspace() and depth == 0:
            if current:
                items.append(current)
            current = ""
            continue
        current += char
    if current:
        items.append(current)
    return items


def parse_pipeline(text: str) -> Anchor:
    """Parses `builtin.module(...)` into a tree of anchors and passes."""
    parser = _Parser(text)
    root = parser.element()
    if parser.peek():
        raise parser.error(f"unexpected {parser.peek()!r} after the pipeline")
    if not isinstance(root, Anchor) or root.op_name != "builtin.module":
        raise UserError("the pipeline must be anchored on the module: 'builtin.module(...)'", f"{SOURCE_NAME}:1:1")
    return root
