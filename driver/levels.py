"""The levels a compilation goes through, and can stop at, in order.

A module of its own, importing nothing, so that `mlc-compile` can check `--emit` before
torch, torch-mlir and IREE are loaded (driver/cli/mlc_compile.py)."""

LEVELS = ("torch", "mlc", "linalg", "vmfb")
