"""What the IR can say: the `mlc` graph dialect and the MLIR context mlc works in.

Importing this package defines every mlc op; `make_context()` gives a context
with mlc, torch and all upstream dialects loaded.
"""

from . import (
    bitwise_ops,
    check_ops,
    complex_ops,
    compute_ops,
    data_ops,
    elementwise_ops,
    fusion_ops,
    indexing_ops,
    normalization_ops,
    python_modules,
    random_ops,
    reduction_ops,
    scan_ops,
    shape_ops,
)
from .context import make_context
from .dialect import Mlc, load_dialect
from .op_base import MlcOp, VerifyError, op_classes

python_modules.install()

__all__ = [
    "Mlc", "MlcOp", "VerifyError", "load_dialect", "make_context", "op_classes",
    "bitwise_ops", "check_ops", "complex_ops", "compute_ops", "data_ops", "elementwise_ops", "fusion_ops", "indexing_ops",
    "normalization_ops", "random_ops", "reduction_ops", "scan_ops", "shape_ops",
]
