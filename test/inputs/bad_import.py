"""A model file that fails to import (for mlc-compile's error tests)."""

import not_a_module  # noqa: F401
