"""How the IR changes: mlc's passes, each in its own module, and their registry."""

from .registry import PASSES, Pass, PassFailure, create, register
from . import convert_layout  # noqa: E402,F401  (registers the pass)
from . import conv_to_matmul  # noqa: E402,F401  (registers the pass)
from . import convert_torch_to_mlc  # noqa: E402,F401  (registers the pass)
from . import lower_torch_fallback  # noqa: E402,F401  (registers the pass)
from . import form_dispatch_regions, fuse  # noqa: E402,F401
from . import fold_batchnorm  # noqa: E402,F401  (registers the pass)
from . import lower_to_linalg  # noqa: E402,F401  (registers the pass)
from . import fold_constants  # noqa: E402,F401  (registers the pass)
from . import simplify  # noqa: E402,F401  (registers the pass)
from . import sink_reshapes  # noqa: E402,F401  (registers the pass)
from . import decompose_linalg  # noqa: E402,F401  (registers the pass)
from . import bufferize  # noqa: E402,F401  (registers the pass)
from . import lower_linalg_to_affine  # noqa: E402,F401  (registers the pass)
from . import vectorize  # noqa: E402,F401  (registers the pass)
from . import lower_to_llvm  # noqa: E402,F401  (registers the pass)

__all__ = ["PASSES", "Pass", "PassFailure", "create", "register"]
