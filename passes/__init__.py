"""How the IR changes: mlc's passes, each in its own module, and their registry."""

from .registry import PASSES, Pass, PassFailure, create, register

__all__ = ["PASSES", "Pass", "PassFailure", "create", "register"]
