"""The targets mlc compiles for, each a way from linalg on tensors to something
that runs: IREE's llvm-cpu, vulkan-spirv and cuda (iree_backend.py).

A target compiles a linalg module into an artifact (bytes) and loads an
artifact as a function from numpy arrays to a list of numpy arrays.
"""

import dataclasses
from typing import Callable

import numpy as np

from ...errors import UserError


@dataclasses.dataclass(frozen=True)
class Target:
    name: str
    description: str
    needs: str  # what running it needs, for --list-targets
    compile: Callable[..., bytes]  # (linalg module, target options, ExecutableCache or None) -> artifact
    load: Callable[..., Callable[..., list[np.ndarray]]]  # (artifact, parameters=None, driver=None) -> function
    can_run: Callable[[], tuple[bool, str]]  # (whether this machine can run it, why not)
    is_iree: bool = True  # the artifact is a .vmfb (dispatch counts, iree-run-module)
    options: tuple[str, ...] = ()  # target options it accepts, e.g. ("cuda-sm",)
    dispatch_regions: bool = True  # takes mlc's fusion groups as IREE dispatch regions
    external_params: bool = False  # can keep large weights in an IREE parameter archive (load(artifact, parameters=path))
    runs_alone: tuple[str, ...] = ()  # mlc ops its compiler takes only in a dispatch of their own (mlc-fuse{isolate})
    left_outside: tuple[str, ...] = ()  # mlc ops left out of every group, for IREE to place (mlc-fuse{outside})
    # Passes of its own on the lowered module, chosen from it and the target options, and
    # what to report of the choice: (linalg module, options) -> (pipeline elements, report entries)
    target_passes: Callable[..., tuple[list[str], dict]] | None = None


TARGETS: dict[str, Target] = {}


def register(target: Target) -> Target:
    TARGETS[target.name] = target
    return target


def get(name: str) -> Target:

    if name not in TARGETS:
        raise UserError(f"unknown target '{name}' (known: {', '.join(TARGETS)})")
    return TARGETS[name]


def check_options(target: Target, options: dict) -> dict:
    unknown = sorted(set(options) - set(target.options))
    if unknown:
        accepted = ", ".join(target.options) or "none"
        raise UserError(f"target '{target.name}' has no option {', '.join(map(repr, unknown))} (options: {accepted})")
    return options


def describe() -> str:
    """What `mlc-compile --list-targets` prints."""
    get("llvm-cpu")  # loads the registry
    lines = []
    for target in TARGETS.values():
        runs, why = target.can_run()
        status = "runs here" if runs else f"compile-only here: {why}"
        lines.append(f"{target.name:<14} {target.description}")
        lines.append(f"{'':<14} needs: {target.needs}; {status}")
    return "\n".join(lines)
