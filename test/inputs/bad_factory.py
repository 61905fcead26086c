"""A model file whose factory fails (for mlc-compile's error tests)."""


def broken():
    raise ValueError("no weights here")
