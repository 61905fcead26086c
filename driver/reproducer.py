"""Reproducers: when a stage fails for a reason that is not the user's (a pass raising,
IREE failing or crashing), what a bug report needs, in one directory:

    input.mlirbc    the module just before the failing stage (weights included)
    pipeline.txt    the stage's pass pipeline (mlc-opt), or
    flags.txt       IREE's flags, one per line (iree-compile)
    repro.sh        reruns just that stage

The directory is `mlc-compile --repro DIR` / `mlc.compile(..., repro=DIR)`, else a
new temporary one. Each file is written whole or not at all, and repro.sh last.
"""

import os
import shlex
import shutil
import sys
import tempfile
from pathlib import Path

from torch_mlir import ir

from ..errors import UserError
from . import atomic_file
from .failures import IreeCompileFailure


def pipeline_text(elements) -> str:
    """A stage's elements (pass instances and pipeline text) as mlc-opt's --pass-pipeline."""
    return "builtin.module(" + ", ".join(e if isinstance(e, str) else e.text() for e in elements) + ")"


def for_passes(directory: str | None, stage: str, module_before: ir.Operation, pipeline: str) -> Path:
    """Writes the reproducer of a failing pass stage; returns its directory."""
    path = _directory(directory)
    with atomic_file.replacing(path / "input.mlirbc") as temporary, open(temporary, "wb") as file:
        module_before.write_bytecode(file)
    atomic_file.write(path / "pipeline.txt", pipeline + "\n")
    command = [_tool("mlc-opt"), '"$here/input.mlirbc"', '--pass-pipeline="$(cat "$here/pipeline.txt")"', '"$@"']
    _write_script(path, stage, command)
    return path


def for_iree(directory: str | None, stage: str, failure: IreeCompileFailure) -> Path:
    """Writes the reproducer of a failing IREE compile; returns its directory."""
    path = _directory(directory)
    atomic_file.write(path / "input.mlirbc", failure.bytecode)
    atomic_file.write(path / "flags.txt", "".join(flag + "\n" for flag in failure.flags))
    flags = " ".join(shlex.quote(flag) for flag in failure.flags)
    command = [_tool("iree-compile"), '"$here/input.mlirbc"', flags, '-o "$here/output.vmfb"', '"$@"']
    _write_script(path, stage, command)
    return path


def note(path: Path) -> str:
    return f"reproducer: {path} ({path / 'repro.sh'} reruns the failing stage; attach the directory to a bug report)"


def _directory(directory: str | None) -> Path:
    if directory is None:
        return Path(tempfile.mkdtemp(prefix="mlc-repro-"))
    path = Path(directory)
    try:
        path.mkdir(parents=True, exist_ok=True)
    except OSError as error:
        raise UserError(f"cannot write the reproducer to '{directory}': {error.strerror}") from None
    return path


def _tool(name: str) -> str:
    """The tool of this installation (beside this Python), else whichever is on PATH."""
    beside = Path(sys.executable).parent / name
    return shlex.quote(str(beside) if beside.exists() else shutil.which(name) or name)


def _write_script(path: Path, stage: str, command: list[str]) -> None:
    script = path / "repro.sh"
    script.write_text(f'#!/bin/sh\n# Reruns the stage "{stage}" of mlc that failed.\nhere="$(dirname "$0")"\n'
                      f"exec {' '.join(command)}\n")
    os.chmod(script, 0o755)
