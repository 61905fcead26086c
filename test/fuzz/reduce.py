"""Reduces a failing random program to the few lines that still fail, by delta
debugging over its lines: end it at the first value that fails alone, drop an output,
drop a line whose value has a stand-in of the same shape (one of its operands), then
drop what nothing reads any more. Each
step is kept only when the program still fails the same way. Hypothesis's own
shrinker redraws the whole program and compiles each try; this takes a program of
eight lines to its core in a few dozen compiles."""

import dataclasses
import re
from collections.abc import Callable

from graphs import Program, Value


def _uses(name: str, expression: str) -> bool:
    return re.search(rf"\b{re.escape(name)}\b", expression) is not None


def _replace(name: str, by: str, expression: str) -> str:
    return re.sub(rf"\b{re.escape(name)}\b", by, expression)


def without_dead_code(program: Program) -> Program:
    """`program` less the lines, inputs and parameters nothing reads."""
    live = {value.name for value in program.outputs}
    lines = []
    for value, expression in reversed(program.lines):
        if value.name in live:
            lines.append((value, expression))
            live.update(re.findall(r"\b(?:v|x)\d+\b|\bp\d+\b", expression))
    lines.reverse()
    text = " ".join(expression for _, expression in lines) + " " + " ".join(v.name for v in program.outputs)
    inputs = [value for value in program.inputs if _uses(value.name, text)] or program.inputs[:1]
    parameters = [(name, init) for name, init in program.parameters if _uses(f"self.{name}", text)]
    return dataclasses.replace(program, inputs=inputs, parameters=parameters, lines=lines)


def _drop_line(program: Program, index: int) -> Program | None:
    """`program` without line `index`, its value replaced by an operand of the same
    shape; None where it has none."""
    value, expression = program.lines[index]
    earlier = {v.name: v for v in program.inputs + [v for v, _ in program.lines[:index]]}
    stand_ins = [earlier[name] for name in re.findall(r"\b(?:v|x)\d+\b", expression)
                 if name in earlier and earlier[name].shape == value.shape and earlier[name].kind == value.kind]
    if not stand_ins:
        return None
    stand_in: Value = stand_ins[0]
    lines = [(v, _replace(value.name, stand_in.name, e)) for v, e in program.lines[index + 1:]]
    outputs = list(dict.fromkeys(stand_in if v.name == value.name else v for v in program.outputs))
    return dataclasses.replace(program, lines=program.lines[:index] + lines, outputs=outputs)


def _earliest_failing_prefix(program: Program, fails: Callable[[Program], bool]) -> Program:
    """The program up to the first line whose value, as the only output, still fails."""
    for value, _ in program.lines[:-1]:
        candidate = without_dead_code(dataclasses.replace(program, outputs=[value]))
        if fails(candidate):
            return candidate
    return program


def reduce(program: Program, fails: Callable[[Program], bool]) -> Program:
    """The smallest program this finds for which `fails` still holds."""
    program = _earliest_failing_prefix(without_dead_code(program), fails)
    changed = True
    while changed:
        changed = False
        for index in range(len(program.outputs)):
            if len(program.outputs) > 1:
                candidate = without_dead_code(dataclasses.replace(
                    program, outputs=program.outputs[:index] + program.outputs[index + 1:]))
                if fails(candidate):
                    program, changed = candidate, True
                    break
        for index in reversed(range(len(program.lines))):
            if len(program.lines) <= 1:
                break
            candidate = _drop_line(program, index)
            if candidate is not None:
                candidate = without_dead_code(candidate)
                if candidate.lines and fails(candidate):
                    program, changed = candidate, True
                    break
    return program
