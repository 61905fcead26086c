"""A Python module for every dialect namespace, found at once, for MLIR's bindings.

Wrapping an op in Python (`op.opview`, iterating a block's operations) makes the bindings
import `<prefix>.<namespace>` under each dialect search prefix, and they remember only a
module they found. `mlc` and the dialects mlc builds or reads without a module in
torch-mlir (IREE's `flow`, `util` and `iree_codegen`, torch-mlir's `torch_c`, ...) were
searched for on sys.path again at every op wrapped: 56,686 failed imports in one compile
of a tiny Llama's prompt and decode steps, 17x the cost of the wrap itself.

Under the prefix added here every namespace has a module, found without a search. The
modules are empty: `ext` registers mlc's op classes with the bindings itself, and IREE's
ops are unregistered in torch-mlir's context.
"""

import importlib.abc
import importlib.util
import sys
import types

from torch_mlir._mlir_libs import _mlir

PREFIX = "mlc.dialects.python_modules"
__path__: list[str] = []  # a package to the import system: the namespaces' modules are its submodules


class _EmptyModules(importlib.abc.MetaPathFinder, importlib.abc.Loader):
    """Finds `PREFIX.<namespace>` for any namespace: an empty module."""

    def find_spec(self, name, path, target=None):
        return importlib.util.spec_from_loader(name, self) if name.startswith(PREFIX + ".") else None

    def create_module(self, spec) -> types.ModuleType | None:
        return None  # the default module

    def exec_module(self, module: types.ModuleType) -> None:
        pass


def install() -> None:
    """Adds the prefix after torch-mlir's, so a dialect with a module there keeps it. Idempotent."""
    if PREFIX in _mlir.globals.dialect_search_modules:
        return
    sys.meta_path.append(_EmptyModules())
    _mlir.globals.append_dialect_search_prefix(PREFIX)
