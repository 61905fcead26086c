"""Files written whole or not at all: the data goes to a temporary file beside the
target, which then replaces it (`os.replace` is atomic on one file system). A writer
killed halfway leaves the old file, or none, never a truncated one that loads."""

import contextlib
import os
import shutil
import tempfile
from collections.abc import Iterator
from pathlib import Path


@contextlib.contextmanager
def replacing(path) -> Iterator[Path]:
    """A temporary path beside `path` to write; on success it becomes `path`, on an
    error (or an interrupt) it is removed and `path` is left as it was."""
    path = Path(path)
    descriptor, temporary = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.incoming-")
    os.close(descriptor)
    try:
        yield Path(temporary)
        if path.exists():  # keep the permissions of the file replaced; a new one gets the umask's
            shutil.copymode(path, temporary)
        else:
            os.chmod(temporary, 0o666 & ~_umask())
        os.replace(temporary, path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.remove(temporary)
        raise


def write(path, data: str | bytes) -> None:
    with replacing(path) as temporary:
        if isinstance(data, str):
            temporary.write_text(data)
        else:
            temporary.write_bytes(data)


def copy(source, destination) -> None:
    with replacing(destination) as temporary:
        shutil.copyfile(source, temporary)


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask
