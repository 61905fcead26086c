"""mlc's matmul library: the IREE executable plugin that runs chosen matmuls on MKL (f32, bf16)
(driver/backends/native/mlc_matmul.c), built here with the machine's C compiler.

The plugin is built on first use into the executable cache's directory, named by the
hash of its source and of the MKL it links, so a new mlc or a new MKL builds anew.
It links MKL's sequential layer from this Python environment (the `mkl` and
`mkl-include` packages of requirements.lock) by absolute path.

IREE's runtime reads `--executable_plugin` when it creates a CPU driver, once per
process (iree.runtime caches drivers), so `register()` must run before the first
CPU executable loads: `iree_backend.load` calls it. An executable that calls the
plugin and loads without it fails with `MissingPlugin`'s message.
"""

import functools
import hashlib
import os
import platform
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

import iree.runtime

from ...errors import UserError
from ...passes.library_matmuls import PLUGIN_FUNCTIONS, QUANTIZED, column_blocks, parse_key
from ...passes.lower_to_linalg.attention import FUNCTION as ATTENTION
from ...passes.lower_to_linalg.normalization import LAYER_NORM_FUNCTION
from .. import atomic_file
from ..executable_cache import ExecutableCache, cpu_fields

NATIVE = Path(__file__).parent / "native"
# The plugin's source first, then every header it includes (each part of the build's key).
SOURCES = (NATIVE / "mlc_matmul.c", *sorted(NATIVE.glob("*.h")))
MKL_LIBRARIES = ("mkl_intel_lp64", "mkl_sequential", "mkl_core")
PLUGIN_FLAG = "--executable_plugin"


class Unavailable(Exception):
    """Why the plugin cannot be built or used here (no compiler, no MKL, not x86-64)."""


class MissingPlugin(UserError):
    """An executable calls mlc's matmul library, and IREE's runtime has not loaded it."""


def _mkl() -> tuple[Path, list[Path]]:
    """MKL's include directory and the libraries to link, from this environment."""
    prefix = Path(sys.prefix)
    include = prefix / "include"
    if not (include / "mkl_cblas.h").exists():
        raise Unavailable(f"MKL's headers are not installed ({include / 'mkl_cblas.h'}; pip install mkl-include)")
    libraries = []
    for name in MKL_LIBRARIES:
        found = sorted((prefix / "lib").glob(f"lib{name}.so*"))
        if not found:
            raise Unavailable(f"MKL's lib{name}.so is not installed in {prefix / 'lib'} (pip install mkl)")
        libraries.append(found[0])
    return include, libraries


def _compiler() -> str:
    for name in (os.environ.get("CC"), "cc", "gcc", "clang"):
        if name and shutil.which(name):
            return name
    raise Unavailable("no C compiler (cc, gcc or clang) on PATH to build it")


# -fno-trapping-math: C's float comparisons may trap, so without it GCC would not turn the
# selects of vector_math.h's exp, erf and tanh (GELU's epilogue, attention's softmax) into
# vector blends except in the AVX-512 clone, which has masks; the AVX2 clone ran them one
# element at a time (the transformer block's GELU: 5 ms of its 23 on an AVX2 AMD EPYC).
# Nothing here reads the floating-point exception flags.
CFLAGS = ("-O3", "-fno-trapping-math", "-shared", "-fPIC")


def _build_key(compiler: str, include: Path, libraries: list[Path]) -> str:
    digest = hashlib.sha256()
    for source in SOURCES:
        digest.update(source.read_bytes())
    digest.update(repr((compiler, CFLAGS, str(include), [str(p) for p in libraries])).encode())
    return digest.hexdigest()[:16]


def _tools() -> tuple[Path, list[Path], str]:
    """MKL's headers and libraries and a C compiler; raises Unavailable with what is missing."""
    if platform.machine() not in ("x86_64", "AMD64"):
        raise Unavailable(f"the plugin is built for x86-64, this machine is {platform.machine()}")
    include, libraries = _mkl()
    return include, libraries, _compiler()


def buildable() -> bool:
    """Whether the tools that build the plugin are here, without building it or making its
    directory (a compile that may not call it at all asks this)."""
    try:
        _tools()
        return True
    except Unavailable:
        return False


@functools.cache
def plugin() -> Path:
    """The built plugin (built now if needed); raises Unavailable with the reason."""
    include, libraries, compiler = _tools()
    cache = ExecutableCache.default()
    if not cache.usable:  # a library loaded into the process must not sit where others can write
        raise Unavailable(f"its build directory {cache.directory} is not private to this user")
    directory = _plugins(cache)
    path = directory / f"libmlc_matmul-{_build_key(compiler, include, libraries)}.so"
    if path.exists():
        return path
    directory.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(dir=directory) as scratch:
        built = Path(scratch) / path.name
        command = [compiler, *CFLAGS, "-o", str(built), str(SOURCES[0]), f"-I{include}",
                   *map(str, libraries), f"-Wl,-rpath,{libraries[0].parent}"]
        result = subprocess.run(command, capture_output=True, text=True)
        if result.returncode != 0:
            raise Unavailable(f"building it failed: {' '.join(command)}\n{result.stderr.strip()}")
        os.replace(built, path)  # atomic: a concurrent build of the same key writes the same bytes
    return path


def share_plugin(cache_directory: Path) -> None:
    """Copies the built plugin into the executable cache at `cache_directory` (made if
    new), where a process given that cache would otherwise build it again: about 5 s of
    gcc. A test or a benchmark that gives a process an empty cache of its own uses this;
    the build key in the file's name makes it the plugin that process would build. Does
    nothing where the plugin cannot be built."""
    cache = ExecutableCache(Path(cache_directory))  # made private, or warned about and left
    if not cache.usable or not available()[0]:
        return
    built = plugin()
    _plugins(cache).mkdir(mode=0o700, exist_ok=True)
    shutil.copy2(built, _plugins(cache) / built.name)


def _plugins(cache: ExecutableCache) -> Path:
    """Where an executable cache keeps built plugins, one file per build key."""
    return cache.directory / "plugins"


def available() -> tuple[bool, str]:
    """(whether the plugin can be used here, why not)."""
    try:
        plugin()
        return True, ""
    except Unavailable as reason:
        return False, str(reason)


_registered: list[Path] = []


def register() -> Path | None:
    """Hands the plugin to IREE's runtime, once per process, before a CPU driver exists.
    Returns its path, or None where it cannot be built (executables then do not call it)."""
    if _registered:
        return _registered[0]
    check_settings()
    ok, _ = available()
    if not ok:
        return None
    iree.runtime.flags.parse_flags(f"{PLUGIN_FLAG}={plugin()}")
    _registered.append(plugin())
    return plugin()


def _cpu_flags() -> set[str]:
    return set(cpu_fields().get("flags", "").split())


# MKL_ENABLE_INSTRUCTIONS levels below AVX512_E4, the first with AMX. The plugin's own AMX
# kernel (native/amx_s8.h) keeps the same list: the one switch holds both below AMX.
BELOW_AMX = ("SSE4_2", "AVX", "AVX2", "AVX2_E1", "AVX512", "AVX512_E1", "AVX512_E2", "AVX512_E3", "AVX512_MIC")


def mkl_kernel(operands: str) -> str:
    """The instructions MKL multiplies `operands` ("f32", "bf16", "i8") with on this CPU:
    AMX for bf16 and int8 where the CPU has it, unless MKL_ENABLE_INSTRUCTIONS holds
    MKL below it."""
    flags = _cpu_flags()
    limit = os.environ.get("MKL_ENABLE_INSTRUCTIONS", "").upper()
    amx = {"bf16": "amx_bf16", "i8": "amx_int8"}.get(operands)
    if amx in flags and limit not in BELOW_AMX:
        return "AMX"
    avx512 = "avx512f" in flags and not limit.startswith(("SSE", "AVX2")) and limit != "AVX"
    if not avx512:
        return "AVX2"
    return {"bf16": "AVX-512-BF16" if "avx512_bf16" in flags else "AVX-512",
            "i8": "AVX-512-VNNI" if "avx512_vnni" in flags else "AVX-512"}.get(operands, "AVX-512")


def int8_on_mkl() -> bool:
    """Whether MLC_INT8_KERNEL=mkl holds the plugin's own int8 kernels off (gemv_s8_vnni.h,
    amx_s8.h, vnni_s8.h), for MKL's int8 GEMM, as the plugin reads it (int8_on_mkl in
    native/mlc_matmul.c)."""
    return os.environ.get("MLC_INT8_KERNEL", "").lower() == "mkl"


def bf16_on_mkl() -> bool:
    """Whether MLC_BF16_KERNEL=mkl keeps MKL's bf16 GEMM for several rows on a CPU without
    AVX-512-BF16, where the plugin otherwise widens both operands to f32 for MKL's f32 GEMM
    (gemm_bf16_packed_block in native/mlc_matmul.c), as the plugin reads it."""
    return os.environ.get("MLC_BF16_KERNEL", "").lower() == "mkl"


def bf16_widened(m: int) -> bool:
    """Whether a bf16 matmul of `m` rows on a packed weight runs as f32 here: MKL's bf16 GEMM
    on a CPU without AVX-512-BF16 widens to f32 itself, slower than its f32 GEMM."""
    return m > 1 and "avx512_bf16" not in _cpu_flags() and not bf16_on_mkl()


def f32_on_mkl() -> bool:
    """Whether MLC_F32_KERNEL=mkl holds the plugin's own f32 and bf16 kernels of several
    rows off (sgemm_avx512.h, gemm_bf16.h): the products the compiler put there run on
    MKL, as the plugin reads it (f32_on_mkl in native/mlc_matmul.c)."""
    return os.environ.get("MLC_F32_KERNEL", "").lower() == "mkl"


# The rows of one strip of the plugin's VNNI kernel (VNNI_S8_ROWS in native/vnni_s8.h).
VNNI_ROWS = 6


def kernel_of(shape: str) -> str:
    """What runs the library matmul of `shape` (a library_matmuls.shape_key) on this CPU:
    a single row runs on the plugin's own kernels where the CPU has their instructions
    (native/gemv_bf16.h and gemv_s8_vnni.h, which check the same flags), as do several
    quantized rows, on AMX where MKL would run it (native/amx_s8.h), else on VNNI
    (native/vnni_s8.h), for the constant weights mlc quantizes (up to VNNI_ROWS on VNNI
    even where AMX is: s8_kernel in native/mlc_matmul.c); quantized rows without VNNI on
    AVX2 (native/gemv_s8_avx2.h for one, gemm_s8_avx2.h for several); everything else on
    MKL, several bf16 rows as f32 where the CPU has no bf16 instructions (bf16_widened)."""
    m, k, n, operands = parse_key(shape)
    quantized = operands == QUANTIZED
    operands = "i8" if quantized else operands  # a quantized row runs on the int8 kernels
    flags = _cpu_flags()
    if operands == "i8" and int8_on_mkl():
        return f"MKL {mkl_kernel(operands)}"
    vnni = k <= 65535 and {"avx512_vnni", "avx512bw"} <= flags
    if operands == "i8" and m == 1 and vnni:
        return "mlc VNNI"
    if quantized and m <= VNNI_ROWS and vnni:
        return "mlc VNNI"
    if quantized and mkl_kernel("i8") == "AMX":
        return "mlc AMX"
    if quantized and vnni:
        return "mlc VNNI"
    if quantized and "avx2" in flags:  # no VNNI (mlc_matmul.c: row_sums_avx2, s8_kernel)
        return "mlc AVX2"
    if quantized and m == 1:
        return "mlc C"
    if operands == "bf16" and m == 1 and {"avx512_bf16", "avx512bw"} <= flags and _bf16_kernel_suits(n):
        return "mlc AVX-512-BF16"
    if operands == "bf16" and bf16_widened(m):
        return f"MKL {mkl_kernel('f32')} (bf16 widened)"
    return f"MKL {mkl_kernel(operands)}"


# The widest block of columns the plugin's bf16 row kernel takes (gemv_bf16_suits in
# native/gemv_bf16.h); MKL reads wider ones faster.
BF16_ROW_KERNEL_COLUMNS = 8192


def _bf16_kernel_suits(n: int) -> bool:
    """Whether each thread's block of a single bf16 row's `n` columns is narrow enough."""
    return column_blocks(n, plugin_threads())[0] <= BF16_ROW_KERNEL_COLUMNS


# The plugin's settings in the environment, as native/*.h read them: a word from a list
# (any case), or a whole number (MLC_PLUGIN_THREADS: 0 is the default, the CPUs this process
# may run on; MLC_PACKED_WEIGHTS_LIMIT: bytes). The C code reads anything else as unset,
# or "500M" as 500 bytes, so check_settings refuses it before a compile or a run.
WORD_SETTINGS = {"MLC_F32_KERNEL": ("mkl",), "MLC_BF16_KERNEL": ("mkl",), "MLC_INT8_KERNEL": ("mkl",),
                 "MLC_ATTENTION_KERNEL": ("own", "mkl")}
NUMBER_SETTINGS = ("MLC_PLUGIN_THREADS", "MLC_PACKED_WEIGHTS_LIMIT")


def check_settings() -> None:
    """Raises UserError for a plugin setting in the environment that the plugin would not
    read as meant; an empty one is unset."""
    for name, words in WORD_SETTINGS.items():
        value = os.environ.get(name, "")
        if value and value.lower() not in words:
            raise UserError(f"{name} must be {' or '.join(map(repr, words))} (or unset), got {value!r}")
    for name in NUMBER_SETTINGS:
        value = os.environ.get(name, "")
        if value and not (value.isascii() and value.isdigit()):
            raise UserError(f"{name} must be a whole number (or unset), got {value!r}")


def plugin_threads() -> int:
    """The threads among which the plugin splits each call (native/team.h): the CPUs this
    process may run on, or MLC_PLUGIN_THREADS."""
    try:
        wanted = int(os.environ.get("MLC_PLUGIN_THREADS", ""))
    except ValueError:
        wanted = 0
    return wanted if wanted > 0 else len(os.sched_getaffinity(0))


# MKL_ENABLE_INSTRUCTIONS levels without VNNI (AVX2_E1 and AVX512_E1 add it).
WITHOUT_VNNI = ("SSE4_2", "AVX", "AVX2", "AVX512", "AVX512_MIC")


def exact_int8() -> bool:
    """Whether MKL's int8 GEMM sums exactly here: with VNNI or AMX it sums byte products
    in 32 bits; without, it sums pairs of them in 16 bits with saturation (`vpmaddubsw`),
    and 255 x 127 twice does not fit."""
    flags = _cpu_flags()
    limit = os.environ.get("MKL_ENABLE_INSTRUCTIONS", "").upper()
    return bool(flags & {"avx512_vnni", "avx_vnni", "amx_int8"}) and limit not in WITHOUT_VNNI


def exact_int8_rows() -> bool:
    """Whether the plugin sums a single quantized int8 row exactly here: on its own
    kernels it does on any CPU (VNNI, else AVX2: native/gemv_s8_avx2.h, else C); on MKL
    (MLC_INT8_KERNEL=mkl) only where `exact_int8`."""
    return exact_int8() or not int8_on_mkl()


def calls_plugin(vmfb: bytes) -> bool:
    """Whether an executable imports one of the plugin's functions."""
    return any(name.encode() in vmfb for name in (*PLUGIN_FUNCTIONS, ATTENTION, LAYER_NORM_FUNCTION))


PLUGIN_NAME = "libmlc_matmul.so"


def run_flag(path: Path | None = None) -> str:
    """The iree-run-module flag that loads the plugin (the built one, or a copy at `path`)."""
    return f"{PLUGIN_FLAG}={Path(path or plugin()).resolve()}"


def copy_plugin(directory: Path) -> Path:
    """A copy of the plugin in `directory`, beside an executable that needs it."""
    target = Path(directory) / PLUGIN_NAME
    atomic_file.copy(plugin(), target)
    return target


def missing_plugin_error(error: Exception) -> MissingPlugin:
    """The error for an executable whose library calls IREE could not resolve: the
    plugin's build failed here (what the compiler said), or it was not handed to IREE."""
    built, why = available()
    if not built:
        return MissingPlugin("this executable runs matmuls on mlc's matmul library (an IREE executable plugin), "
                             f"which cannot be used here: {why}")
    return MissingPlugin(
        "this executable runs matmuls on mlc's matmul library (an IREE executable plugin), and IREE's runtime "
        f"has not loaded it ({str(error).strip().splitlines()[0]}).\n"
        f"With iree-run-module, pass {PLUGIN_FLAG}=PATH/libmlc_matmul.so (mlc-compile prints the line; "
        "compiled.save writes the plugin beside the .vmfb). In Python, mlc registers it before the first CPU "
        "executable loads: load mlc's executables before creating IREE CPU devices of your own, "
        "or compile with target_options={'matmul-library': False}.")
