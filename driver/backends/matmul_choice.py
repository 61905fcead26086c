"""Which matmuls run on the library (MKL, through mlc's plugin) and which on IREE's own
microkernel: chosen per shape by measuring both on this CPU, once.

The kernels' speeds differ by CPU more than by anything mlc controls. On an Intel Xeon
with AVX-512, MKL's sgemm runs a transformer's matmuls about twice as fast as IREE's
mmt4d microkernel; on an AMD EPYC (Zen 4), IREE's kernel matches or beats MKL on most
shapes. At bf16 (`MxKxNxbf16`), MKL runs on the Xeons' AMX at 3-4x its f32 rate,
where the EPYCs have none. So each new shape is timed both ways, on IREE's worker
threads, as the executable will run it (constant weights, data tiling on), and the
faster wins by at least `MARGIN`. A few rows (a decode step's, of one sequence or a
batch: bound by reading the weight) are timed on copies of the weight one after
another, from memory, as a decode step reads them (`cold_bytes`), and the faster wins
(MATVEC_MARGIN). The results are kept per CPU model and feature flags, IREE version and
plugin build, in `matmul-choices/` under the executable cache's directory, so a shape is
measured once per machine. A quantized int8 row (`MxKxNxq8`) is not measured: see `choose`.

The `matmul-library` target option of llvm-cpu: "auto" (measure; the default), true
(every matmul that qualifies, unmeasured) or false (none).
"""

import functools
import hashlib
import json
import math
import os
import tempfile
import time
from pathlib import Path

import iree.runtime
import ml_dtypes
import numpy as np
from torch_mlir import ir
from torch_mlir.dialects import arith, func, linalg, tensor

from ...dialects import iree_flow
from ...errors import UserError
from ...passes import constant_values, library_matmuls
from ..executable_cache import cpu_fields, default_directory, host_cpu, iree_version
from . import matmul_library

# Below this much work a matmul stays on IREE's kernel unmeasured: the extra dispatch
# and the call through the plugin cost more than any kernel could save.
MIN_FLOPS = 16e6
# ... unless it has at most WEIGHT_BOUND_ROWS rows (an LLM's decode step, of one sequence
# or a batch) and this much weight: it is bound by reading its weight, not by its few
# flops (GPT-2's int8 768x3072: 4.7 MFLOP a row). Below MIN_FLOPS, four rows of GPT-2's
# 768x2304 and 768x768 stayed on IREE's kernel, which read their weights at 7.5 GB/s
# where mlc's kernel reads them at 22-24 (Intel Xeon).
MIN_WEIGHT_BYTES = 512 << 10
# ... and, at bf16 on a CPU without AVX-512-BF16, down to this much weight
# (iree_lacks_a_kernel): IREE's bf16 code there takes about 1.3 ms per MB of weight, so
# a smaller matmul loses at most 0.16 ms a call, less than measuring it costs a compile.
MIN_SLOW_BF16_BYTES = 128 << 10
# Up to this many rows, a product by a weight read from memory (a decode step's) is bound
# by reading it. f32 on mlc's kernel, cold weights, Intel Xeon, two threads: 1 row read
# 23.9 GB/s, 4 rows 22.3, 8 rows 17.9, 16 rows 14.0, where its arithmetic takes as long.
WEIGHT_BOUND_ROWS = 16
# A matmul with a larger weight is timed on as many of its columns as fit in this: IREE's
# compile of the benchmark packs the constant (4 s for GPT-2's 154 MB head), too long for
# a choice, and both kernels' time per column carries over.
MAX_MEASURED_WEIGHT = 32 << 20  # bytes
# The library must be at least this much faster to be chosen: the timings are noisy.
MARGIN = 0.9
ROUNDS, CALLS = 15, 2
# A kernel this many times slower than the fastest in the first round is not timed in
# the others: no round could make it the faster. On a CPU without AVX-512-BF16, IREE's
# bf16 kernel took 50-300 ms a call where the library took 1-4 (AMD EPYC, Zen 3), and
# timing it every round made GPT-2's bf16 compile take 265 s.
HOPELESS = 4.0
# A few rows are timed on copies of their weight that together take `cold_bytes()` (at
# most MAX_COPIES), one product per copy, one dispatch after another in one call, as a
# decode step runs them: each weight read once, from memory. Timed one call per product
# on one weight, the call's own cost and a weight kept in the core's cache hid the
# kernels' difference: Llama's bf16 2048x768 timed 0.17 ms on either kernel, and in a
# decode step IREE's took 138 us, the library's 90 (Intel Xeon). Copies that the
# last-level cache can hold are read partly from it: 32 MiB of Llama's f32 768x2048 on
# an AMD EPYC with a 32 MiB L3 timed 0.158 ms, 40 GB/s, where its memory streams 31-34.
MIN_COLD_BYTES, MAX_COLD_BYTES = 32 << 20, 96 << 20
MAX_COPIES = 32
# ... and the faster kernel wins it, by any margin: timed so, each reads the weight once
# from memory in one dispatch, as the decode step will. With MARGIN, Llama's bf16
# 768x2048 and 768x768 stayed on IREE's kernel (0.122 and 0.049 ms against mlc's 0.117
# and 0.048), and its decode step took 8.13 ms a token where it takes 7.08 with them on
# mlc's (AMD EPYC, the two alternated in one process).
MATVEC_MARGIN = 1.0
# Part of the timings' key: a new way of measuring measures every shape again.
# 2: real weights for both kernels, blocks of columns; 3: single rows on copies in one call;
# 4: weights packed once on the library (but single rows'), as mlc-library-matmuls{packed} runs them;
# 5: the input held by IREE, the products left there;
# 6: one workgroup per library matmul, split among the plugin's own threads; IREE's kernel on one thread too.
# 7: f32 products of several rows also on mlc's own AVX-512 kernel (native/sgemm_avx512.h).
# 8: bf16 products of several rows also on mlc's own AVX-512-BF16 kernel (native/gemm_bf16.h).
# 9: single bf16 rows on mlc's own AVX-512-BF16 kernel too, their weight packed once.
# 10: single f32 rows on mlc's own AVX-512 kernel too; a single row's copies each with values of
#     their own (they repeated every 7 copies), together twice the last-level cache.
# 11: up to WEIGHT_BOUND_ROWS rows timed as single rows are (cold copies, any margin), not only one.
# 12: single f32 and bf16 rows on mlc's own AVX2 kernel too, where the CPU has no AVX-512.
METHOD = 12
# What is timed (see measure): the benchmark function and the IREE driver. IREE's kernel
# on its task workers and on the calling thread alone (where a model runs on local-sync);
# the library on the calling thread, whose calls split among the plugin's own threads;
# mlc's own f32 or bf16 kernel there too, where it can run the shape (`own_kernel_suits`).
VARIANTS = {"iree": ("iree", "local-task"), "iree one thread": ("iree", "local-sync"),
            "library": ("library", "local-sync"), "own kernel": ("own_kernel", "local-sync")}


def option(options: dict) -> str:
    """The `matmul-library` option as "auto", "on", "off" or "mlc" (on, with every shape
    that mlc's own f32 or bf16 kernel can run on it, unmeasured: what test/fuzz/kernels.py
    and the kernels' tests check them with)."""
    value = options.get("matmul-library", "auto")
    if value is True or value == "on":
        return "on"
    if value is False or value == "off":
        return "off"
    if value in ("auto", "mlc"):
        return value
    raise UserError(f"target 'llvm-cpu': matmul-library must be auto, true, false or mlc, got {value!r}")


def eligible_shapes(module: ir.Operation) -> list[str]:
    """The `shape_key` of every matmul the library pass could move."""
    with module.context:
        found = [library_matmuls.matmul_shape(op, region) for op, region in library_matmuls.matmuls(module)]
    return [shape for shape in found if shape is not None]


def flops(shape: str) -> float:
    m, k, n, _ = library_matmuls.parse_key(shape)
    return 2.0 * m * k * n


BYTES = {"f32": 4, "bf16": 2, "i8": 1}


def weight_bytes(shape: str) -> int:
    _, k, n, operands = library_matmuls.parse_key(shape)
    return BYTES[operands] * k * n


def is_few_rows(shape: str) -> bool:
    """At most WEIGHT_BOUND_ROWS rows: timed as a decode step reads the weight, cold."""
    return library_matmuls.parse_key(shape)[0] <= WEIGHT_BOUND_ROWS


def is_weight_bound(shape: str) -> bool:
    """A few rows by a weight of at least MIN_WEIGHT_BYTES."""
    return is_few_rows(shape) and weight_bytes(shape) >= MIN_WEIGHT_BYTES


def own_kernel_suits(shape: str) -> bool:
    """Whether mlc's own kernel can run `shape` here, its weight packed once: f32 on a
    CPU with AVX-512F (native/sgemm_avx512.h), or bf16 of an even K on one with
    AVX-512-BF16 (native/gemm_bf16.h, which reads A's rows a pair at a time); a single
    row of either on a CPU with AVX2 and FMA only (native/gemv_avx2.h). A single row
    (a decode step's) streams the weight in the order it lies packed. Whether it
    does is measured, against MKL and IREE's kernel: on AMD's Zen 4 the f32 kernel ran
    BERT-base 9 % and GPT-2 14 % faster than IREE's kernel, where MKL ran them slower
    than IREE's; MKL has no AVX-512-BF16 code there, and on Zen 3 (AVX2) its bf16 GEMM
    read a decode step's weight at 0.7 GB/s where gemv_avx2.h reads 18-20."""
    m, k, _, operands = library_matmuls.parse_key(shape)
    if not library_matmuls.own_kernel_takes(operands) or (operands == "bf16" and k % 2):
        return False
    flags = set(cpu_fields().get("flags", "").split())
    if operands == "bf16" and {"avx512_bf16", "avx512bw", "avx512vl"} <= flags:
        return True
    if operands == "f32" and "avx512f" in flags:
        return True
    return m == 1 and {"avx2", "fma"} <= flags


def iree_lacks_a_kernel(shape: str) -> bool:
    """Whether IREE's kernel for `shape` is too slow here to be left a matmul below
    MIN_FLOPS and MIN_WEIGHT_BYTES unmeasured: bf16 of at least MIN_SLOW_BF16_BYTES of
    weight on a CPU without AVX-512-BF16, which IREE 3.13 multiplies one widened element
    at a time (AMD EPYC, Zen 3: 1x3072x768 6.0 ms, where mlc's AVX2 row kernel takes
    0.26; Llama's 768x256 rows stayed on it below MIN_WEIGHT_BYTES, and its bf16 step
    took 37 ms a token to f32's 27)."""
    operands = library_matmuls.parse_key(shape)[3]
    return (operands == "bf16" and weight_bytes(shape) >= MIN_SLOW_BF16_BYTES
            and "avx512_bf16" not in cpu_fields().get("flags", "").split())


def quantized_rows_whole(options: dict) -> bool:
    """Whether single int8 rows run whole on the library (mlc-quantize-int8{whole-rows}):
    the option allows the library, the plugin builds here, and it sums them exactly (on
    AVX2 too: native/gemv_s8_avx2.h)."""
    return option(options) != "off" and matmul_library.available()[0] and matmul_library.exact_int8_rows()


def quantized_matrices_whole(options: dict) -> bool:
    """Whether int8 matmuls of several rows run whole on the library too
    (mlc-quantize-int8{whole-matrices}): where single rows do and the CPU has AMX-INT8 or
    AVX-512 VNNI, which the plugin's own kernels run on (native/amx_s8.h, 3.6-6x IREE's
    kernel on BERT-base's shapes, Intel Xeon; native/vnni_s8.h, 2.2-2.4x, AMD EPYC Zen 4:
    vpdpbusd multiplies 64 byte pairs where IREE's vpdpwssd multiplies 32 word pairs, at
    the same rate), or AVX2 without either (native/gemm_s8_avx2.h, 2.5x IREE's kernel on
    BERT-base's shapes, AMD EPYC Zen 3), unless MLC_INT8_KERNEL=mkl holds it off for MKL,
    whose int8 saturates there. Unmeasured, as single rows are."""
    flags = set(cpu_fields().get("flags", "").split())
    if not quantized_rows_whole(options):
        return False
    if "amx_int8" in flags or {"avx512_vnni", "avx512bw"} <= flags:
        return matmul_library.exact_int8()
    return "avx2" in flags and not matmul_library.int8_on_mkl()


def ops_on_library(options: dict) -> bool:
    """Whether attention and LayerNorm run whole on the plugin (mlc-form-attention{library},
    mlc-library-layer-norms): the option allows the library and the plugin can be built
    here (it is built when an executable that calls it loads). Not measured per shape:
    one call per head in place of four dispatches that pass the scores through memory,
    and LayerNorms on the plugin's threads in place of IREE's code on one (README, Levers)."""
    return option(options) != "off" and matmul_library.buildable()


def choose(module: ir.Operation, options: dict, alone: bool = False) -> dict:
    """{"library": shapes, "iree": shapes, "why": ...}: where each matmul of `module` runs;
    `alone`: IREE's code runs on the calling thread (local-sync), so the library is
    measured against IREE's kernel on one thread. A quantized row (`MxKxNxq8`) runs on
    the library unmeasured: it is one only where `quantized_rows_whole` holds, and IREE's
    kernel would run its steps as separate dispatches with a host wait at each
    (passes/quantize_int8.py)."""
    shapes = list(dict.fromkeys(eligible_shapes(module)))
    whole = [s for s in shapes if library_matmuls.parse_key(s)[3] == library_matmuls.QUANTIZED]
    if whole:
        rest = choose_measured([s for s in shapes if s not in whole], options, alone)
        return {**rest, "library": whole + rest["library"],
                "why": f"{rest['why']}; quantized rows whole, unmeasured" if rest["iree"] or rest["library"]
                else "quantized rows whole, unmeasured"}
    return choose_measured(shapes, options, alone)


def choose_measured(shapes: list[str], options: dict, alone: bool = False) -> dict:
    """`choose` for shapes that either kernel can run: measured, unless the option decides."""
    if not matmul_library.exact_int8():  # int8 stays on IREE's exact kernel
        shapes = [s for s in shapes if library_matmuls.parse_key(s)[3] != "i8"]
    mode = option(options)
    if mode == "off" or not shapes:
        return {"library": [], "iree": shapes, "why": "off (target option)" if mode == "off" else "no matmul qualifies"}
    large = [s for s in shapes if flops(s) >= MIN_FLOPS or is_weight_bound(s) or iree_lacks_a_kernel(s)]
    if mode == "auto" and not large:
        return {"library": [], "iree": shapes, "why": f"every matmul is below {MIN_FLOPS / 1e6:.0f} MFLOP "
                f"(up to {WEIGHT_BOUND_ROWS} rows: {MIN_WEIGHT_BYTES >> 10} KiB of weight)"}
    ok, reason = matmul_library.available()
    if not ok:
        if mode in ("on", "mlc"):
            raise UserError(f"target 'llvm-cpu': matmul-library is {mode}, but mlc's matmul plugin cannot be used here: {reason}")
        return {"library": [], "iree": shapes, "why": f"unavailable: {reason}"}
    if mode == "on":
        return {"library": shapes, "iree": [], "why": "on (target option)"}
    if mode == "mlc":
        return {"library": shapes, "iree": [], "own kernel": [s for s in shapes if own_kernel_suits(s)],
                "why": "mlc's own kernels (target option)"}
    try:
        timed = Measurements.here().get(list(dict.fromkeys(map(timed_as, large))))
    except matmul_library.MissingPlugin:  # this process made IREE's CPU driver before mlc could hand it the plugin
        return {"library": [], "iree": shapes, "why": "unavailable: IREE's CPU driver in this process lacks the plugin"}
    measured = {s: timed[timed_as(s)] for s in large}
    rival = "iree one thread ms" if alone else "iree ms"
    library = [s for s in large if _library_ms(measured[s]) < margin(s) * measured[s][rival]]
    own = [s for s in library if _on_own_kernel(measured[s])]
    return {"library": library, "iree": [s for s in shapes if s not in library], "own kernel": own,
            "why": f"measured on this CPU{' (IREE on the calling thread)' if alone else ''}", "measured": measured}


def margin(shape: str) -> float:
    """How much faster than IREE's kernel the library must measure on `shape` to be chosen."""
    return MATVEC_MARGIN if is_few_rows(shape) else MARGIN


def _on_own_kernel(timing: dict) -> bool:
    """Whether mlc's own kernel measured faster than MKL on a shape."""
    return timing.get("own kernel ms", math.inf) < timing["library ms"]


def _library_ms(timing: dict) -> float:
    """A shape's time on the plugin: on mlc's own kernel or MKL, the faster."""
    return min(timing["library ms"], timing.get("own kernel ms", math.inf))


def kernels(choice: dict) -> list[str]:
    """What runs each of `choice`'s library shapes (matmul_library.kernel_of, or mlc's own
    f32 or bf16 kernel where the choice put the shape there)."""
    own = set(choice.get("own kernel", [])) if not matmul_library.f32_on_mkl() else set()
    return [own_kernel(shape) if shape in own else matmul_library.kernel_of(shape)
            for shape in choice.get("library", [])]


def own_kernel(shape: str) -> str:
    """The name of mlc's own kernel that runs `shape` on this CPU (own_kernel_suits)."""
    flags = set(cpu_fields().get("flags", "").split())
    if library_matmuls.parse_key(shape)[3] == "bf16":
        return "mlc AVX-512-BF16" if "avx512_bf16" in flags else "mlc AVX2 (bf16 widened)"
    return "mlc AVX-512" if "avx512f" in flags else "mlc AVX2"


def matmul_ms(module: ir.Operation, choice: dict, alone: bool = False) -> float | None:
    """The measured time of `module`'s matmuls as `choice` places them, each occurrence
    counted, IREE's kernel on the calling thread if `alone`; None where nothing was
    measured (the option decided, or every matmul is small)."""
    measured = choice.get("measured")
    if not measured:
        return None
    library, rival = set(choice["library"]), "iree one thread ms" if alone else "iree ms"
    return sum(_library_ms(measured[s]) if s in library else measured[s][rival]
               for s in eligible_shapes(module) if s in measured)


def library_flops(module: ir.Operation, library: list[str]) -> float:
    """The work of `module`'s matmuls whose shapes are in `library` (each occurrence)."""
    chosen = set(library)
    return sum(flops(s) for s in eligible_shapes(module) if s in chosen)


def timed_as(shape: str) -> str:
    """The shape timed for `shape`: itself, or, for a weight over MAX_MEASURED_WEIGHT, the
    same matmul on as many of its columns (a multiple of 16) as fit."""
    m, k, n, operands = library_matmuls.parse_key(shape)
    column = weight_bytes(shape) // n
    columns = min(n, max(16, MAX_MEASURED_WEIGHT // column // 16 * 16))
    return library_matmuls.shape_key(m, k, columns, operands)


class Measurements:
    """The per-shape timings of this CPU, on disk."""

    def __init__(self, path: Path):
        self.path = path

    @classmethod
    def here(cls) -> "Measurements":
        # MKL_ENABLE_INSTRUCTIONS can hold MKL below the CPU (AMX off), and MLC_F32_KERNEL,
        # MLC_INT8_KERNEL and MLC_BF16_KERNEL hold mlc's own ways off for MKL's: the timings differ.
        held_off = (os.environ.get("MKL_ENABLE_INSTRUCTIONS", ""), matmul_library.f32_on_mkl(),
                    matmul_library.int8_on_mkl(), matmul_library.bf16_on_mkl())
        identity = (host_cpu(), iree_version(), matmul_library.plugin().name, *held_off, METHOD)
        key = hashlib.sha256(repr(identity).encode()).hexdigest()[:16]
        return cls(default_directory() / "matmul-choices" / f"{key}.json")

    def _read(self) -> dict:
        try:
            return json.loads(self.path.read_text())
        except (OSError, ValueError):
            return {}

    def get(self, shapes: list[str]) -> dict:
        """The timings of `shapes`, measuring those never measured here."""
        known = self._read()
        missing = [s for s in shapes if s not in known]
        if missing:
            known = {**self._read(), **measure(missing)}  # re-read: another process may have added some
            self._write(known)
        return {s: known[s] for s in shapes}

    def _write(self, table: dict) -> None:
        self.path.parent.mkdir(parents=True, exist_ok=True)
        descriptor, temporary = tempfile.mkstemp(dir=self.path.parent, prefix=".incoming-")
        with os.fdopen(descriptor, "w") as file:
            json.dump(table, file, indent=1, sort_keys=True)
        os.replace(temporary, self.path)


def cold_bytes() -> int:
    """The bytes a few rows' copies take: twice the last-level cache, so that most of
    each copy comes from memory, within MIN_COLD_BYTES and MAX_COLD_BYTES (the benchmark
    compiles every copy into its executable)."""
    return min(MAX_COLD_BYTES, max(MIN_COLD_BYTES, 2 * last_level_cache_bytes()))


@functools.cache
def last_level_cache_bytes() -> int:
    """The largest cache of CPU 0, from sysfs (0 where it cannot be read)."""
    units = {"K": 1 << 10, "M": 1 << 20, "G": 1 << 30}
    sizes = [0]
    for size in Path("/sys/devices/system/cpu/cpu0/cache").glob("index*/size"):
        try:
            text = size.read_text().strip()
        except OSError:
            continue
        if text[:-1].isdigit() and text[-1] in units:
            sizes.append(int(text[:-1]) * units[text[-1]])
        elif text.isdigit():
            sizes.append(int(text))
    return max(sizes)


def copies(shape: str) -> int:
    """How many copies of its weight a shape is timed on (see `cold_bytes`)."""
    if not is_few_rows(shape):
        return 1
    return max(1, min(MAX_COPIES, -(-cold_bytes() // weight_bytes(shape))))


def _varied_values(k: int, n: int, operands: str, copy: int = 0) -> np.ndarray:
    """A weight's values, exact in bf16 and int8; each copy its own: IREE would keep one
    of equal constants, and the plugin one packed copy of equal weights (values that
    repeated every 7 copies let 16 copies of a 2.4 MB weight be read from the cache)."""
    steps = np.random.default_rng(copy).integers(0, 7, (k, n))
    return (steps - 3).astype(np.int8) if operands == "i8" else (steps * 0.125).astype(np.float32)


def _varied_weight(k: int, n: int, operands: str, copy: int = 0) -> ir.Attribute:
    """A weight held in a buffer (a resource blob, whose values mlc reads back to
    fingerprint it, as a model's weights), for both kernels. A splat is cheaper
    to compile, but IREE inlines it into the dispatch: its kernel then reads no weight
    from memory (GPT-2's head, timed on 10912 columns, took 8.1 ms on IREE's kernel
    and 9.6 on the library, where the whole head ran 41 ms faster on the library), it
    folds a bf16 matmul by a splat (0.28 ms for 64x768x3072, 1 TFLOP/s), and the
    library gets no buffer for a bf16 splat ("Unable to resolve all strided buffer
    descriptors")."""
    values = _varied_values(k, n, operands, copy)
    type_ = ir.RankedTensorType.get([k, n], library_matmuls.element_type(operands))
    return constant_values.constant_attribute(values.astype(ml_dtypes.bfloat16) if operands == "bf16" else values,
                                              type_, f"weight{copy}")


def _zero_product(a: ir.Value, b: ir.Value, c_type: ir.RankedTensorType) -> ir.Value:
    element = c_type.element_type
    zero = arith.constant(element, 0.0 if isinstance(element, ir.FloatType) else 0)
    return linalg.matmul(a, b, outs=[linalg.fill(zero, outs=[tensor.empty(c_type.shape, element)])])


def benchmark_module(shapes: list[str]) -> ir.Module:
    """For each shape, `iree_<i>` (IREE's kernel: in a matmul region, as mlc's groups
    are in f32, or left to IREE's dispatch formation, as mlc leaves bf16 and int8
    matmuls) and `library_<i>` (the library's region). Each takes `copies` inputs
    stacked ([copies * M, K]) and multiplies each by its own constant weight, returning
    the `copies` products (each input its own, so that IREE fuses no two)."""
    from ...dialects import make_context

    context = make_context()
    context.allow_unregistered_dialects = True
    with context, ir.Location.unknown():
        module = ir.Module.create()
        with ir.InsertionPoint(module.body):
            for i, shape in enumerate(shapes):
                m, k, n, operands = library_matmuls.parse_key(shape)
                narrow = operands != "f32"
                count = copies(shape)
                stacked = ir.RankedTensorType.get([count * m, k], library_matmuls.element_type(operands))
                c_type = ir.RankedTensorType.get([m, n], library_matmuls.result_type(operands))
                weights = [_varied_weight(k, n, operands, copy) for copy in range(count)]
                for variant in ("iree", "library", "own_kernel") if own_kernel_suits(shape) else ("iree", "library"):
                    @func.FuncOp.from_py_func(stacked, name=f"{variant}_{i}")
                    def body(inputs, variant=variant, m=m, k=k, c_type=c_type, narrow=narrow, weights=weights):
                        return tuple(_product(variant, tensor.extract_slice(
                            ir.RankedTensorType.get([m, k], inputs.type.element_type), inputs, [], [], [],
                            [copy * m, 0], [m, k], [1, 1]), arith.constant(weight.type, weight), c_type, narrow)
                            for copy, weight in enumerate(weights))
    return module


def _product(variant: str, a: ir.Value, b: ir.Value, c_type: ir.RankedTensorType, narrow: bool) -> ir.Value:
    """a @ b on the library (MKL, or mlc's own f32 kernel), or on IREE's kernel as mlc's
    executables run it there."""
    if variant in ("library", "own_kernel"):
        packed = a.type.shape[0] > 1 or variant == "own_kernel"  # as mlc-library-matmuls{packed} runs it
        return library_matmuls.library_region(a, b, own_kernel=variant == "own_kernel",
                                              fingerprint=library_matmuls.weight_fingerprint(b) if packed else None)
    if narrow:
        return _zero_product(a, b, c_type)
    region, block = iree_flow.dispatch_region(c_type, [])
    with ir.InsertionPoint(block):
        iree_flow.flow_return(_zero_product(a, b, c_type))
    return region.results[0]


def _input(rng: np.random.Generator, m: int, k: int, operands: str) -> np.ndarray:
    if operands == "i8":
        return rng.integers(-127, 128, (m, k), dtype=np.int8)
    a = rng.standard_normal((m, k), dtype=np.float32)
    return a.astype(ml_dtypes.bfloat16) if operands == "bf16" else a


def _check(shape: str, kernel: str, result, expected: np.ndarray) -> None:
    """A kernel that computes a wrong product is never chosen, nor timed."""
    got = np.asarray(result.to_host())
    if not np.allclose(got, expected, rtol=1e-3, atol=1e-3 * max(1.0, float(np.abs(expected).max()))):
        raise RuntimeError(f"{kernel} computes a wrong product on {shape}: "
                           f"max |error| {float(np.abs(got - expected).max()):.3g}")


def _stacked_input(rng: np.random.Generator, shape: str) -> np.ndarray:
    """The input of `shape`'s benchmark functions: one block of rows per copy."""
    m, k, _, operands = library_matmuls.parse_key(shape)
    return _input(rng, copies(shape) * m, k, operands)


def _exact_products(shape: str, a: np.ndarray) -> list[np.ndarray]:
    """Each copy's rows of `a` times its weight, in f64 (which holds every int8 sum and
    bf16 product exactly)."""
    m, k, n, operands = library_matmuls.parse_key(shape)
    exact = a.astype(np.float64)
    return [exact[copy * m:(copy + 1) * m] @ _varied_values(k, n, operands, copy).astype(np.float64)
            for copy in range(copies(shape))]


def measure(shapes: list[str]) -> dict:
    """Times each shape on IREE's kernel and on the library, per product (a call makes one
    on each copy of the weight): the fastest of interleaved rounds. Other work on the machine only adds time, and the choice is kept on disk: a
    median measured while the machine was busy once put a 64x512x2048 matmul on the
    library (6.0 against IREE's 7.0 ms, where IREE takes 1 ms on an idle EPYC)."""
    from . import iree as iree_backend

    # The exact products first: numpy's BLAS threads spin for about 0.1 s after each, and
    # timings taken meanwhile lost a CPU to them (512x256x256 on the library: 0.40 ms, 0.31
    # with numpy on one thread); compiling outlasts the spin.
    rng = np.random.default_rng(1)
    inputs = {shape: _stacked_input(rng, shape) for shape in shapes}
    expected = {shape: _exact_products(shape, inputs[shape]) for shape in shapes}
    module = benchmark_module(shapes)
    vmfb = iree_backend.compile_to_vmfb(module.operation, iree_backend.LLVM_CPU, iree_backend.DATA_TILING_FLAGS)
    # Each kernel on the driver that runs it best: IREE's on its task workers, the
    # library's on the calling thread, whose calls split among the plugin's own threads
    # (models whose IREE code is small run on local-sync: iree.cpu_runtime_driver).
    functions = {driver: iree_backend.load_functions(vmfb, driver) for driver in {d for _, d in VARIANTS.values()}}
    results = {}
    for i, shape in enumerate(shapes):
        a, count = inputs[shape], copies(shape)
        kernels = {name: functions[driver][f"{function}_{i}"] for name, (function, driver) in VARIANTS.items()
                   if name != "own kernel" or own_kernel_suits(shape)}
        for name, kernel in kernels.items():
            products = kernel(a)
            for product, exact in zip(products if count > 1 else [products], expected[shape]):
                _check(shape, name, product, exact)
        # Timed on the input where IREE holds it, without reading the products back (a call
        # returns when its work is done): copying a 197x3072 input in at each call added
        # about 1 ms to both kernels, and its noise hid a 1.5x difference between them.
        held = {name: iree.runtime.asdevicearray(iree_backend.cpu_device(VARIANTS[name][1]), a) for name in kernels}
        results[shape] = timed_again_if_disturbed(shape, functools.partial(_rounds, kernels, held, count))
    return results


def _rounds(kernels: dict, held: dict, count: int) -> dict:
    """Each kernel's fastest product over ROUNDS interleaved rounds, in ms; a kernel
    HOPELESS times slower than the fastest after the first round keeps its one time."""
    times = {name: [] for name in kernels}
    for round_ in range(ROUNDS):
        for name, kernel in kernels.items():
            if round_ and min(times[name]) > HOPELESS * min(min(t) for t in times.values()):
                continue
            kernel(held[name])  # the first call after the other kernel's pays for cold caches
            start = time.perf_counter()
            for _ in range(CALLS):
                kernel(held[name])
            times[name].append((time.perf_counter() - start) / CALLS / count)
    return {f"{name} ms": round(min(t) * 1e3, 4) for name, t in times.items()}


def disturbed(shape: str, timing: dict) -> bool:
    """Whether a shape of several rows measured no faster on IREE's two workers than on
    one thread: a sign that another process held one CPU while it was timed, which slows
    every two-thread variant (IREE's workers, the plugin's team) and not the one-thread
    one. On a busy AMD EPYC, 64x2048x512 timed 1.40 ms on the workers, 1.25 on one thread
    and 1.30 on mlc's own kernel, and the MLP ran 1.02-1.09 of IREE direct; timed again,
    0.85, 1.36 and 0.80, and 0.88-0.93."""
    return not is_few_rows(shape) and timing["iree ms"] >= timing["iree one thread ms"]


def timed_again_if_disturbed(shape: str, time_once) -> dict:
    """`time_once()`, and once more where that looks `disturbed`: each variant's faster
    time of the two (other work only adds time)."""
    timing = time_once()
    if disturbed(shape, timing):
        again = time_once()
        timing = {name: min(ms, again[name]) for name, ms in timing.items()}
    return timing
