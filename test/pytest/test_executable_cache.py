"""The executable cache (driver/executable_cache.py): a second compile of a model takes
IREE's executable from the cache, in the same process or a new one; whatever IREE
would compile differently misses; a damaged entry is compiled again, never loaded;
racing processes leave one whole entry; the size cap evicts the least recently used;
the directory is private. Every test uses a cache of its own under tmp_path, and the
compiles are of a Linear(8, 8) + ReLU, a second or so each."""

import hashlib
import json
import os
import platform
import shutil
import stat
import subprocess
import sys
import time
from pathlib import Path

import iree.compiler.version
import pytest
import torch
from conftest import cache_of_its_own, compile_and_compare

import mlc
from mlc.driver import executable_cache
from mlc.driver.backends import iree as iree_backend
from mlc.driver.executable_cache import DEFAULT_CAP, ExecutableCache, parse_size, resolve

HERE = Path(__file__).resolve().parent
ENTRY = r"[0-9a-f]{64}\.entry"


def tiny(rows: int = 2, nudge: float = 0.0):
    """(model, input): the same weights every call, but for `nudge` added to one of them."""
    torch.manual_seed(0)
    model = torch.nn.Sequential(torch.nn.Linear(8, 8), torch.nn.ReLU()).eval()
    with torch.no_grad():
        model[0].weight[0, 0] += nudge
    return model, torch.randn(rows, 8)


def compile_tiny(cache, rows: int = 2, nudge: float = 0.0, **options):
    """Compiles `tiny` with `cache`, checks it against eager, returns what the report says of the cache."""
    model, x = tiny(rows, nudge)
    return compile_and_compare(model, x, cache=cache, **options).report["executable cache"]


def entries(directory) -> list[Path]:
    return sorted(Path(directory).glob("*.entry"))


def listing(directory) -> list[str]:
    """The files of the cache (not the folders beside its entries: mlc's matmul plugin)."""
    return sorted(path.name for path in Path(directory).iterdir() if not path.is_dir())


def whole(path: Path) -> bool:
    """Whether `path` is an intact entry: a JSON header line with the payload's length and SHA-256."""
    data = path.read_bytes()
    header, _, payload = data.partition(b"\n")
    header = json.loads(header)
    return header["bytes"] == len(payload) and header["sha256"] == hashlib.sha256(payload).hexdigest()


def mode(path: Path) -> int:
    return stat.S_IMODE(path.stat().st_mode)


# A new process compiling `tiny` with the default cache (MLC_CACHE_DIR), checked against
# eager; it prints what the report says of the cache. With files READY and GO, it says it
# has imported everything and waits for the word to compile, so that two of them race.
CHILD = """
import sys, time
from pathlib import Path
sys.path.insert(0, sys.argv[1])
from test_executable_cache import compile_tiny
if len(sys.argv) > 2:
    ready, go = Path(sys.argv[2]), Path(sys.argv[3])
    ready.touch()
    deadline = time.monotonic() + 120
    while not go.exists() and time.monotonic() < deadline:
        time.sleep(0.01)
print(compile_tiny(True))
"""


def child(directory: Path, *barrier: Path) -> subprocess.Popen:
    env = {**os.environ, "MLC_CACHE_DIR": str(directory)}
    env.pop("MLC_CACHE_SIZE", None)
    return subprocess.Popen([sys.executable, "-c", CHILD, str(HERE), *map(str, barrier)], env=env,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)


def said(process: subprocess.Popen) -> str:
    out, err = process.communicate(timeout=300)
    assert process.returncode == 0, err[-3000:]
    return out.strip().splitlines()[-1]


@pytest.fixture(scope="module")
def seeded(tmp_path_factory) -> Path:
    """A cache holding the one entry of `tiny()`, compiled once for the tests that start from it."""
    directory = tmp_path_factory.mktemp("seeded") / "cache"
    assert compile_tiny(str(directory)) == "miss"
    return directory


@pytest.fixture
def cache_dir(seeded, tmp_path) -> Path:
    """A copy of `seeded` of the test's own (modes and times kept)."""
    directory = tmp_path / "cache"
    shutil.copytree(seeded, directory)
    return directory


# --- hits and misses --------------------------------------------------------------------


@pytest.mark.iree
def test_a_second_compile_hits_in_this_process_and_in_a_new_one(tmp_path):
    directory = tmp_path / "new" / "cache"
    model, x = tiny()
    first = compile_and_compare(model, x, cache=str(directory))
    second = compile_and_compare(model, x, cache=directory)
    assert (first.report["executable cache"], second.report["executable cache"]) == ("miss", "hit")
    assert bytes(second.artifact) == bytes(first.artifact)
    # IREE's dispatch statistics come back from the entry with the executable.
    for key in ("dispatches", "dispatches by kind", "data tiling", "distinct kernels"):
        assert second.report[key] == first.report[key], key
    [entry] = entries(directory)
    assert whole(entry)
    assert (mode(directory), mode(entry)) == (0o700, 0o600)
    assert said(child(cache_of_its_own(directory))) == "hit"  # the plugin given, not built again
    assert listing(directory) == [entry.name]


@pytest.mark.iree
def test_cache_false_is_off_and_writes_nothing(tmp_path, monkeypatch):
    default = tmp_path / "default"
    monkeypatch.setenv("MLC_CACHE_DIR", str(default))
    assert compile_tiny(False) == "off"
    assert not default.exists()
    assert compile_tiny(True) == "miss"  # True is MLC_CACHE_DIR
    assert len(entries(default)) == 1
    assert compile_tiny(False) == "off"  # and does not read it either


@pytest.mark.iree
@pytest.mark.parametrize("change", [
    pytest.param({"nudge": 1e-3}, id="one-weight"),
    pytest.param({"target_options": {"data-tiling": False}}, id="iree-flags"),
    pytest.param({"rows": 3}, id="input-shape"),
])
def test_what_iree_would_compile_differently_misses(cache_dir, change):
    [seed] = entries(cache_dir)
    assert compile_tiny(str(cache_dir), **change) == "miss"
    assert len(entries(cache_dir)) == 2
    assert compile_tiny(str(cache_dir), **change) == "hit"
    assert seed.exists()


@pytest.mark.iree
def test_external_weights_are_not_in_the_key_and_a_hit_runs_with_the_new_ones(tmp_path):
    """With external_params the large weights go to the .irpa, not to IREE: a changed one
    hits, and the executable reads the changed one from the new archive."""
    said = []
    for nudge in (0.0, 1.0):
        torch.manual_seed(0)
        model = torch.nn.Sequential(torch.nn.Linear(32, 32), torch.nn.ReLU()).eval()  # 4 KiB: external
        with torch.no_grad():
            model[0].weight[0, 0] += nudge
        compiled = compile_and_compare(model, torch.randn(2, 32), cache=str(tmp_path), external_params=True)
        assert compiled.report["parameters"]["count"] == 1
        said.append(compiled.report["executable cache"])
    assert said == ["miss", "hit"]


# --- damaged entries --------------------------------------------------------------------


def flip_payload(data: bytes) -> bytes:
    middle = (data.index(b"\n") + len(data)) // 2
    return data[:middle] + bytes(b ^ 0xFF for b in data[middle:middle + 16]) + data[middle + 16:]


DAMAGES = {
    "flipped-payload-bytes": flip_payload,
    "truncated": lambda data: data[:-100],
    "garbage-header": lambda data: b"\0garbage{\n" + data.partition(b"\n")[2],
    "header-only": lambda data: data.partition(b"\n")[0],
    "header-with-another-length": lambda data: data.replace(b'"bytes": ', b'"bytes": 1', 1),
    "empty": lambda data: b"",
}


@pytest.mark.iree
@pytest.mark.parametrize("damage", ["flipped-payload-bytes", "truncated", "garbage-header"])
def test_a_damaged_entry_is_compiled_again_and_replaced(cache_dir, damage):
    [entry] = entries(cache_dir)
    good = entry.read_bytes()
    entry.write_bytes(DAMAGES[damage](good))
    assert compile_tiny(str(cache_dir)) == "miss"  # and compile_tiny checked the result against eager
    assert listing(cache_dir) == [entry.name]
    assert entry.read_bytes() == good  # IREE's compile is deterministic
    assert compile_tiny(str(cache_dir)) == "hit"


@pytest.mark.parametrize("damage", DAMAGES)
def test_a_damaged_entry_is_not_given_and_is_removed(tmp_path, damage):
    cache = ExecutableCache(tmp_path / "cache")
    cache.put("k", bytes(range(256)) * 4, {"per call": 1})
    entry = cache.directory / "k.entry"
    good = entry.read_bytes()
    assert whole(entry) and cache.get("k") is not None
    entry.write_bytes(DAMAGES[damage](good))
    assert entry.read_bytes() != good
    assert cache.get("k") is None
    assert not entry.exists()


# --- processes racing -------------------------------------------------------------------


@pytest.mark.iree
def test_two_processes_compiling_one_model_at_once_leave_one_whole_entry(tmp_path):
    directory = tmp_path / "cache"  # not there yet: both create it
    ready, go = [tmp_path / "ready-0", tmp_path / "ready-1"], tmp_path / "go"
    processes = [child(directory, ready[n], go) for n in range(2)]
    deadline = time.monotonic() + 120
    while not all(path.exists() for path in ready) and time.monotonic() < deadline:
        dead = [process for process in processes if process.poll() is not None]
        assert not dead, dead[0].communicate()[1][-3000:]
        time.sleep(0.05)
    go.touch()
    assert {said(process) for process in processes} <= {"miss", "hit"}
    [entry] = entries(directory)
    assert whole(entry)
    assert listing(directory) == [entry.name]  # no .incoming-* left behind


# --- the size cap -----------------------------------------------------------------------


@pytest.mark.iree
def test_the_size_cap_evicts_the_least_recently_used(cache_dir):
    [a] = entries(cache_dir)
    cache = ExecutableCache(cache_dir, cap=int(2.5 * a.stat().st_size))  # two of tiny's entries fit, not three
    assert compile_tiny(cache, nudge=1.0) == "miss"
    [b] = set(entries(cache_dir)) - {a}
    now = time.time()
    os.utime(a, (now - 200, now - 200))
    os.utime(b, (now - 100, now - 100))
    assert compile_tiny(cache) == "hit"  # a is now the most recently used
    assert a.stat().st_mtime > now - 100
    assert compile_tiny(cache, nudge=2.0) == "miss"
    [c] = set(entries(cache_dir)) - {a, b}
    assert entries(cache_dir) == sorted([a, c])  # b went, the least recently used


def test_mlc_cache_size_caps_the_directory(tmp_path, monkeypatch):
    monkeypatch.setenv("MLC_CACHE_SIZE", "2K")
    cache = resolve(str(tmp_path / "cache"))
    assert cache.cap == 2048
    payload, now = bytes(800), time.time()  # an entry is about 900 bytes: two fit

    def put(key: str, age: float) -> None:
        cache.put(key, payload, {"per call": 1})
        os.utime(cache.directory / f"{key}.entry", (now - age, now - age))

    put("a", 300)
    put("b", 200)
    put("c", 100)  # evicts a
    assert listing(cache.directory) == ["b.entry", "c.entry"]
    assert cache.get("b") == executable_cache.Entry(payload, {"per call": 1})  # and makes b the latest
    put("d", 0)  # evicts c
    assert listing(cache.directory) == ["b.entry", "d.entry"]
    assert cache.get("a") is None


# --- privacy ----------------------------------------------------------------------------


def test_a_new_cache_is_private_whatever_the_umask(tmp_path):
    previous = os.umask(0)
    try:
        cache = ExecutableCache(tmp_path / "parent" / "cache")
        cache.put("k", b"vmfb", {})
    finally:
        os.umask(previous)
    assert cache.usable
    assert (mode(cache.directory), mode(cache.directory / "k.entry")) == (0o700, 0o600)


@pytest.mark.iree
@pytest.mark.parametrize("unsafe", [0o770, 0o703], ids=["group-writable", "world-writable"])
def test_a_directory_others_can_write_to_is_not_used(seeded, tmp_path, unsafe):
    directory = tmp_path / "cache"
    directory.mkdir()
    directory.chmod(unsafe)
    [planted] = entries(seeded)  # the very entry this compile would hit
    shutil.copy2(planted, directory)
    with pytest.warns(UserWarning, match="is not private to this user"):
        # a cache that is not usable is off: IREE compiled, and nothing was stored or read
        assert compile_tiny(str(directory)) == "off"
    assert listing(directory) == [planted.name]
    assert mode(directory) == unsafe  # left as it was


@pytest.mark.skipif(not hasattr(os, "getuid") or os.getuid() != 0, reason="giving a directory to another user needs root")
def test_a_directory_another_user_owns_is_not_used(tmp_path):
    mine = ExecutableCache(tmp_path / "mine")
    mine.put("planted", b"vmfb", {})
    directory = tmp_path / "cache"
    directory.mkdir(mode=0o700)
    planted = Path(shutil.copy2(mine.directory / "planted.entry", directory))
    os.chown(directory, 65534, 65534)
    with pytest.warns(UserWarning, match="owner uid 65534"):
        cache = ExecutableCache(directory)
    assert not cache.usable
    assert cache.get(planted.name.removesuffix(".entry")) is None
    cache.put("k", b"vmfb", {})
    assert listing(directory) == [planted.name]


def test_a_cache_that_cannot_be_created_is_not_used(tmp_path):
    (tmp_path / "file").write_text("")
    with pytest.warns(UserWarning, match="cannot be used"):
        cache = ExecutableCache(tmp_path / "file" / "cache")
    assert not cache.usable
    cache.put("k", b"vmfb", {})
    assert cache.get("k") is None


# --- the key ----------------------------------------------------------------------------


def test_the_key_covers_the_module_the_flags_and_the_versions(tmp_path, monkeypatch):
    key = ExecutableCache(tmp_path).key
    flags = ["--iree-hal-target-device=local", "--iree-opt-level=O2"]
    base = key(b"module", flags)
    assert len(base) == 64 and base == key(b"module", list(flags))
    assert key(b"module!", flags) != base
    assert key(b"module", flags[:1]) != base
    assert key(b"module", [*flags, "--iree-opt-data-tiling"]) != base
    assert key(b"module", ["--iree-hal-target-device=local--iree-opt-level=O2"]) != base  # flags stay apart
    assert key(b"module", flags[::-1]) != base
    for name, other in [("iree_version", "iree 0.0 {}"), ("_mlc_version", "mlc 0.0"), ("FORMAT", -1)]:
        with monkeypatch.context() as patch:
            patch.setattr(executable_cache, name, other if name == "FORMAT" else lambda other=other: other)
            assert key(b"module", flags) != base, name
    assert key(b"module", flags) == base


def test_the_versions_in_the_key_are_the_installed_ones():
    assert iree.compiler.version.VERSION in executable_cache.iree_version()
    assert executable_cache._mlc_version().startswith("mlc ")


def test_the_host_cpu_is_in_the_key_when_the_flags_say_target_cpu_host(tmp_path, monkeypatch):
    key = ExecutableCache(tmp_path).key
    host, named = ["--iree-llvmcpu-target-cpu=host"], ["--iree-llvmcpu-target-cpu=znver4"]
    before = key(b"module", host), key(b"module", named)
    monkeypatch.setattr(executable_cache, "host_cpu", lambda: "x86_64 another CPU {\"flags\": \"sse2\"}")
    assert key(b"module", host) != before[0]  # another machine's executable is not taken
    assert key(b"module", named) == before[1]  # a named CPU compiles the same anywhere
    assert any(flag.endswith("target-cpu=host") for flag in list(iree_backend.CPU_FLAGS))


def test_the_host_cpu_names_the_machine_and_its_features():
    described = executable_cache.host_cpu()
    assert described.startswith(platform.machine())
    cpuinfo = Path("/proc/cpuinfo")
    if cpuinfo.exists():
        assert any(f'"{field}"' in described for field in ("flags", "Features")), described


# torch.compile(backend="mlc") in a new process: each graph's executable comes from the cache.
DYNAMO_CHILD = """
import torch
torch.manual_seed(0)
model = torch.nn.Sequential(torch.nn.Linear(8, 8), torch.nn.GELU()).eval()
x = torch.randn(2, 8)
with torch.no_grad():
    torch.testing.assert_close(torch.compile(model, backend="mlc")(x), model(x), rtol=1e-4, atol=1e-5)
"""


@pytest.mark.iree
def test_torch_compile_in_a_new_process_takes_the_executable_from_the_cache(tmp_path):
    env = {**os.environ, "MLC_CACHE_DIR": str(cache_of_its_own(tmp_path / "cache"))}
    subprocess.run([sys.executable, "-c", DYNAMO_CHILD], env=env, check=True, capture_output=True)
    [entry] = entries(tmp_path / "cache")
    written = entry.stat().st_ino
    subprocess.run([sys.executable, "-c", DYNAMO_CHILD], env=env, check=True, capture_output=True)
    assert entries(tmp_path / "cache") == [entry]
    assert entry.stat().st_ino == written  # read, not compiled and written again (a write renames a new file in)


# --- mlc.compile's and MLC_CACHE_SIZE's errors ------------------------------------------


@pytest.mark.parametrize("text, size", [
    (None, DEFAULT_CAP), ("", DEFAULT_CAP), ("1048576", 1048576), ("500M", 500 << 20), ("4G", 4 << 30),
    ("8gb", 8 << 30), ("1.5K", 1536), (" 2M ", 2 << 20), ("0", 0),
])
def test_parse_size(text, size):
    assert parse_size(text) == size


@pytest.mark.parametrize("text", ["lots", "5T", "M", "0x10", "nan", "inf", "1e400", "-1", "-2G"])
def test_parse_size_refuses_what_is_not_a_size(text):
    with pytest.raises(mlc.UserError, match="MLC_CACHE_SIZE must be a size like 500M or 4G"):
        parse_size(text)


def test_resolve(tmp_path, monkeypatch):
    monkeypatch.setenv("MLC_CACHE_DIR", str(tmp_path / "default"))
    monkeypatch.setenv("MLC_CACHE_SIZE", "1M")
    default = resolve(True)
    assert (default.directory, default.cap, default.usable) == (tmp_path / "default", 1 << 20, True)
    assert resolve(False) is None and resolve(None) is None
    assert resolve(str(tmp_path / "a")).directory == tmp_path / "a"
    assert resolve(tmp_path / "b").cap == 1 << 20
    assert resolve(default) is default
    monkeypatch.setenv("HOME", str(tmp_path))
    assert resolve("~/c").directory == tmp_path / "c"
    for bad in (3, 0, 1.0, b"dir", ["dir"]):
        with pytest.raises(mlc.UserError, match="cache must be True, False or a directory"):
            resolve(bad)


def test_mlc_compile_refuses_a_bad_cache_before_compiling(tmp_path, monkeypatch):
    model, x = tiny()
    with pytest.raises(mlc.UserError, match="cache must be True, False or a directory, got 3"):
        mlc.compile(model, (x,), cache=3)
    monkeypatch.setenv("MLC_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.setenv("MLC_CACHE_SIZE", "lots")
    with pytest.raises(mlc.UserError, match="MLC_CACHE_SIZE must be a size like 500M or 4G, got 'lots'"):
        mlc.compile(model, (x,))
