"""The executable cache: IREE's compile of a module is skipped when the same module was
compiled before, with the same flags, by the same IREE, for the same CPU.

mlc's own passes still run on a hit (they make the module the key is computed from);
only `iree.compiler.compile_str` is skipped, which is most of a compile's time.

Keyed as ccache and Inductor's FX graph cache key, and for the stale-cache bugs their
users reported:
- the exact bytes handed to IREE (MLIR bytecode, weights included) and IREE's flags;
- IREE's version and revision, and mlc's version with this file's `FORMAT`;
- the host CPU (model and feature flags) when the flags say `target-cpu=host`: an
  executable built for one machine's AVX-512 must never be loaded on another's AVX2 when a
  cache is shared (Inductor keys its C++ kernels by the vector ISA it picked, likewise).

An entry is one file, `<key>.entry`: a header line (JSON: the payload's SHA-256 and
length, and the dispatch statistics IREE wrote while compiling it), then the `.vmfb`.
Written to a temporary file in the same directory and renamed over the entry, so a
reader sees a whole entry or none, and two processes compiling one model at once each
leave a whole one. An entry whose digest or length does not match its payload is
deleted and compiled again; it is never loaded.

An executable is code that will run, so the directory is private: created 0700, and a
directory that others can write to, or that another user owns, is not used (a warning
says so, and mlc compiles without the cache).

Least-recently-used eviction: a hit refreshes the entry's modification time; after a
write, the oldest entries go until the whole is under the size cap.
"""

import dataclasses
import functools
import hashlib
import json
import os
import platform
import stat
import tempfile
import time
import warnings
from pathlib import Path

import iree.compiler.version

from ..errors import UserError

FORMAT = 1  # bump when an entry's layout or the meaning of its statistics changes
DEFAULT_DIRECTORY = Path("~/.cache/mlc")
DEFAULT_CAP = 4 << 30  # bytes; MLC_CACHE_SIZE overrides, e.g. "500M", "8G"
_UNITS = {"": 1, "K": 1 << 10, "M": 1 << 20, "G": 1 << 30}


@dataclasses.dataclass(frozen=True)
class Entry:
    """What a hit gives back: the executable and IREE's dispatch statistics of it."""

    vmfb: bytes
    statistics: dict


class ExecutableCache:
    """A directory of compiled executables, keyed by what IREE was given."""

    def __init__(self, directory, cap: int = DEFAULT_CAP):
        self.directory = Path(directory).expanduser()
        self.cap = cap
        self.usable = _private_directory(self.directory)

    @classmethod
    def default(cls) -> "ExecutableCache":
        """`MLC_CACHE_DIR`, or ~/.cache/mlc; capped at `MLC_CACHE_SIZE` (default 4G)."""
        return cls(default_directory(), parse_size(os.environ.get("MLC_CACHE_SIZE")))

    def key(self, bytecode: bytes, flags: list[str]) -> str:
        host = host_cpu() if any(flag.endswith("target-cpu=host") for flag in flags) else None
        facts = json.dumps([f"mlc-executable-cache {FORMAT}", _mlc_version(), iree_version(), flags, host])
        digest = hashlib.sha256(facts.encode() + b"\0")  # JSON has no NUL: the facts end where the bytecode starts
        digest.update(bytecode)
        return digest.hexdigest()

    def get(self, key: str) -> Entry | None:
        """The entry of `key`, or None (not there, or dropped because it was damaged)."""
        if not self.usable:
            return None
        path = self._path(key)
        try:
            data = path.read_bytes()
        except OSError:
            return None
        entry = _parse(data)
        if entry is None:
            _remove(path)
            return None
        _touch(path)
        return entry

    def put(self, key: str, vmfb: bytes, statistics: dict) -> None:
        if not self.usable:
            return
        header = {"sha256": hashlib.sha256(vmfb).hexdigest(), "bytes": len(vmfb), "statistics": statistics}
        temporary = None
        try:
            descriptor, temporary = tempfile.mkstemp(dir=self.directory, prefix=".incoming-")  # mode 0600
            with os.fdopen(descriptor, "wb") as file:
                file.write(json.dumps(header).encode() + b"\n")
                file.write(vmfb)
            os.replace(temporary, self._path(key))
        except OSError as error:  # a full disk or a removed directory costs the cache, not the compile
            warnings.warn(f"mlc: could not write to the executable cache {self.directory}: {error}", stacklevel=2)
            if temporary is not None:
                _remove(Path(temporary))
            return
        self.evict()

    def evict(self) -> None:
        """Removes the least recently used entries until the rest fit under the cap, and
        what a killed writer left behind an hour ago or more."""
        entries = []
        for path in self.directory.iterdir():
            try:
                info = path.stat()
            except OSError:  # another process evicted it
                continue
            if path.name.startswith(".incoming-") and info.st_mtime < time.time() - 3600:
                _remove(path)
            elif path.suffix == ".entry":
                entries.append((info.st_mtime, info.st_size, path))
        total = sum(size for _, size, _ in entries)
        for _, size, path in sorted(entries, key=lambda entry: entry[0]):
            if total <= self.cap:
                break
            _remove(path)
            total -= size

    def _path(self, key: str) -> Path:
        return self.directory / f"{key}.entry"


def default_directory() -> Path:
    """`MLC_CACHE_DIR`, or ~/.cache/mlc: the executable cache's directory, which also holds
    what mlc builds once per machine (its matmul plugin, the matmul choices per CPU)."""
    return Path(os.environ.get("MLC_CACHE_DIR") or DEFAULT_DIRECTORY).expanduser()


def resolve(cache) -> ExecutableCache | None:
    """`mlc.compile`'s `cache`: True for the default cache, False or None for none, or a directory."""
    if cache is True:
        return ExecutableCache.default()
    if cache is False or cache is None:
        return None
    if isinstance(cache, ExecutableCache):
        return cache
    if isinstance(cache, (str, os.PathLike)):
        return ExecutableCache(cache, parse_size(os.environ.get("MLC_CACHE_SIZE")))
    raise UserError(f"cache must be True, False or a directory, got {cache!r}")


def parse_size(text: str | None) -> int:
    """A size like "4G", "500M" or "1048576" in bytes; None is the default cap."""
    if not text:
        return DEFAULT_CAP
    number, unit = text.strip().upper().rstrip("B"), ""
    if number and number[-1] in _UNITS:
        number, unit = number[:-1], number[-1]
    try:
        size = int(float(number) * _UNITS[unit])
    except (ValueError, OverflowError):
        size = -1
    if size < 0:
        raise UserError(f"MLC_CACHE_SIZE must be a size like 500M or 4G, got {text!r}")
    return size


def _parse(data: bytes) -> Entry | None:
    """The entry in a file's bytes, or None when they are not a whole, intact entry."""
    end = data.find(b"\n")
    try:
        header = json.loads(data[:end])
        vmfb = data[end + 1:]
        if end < 0 or len(vmfb) != header["bytes"] or hashlib.sha256(vmfb).hexdigest() != header["sha256"]:
            return None
        return Entry(vmfb, header["statistics"])
    except (ValueError, KeyError, TypeError):
        return None


def _private_directory(directory: Path) -> bool:
    """Whether `directory` is (made) this user's alone; warns when it cannot be used."""
    try:
        directory.mkdir(mode=0o700, parents=True, exist_ok=True)
        info = directory.stat()
    except OSError as error:
        warnings.warn(f"mlc: the executable cache {directory} cannot be used ({error}); compiling without it",
                      stacklevel=3)
        return False
    if info.st_uid != os.getuid() or info.st_mode & (stat.S_IWGRP | stat.S_IWOTH):
        warnings.warn(f"mlc: the executable cache {directory} is not private to this user (owner uid "
                      f"{info.st_uid}, mode {stat.filemode(info.st_mode)}); compiling without it: an executable from "
                      "there could have been put there by someone else", stacklevel=3)
        return False
    return True


def _touch(path: Path) -> None:
    try:
        os.utime(path)
    except OSError:
        pass


def _remove(path: Path) -> None:
    try:
        path.unlink()
    except OSError:
        pass


@functools.cache
def _mlc_version() -> str:
    from importlib.metadata import PackageNotFoundError, version

    try:
        return f"mlc {version('mlc')}"
    except PackageNotFoundError:
        return "mlc (not installed)"


def iree_version() -> str:
    return f"iree {iree.compiler.version.VERSION} {json.dumps(iree.compiler.version.REVISIONS, sort_keys=True)}"


@functools.cache
def cpu_fields() -> dict[str, str]:
    """The CPU's model and feature flags, from /proc/cpuinfo's first processor."""
    fields = {}
    try:
        with open("/proc/cpuinfo") as file:
            for line in file:
                name, _, value = line.partition(":")
                name = name.strip()
                if name in ("model name", "flags", "Features", "CPU part") and name not in fields:
                    fields[name] = value.strip()
    except OSError:
        pass
    return fields


@functools.cache
def host_cpu() -> str:
    """What LLVM's `host` CPU resolves from: the machine, the CPU's model and its feature flags."""
    fields = cpu_fields()
    return f"{platform.machine()} {platform.processor()} {json.dumps(fields, sort_keys=True)}"
