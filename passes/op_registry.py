"""Where an mlc op's code in a pass is registered: one decorator keyed by the op class,
on the function itself, as TVM's `register_legalize` does.

`@lowers(OpClass, ...)` registers a lowering to linalg (passes/lower_to_linalg/):
`fn(op view) -> the value replacing the op`, built at the op. `@folds(OpClass, ...)`
registers a constant folder (passes/fold_constants.py): `fn(op view, *operand arrays)
-> the result's array`. Conversions from torch register the same way with `@converts`
(passes/convert_torch_to_mlc/patterns.py), keyed by torch op name instead. All three
decline an instance they cannot handle by raising `InstanceDeclined`.

The tables fill as the modules defining the functions are imported, which importing
the package `mlc.passes` does first (passes/__init__.py); so this module imports no
pass, and any module may ask it (`has_folder`) without an import circle.
"""

from collections.abc import Callable, Iterable

LOWERINGS: dict[type, Callable] = {}  # op class -> its lowering to linalg
FOLDERS: dict[type, Callable] = {}  # op class -> its constant folder


class InstanceDeclined(Exception):
    """Raised by registered code for one instance of its op that it cannot handle (a
    case a lowering does not support, a fold with no defined result, a torch op with
    no mlc equivalent); the op stays and `reason` is reported. Not to be confused with
    `dialects.facts.Declined`, the value by which an op class declines a whole fact."""

    def __init__(self, reason: str):
        super().__init__(reason)
        self.reason = reason


def lowers(*op_classes: type) -> Callable[[Callable], Callable]:
    """Registers the decorated function as the lowering of `op_classes` to linalg."""
    return lambda fn: _register(LOWERINGS, op_classes, fn, "lowerings")


def folds(*op_classes: type) -> Callable[[Callable], Callable]:
    """Registers the decorated function as the constant folder of `op_classes`."""
    return lambda fn: _register(FOLDERS, op_classes, fn, "folders")


def has_folder(op_class: type) -> bool:
    """Whether `mlc-fold-constants` can evaluate ops of `op_class`."""
    return op_class in FOLDERS


def _register(table: dict, op_classes: Iterable[type], fn: Callable, kind: str) -> Callable:
    for op_class in op_classes:
        assert op_class not in table, f"{op_class.__name__} has two {kind}"
        table[op_class] = fn
    return fn
