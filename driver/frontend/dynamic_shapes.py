"""Dynamic shapes: the sizes a user marks dynamic, what torch.export made of them,
and `mlc-compile --dynamic-dim`.

torch.export keeps a marked size symbolic only while the model's code allows it;
`Dim.AUTO` sizes it must fix are specialized silently, so the report says which
marked sizes came out static, and the range each symbolic size may take.
"""

import inspect
import re

import torch

from ...errors import UserError

_FLAG = re.compile(r"(\d+):(\d+)(?:=(\w+))?")


def parse_flags(flags: list[str], input_count: int):
    """`--dynamic-dim INPUT:DIM[=NAME]` flags as a `dynamic_shapes` tuple for torch.export.
    Sizes given one name are one symbol (equal at run time); unnamed ones are `Dim.AUTO`."""
    if not flags:
        return None
    spec = [dict() for _ in range(input_count)]
    symbols = {}
    for flag in flags:
        match = _FLAG.fullmatch(flag)
        if match is None:
            raise UserError(f"--dynamic-dim expects INPUT:DIM or INPUT:DIM=NAME (e.g. 0:0=batch), got '{flag}'")
        index, dim, name = int(match.group(1)), int(match.group(2)), match.group(3)
        if index >= input_count:
            raise UserError(f"--dynamic-dim {flag}: the model has {input_count} input(s)")
        spec[index][dim] = symbols.setdefault(name, torch.export.Dim(name)) if name else torch.export.Dim.AUTO
    return tuple(spec)


def marked(dynamic_shapes, model, input_count: int) -> set[tuple[int, int]]:
    """(input, dim) pairs that `dynamic_shapes` asks to be dynamic (top-level tensor inputs)."""
    if dynamic_shapes is None:
        return set()
    if isinstance(dynamic_shapes, dict):
        names = list(inspect.signature(model.forward).parameters) if model is not None else []
        per_input = [dynamic_shapes.get(name) for name in names[:input_count]]
    else:
        per_input = list(dynamic_shapes)[:input_count]
    pairs = set()
    for index, spec in enumerate(per_input):
        dims = spec.items() if isinstance(spec, dict) else enumerate(spec) if isinstance(spec, (tuple, list)) else ()
        pairs |= {(index, dim) for dim, size in dims if size is not None and not isinstance(size, int)}
    return pairs


def _user_inputs(program: torch.export.ExportedProgram) -> list:
    names = [spec.arg.name for spec in program.graph_signature.input_specs if spec.kind.name == "USER_INPUT"]
    values = {node.name: node.meta.get("val") for node in program.graph.nodes if node.op == "placeholder"}
    return [values[name] for name in names]


def _static(size) -> int | None:
    """The size's value when torch.export fixed it (a SymInt may hold a constant)."""
    return size if isinstance(size, int) else size.node.maybe_as_int()


def _describe_size(size, ranges) -> str:
    if _static(size) is not None:
        return str(_static(size))
    bounds = ranges.get(size.node.expr)
    if bounds is None:
        return str(size)
    upper = "inf" if "oo" in str(bounds.upper) else bounds.upper  # sympy's int_oo: no bound
    return f"{size} in [{bounds.lower}, {upper}]"


def report(program: torch.export.ExportedProgram, dynamic_shapes, model=None) -> dict:
    """Each input's sizes (symbolic ones with their range) and the marked sizes torch.export specialized."""
    inputs = [value for value in _user_inputs(program) if isinstance(value, torch.Tensor)]
    ranges = program.range_constraints
    shapes = [[_describe_size(size, ranges) for size in value.shape] for value in inputs]
    specialized = [
        f"input {index} dim {dim}: marked dynamic, specialized to {inputs[index].shape[dim]}"
        for index, dim in sorted(marked(dynamic_shapes, model, len(inputs)))
        if dim < len(inputs[index].shape) and _static(inputs[index].shape[dim]) is not None
    ]
    return {"inputs": shapes, "specialized": specialized}
