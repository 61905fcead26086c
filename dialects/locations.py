"""Where an op came from in the user's code: the torch import gives each op the Python
stack of its creation as a location, and every later op keeps its producer's."""

import os
import re

from torch_mlir import ir

_FRAME = re.compile(r'"([^"]*)":(\d+):\d+')


def source_line(location: ir.Location) -> str:
    """The outermost Python frame of an op's location: the user's model code."""
    frames = _FRAME.findall(str(location))
    if not frames:
        return "unknown location"
    file, line = frames[-1]
    relative = os.path.relpath(file) if os.path.isabs(file) else file
    return f"{relative if not relative.startswith('..') else file}:{line}"
