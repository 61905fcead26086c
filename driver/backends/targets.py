"""The registry of targets: every back end's `Target`, by name, in one place.

The back ends declare their targets (iree.py, jit.py) and import nothing from here;
this module imports them. A compilation looks its target up once (`get`) and binds it
to its options (`Target.bind`, target.py).
"""

from ...errors import UserError
from ...pipelines.levels import PRECISIONS
from . import iree, jit, parameters
from .target import PROMISES, BoundTarget, Target

TARGETS: dict[str, Target] = {target.name: target for target in (*iree.TARGETS, jit.MLIR_CPU)}

__all__ = ["TARGETS", "BoundTarget", "Target", "bind", "check_external_params", "check_precision", "describe",
           "get"]


def get(name: str) -> Target:
    if name not in TARGETS:
        raise UserError(f"unknown target '{name}' (known: {', '.join(TARGETS)})")
    return TARGETS[name]


def bind(name: str, options=None) -> BoundTarget:
    """The target called `name`, bound to `options` (checked): what a compilation holds."""
    return get(name).bind(options)


def check_external_params(target, path=None) -> None:
    """Fails early, before compiling, if `target` cannot load its weights from a
    parameter archive, or `path` cannot be written."""
    if not target.external_params:
        able = ", ".join(name for name, other in TARGETS.items() if other.external_params)
        raise UserError(f"target '{target.name}' cannot load weights from a parameter archive "
                        f"(external params work on: {able})")
    if path is not None:
        parameters.check_writable(path)


def check_precision(target, precision: str) -> None:
    """Refuses a precision `target` is not known to compute right (its `precisions`)."""
    if precision in PRECISIONS and precision not in target.precisions:
        able = ", ".join(name for name, other in TARGETS.items() if precision in other.precisions)
        raise UserError(f"target '{target.name}' computes in {', '.join(target.precisions)} only, not precision "
                        f"'{precision}' (which {able} take)")


def describe() -> str:
    """What `mlc-compile --list-targets` prints."""
    lines = []
    for target in TARGETS.values():
        runs, why = target.can_run()
        status = "runs here" if runs else f"compile-only here: {why}"
        lines.append(f"{target.name:<14} {target.description}")
        lines.append(f"{'':<14} needs: {target.needs}; {status}")
        lines.append(f"{'':<14} options: {', '.join(target.options) or 'none'}")
    lines.append(f"every target also takes the promise {', '.join(PROMISES)} (true or false; target_options in "
                 "Python): an attention's keys and values past the last key it attends to are zeros, as "
                 "mlc.generator's caches are, and need not be read")
    return "\n".join(lines)
