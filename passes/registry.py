"""mlc's pass registry.

MLIR's textual pipelines cannot name Python passes, so mlc keeps its own
registry; `mlc.pipelines.parse_pipeline` resolves names here first and falls
back to upstream MLIR passes.

A pass is a class with a docstring (its first line is the description), a
`name` (`mlc-...`), its options as annotated class attributes with defaults, and
`run(self, module)`. Options are set with MLIR's syntax: `mlc-foo{limit=8}`.
"""

import dataclasses
from typing import Callable, ClassVar

from torch_mlir import ir, passmanager

from ..errors import UserError


@dataclasses.dataclass(frozen=True)
class Pass:
    """Base of mlc's passes. Subclasses are frozen dataclasses whose fields are options:
    a pass reads its options and never changes them (what it derives, it derives in a
    property); what it did goes to `statistics`."""

    name: ClassVar[str]
    statistics: dict = dataclasses.field(default_factory=dict, init=False, repr=False)

    def run(self, module: ir.Operation) -> None:
        raise NotImplementedError

    @classmethod
    def description(cls) -> str:
        return (cls.__doc__ or "").strip().splitlines()[0]

    @classmethod
    def options(cls) -> list[dataclasses.Field]:
        return [f for f in dataclasses.fields(cls) if f.init]

    def text(self) -> str:
        """The pass as pipeline text, with the options that differ from their defaults:
        what `mlc-opt --pass-pipeline` takes to run it again."""
        changed = [(f.name.replace("_", "-"), getattr(self, f.name)) for f in self.options()
                   if getattr(self, f.name) != f.default]
        options = ",".join(f"{name}={str(value).lower() if isinstance(value, bool) else value}"
                           for name, value in changed)
        return f"{self.name}{{{options}}}" if options else self.name

    def count(self, statistic: str, amount: int = 1) -> None:
        """Adds to a named statistic; reports show what a pass did."""
        self.statistics[statistic] = self.statistics.get(statistic, 0) + amount


PASSES: dict[str, type[Pass]] = {}


def register(cls: type[Pass]) -> type[Pass]:
    """Class decorator: makes the pass a dataclass and registers it by `name`."""
    cls = dataclasses.dataclass(cls, frozen=True)
    assert cls.name not in PASSES, f"pass {cls.name} registered twice"
    PASSES[cls.name] = cls
    return cls


def _convert(value: str, type_, option: str, pass_name: str):
    try:
        if type_ is bool or type_ == "bool":
            if value.lower() in ("true", "1"):
                return True
            if value.lower() in ("false", "0"):
                return False
            raise ValueError
        converter: Callable = {"int": int, "float": float, "str": str}.get(type_, type_)
        return converter(value)
    except ValueError:
        type_name = getattr(type_, "__name__", type_)
        raise UserError(f"option '{option}' of pass '{pass_name}' expects {type_name}, got '{value}'") from None


def create(name: str, options: dict[str, str]) -> Pass:
    """Instantiates a registered pass from textual options."""
    cls = PASSES[name]
    fields = {f.name.replace("_", "-"): f for f in cls.options()}
    kwargs = {}
    for key, value in options.items():
        if key not in fields:
            known = ", ".join(fields) or "none"
            raise UserError(f"pass '{name}' has no option '{key}' (options: {known})")
        field = fields[key]
        kwargs[field.name] = _convert(value, field.type, key, name)
    return cls(**kwargs)


class PassFailure(Exception):
    """Raised by a pass after it has emitted its diagnostics; fails the pipeline.
    `declined`: the ops it declined, by name, with the reason (as data, for coverage)."""

    def __init__(self, declined: dict | None = None):
        super().__init__()
        self.declined = dict(declined or {})


def run_upstream(module: ir.Operation, elements: list[str]) -> None:
    """Runs upstream passes on the module; their errors become this pass's diagnostics."""
    pass_manager = passmanager.PassManager.parse("builtin.module(" + ", ".join(elements) + ")")
    try:
        pass_manager.run(module)
    except ir.MLIRError as error:
        for diagnostic in error.error_diagnostics:
            diagnostic.location.emit_error(diagnostic.message)
        raise PassFailure() from None
