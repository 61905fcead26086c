"""`WeightStore`: one copy of a model's weights for all the executables compiled from it.

A generator compiles its model several times (the decode step, and the prompt's call per
bucket of prompt lengths), and inline, each executable holds every weight again: GPT-2's
f32 decode step and each prefill had a 620 MiB `.vmfb`, held by IREE once it is loaded.
With a store, each executable's large weights are parameters (parameters.py) under a key
made of a digest of their bytes, in archives in the store's directory. An executable's
compile writes an archive of the weights that no earlier one put in the store, if any,
and the executable is served all the store's archives: each weight is written once and
memory-mapped, so its pages are held once, by the page cache, however many executables
read it.

A key names its bytes, so the bytes under a key cannot change after compiling: the matmul
plugin packs such a weight once, under the fingerprint of its compiled values, as it does
a weight inside the executable (an archive of the user's could be swapped for another,
and is read as it lies at each call; see iree._cpu_passes).
"""

import hashlib
import os
import shutil
import tempfile
import time
import weakref

import iree.runtime
import numpy as np

from ...errors import UserError
from ..report import Report, StageRecord
from . import parameters


def content_key(array: np.ndarray) -> str:
    """The parameter key of an array: a digest of its dtype, shape and bytes."""
    digest = hashlib.blake2b(digest_size=20)
    digest.update(f"{array.dtype.str}{array.shape}".encode())
    digest.update(parameters.raw_bytes(array))
    return digest.hexdigest()


class WeightStore:
    """Archives of weights keyed by their bytes, in a temporary directory that goes when
    the store and every executable that reads it are gone. Pass it to each compile as
    `mlc.compile(..., external_params=store)`."""

    def __init__(self, directory=None):
        try:
            self.directory = tempfile.mkdtemp(prefix="mlc-weights-", dir=directory)
        except OSError as error:
            raise UserError(f"cannot make a weight store in '{directory or tempfile.gettempdir()}': "
                            f"{error.strerror}") from None
        self.paths: list[str] = []  # the archives, in the order they were written
        self._keys: set[str] = set()
        weakref.finalize(self, shutil.rmtree, self.directory, True)

    @property
    def bytes(self) -> int:
        """The bytes of its archives: the weights held, each once."""
        return sum(os.path.getsize(path) for path in self.paths)

    def export(self, module, report: Report, folded: parameters.FoldedWeightFile | None = None) -> None:
        """Moves the module's large weights into parameters under their content keys,
        writing an archive of those the store lacks; notes what moved in `report`."""
        begin = time.perf_counter()
        arrays = parameters.externalize(module, key_of=content_key)
        new = {key: array for key, array in arrays.items() if key not in self._keys}
        if new:
            path = os.path.join(self.directory, f"{len(self.paths)}.irpa")
            parameters.write_archive(new, path, folded)
            self.paths.append(path)
            self._keys.update(new)
        parameters.stop_folding_to(module, folded)
        report.stages.append(StageRecord("parameter archive", round(time.perf_counter() - begin, 4)))
        report.parameters = {"store": self.directory, "count": len(arrays),
                             "bytes": int(sum(array.nbytes for array in arrays.values())),
                             "bytes written": int(sum(array.nbytes for array in new.values()))}

    def write_archive(self, path) -> None:
        """Writes every weight of the store to one archive at `path` (for `Compiled.save`)."""
        index = iree.runtime.ParameterIndex()
        for archive in self.paths:
            index.load(archive)
        try:
            index.create_archive_file(os.fspath(path))
        except Exception as error:  # IREE raises its own status errors for I/O failures
            raise UserError(f"could not write the parameter archive '{path}': {error}") from None
