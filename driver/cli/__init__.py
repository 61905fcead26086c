"""The command lines: `mlc-compile` and `mlc-opt`, and what they share (`tool.py`:
argument errors and user errors as one line on stderr, outputs written whole)."""
