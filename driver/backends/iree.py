"""The way out: an MLIR module -> IREE bytecode handoff -> `.vmfb` -> iree.runtime.

The module travels as MLIR bytecode (half the size of text, weights as
resource blobs). IREE is handed linalg on tensors, the level below mlc.
"""

import dataclasses
import functools
import io
import os
import re
import subprocess
import tempfile
import zipfile
from pathlib import Path

import iree._runtime_libs
import iree.compiler
import iree.runtime
import ml_dtypes
import numpy as np
from torch_mlir import ir

from ...dialects import iree_flow
from ...errors import UserError
from ...passes.graph import any_op
from ...passes.lower_to_linalg.check import DIVISION_BY_ZERO
from ..executable_cache import ExecutableCache
from ..failures import IreeCompileFailure, OutOfMemory
from . import cpu_instructions, matmul_choice, matmul_library
from . import parameters as external_parameters
from .buffer_call import BufferCall
from .fed_back_loop import FedBackLoop
from .target import Target

CPU_FLAGS = (
    "--iree-hal-target-device=local",
    "--iree-hal-local-target-device-backends=llvm-cpu",
    "--iree-llvmcpu-target-cpu=host",  # the `cpu` option's flag comes later, and wins
    # The CPU computes in f64 natively; IREE's default demotion to f32 would
    # change results and the calling convention of float64 models.
    "--iree-input-demote-f64-to-f32=false",
)
# IREE's default Vulkan target, the profile vp_android_baseline_2022 (SPIR-V 1.3,
# 32-bit types, no subgroup ops), runs on every Vulkan device, lavapipe included;
# i64 stays i64 at the boundary and is emulated with i32 pairs in the kernels.
VULKAN_FLAGS = ("--iree-hal-target-device=vulkan",)
# Ops IREE 3.13's code generation compiles only in a dispatch of their own: a concat
# lowers to slices inserted into one buffer, which the CPU vectorizer rejects fused
# with other ops (ViT's class token: "operations with large vector sizes"), and a
# window copy fused with a transpose fails ("all stack allocations need to be hoisted").
RUNS_ALONE = ("concat", "im2col")
# A pad stays out of mlc's groups on every IREE target, for IREE to place. In a group with
# its producer, IREE's -O2 code for the CPU wrote the padded values shifted by one, with no
# error (`F.pad(x * 3.0, (1, 2), value=-1.0)` of a [6] input: its first value lost, its
# last repeated; `F.pad(x.sin(), (1, 1)).sum()`; random programs, seed 391001). On the
# GPUs constant pads failed to compile in a group (`F.pad(x, (0, 0, 0, 5))` of an input:
# "failed to legalize hal.interface.binding.subspan" on SPIR-V; of `x * 2 + 1`: "'memref.alloc'
# op unexpected allocation without upper bound shapes"). test_pads_are_left_to_iree.
LEFT_OUTSIDE = ("pad",)
# On the GPUs a concat in a dispatch of its own fails too (slices inserted into an empty
# tensor: "failed to legalize hal.interface.binding.subspan" on SPIR-V, "LLVM Translation
# failed for builtin.unrealized_conversion_cast" on CUDA): it stays out of mlc's groups,
# and IREE turns the inserted slices into copies, as it does for torch-mlir's own concats.
# A transpose runs alone there too: fused with an elementwise op or a broadcast before it
# (`abs(x).permute(0, 2, 1, 3)` of a [6, 3, 2, 3] input; `x.unsqueeze(0).expand(...)` in
# the NHWC layout of a pooling), IREE's Vulkan code got part of the result wrong at small
# shapes (random programs, seeds 40008, 50004 and 50015). So do a gather and a
# take-along-axis: they read their input at positions computed at run time (a flip's
# reversed rows), and with the input's producer in their dispatch, the GPU code read
# positions that another thread had not yet written (`(x.round() + 1).flip(0)`: 2 to 28
# of 10 to 1000 elements were 0 on vulkan-spirv; random programs, seed 300000).
GPU_RUNS_ALONE, GPU_LEFT_OUTSIDE = ("im2col", "transpose", "gather", "take_along_axis"), ("concat", *LEFT_OUTSIDE)
# And a reduction over axes that are not one run (`(x * x).sum((0, 3))`) takes no producer
# into its dispatch on the GPUs: fused, Vulkan computed it wrong in the first calls after
# loading (mlc-fuse's split-reductions-alone). On cuda a precaution: not measured here.
# On Vulkan a matmul takes none of its producers into its dispatch either: fused, its
# code got a row times a weight of a width that is not a multiple of 64 wrong (`(x * 2) @ W`
# of [1, 64] by [64, 100]: 1e33 off; [64, 1000]: 58 %; a Llama's final norm and LM head, so
# every decode step's logits). CUDA's code got the same dispatches right (an H200, sm_90,
# 2026-11-30: within 3e-7 of eager, fused or not), so there they stay fused.
# A grouped convolution that is not depthwise runs alone there too: with a ReLU after it,
# IREE refused the Vulkan dispatch ("write affecting operations on global resources are
# restricted to workgroup distributed contexts"; random programs, seed 150005).
# IREE's recommended CPU settings (its CPU guide): data tiling packs each matmul's operands
# into the tiles of IREE's mmt4d microkernels (weights once, at load; activations by a
# pack that IREE fuses into the producing dispatch, or gives a dispatch of its own), and
# -O2 vectorizes floating-point reductions (softmax, norms) and fuses more. Both work
# inside mlc's dispatch regions. BERT-base: 409 -> 152 ms on a 2-core Xeon (README).
DATA_TILING_FLAGS = ["--iree-opt-level=O2", "--iree-opt-data-tiling", "--iree-llvmcpu-enable-ukernels=all"]
# mlc's run-time checks (`cf.assert`: an integer divisor with a zero, mlc.check_nonzero)
# fail the call; IREE's -O2 strips assertions otherwise, and 8 // 0 gave 8.
KEEP_CHECKS = "--iree-opt-strip-assertions=false"


def host_array(array) -> np.ndarray:
    """A C-contiguous numpy array of `array` (a tensor or an array), for IREE's calls.
    Not `np.ascontiguousarray`, which returns 0-d arrays as 1-d: IREE then rejects a
    scalar input ("input0 shape rank mismatch; expected 0 (scalar)"). numpy has no
    bfloat16 (a bf16 tensor's `.numpy()` raised TypeError): its bits go as ml_dtypes'
    bfloat16, which IREE takes and gives back."""
    if hasattr(array, "detach"):  # a tensor: torch is loaded already
        import torch

        tensor = array.detach().cpu()
        if tensor.dtype == torch.bfloat16:
            array = tensor.view(torch.int16).numpy().view(ml_dtypes.bfloat16)
        else:
            array = tensor.numpy()
    return np.require(array, requirements="C")


def to_bytecode(module: ir.Operation) -> bytes:
    buffer = io.BytesIO()
    module.write_bytecode(buffer)
    return buffer.getvalue()


def _compiler_diagnostics(error: Exception) -> list[str]:
    """The `error:` lines of iree-compile's output, readable: without op dumps, the
    executable target's attribute dump, or follow-on errors about translation."""
    lines = []
    for line in str(error).splitlines():
        if not re.search(r"\berror:", line) or "failed to run translation of source executable" in line:
            continue
        line = re.sub(r": %\S+ = .*$|: \"[\w.]+\"\(.*$", "", line.strip())  # the op dump after the message
        if line not in lines:
            lines.append(line)
    return lines[:10] or str(error).strip().splitlines()[:1]


class Executable(bytes):
    """A `.vmfb`, with the dispatches IREE's scheduler counted while compiling it,
    which are cheap to keep and slow to recover from the file (disassembling it
    prints every weight): see `dispatch_statistics`. `cache` says whether it came
    from the executable cache: "hit", "miss" (compiled and stored) or "off"."""

    statistics: dict = {}
    cache: str = "off"

    @classmethod
    def of(cls, vmfb: bytes, statistics: dict, cache: str) -> "Executable":
        executable = cls(vmfb)
        executable.statistics, executable.cache = statistics, cache
        return executable


def dispatch_statistics(csv_text: str) -> dict:
    """Dispatches by where they run, from IREE's scheduling statistics (CSV): per call
    of `main`, split into dispatch regions (`main_dispatch_N`) and the packs that data
    tiling adds (`_encoding_N`), and those the initializer runs once at load (weights
    packed for the microkernels); and the kernels of one call of `main`, in order."""
    counts = {"per call": 0, "regions": 0, "encodings": 0, "at load": 0, "main dispatches": []}
    section = None
    for line in csv_text.splitlines():
        if line.startswith("; builtin.module >"):
            section = "at load" if "util.initializer" in line else "per call" if "@main" in line else None
            continue
        fields = line.split(",")
        if section is None or len(fields) < 3 or fields[1] != '"dispatch"':
            continue
        # One row is one dispatch. Its "Invocations" column is the product of a static
        # workload (the workgroups of mlc's library matmuls), not a repeat count.
        counts[section] += 1
        if section == "per call":
            counts["encodings" if fields[2].startswith('"@_encoding') else "regions"] += 1
            counts["main dispatches"].append(fields[2].strip('"').split("::@")[-1])
    return counts


def compile_to_vmfb(module: ir.Operation, target: Target, extra_flags=(), cache: ExecutableCache | None = None) -> Executable:
    """Compiles linalg-on-tensors to an IREE executable for `target` (its flags, then
    `extra_flags`), or takes it from `cache` when IREE compiled the same bytes with the
    same flags before."""
    flags = list(target.flags) + list(extra_flags) + [KEEP_CHECKS]
    bytecode = to_bytecode(module)
    cache = cache if cache is not None and cache.usable else None  # an unusable one has warned why
    key = cache.key(bytecode, flags) if cache is not None else None
    entry = cache.get(key) if cache is not None else None
    if entry is not None:
        return Executable.of(entry.vmfb, entry.statistics, cache="hit")
    executable = _compile_bytecode(bytecode, flags, target.name)
    executable.cache = "off" if cache is None else "miss"
    if cache is not None:
        cache.put(key, executable, executable.statistics)
    return executable


def _compile_bytecode(bytecode: bytes, flags: list[str], target_name: str) -> "Executable":
    """iree.compiler's compile of `bytecode`, with the dispatch statistics it wrote."""
    with tempfile.TemporaryDirectory() as directory:
        statistics_file = Path(directory) / "statistics.csv"
        dump = ["--iree-scheduling-dump-statistics-format=csv", f"--iree-scheduling-dump-statistics-file={statistics_file}"]
        try:
            executable = Executable(iree.compiler.compile_str(bytecode, extra_args=flags + dump))
        except iree.compiler.CompilerToolError as error:
            errors = _compiler_diagnostics(error)
            message = f"IREE failed to compile for {target_name}:\n" + "\n".join(errors)
            raise IreeCompileFailure(message, bytecode, flags, errors) from None
        if statistics_file.exists():
            executable.statistics = dispatch_statistics(statistics_file.read_text())
    return executable


_DISPATCH_CALL = "vm.call.variadic @hal.command_buffer.dispatch"
_KERNEL_NAME = re.compile(rb"(\w+?)_dispatch_(\d+)")


def runtime_tool(name: str) -> Path:
    """One of the tools the IREE runtime wheel ships (iree-run-module, iree-benchmark-module,
    iree-profile, ...). The wheel has no public API for their path: it keeps them beside
    its private `iree._runtime_libs` package, which is read here and nowhere else."""
    return Path(iree._runtime_libs.__file__).parent / name


def _dump_module(vmfb: bytes) -> str:
    """The VM program of an executable, as `iree-dump-module` disassembles it."""
    tool = runtime_tool("iree-dump-module")
    with tempfile.NamedTemporaryFile(suffix=".vmfb") as file:
        file.write(vmfb)
        file.flush()
        # disassembly only: the full dump prints every weight, minutes for a large model
        command = [str(tool), "--output=disassembly", file.name]
        return subprocess.run(command, capture_output=True, text=True, check=True).stdout


def dispatch_count(vmfb: bytes) -> int:
    """How many dispatches (kernel launches) one call of `main` issues. Identical
    kernels share code but are separate dispatches."""
    recorded = getattr(vmfb, "statistics", {}).get("per call")
    if recorded is not None:
        return recorded
    program = _dump_module(vmfb)
    main = program[program.find("vm.func @main("):]
    return main[: main.find("\n}")].count(_DISPATCH_CALL)


def kernel_count(vmfb: bytes) -> int:
    """How many distinct kernels the executable holds (after IREE deduplicates)."""
    module = zipfile.ZipFile(io.BytesIO(vmfb)).read("module.fb")
    return len(set(_KERNEL_NAME.findall(module)))


# Below this much matmul and convolution work per call (FLOPs) on IREE's own code, `main`
# runs faster on the calling thread (IREE's local-sync driver) than on IREE's worker
# threads (local-task), whose wake-ups and hand-offs cost 0.1-0.2 ms a call and on two
# cores stalled about one call in four for ~4 ms. Work on mlc's library does not count:
# its calls split among the plugin's own threads on either driver (native/team.h).
# Measured on 2 cores (Xeon, mlc O2): at 17-34 MFLOP (an MLP, a transformer block, a
# CNN) local-sync took 0.65-0.9x the time, at 127-134 MFLOP 1.3-1.45x.
SINGLE_THREAD_FLOPS = 64e6
# ... or below this much per dispatch region on average: many short dispatches, each of
# whose hand-offs between workers costs more than the second core saves. Xeon, 2 cores,
# interleaved with eager: MobileNetV3-small (126 dispatches, about 1 MFLOP each) took 2.47
# ms on the calling thread against 2.72 (median; mean 3.85) on the workers; the CNN (10
# dispatches, 25 MFLOP each) 2.87 against 1.66, ResNet-18 (57 each) 24.5 against 17.0.
FLOPS_PER_DISPATCH_FOR_WORKERS = 4e6


def cpu_runtime_driver(flops: float | None, options, dispatches: int = 1) -> str:
    """The CPU driver that runs a model whose IREE code does `flops` of matmul and
    convolution work in `dispatches` dispatch regions (None: unknown, e.g. dynamic
    shapes): the `driver` option, or by default local-sync below SINGLE_THREAD_FLOPS or
    below FLOPS_PER_DISPATCH_FOR_WORKERS per dispatch."""
    option = options.get("driver", "auto")
    if option != "auto":
        return option
    small = flops is not None and (flops < SINGLE_THREAD_FLOPS or flops < FLOPS_PER_DISPATCH_FOR_WORKERS * dispatches)
    return "local-sync" if small else "local-task"


def load(vmfb: bytes, parameters=None, driver="local-task"):
    """The module's `main` function, loaded into an IREE runtime context on `driver`
    (with the parameter archive at `parameters` served to it, if given)."""
    return load_functions(vmfb, driver, parameters)["main"]


def load_functions(vmfb: bytes, driver: str = "local-task", parameters=None):
    """The module's functions by name, loaded into an IREE runtime context. On the CPU,
    mlc's matmul plugin is handed to IREE first (see matmul_library.register)."""
    return _load_context(vmfb, driver, parameters).modules.module


# The CPU devices keep buffers that calls free for later calls of the same size (IREE's
# caching allocator), up to this share of the machine's memory, live buffers counted. A
# generator's prompt call returns fresh caches, and freshly allocated memory faults in
# page by page: GPT-2's 75 MB of caches at a capacity of 1024 took 57 ms a call with 18K
# page faults, 16-25 ms reused (Intel Xeon model 207). At most this many free buffers.
CACHED_MEMORY_SHARE, CACHED_BUFFERS = 16, 1024


def cpu_allocator() -> str:
    """The CPU devices' allocator, as IREE's tools take it (`--device_allocator=`)."""
    limit = os.sysconf("SC_PHYS_PAGES") * os.sysconf("SC_PAGESIZE") // CACHED_MEMORY_SHARE
    return f"caching:*=*;{limit};{CACHED_BUFFERS}"


@functools.cache
def cpu_device(driver: str) -> "iree.runtime.HalDevice":
    """The process's device for a CPU driver ("local-task", "local-sync"), with mlc's plugin
    handed to IREE first (matmul_library.register) and freed buffers kept for reuse: every
    executable on `driver` runs on it, so one call's results go into the next as they are."""
    matmul_library.register()
    return iree.runtime.get_driver(driver).create_device_by_uri(driver, allocators=[cpu_allocator()])


def _load_context(vmfb: bytes, driver: str, parameters=None) -> "iree.runtime.SystemContext":
    config = iree.runtime.Config(device=cpu_device(driver)) if driver.startswith("local") \
        else iree.runtime.Config(driver)
    context = iree.runtime.SystemContext(config=config)
    if parameters is not None:
        context.add_vm_module(external_parameters.io_module(context.instance, parameters))
    try:
        context.add_vm_module(iree.runtime.VmModule.copy_buffer(context.instance, vmfb))
    except (RuntimeError, ValueError) as error:  # ValueError: "Error registering modules: ..."
        if matmul_library.calls_plugin(vmfb):  # IREE says "no executable loader registered"
            raise matmul_library.missing_plugin_error(error) from None
        raise
    return context


# A result smaller than this is copied out of IREE's buffer; a larger one keeps the
# buffer (`_Mapped`), which costs the same at any size (measured in README, Reliability).
COPY_RESULTS_BELOW = 16 * 1024


class _Mapped:
    """The provider of a result's array: numpy keeps it as the array's base, and it
    keeps the DeviceArray (its buffer and mapping) alive as long as the array lives."""

    def __init__(self, device_array, host: np.ndarray):
        self.device_array, self.host = device_array, host
        self.__array_interface__ = host.__array_interface__


def host_result(result, owned: bool = False) -> np.ndarray:
    """A result as a numpy array that keeps its memory. `to_host()` maps IREE's buffer,
    but IREE's `MappedMemory.asarray` makes the array over a memoryview with no owner:
    the array keeps neither the mapping nor the buffer, and once the DeviceArray is
    collected a later call's results reuse its memory (0-d bfloat16 results read back
    as 0.0 in 275 of 300 calls). A small result is copied, and so is one `owned`; a large
    one is handed out with its DeviceArray as the array's base."""
    host = result.to_host()
    if host.nbytes < COPY_RESULTS_BELOW or owned or host.base is None:  # no base: to_host() copied already
        return np.array(host, copy=True) if host.base is not None else host
    return np.asarray(_Mapped(result, host)).view(host.dtype)  # the interface spells bfloat16 as void


def _classified(error: RuntimeError) -> Exception:
    """IREE's runtime error as mlc's failure where it is one the user can act on. IREE
    says what failed only in its text (a status code name): read here, and nowhere else."""
    if "RESOURCE_EXHAUSTED" in str(error):
        return OutOfMemory("needs more memory than IREE could allocate (RESOURCE_EXHAUSTED)")
    if DIVISION_BY_ZERO in str(error):  # mlc.check_nonzero's cf.assert failed
        return UserError(DIVISION_BY_ZERO)
    return error


def host_function(vmfb: bytes, parameters=None, driver=None):
    """`main` on the CPU as a function from numpy arrays to a list of numpy arrays."""
    context = _load_context(vmfb, driver or "local-task", parameters)
    main = context.modules.module["main"]
    device = context.config.device
    on_views = BufferCall(context, main.vm_function, functools.partial(_upload, device))

    def call(*arrays, keep=()):
        """`arrays` are numpy arrays, or results an earlier call kept (IREE takes those
        as they are); the results at the indices `keep` stay in IREE's memory, each a
        (buffer view, dtype) pair. A call that keeps or takes kept results goes to IREE on
        buffer views (BufferCall); the others through iree.runtime's FunctionInvoker."""
        arrays = _apart(arrays, read)
        try:
            if keep or any(isinstance(array, tuple) for array in arrays):
                results = on_views([array[0] if isinstance(array, tuple) else array for array in arrays], keep)
            else:
                results = main(*arrays)
                results = results if isinstance(results, tuple) else (results,)
        except RuntimeError as error:
            raise _classified(error) from None
        # A result that is one buffer with a kept one is copied out: a later call may write
        # into the kept one's memory.
        kept = [result[0] for i, result in enumerate(results) if i in keep and isinstance(result, tuple)]
        return [result if i in keep or not _is_buffer(result)
                else host_result(result, owned=any(_buffer_view(result) == view for view in kept))
                for i, result in enumerate(results)]

    def read(kept) -> np.ndarray:
        """A kept result as a numpy array (a copy)."""
        view, dtype = kept
        return host_result(iree.runtime.DeviceArray(device, view, implicit_host_transfer=True, override_dtype=dtype),
                           owned=True)

    def fed_back_loop(arrays, fed_back, read_results) -> FedBackLoop:
        """Calls on `arrays` and kept results whose state results feed back into the places
        they came from, unchecked (Compiled.fed_back_loop): those hold no buffer twice."""
        return FedBackLoop(on_views, arrays, fed_back, read_results)

    call.read = read
    call.fed_back_loop = fed_back_loop
    call.executable = loaded_executable(context)
    return call


def loaded_executable(context: "iree.runtime.SystemContext") -> memoryview:
    """The `.vmfb` as IREE holds it in `context` (its own aligned copy, read-only here): the
    one copy a loaded executable needs, where the caller's would be a second one of every
    weight inside it (GPT-2 f32's executable is 620 MiB)."""
    return context.modules.module.vm_module.stashed_flatbuffer_blob.toreadonly()


def _check_cpu_options(options) -> None:
    driver = options.get("driver", "auto")
    if driver not in ("auto", "local-task", "local-sync"):
        raise UserError(f"target 'llvm-cpu': driver must be auto, local-task or local-sync, got {driver!r}")
    matmul_choice.option(options)
    matmul_library.check_settings()  # the plugin's, from the environment: misread, they would go unseen
    cpu_instructions.check_cpu(options)
    data_tiling = options.get("data-tiling", True)
    if not isinstance(data_tiling, bool):
        raise UserError(f"target 'llvm-cpu': data-tiling must be true or false, got {data_tiling!r}")


def _compile_cpu(module: ir.Operation, options: dict, cache: ExecutableCache | None = None) -> bytes:
    """With data tiling unless the options turn it off. Where IREE fails with it (3.13's
    data tiling breaks nn.MultiheadAttention at dynamic sizes), mlc compiles again
    without, and the executable's statistics say why."""
    cpu = cpu_instructions.cpu_flags(options)
    if not options.get("data-tiling", True):
        return _with_statistic(compile_to_vmfb(module, LLVM_CPU, cpu, cache), "data tiling", "off (target option)")
    try:
        return _with_statistic(compile_to_vmfb(module, LLVM_CPU, [*DATA_TILING_FLAGS, *cpu], cache), "data tiling", "on")
    except IreeCompileFailure as failure:
        executable = compile_to_vmfb(module, LLVM_CPU, cpu, cache)  # a failure here is the model's, and raises
        return _with_statistic(executable, "data tiling", f"off: IREE failed with it ({failure.first_error})")


def _with_statistic(executable: Executable, name: str, value) -> Executable:
    executable.statistics = {**executable.statistics, name: value}
    return executable


def _cpu_passes(module: ir.Operation, options: dict, weights_fixed: bool = True,
                flops: float | None = None) -> tuple[list[str], dict]:
    """The matmuls measured faster on the vendor library than on IREE's kernel, on this
    CPU, move to the library (matmul_choice.py, passes/library_matmuls.py), and the
    runtime driver follows from the work left to IREE's code (cpu_runtime_driver). Where
    the work the library cannot take is small, the plan runs on the calling thread, and
    each matmul's library time is weighed against IREE's kernel on one thread; a plan
    that leaves IREE too much for one thread is weighed against IREE's workers instead.
    Constant weights are packed once, keyed by their values, where those values are the
    executable's own or a WeightStore's: a user's archive could be swapped after compiling.
    A bias, residual and GELU after a product go into its call (passes/library_epilogue.py).
    On x86 with AVX2 but not AVX-512, direct convolutions get mlc's tiles (mlc-conv-tiles)."""
    eligible = matmul_choice.library_flops(module, matmul_choice.eligible_shapes(module))
    outside = None if flops is None else max(0.0, flops - eligible)  # what only IREE's code can run
    choice, driver = _plan(module, options, outside)
    facts = {"matmul_library": choice, "runtime_driver": driver}
    tiles = [CONV_TILES] if cpu_instructions.avx2_without_avx512(options) else []
    if not choice["library"]:
        return tiles + ([OUTLINE] if _calls_plugin(module) else []), facts
    shapes = ",".join(choice["library"])
    # On local-sync, one workgroup per matmul, split by the plugin among its own threads;
    # on IREE's task workers (one per core), one workgroup each: the plugin splits no call
    # made there.
    workgroups = 1 if driver == "local-sync" else len(os.sched_getaffinity(0))
    # mlc's own f32 kernel needs its weight packed once, as the plugin keeps it.
    own_kernel = f" own-kernel={','.join(choice['own kernel'])}" if weights_fixed and choice.get("own kernel") else ""
    return tiles + [f"mlc-library-matmuls{{shapes={shapes} workgroups={workgroups} "
                    f"packed={str(weights_fixed).lower()} epilogues=true{own_kernel}}}", OUTLINE], facts


# IREE's direct convolutions with full vector registers where it would give them half
# (x86 with AVX2 but not AVX-512; passes/conv_tiles.py).
CONV_TILES = "mlc-conv-tiles"
# Last: the plugin's regions (library matmuls, attention) as executables of their own,
# so that IREE inlines its ABI stub's call early (passes/outline_library_dispatches.py).
OUTLINE = "mlc-outline-library-dispatches"


def _plan(module: ir.Operation, options: dict, outside: float | None) -> tuple[dict, str]:
    """(the matmul choice, the runtime driver), for a model whose work that only IREE's
    code can run is `outside` FLOPs (None: unknown): on the calling thread where that and
    the matmuls left to IREE's kernel are small enough (cpu_runtime_driver, or the
    `driver` option says so), unless, by default, the matmuls measured faster on IREE's
    workers (`_faster_on_workers`); else on IREE's workers."""
    regions = _dispatch_regions(module)
    if cpu_runtime_driver(outside, options, regions) == "local-sync":
        choice = matmul_choice.choose(module, options, alone=True)
        on_iree = None if outside is None else outside + matmul_choice.library_flops(module, choice["iree"])
        if cpu_runtime_driver(on_iree, options, regions) == "local-sync":
            if options.get("driver", "auto") != "auto":
                return choice, "local-sync"
            on_workers = matmul_choice.choose(module, options)
            return (on_workers, "local-task") if _faster_on_workers(module, choice, on_workers) else (choice, "local-sync")
    return matmul_choice.choose(module, options), "local-task"


def _faster_on_workers(module: ir.Operation, alone: dict, on_workers: dict) -> bool:
    """Whether `module`'s matmuls, as chosen for IREE's workers, measured faster by
    matmul_choice.MARGIN than as chosen for the calling thread. Where IREE's kernel on
    two workers beats the library and the library beats it on one thread, the calling
    thread's plan put them on the library: the MLP took 2.84 ms so and 2.15 on IREE's
    workers (AMD EPYC, Zen 4)."""
    sync, task = matmul_choice.matmul_ms(module, alone, alone=True), matmul_choice.matmul_ms(module, on_workers)
    return sync is not None and task is not None and task < matmul_choice.MARGIN * sync


def _calls_plugin(module: ir.Operation) -> bool:
    """Whether the lowering put a call of mlc's plugin in the module (attention's heads)."""
    return any_op(module, lambda op: op.name == iree_flow.UKERNEL)


def _dispatch_regions(module: ir.Operation) -> int:
    """How many dispatch regions mlc formed (IREE forms a few more of its own)."""
    count = 0

    def visit(op):
        nonlocal count
        count += op.name == "flow.dispatch.region"
        return ir.WalkResult.ADVANCE

    module.walk(visit)
    return max(1, count)


LLVM_CPU = Target(
    name="llvm-cpu",
    description="IREE for this machine's CPU (host features, e.g. AVX-512; data tiling and microkernels on)",
    needs="an x86-64 or AArch64 CPU",
    compile=_compile_cpu,
    load=host_function,
    can_run=lambda: (True, ""),
    external_params=True,
    options=("cpu", "data-tiling", "driver", "matmul-library"),
    check_values=_check_cpu_options,
    runs_alone=RUNS_ALONE,
    left_outside=LEFT_OUTSIDE,
    # IREE's data tiling packs a matmul's operands inside its dispatch; with attention's
    # zeroed weights (a compare and a select of the scores) there it failed ("exceeded
    # stack allocation limit") and mlc compiled the model again without data tiling:
    # ViT-B/16 off the plugin 1313 ms against 214 (AMD EPYC). Consumers still join.
    matmuls_take_no_producers=True,
    target_passes=_cpu_passes,
    quantized_rows=matmul_choice.quantized_rows_whole,
    quantized_matrices=matmul_choice.quantized_matrices_whole,
    ops_on_library=matmul_choice.ops_on_library,
    conv_matmul_pixels=cpu_instructions.conv_matmul_pixels,
    flags=CPU_FLAGS,
    runtime_driver=cpu_runtime_driver,
    profiles=True,
    keeps_results=True,
    precisions=("f32", "bf16", "int8"),
    # IREE's CPU code got a one-column matmul read broadcast wrong (random programs, seed 90072)
    guard_broadcast_reads=True,
)


# --- GPU targets: Vulkan (SPIR-V) and CUDA ---------------------------------------------

PROBE_HINTS = {"vulkan": "; install libvulkan1 and mesa-vulkan-drivers (make system-packages)"}


def _probe(driver: str) -> tuple[bool, str]:
    """Whether iree.runtime can create a device of `driver` here (it is created once and cached)."""
    try:
        if not iree.runtime.get_driver(driver).query_available_devices():
            return False, f"the {driver} driver finds no device"
        _own_device(driver)  # made and let go: a device kept alive costs CPU (see _own_device)
        return True, ""
    except Exception as error:  # a missing driver library or device raises, never crash
        # "Error creating driver: c/.../file.c:66: UNAVAILABLE; CUDA driver library ... not available; please ..."
        cause = re.sub(r"^.*?: [A-Z_]+; ", "", str(error).strip().splitlines()[0]).split("; ")[0]
        return False, f"no {driver} device ({cause}){PROBE_HINTS.get(driver, '')}"


def _own_device(driver: str):
    """A new device of `driver`, which lives as long as its holder. Not IREE's shared
    `get_device`, which keeps one until the process ends: a live Vulkan device on Mesa's
    lavapipe keeps threads polling, about half a CPU core, until it is destroyed."""
    return iree.runtime.get_driver(driver).create_default_device()


def _upload(device, array: np.ndarray):
    """A device-local copy of `array`. IREE's Vulkan allocator cannot import numpy's
    memory (host pointers must be 4096-byte aligned), so copy instead of importing."""
    return device.allocator.allocate_buffer_copy(
        memory_type=iree.runtime.MemoryType.DEVICE_LOCAL, allowed_usage=iree.runtime.BufferUsage.DEFAULT,
        device=device, buffer=array, element_type=iree.runtime.array_interop.map_dtype_to_element_type(array.dtype))


def _buffer_view(array: "iree.runtime.DeviceArray") -> "iree.runtime.HalBufferView":
    """The buffer behind a result. IREE's DeviceArray has no public accessor for it
    (only `to_host()`, which Vulkan cannot use here: see `_read_back`)."""
    return array._buffer_view


def _apart(arrays, read) -> list:
    """The inputs, with a kept result that shares its memory with an earlier input read
    out to a copy (`read`). IREE takes its inputs as consumed and writes a result into an
    input's memory where it can (a cache updated at the position), which must not change
    another input. A kept result is a (buffer view, dtype) pair: a function returning one
    value twice gives the same buffer view for both."""
    views = []
    apart = []
    for array in arrays:
        if isinstance(array, tuple):
            if any(array[0] == view for view in views):
                array = read(array)
            else:
                views.append(array[0])
        apart.append(array)
    return apart


def _is_buffer(result) -> bool:
    """Whether a result of `main` is a tensor (a DeviceArray); a model returning a Python
    number (`x.shape[0]`) gets an int or a float from IREE."""
    return isinstance(result, iree.runtime.DeviceArray)


def _read_back(device, results) -> list:
    """The results, copied into host-visible staging buffers that IREE allocates and then
    mapped. `DeviceArray.to_host()` would import numpy arrays' pointers instead, which
    Vulkan rejects unless they are 4096-byte aligned. One wait covers all the copies."""
    memory = iree.runtime.MemoryType.HOST_LOCAL | iree.runtime.MemoryType.DEVICE_VISIBLE
    usage = iree.runtime.BufferUsage.TRANSFER_TARGET | iree.runtime.BufferUsage.MAPPING_SCOPED
    semaphore, copies, staged = device.create_semaphore(0), 0, []
    for result in results:
        if not _is_buffer(result):
            staged.append(None)
            continue
        source = _buffer_view(result).get_buffer()
        staging = None
        if source.byte_length():
            staging = device.allocator.allocate_buffer(memory_type=memory, allowed_usage=usage,
                                                       allocation_size=source.byte_length())
            device.queue_copy(source, staging, wait_semaphores=iree.runtime.HalFence.create_at(semaphore, copies),
                              signal_semaphores=iree.runtime.HalFence.create_at(semaphore, copies + 1))
            copies += 1
        staged.append(staging)
    iree.runtime.HalFence.create_at(semaphore, copies).wait()
    arrays = []
    for result, staging in zip(results, staged):
        if not _is_buffer(result):
            arrays.append(result)
            continue
        view = _buffer_view(result)
        raw = iree.runtime.HalElementType.map_to_dtype(view.element_type)
        array = np.array(staging.map().asarray(view.shape, raw)) if staging else np.empty(view.shape, raw)
        arrays.append(array.astype(result.dtype, copy=False))  # e.g. i1 results travel as bytes
    return arrays


def _device_function(vmfb: bytes, target_name: str, driver: str, parameters=None):
    """`main` on a GPU driver, as a function from numpy arrays to numpy arrays.
    `.driver` and `.device` say where it runs (there is no fallback to the CPU). Without
    such a device the executable still compiles and saves; calling it raises."""
    runs, why = _probed(driver)
    if not runs:
        def unavailable(*arrays):
            raise UserError(f"cannot run target '{target_name}' here: {why}")
        return unavailable
    device = _own_device(driver)  # goes with the function, and the Compiled holding it
    context = iree.runtime.SystemContext(config=iree.runtime.Config(device=device))
    if parameters is not None:
        context.add_vm_module(external_parameters.io_module(context.instance, parameters))
    context.add_vm_module(iree.runtime.VmModule.copy_buffer(context.instance, vmfb))
    main = context.modules.module["main"]

    def call(*arrays):
        try:
            results = main(*(_upload(device, array) for array in arrays))
        except RuntimeError as error:
            raise _classified(error) from None
        results = results if isinstance(results, tuple) else (results,)
        return _read_back(device, results)

    call.driver, call.device = driver, device
    call.executable = loaded_executable(context)
    return call


def _first_type_of(module: ir.Operation, matches) -> str | None:
    """The first type of a value of the module that `matches` (a predicate on types), if any."""
    found = []

    def visit(op):
        values = list(op.results) + [arg for region in op.regions for block in region.blocks for arg in block.arguments]
        for value in values:
            if matches(value.type):
                found.append(str(value.type))
                return ir.WalkResult.INTERRUPT
        return ir.WalkResult.ADVANCE

    module.walk(visit)
    return found[0] if found else None


def _element_is(element_class: type):
    """Whether a type, or a shaped type's element, is an `element_class` (ir.F64Type)."""
    return lambda type_: isinstance(type_.element_type if isinstance(type_, ir.ShapedType) else type_, element_class)


def _is_narrow_integer_tensor(type_: ir.Type) -> bool:
    """A tensor of bools, int8 or int16 (uint8 too): in a buffer of its own on Vulkan."""
    return (isinstance(type_, ir.RankedTensorType) and isinstance(type_.element_type, ir.IntegerType)
            and type_.element_type.width < 32)


def _is_int64(type_: ir.Type) -> bool:
    return isinstance(type_, ir.IntegerType) and type_.width == 64


def _is_i64_table(op: ir.Operation) -> bool:
    """An `arith.constant` holding an int64 tensor that is not one value repeated."""
    if op.name != "arith.constant" or not isinstance(op.results[0].type, ir.RankedTensorType):
        return False
    value = op.attributes["value"]
    splat = isinstance(value, ir.DenseElementsAttr) and value.is_splat
    return _is_int64(ir.RankedTensorType(op.results[0].type).element_type) and not splat


# The divisions IREE's int64 emulation for Vulkan cannot compile ("failed to legalize
# operation 'arith.divsi' that was explicitly marked illegal").
INT64_DIVISIONS = ("arith.divsi", "arith.divui", "arith.remsi", "arith.remui", "arith.floordivsi",
                   "arith.ceildivsi", "arith.ceildivui")


def _divides_int64(op: ir.Operation) -> bool:
    return op.name in INT64_DIVISIONS and _is_int64(op.results[0].type)


# Without the Int64 capability (IREE's default Vulkan target), IREE emulates int64 with
# pairs of i32; its emulation cannot read an int64 table inlined into a dispatch ("failed
# to legalize unresolved target materialization from ('i64') to ('vector<2xi32>')": the
# positions of `x[:, i]`), so such a module's constant tables stay dispatch inputs.
NO_INLINED_CONSTANTS = "--iree-flow-inline-constants-max-byte-length=0"


# IREE's default Vulkan target (the Android baseline of 2022) stores int8, int16 and bool
# tensors packed in 32-bit words, and its emulation loses values: a buffer whose size is
# not a whole number of words loses its last elements to the bounds check (the tail of
# a tensor<7xi8> reads and writes as 0; iree-org/iree#2022), and gathers from packed
# int16 read wrong words. A module with such tensors gets that target with 8- and 16-bit
# storage and arithmetic (VK_KHR_8bit_storage, VK_KHR_16bit_storage, shaderInt8,
# shaderInt16: desktop GPUs and lavapipe have them). Such a module then needs a device
# with them, where the default target ran anywhere and gave wrong numbers.
VULKAN_WITH_NARROW_INTEGERS = (
    '#hal.device.target<"vulkan", [#hal.executable.target<"vulkan-spirv", "vulkan-spirv-fb", {'
    'iree_codegen.target_info = #iree_gpu.target<arch = "vp_android_baseline_2022", features = "spirv:v1.3,'
    'cap:Shader,cap:Int8,cap:Int16,cap:StorageBuffer8BitAccess,cap:StorageBuffer16BitAccess,'
    'ext:SPV_KHR_8bit_storage,ext:SPV_KHR_16bit_storage", wgp = <compute = fp32|int32|int16|int8, '
    'storage = b32|b16|b8, subgroup = none, subgroup_size_choices = [64], max_workgroup_sizes = [128, 128, 64], '
    'max_thread_count_per_workgroup = 128, max_workgroup_memory_bytes = 16384, '
    'max_workgroup_counts = [65535, 65535, 65535]>>}>]>')


def _compile_vulkan(module: ir.Operation, options: dict, cache: ExecutableCache | None = None) -> bytes:
    """SPIR-V has no f64 math (IREE would demote f64 to f32 and change the results), so
    float64 models are refused; int64 stays exact (emulated in the kernels)."""
    f64 = _first_type_of(module, _element_is(ir.F64Type))
    if f64:
        raise UserError(f"target 'vulkan-spirv' cannot compute in float64 (the model has values of type {f64}); "
                        "convert the model and its inputs to float32 (model.float(), x.float())")
    named = options.get("vulkan-target")  # e.g. "llvmpipe" (lavapipe: native int64, subgroups), "ampere"
    f16 = None if named else _first_type_of(module, _element_is(ir.F16Type))
    if f16:  # IREE's default target has no 16-bit floats: its kernels read and wrote f16 buffers as f32
        raise UserError(f"target 'vulkan-spirv' without a named Vulkan target cannot compute in float16 (the model "
                        f"has values of type {f16}); name one with 16-bit floats (target_options={{'vulkan-target': "
                        "'llvmpipe'} for lavapipe, or your GPU's: 'ampere', 'rdna3', ...) or convert the model and "
                        "its inputs to float32")
    if not named and any_op(module, _divides_int64):
        raise UserError("target 'vulkan-spirv' without a named Vulkan target cannot divide int64 values (IREE "
                        "emulates int64 there, without division or remainder); name one with 64-bit integers "
                        "(target_options={'vulkan-target': 'llvmpipe'} for lavapipe, or your GPU's) or divide "
                        "in int32")
    target, flags = VULKAN_SPIRV, [f"--iree-vulkan-target={named}"]
    if not named:
        flags = [NO_INLINED_CONSTANTS] * any_op(module, _is_i64_table)
        if _first_type_of(module, _is_narrow_integer_tensor):
            target = dataclasses.replace(target, flags=(f"--iree-hal-target-device={VULKAN_WITH_NARROW_INTEGERS}",))
    return compile_to_vmfb(module, target, flags, cache)


# IREE 3.13 knows these CUDA compute capabilities by name (--iree-cuda-target=sm_N).
IREE_CUDA_SMS = (60, 61, 62, 70, 72, 75, 80, 86, 87, 89, 120, 121)
# IREE 3.13 has no description of Hopper: with --iree-cuda-target=sm_90 its executable
# target lacks `iree_codegen.target_info` and codegen fails with "missing GPU target in
# #hal.executable.target". mlc spells the whole device target instead (sm_89's
# features, PTX 8.0, Hopper's 227 KiB of shared memory per workgroup).
DESCRIBED_CUDA_SMS = {
    90: '#hal.device.target<"cuda", [#hal.executable.target<"cuda", "cuda-nvptx-fb", {iree_codegen.target_info = '
        '#iree_gpu.target<arch = "sm_90", features = "+ptx80", wgp = <compute = fp64|fp32|fp16|int64|int32|int16|int8, '
        'storage = b64|b32|b16|b8, subgroup = shuffle|arithmetic, dot = dp4xi8toi32, '
        'mma = [<NV_MMA_SYNC_F32_16x8x16_F16>, <NV_MMA_SYNC_F16_16x8x16_F16>, <NV_MMA_SYNC_F32_16x8x16_BF16>, '
        '<NV_MMA_SYNC_F32_16x8x32_F8E4M3FN>, <NV_MMA_SYNC_F32_16x8x32_F8E5M2>, <NV_WMMA_F32_16x16x16_F16>, '
        '<NV_WMMA_F16_16x16x16_F16>], '
        'subgroup_size_choices = [32], max_workgroup_sizes = [1024, 1024, 64], max_thread_count_per_workgroup = 1024, '
        'max_workgroup_memory_bytes = 232448, max_workgroup_counts = [2147483647, 65535, 65535]>>}>]>',
}


def cuda_flags(sm: int) -> list[str]:
    """IREE's flags for CUDA compute capability `sm` (80 means sm_80)."""
    if sm in DESCRIBED_CUDA_SMS:
        return [f"--iree-hal-target-device={DESCRIBED_CUDA_SMS[sm]}"]
    if sm in IREE_CUDA_SMS:
        return ["--iree-hal-target-device=cuda", f"--iree-cuda-target=sm_{sm}"]
    known = ", ".join(map(str, sorted(IREE_CUDA_SMS + tuple(DESCRIBED_CUDA_SMS))))
    raise UserError(f"target 'cuda': unknown compute capability sm_{sm} (cuda-sm takes one of {known})")


def _check_cuda_options(options) -> None:
    sm = options.get("cuda-sm", 80)
    if not isinstance(sm, int) or isinstance(sm, bool):
        raise UserError(f"target 'cuda': cuda-sm must be an integer like 80 or 90, got {sm!r}")
    cuda_flags(sm)  # a capability IREE does not know is refused before compiling


# IREE 3.13's vector-distribution code for GPU reductions fails to compile some ("'func.func'
# op failed to distribute"): the sum of all of a [4, 8, 3, 2], and (x * c).sum(-1) with c a
# constant other than 1 and the reduced length a multiple of 64 (a contraction with a
# constant vector, to IREE). Its warp-reduction code compiles them, right on an H200, but
# runs others slower (the transformer block's bf16 0.17 -> 0.42 ms, its f32 0.82 -> 0.94):
# so it is cuda's second try, for a module the first fails on this way.
WARP_REDUCTIONS = ["--iree-codegen-llvmgpu-use-reduction-vector-distribution=false"]


def _compile_cuda(module: ir.Operation, options: dict, cache: ExecutableCache | None = None) -> bytes:
    flags = cuda_flags(options.get("cuda-sm", 80))
    try:
        return compile_to_vmfb(module, CUDA, flags, cache)
    except IreeCompileFailure as error:
        if not error.reduction_not_distributed:
            raise
    return compile_to_vmfb(module, CUDA, flags + WARP_REDUCTIONS, cache)


@functools.cache
def _probed(driver: str) -> tuple[bool, str]:
    """`_probe`, once per process."""
    return _probe(driver)


def _gpu_target(name: str, runtime: str, **fields) -> Target:
    """A GPU target of IREE's: runs on the `runtime` driver alone, where a device of it exists."""

    def load(vmfb, parameters=None, driver=None):  # `driver` is always `runtime` here
        return _device_function(vmfb, name, runtime, parameters)

    return Target(name=name, load=load, can_run=lambda: _probed(runtime), external_params=True,
                  runs_alone=GPU_RUNS_ALONE, left_outside=GPU_LEFT_OUTSIDE, split_reductions_alone=True,
                  grouped_convolutions_alone=True,
                  guard_broadcast_reads=True, runtime_driver=lambda flops, options: runtime, **fields)


VULKAN_SPIRV = _gpu_target(
    "vulkan-spirv", "vulkan",
    description="IREE for any Vulkan device via SPIR-V (float64 refused; int64 exact)",
    needs="a Vulkan 1.1+ driver (libvulkan1; lavapipe in mesa-vulkan-drivers runs on the CPU), "
          "with 8- and 16-bit storage for int8, int16 and bool tensors",
    compile=_compile_vulkan,
    options=("vulkan-target",),
    flags=VULKAN_FLAGS,
    matmuls_take_no_producers=True,
)
CUDA = _gpu_target(
    "cuda", "cuda",
    description="IREE for NVIDIA GPUs via PTX (option cuda-sm, default 80; 90 for Hopper)",
    needs="an NVIDIA GPU and its driver (libcuda.so)",
    compile=_compile_cuda,
    options=("cuda-sm",),
    check_values=_check_cuda_options,
    # Checked on an NVIDIA H200 (2026-12-04): sm_80 and sm_90 executables of six small
    # models and a BERT-base-width encoder within the budgets of f32 eager; bf16 matmuls
    # run on the tensor cores (mma.sync ... bf16).
    precisions=("f32", "bf16", "int8"),
    # IREE's int8 x int8 products have no tensor-core code here (int8 widened to int32):
    # int8 weights times bf16 activations ran up to 3.3x faster on an H200 (the same on a
    # CNN), and nearer f32 (README, Targets).
    int8_weights_only=True,
)
TARGETS = (LLVM_CPU, VULKAN_SPIRV, CUDA)
