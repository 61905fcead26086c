"""The `mlc` graph dialect: tensor-level ops between torch and linalg.

The dialect is defined in Python with `torch_mlir.dialects.ext`, which emits it
as IRDL and registers it for real: ops verify, errors carry locations and Pure
ops are erased by canonicalize when dead. Ops print in the generic form only.
"""

from torch_mlir import ir
from torch_mlir.dialects import ext


class Mlc(ext.Dialect, name="mlc"):
    """The dialect object; each op module adds its ops to it when imported."""


def load_dialect(context: ir.Context) -> None:
    """Loads `mlc` into `context`. Idempotent: a second call is a no-op."""
    if context.is_dialect_loaded(Mlc.DIALECT_NAMESPACE):
        return
    with context:
        Mlc.load()
    # ext keeps the IRDL definition module on the class, which would keep this context
    # (and every weight folded in it) alive until the next load; loaded, the dialect
    # no longer needs it.
    Mlc._mlir_module = None
