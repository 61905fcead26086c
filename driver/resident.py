"""`Resident`: a result that stays in IREE's memory between calls (`Compiled.run_resident`).

A generator's key/value caches go from one decode step into the next. As tensors, every
step copies them out of IREE and back in (14 MB a step for GPT-2 at a capacity of 96,
and in proportion to the capacity). As `Resident`s they stay where IREE wrote them: the
next call takes them in place of tensors, and IREE writes the new cache rows into them.
"""

import torch

from ..errors import UserError


class Resident:
    """One result of a call, left in IREE's memory. A call that takes it may write its own
    results into that memory, so it is taken once: passing it again is an error, and so
    is reading it after (read it first with `tensor()`)."""

    def __init__(self, kept, read):
        self._kept = kept  # (buffer view, numpy dtype): the backend's kept result
        self._read = read  # kept -> numpy array (a copy)
        self.shape = tuple(kept[0].shape)
        self.dtype = kept[1]

    def tensor(self) -> torch.Tensor:
        """A copy in host memory."""
        from .compiled import _tensor

        return _tensor(self._read(self._live()))

    def take(self):
        """The kept result, for the call that takes this value; it is spent after."""
        kept = self._live()
        self._kept = None
        return kept

    def _live(self):
        if self._kept is None:
            raise UserError("this resident value was passed to a call already, which may have written into its "
                            "memory: pass each one once, and read it (.tensor()) before")
        return self._kept

    def __repr__(self) -> str:
        state = "spent" if self._kept is None else "in IREE's memory"
        return f"Resident(shape={list(self.shape)}, dtype={self.dtype}, {state})"
