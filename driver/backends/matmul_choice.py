"""Which matmuls run on the library (MKL, through mlc's plugin) and which on IREE's own
microkernel: chosen per shape by measuring both on this CPU, once.

The kernels' speeds differ by CPU more than by anything mlc controls. On an Intel Xeon
with AVX-512, MKL's sgemm runs a transformer's matmuls about twice as fast as IREE's
mmt4d microkernel; on an AMD EPYC (Zen 4), IREE's kernel matches or beats MKL on most
shapes. So each new shape `MxKxN` is timed both ways, on IREE's worker threads, as
the executable will run it (constant weights, data tiling on), and the faster wins
by at least `MARGIN`. The results are kept per CPU model and feature flags, IREE
version and plugin build, in `matmul-choices/` under the executable cache's
directory, so a shape is measured once per machine.

The `matmul-library` target option of llvm-cpu: "auto" (measure; the default), true
(every matmul that qualifies, unmeasured) or false (none).
"""

import hashlib
import json
import os
import tempfile
import time
from pathlib import Path

import numpy as np
from torch_mlir import ir
from torch_mlir.dialects import arith, func, linalg, tensor

from ...dialects import iree_flow
from ...errors import UserError
from ...passes import library_matmuls
from ..executable_cache import default_directory, host_cpu, iree_version
from . import matmul_library

# Below this much work a matmul stays on IREE's kernel unmeasured: the extra dispatch
# and the call through the plugin cost more than any kernel could save.
MIN_FLOPS = 16e6
# A weight larger than this stays on IREE's kernel unmeasured: IREE's compile of the
# benchmark packs the constant (4 s for GPT-2's 154 MB head), too long for a choice.
MAX_MEASURED_WEIGHT = 32 << 20  # bytes
# The library must be at least this much faster to be chosen: the timings are noisy.
MARGIN = 0.9
ROUNDS, CALLS = 5, 2
WORKGROUPS = 2  # blocks of rows per library matmul: one per IREE worker on 2 cores


def option(options: dict) -> str:
    """The `matmul-library` option as "auto", "on" or "off"."""
    value = options.get("matmul-library", "auto")
    if value is True or value == "on":
        return "on"
    if value is False or value == "off":
        return "off"
    if value == "auto":
        return "auto"
    raise UserError(f"target 'llvm-cpu': matmul-library must be auto, true or false, got {value!r}")


def eligible_shapes(module: ir.Operation) -> list[str]:
    """The `MxKxN` of every matmul the library pass could move, in program order."""
    shapes = []
    with module.context:
        regions = library_matmuls.dispatch_regions(module)
    for region in regions:
        for op in region.regions[0].blocks[0].operations:
            with module.context:
                shape = library_matmuls.matmul_shape(op.operation, region)
            if shape is not None:
                shapes.append(shape)
    return shapes


def flops(shape: str) -> float:
    m, k, n = map(int, shape.split("x"))
    return 2.0 * m * k * n


def weight_bytes(shape: str) -> int:
    _, k, n = map(int, shape.split("x"))
    return 4 * k * n


def choose(module: ir.Operation, options: dict) -> dict:
    """{"library": shapes, "iree": shapes, "why": ...}: where each matmul of `module` runs."""
    shapes = list(dict.fromkeys(eligible_shapes(module)))
    mode = option(options)
    if mode == "off" or not shapes:
        return {"library": [], "iree": shapes, "why": "off (target option)" if mode == "off" else "no matmul qualifies"}
    large = [s for s in shapes if flops(s) >= MIN_FLOPS and weight_bytes(s) <= MAX_MEASURED_WEIGHT]
    if mode == "auto" and not large:
        return {"library": [], "iree": shapes,
                "why": f"every matmul is below {MIN_FLOPS / 1e6:.0f} MFLOP or has a weight over {MAX_MEASURED_WEIGHT >> 20} MB"}
    ok, reason = matmul_library.available()
    if not ok:
        if mode == "on":
            raise UserError(f"target 'llvm-cpu': matmul-library is on, but mlc's matmul plugin cannot be used here: {reason}")
        return {"library": [], "iree": shapes, "why": f"unavailable: {reason}"}
    if mode == "on":
        return {"library": shapes, "iree": [], "why": "on (target option)"}
    try:
        measured = Measurements.here().get(large)
    except matmul_library.MissingPlugin:  # this process made IREE's CPU driver before mlc could hand it the plugin
        return {"library": [], "iree": shapes, "why": "unavailable: IREE's CPU driver in this process lacks the plugin"}
    library = [s for s in large if measured[s]["library ms"] < MARGIN * measured[s]["iree ms"]]
    return {"library": library, "iree": [s for s in shapes if s not in library], "why": "measured on this CPU",
            "measured": {s: measured[s] for s in large}}


class Measurements:
    """The per-shape timings of this CPU, on disk."""

    def __init__(self, path: Path):
        self.path = path

    @classmethod
    def here(cls) -> "Measurements":
        key = hashlib.sha256(repr((host_cpu(), iree_version(), matmul_library.plugin().name)).encode()).hexdigest()[:16]
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


def benchmark_module(shapes: list[str]) -> ir.Module:
    """For each shape, `iree_<i>` (a matmul region, as mlc's groups are) and `library_<i>`
    (the library's region), each multiplying its input by a constant weight."""
    from ...dialects import make_context

    context = make_context()
    context.allow_unregistered_dialects = True
    with context, ir.Location.unknown():
        module = ir.Module.create()
        f32 = ir.F32Type.get()
        with ir.InsertionPoint(module.body):
            for i, shape in enumerate(shapes):
                m, k, n = map(int, shape.split("x"))
                a_type = ir.RankedTensorType.get([m, k], f32)
                c_type = ir.RankedTensorType.get([m, n], f32)
                # A splat weight: the kernels' speed does not depend on the values, and
                # IREE compiles a splat in no time where real data costs seconds (GPT-2's
                # 768 x 50257 head is 154 MB).
                weight = ir.DenseElementsAttr.get_splat(ir.RankedTensorType.get([k, n], f32), ir.FloatAttr.get(f32, 0.5))
                for variant in ("iree", "library"):
                    @func.FuncOp.from_py_func(a_type, name=f"{variant}_{i}")
                    def body(a, variant=variant, weight=weight, c_type=c_type):
                        b = arith.constant(weight.type, weight)
                        if variant == "library":
                            return library_matmuls.library_region(a, b, WORKGROUPS).results[0]
                        region, block = iree_flow.dispatch_region(c_type, [])
                        with ir.InsertionPoint(block):
                            zero = linalg.fill(arith.constant(f32, 0.0), outs=[tensor.empty(c_type.shape, f32)])
                            iree_flow.flow_return(linalg.matmul(a, b, outs=[zero]))
                        return region.results[0]
    return module


def measure(shapes: list[str]) -> dict:
    """Times each shape on IREE's kernel and on the library: the fastest of interleaved
    rounds. Other work on the machine only adds time, and the choice is kept on disk: a
    median measured while the machine was busy once put a 64x512x2048 matmul on the
    library (6.0 against IREE's 7.0 ms, where IREE takes 1 ms on an idle EPYC)."""
    from . import iree as iree_backend

    module = benchmark_module(shapes)
    vmfb = iree_backend.compile_to_vmfb(module.operation, iree_backend.LLVM_CPU, iree_backend.DATA_TILING_FLAGS)
    functions = iree_backend.load_functions(vmfb, "local-task")
    rng = np.random.default_rng(1)
    results = {}
    for i, shape in enumerate(shapes):
        m, k, _ = map(int, shape.split("x"))
        a = rng.standard_normal((m, k), dtype=np.float32)
        kernels = {"iree": functions[f"iree_{i}"], "library": functions[f"library_{i}"]}
        check = [np.asarray(kernel(a).to_host()) for kernel in kernels.values()]
        if not np.allclose(check[0], check[1], rtol=1e-3, atol=1e-3 * max(1.0, float(np.abs(check[0]).max()))):
            raise RuntimeError(f"mlc's matmul library disagrees with IREE's kernel on {shape}")
        times = {name: [] for name in kernels}
        for _ in range(ROUNDS):
            for name, kernel in kernels.items():
                kernel(a)  # the first call after the other kernel's pays for cold caches
                start = time.perf_counter()
                for _ in range(CALLS):
                    kernel(a).to_host()
                times[name].append((time.perf_counter() - start) / CALLS)
        results[shape] = {f"{name} ms": round(min(t) * 1e3, 4) for name, t in times.items()}
    return results
