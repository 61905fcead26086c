"""Which instructions an llvm-cpu executable uses: the `cpu` option that picks them,
and the census that reads them back out of a `.vmfb`.

- `cpu` (llvm-cpu's target option, default "host") is the LLVM CPU IREE generates code
  for. "host" uses everything this CPU has (AVX-512, its BF16 and VNNI extensions);
  "x86-64-v3" stops at AVX2, as on a CPU without them; "sapphirerapids" or "znver4"
  target another machine. IREE aborts on a name LLVM does not know ("LLVM ERROR"), so a
  name is tried on a one-op module first and refused with LLVM's own list.
- `conv_matmul_pixels(options)`: how many output pixels a convolution may have and still
  run as im2col + matmul (mlc-conv-to-matmul{max-pixels}), for the CPU compiled for.
- `avx2_without_avx512(options)`: whether IREE's direct convolutions get mlc's tiles
  (mlc-conv-tiles), for the CPU compiled for.
- `census(vmfb)` counts the instructions that show which kernels a model's matmuls
  got: `vdpbf16ps` (AVX-512-BF16), `vpdpbusd` (VNNI on bytes) and `vpdpwssd` (VNNI on
  16-bit words, half the rate: IREE 3.13's s8 x s8 kernels sign-extend to these), AMX
  tile multiplies, and f32 FMAs on 512-bit registers. It disassembles the ELF objects IREE
  embeds (objdump, from binutils). The vendor library's matmuls (matmul-library) run
  in MKL, outside the executable: the report's "matmul library" lists those.
"""

import functools
import platform
import re
import struct
import subprocess
import tempfile
from collections import Counter

import iree.compiler

from ...errors import UserError
from ..executable_cache import cpu_fields

HOST = "host"
# mlc-conv-to-matmul's max-pixels on an x86 CPU without AVX-512. The pass's default (256)
# was measured on a Xeon with AVX-512, where IREE's direct convolutions beat im2col + its
# own matmul kernel from 28x28 pixels on. On an AMD EPYC with AVX2 only, im2col +
# matmul (IREE's kernel or the library, chosen per shape) won at 28x28 too: ResNet-18
# 99.1 -> 92.7 ms, ResNet-50 206 -> 180 ms (benchmarks/conv_matmul_pixels.py). A CNN at 64x64 lost
# (11.7 -> 20.7 ms, its matmuls of 16 and 32 columns slow on both kernels), so not more.
AVX2_CONV_MATMUL_PIXELS = 1024
KERNELS = {
    "AVX-512-BF16": ("vdpbf16ps",),
    "VNNI 8-bit": ("vpdpbusd", "vpdpbusds"),  # u8 x s8, 4 products per lane
    "VNNI 16-bit": ("vpdpwssd", "vpdpwssds"),  # s16 x s16, 2 per lane: IREE 3.13's i8 kernels widen to these
    "AMX": ("tdpbf16ps", "tdpbssd", "tdpbsud", "tdpbusd", "tdpbuud", "tdpfp16ps"),
    "AVX-512 f32 FMA": ("vfmadd231ps zmm", "vfmadd213ps zmm", "vfmadd132ps zmm"),
}
_PROBE = """
func.func @main(%a: tensor<8xf32>) -> tensor<8xf32> {
  %b = arith.addf %a, %a : tensor<8xf32>
  return %b : tensor<8xf32>
}
"""


def cpu_flags(options) -> tuple[str, ...]:
    """iree-compile's flag for the `cpu` option; none for the host, which CPU_FLAGS names."""
    cpu = options.get("cpu", HOST)
    return () if cpu == HOST else (f"--iree-llvmcpu-target-cpu={cpu}",)


def conv_matmul_pixels(options) -> int | None:
    """mlc-conv-to-matmul's max-pixels for the CPU compiled for: AVX2_CONV_MATMUL_PIXELS for
    this machine when it is an x86 CPU without AVX-512; None (the pass's default) for one
    with it, another architecture, and a named cpu, whose speeds were not measured."""
    if options.get("cpu", HOST) != HOST or platform.machine() not in ("x86_64", "AMD64"):
        return None
    return None if "avx512f" in cpu_fields().get("flags", "").split() else AVX2_CONV_MATMUL_PIXELS


# LLVM's x86 CPUs with AVX2 but not AVX-512, for which mlc-conv-tiles sets convolutions' tiles.
AVX2_CPUS = frozenset({"x86-64-v3", "haswell", "broadwell", "skylake", "alderlake", "znver1", "znver2", "znver3"})


def avx2_without_avx512(options) -> bool:
    """Whether the CPU compiled for is an x86 one with AVX2 but not AVX-512: this machine's
    flags for "host", else AVX2_CPUS (passes/conv_tiles.py)."""
    cpu = options.get("cpu", HOST)
    if cpu != HOST:
        return cpu in AVX2_CPUS
    flags = cpu_fields().get("flags", "").split()
    return platform.machine() in ("x86_64", "AMD64") and "avx2" in flags and "avx512f" not in flags


def check_cpu(options) -> None:
    cpu = options.get("cpu", HOST)
    if not isinstance(cpu, str) or not re.fullmatch(r"[\w.-]+", cpu):
        raise UserError(f"target 'llvm-cpu': cpu must be an LLVM CPU name like x86-64-v3 or host, got {cpu!r}")
    if cpu != HOST and not _known(cpu):
        raise UserError(f"target 'llvm-cpu': unknown cpu {cpu!r}; LLVM knows: {', '.join(_llvm_cpus())}")


@functools.cache
def _known(cpu: str) -> bool:
    try:
        _probe(cpu)
    except iree.compiler.CompilerToolError as error:
        if "is not a recognized processor" in str(error):
            return False
        raise
    return True


@functools.cache
def _llvm_cpus() -> tuple[str, ...]:
    """LLVM's list of CPUs for this architecture, as it prints it with a name it does not know."""
    try:
        _probe("mlc-no-such-cpu")
    except iree.compiler.CompilerToolError as error:
        listed = re.search(r"List of accepted CPUs: (.*)", str(error))
        if listed:
            return tuple(name.strip() for name in listed.group(1).split(","))
    return ()


def _probe(cpu: str) -> None:
    iree.compiler.compile_str(_PROBE, target_backends=["llvm-cpu"], extra_args=[f"--iree-llvmcpu-target-cpu={cpu}"])


def census(vmfb: bytes) -> dict[str, int]:
    """Per kind of kernel in KERNELS, how many of its instructions the executable's code holds."""
    mnemonics = Counter()
    for elf in _embedded_elfs(vmfb):
        mnemonics.update(_disassembled(elf))
    return {kind: sum(mnemonics[name] for name in names) for kind, names in KERNELS.items()}


def _embedded_elfs(vmfb: bytes):
    """The ELF shared objects IREE embeds, each cut at the end of its section headers (the
    end of the file). The weights are in the same file: a match of the magic bytes there
    is skipped unless its header is that of a 64-bit x86-64 or AArch64 shared object."""
    start = 0
    while (offset := vmfb.find(b"\x7fELF\x02\x01\x01", start)) >= 0:
        start = offset + 1
        if len(vmfb) < offset + 0x40:
            break
        kind, machine = struct.unpack_from("<HH", vmfb, offset + 0x10)
        (section_headers,) = struct.unpack_from("<Q", vmfb, offset + 0x28)
        entry_size, entries = struct.unpack_from("<HH", vmfb, offset + 0x3A)
        end = offset + section_headers + entry_size * entries
        if kind == 3 and machine in (62, 183) and entry_size == 64 and end <= len(vmfb):
            yield vmfb[offset:end]
            start = end


def _disassembled(elf: bytes) -> Counter:
    """Mnemonics, with "zmm" appended to the FMAs on 512-bit registers."""
    with tempfile.NamedTemporaryFile(suffix=".so") as file:
        file.write(elf)
        file.flush()
        text = subprocess.run(["objdump", "-d", "--no-show-raw-insn", file.name], capture_output=True,
                              text=True).stdout
    counted = Counter()
    for mnemonic, operands in re.findall(r"^\s+[0-9a-f]+:\s+(\S+)\s*(.*)$", text, re.M):
        if mnemonic.startswith("vfmadd") and "zmm" in operands:
            mnemonic += " zmm"
        counted[mnemonic] += 1
    return counted
