"""The GPU targets: vulkan-spirv runs on lavapipe (Mesa's Vulkan device on the CPU) and
matches PyTorch; cuda builds sm_80 and sm_90 executables, and runs only where a CUDA
device exists.

Tolerance: lavapipe's float32 math (its own exp/tanh/erf, other summation orders) must
match eager within rtol=1e-4 and atol=1e-4. Integers must match exactly.
"""

import io
import os
import re
import subprocess
import sys
import zipfile
from pathlib import Path

import iree.runtime
import pytest
import torch

import mlc
import models  # examples/, put on the path by conftest
from mlc.driver.backends import targets

pytestmark = pytest.mark.slow

RTOL, ATOL = 1e-4, 1e-4


def require(target: str):
    """The target's runtime, or a skip giving the probed reason it cannot run here."""
    runs, why = targets.get(target).can_run()
    if not runs:
        pytest.skip(f"{target} cannot run here: {why}")


def refused_without_a_cuda_device(compiled, *inputs) -> None:
    """Where no CUDA device exists: calling `compiled` is one clear error, then a skip
    (the run itself is checked where a device exists)."""
    runs, why = targets.get("cuda").can_run()
    if not runs:
        with pytest.raises(mlc.UserError, match="cannot run target 'cuda' here"):
            compiled(*inputs)
        pytest.skip(f"cuda cannot run here: {why}")


def executables(vmfb: bytes) -> list[str]:
    """The kernel archives in a .vmfb (IREE names them *_<format>.fb)."""
    names = zipfile.ZipFile(io.BytesIO(vmfb)).namelist()
    return [name for name in names if name.endswith(".fb") and name != "module.fb"]


@pytest.mark.iree
def test_vulkan_matches_eager(example_model):
    require("vulkan-spirv")
    name, model, inputs = example_model
    compiled = mlc.compile(model, inputs, target="vulkan-spirv")
    # Only SPIR-V kernels exist, and the function runs on the Vulkan HAL device: no CPU fallback.
    kernels = executables(compiled.vmfb)
    assert kernels and all(kernel.endswith("_vulkan_spirv_fb.fb") for kernel in kernels)
    assert compiled._main.driver == "vulkan"
    assert isinstance(compiled._main.device, iree.runtime.HalDevice)
    with torch.no_grad():
        torch.testing.assert_close(compiled(*inputs), model(*inputs), rtol=RTOL, atol=ATOL)
        fresh = tuple(torch.randn_like(x) for x in inputs)
        torch.testing.assert_close(compiled(*fresh), model(*fresh), rtol=RTOL, atol=ATOL)


class ScaledRows(torch.nn.Module):
    """Rows scaled, then times a weight: the matmul's producer is an elementwise op."""

    def __init__(self, width: int):
        super().__init__()
        self.weight = torch.nn.Parameter(torch.randn(64, width))

    def forward(self, x):
        return (x * 2) @ self.weight


@pytest.mark.iree
@pytest.mark.parametrize("rows, width", [(1, 100), (1, 1000), (3, 100)])
def test_vulkan_multiplies_by_a_weight_of_any_width_after_a_producer(rows, width):
    """A matmul takes none of its producers into its dispatch on Vulkan (mlc-fuse's
    matmuls-take-no-producers): fused, its code got these wrong where the width is
    not a multiple of 64 (1e33 off at [1, 100], 58 % at [1, 1000]), and with them every
    decode step of a Llama (its final norm before the LM head)."""
    require("vulkan-spirv")
    torch.manual_seed(0)
    model, x = ScaledRows(width), torch.randn(rows, 64)
    compiled = mlc.compile(model, (x,), target="vulkan-spirv")
    with torch.no_grad():
        torch.testing.assert_close(compiled(x), model(x), rtol=RTOL, atol=ATOL)


class Lookup(torch.nn.Module):
    """int64 in, float32 and int64 out: an embedding and index arithmetic past 32 bits."""

    def __init__(self):
        super().__init__()
        self.embedding = torch.nn.Embedding(100, 8)

    def forward(self, indices):
        return self.embedding(indices), indices * 3 + (1 << 33)


@pytest.mark.iree
@pytest.mark.parametrize("vulkan_target", [None, "llvmpipe"])
def test_vulkan_int64_is_exact(vulkan_target):
    """IREE keeps i64 at the boundary for Vulkan: emulated with i32 pairs in IREE's default
    profile (no Int64 capability), native with the llvmpipe target (lavapipe has Int64)."""
    require("vulkan-spirv")
    torch.manual_seed(0)
    model, indices = Lookup().eval(), torch.randint(0, 100, (4, 5))
    options = {"vulkan-target": vulkan_target} if vulkan_target else {}
    compiled = mlc.compile(model, (indices,), target="vulkan-spirv", target_options=options)
    for x in (indices, torch.randint(0, 100, (4, 5))):
        vectors, arithmetic = compiled(x)
        with torch.no_grad():
            expected_vectors, expected_arithmetic = model(x)
        assert arithmetic.dtype == torch.int64 and torch.equal(arithmetic, expected_arithmetic)
        assert torch.equal(vectors, expected_vectors)  # a gather copies values exactly


class Positions(torch.nn.Module):
    """Gathers at int64 positions (constant ones, and an input's) and an integer power: each
    failed to compile on IREE's default Vulkan target, whose int64 emulation could read
    neither an int64 table inlined into a dispatch nor the int64 loop of `x ** 2` (random
    programs, seeds 100002 and 100004)."""

    def forward(self, x, i):
        return (x.flip(-1), x[:, i], torch.diagonal(x[0]), torch.nn.functional.pad(x, (1, 2), mode="reflect"),
                x.unfold(2, 2, 1), torch.round(x * 8).long() ** 2, torch.round(x * 4).to(torch.int32) ** 5)


@pytest.mark.iree
@pytest.mark.parametrize("opt_level", [0, 2])
def test_vulkan_gathers_at_int64_positions(opt_level):
    require("vulkan-spirv")
    torch.manual_seed(0)
    model, x, i = Positions(), torch.randn(3, 4, 5), torch.tensor([2, 0, 1, 2])
    compiled = mlc.compile(model, (x, i), target="vulkan-spirv", opt_level=opt_level, allow_fallback=False)
    for got, want in zip(compiled(x, i), model(x, i)):
        assert got.dtype == want.dtype and torch.equal(got, want)


class ZeroPads(torch.nn.Module):
    """Constant pads of an input, of a computed value, and with a reduction after: in mlc's
    groups, IREE 3.13's Vulkan code failed to compile three of these ("failed to legalize
    hal.interface.binding.subspan", "'memref.alloc' op unexpected allocation without upper
    bound shapes"); left to IREE (iree.LEFT_OUTSIDE), they compile. A generator's prompt
    call pads its caches to the capacity this way."""

    def forward(self, x):
        pad = torch.nn.functional.pad
        return pad(x, (0, 0, 0, 5)), pad(x * 2 + 1, (1, 2, 3, 0)), torch.relu(pad(x, (1, 1), value=-1.0)), \
            pad(x, (1, 1, 1, 1)).sum(1), pad(x, (2, 3, 1, 1), mode="replicate") + 1


@pytest.mark.iree
def test_vulkan_pads():
    require("vulkan-spirv")
    torch.manual_seed(0)
    model, x = ZeroPads(), torch.randn(2, 3, 4, 8)
    for got, want in zip(mlc.compile(model, (x,), target="vulkan-spirv", allow_fallback=False)(x), model(x),
                         strict=True):
        torch.testing.assert_close(got, want, rtol=RTOL, atol=ATOL)


def test_vulkan_refuses_float64():
    class Scale(torch.nn.Module):
        def forward(self, x):
            return torch.tanh(x) * 3.0

    with pytest.raises(mlc.UserError, match=r"'vulkan-spirv' cannot compute in float64 .*tensor<.*f64>.*float32"):
        mlc.compile(Scale(), (torch.randn(3, 4, dtype=torch.float64),), target="vulkan-spirv")


def test_vulkan_refuses_float16_without_a_named_target():
    """IREE's default Vulkan target has no 16-bit floats, and its kernels read and wrote f16
    buffers as f32: garbage, with no error (an f16 result, or an f16 value between two
    dispatches). The random programs found it as `(x * 3e4).half().float()` (seed 110004)."""
    class Half(torch.nn.Module):
        def forward(self, x):
            return (x * 2).half()

    with pytest.raises(mlc.UserError, match=r"'vulkan-spirv' without a named Vulkan target cannot compute in float16 "
                                            r".*tensor<.*f16>.*'vulkan-target': 'llvmpipe'"):
        mlc.compile(Half(), (torch.randn(3, 4),), target="vulkan-spirv")


class Divisions(torch.nn.Module):
    def forward(self, x):
        a, b = torch.round(x * 8).long(), torch.round(x.flip(-1) * 8).long().abs() + 1
        return torch.div(a, b, rounding_mode="trunc"), a // b, a % b, torch.fmod(a, b)


def test_vulkan_refuses_int64_division_without_a_named_target():
    """IREE's int64 emulation has no division: "failed to legalize operation 'arith.divsi'"
    (random programs, seed 115005), now one message that says what to do."""
    with pytest.raises(mlc.UserError, match=r"'vulkan-spirv' without a named Vulkan target cannot divide int64 "
                                            r"values .*'vulkan-target': 'llvmpipe'"):
        mlc.compile(Divisions(), (torch.randn(3, 8),), target="vulkan-spirv", allow_fallback=False)


@pytest.mark.iree
def test_vulkan_divides_int64_on_lavapipe_target():
    require("vulkan-spirv")
    x = torch.randn(3, 8)
    compiled = mlc.compile(Divisions(), (x,), target="vulkan-spirv", target_options={"vulkan-target": "llvmpipe"})
    assert all(torch.equal(got, want) for got, want in zip(compiled(x), Divisions()(x)))


@pytest.mark.iree
def test_vulkan_computes_float16_and_bfloat16_on_lavapipe_target():
    require("vulkan-spirv")

    class Mixed(torch.nn.Module):
        def forward(self, h, b):
            return (h * 2).softmax(-1), h.float().sum(0), b * 3, (b.float() * 1e3).to(torch.bfloat16)

    h, b = (torch.randn(4, 8) * 10).half(), torch.randn(4, 8).to(torch.bfloat16)
    compiled = mlc.compile(Mixed(), (h, b), target="vulkan-spirv", target_options={"vulkan-target": "llvmpipe"})
    for got, want in zip(compiled(h, b), Mixed()(h, b)):
        assert got.dtype == want.dtype
        torch.testing.assert_close(got.float(), want.float(), rtol=1e-2, atol=1e-2)


def test_vulkan_probe_reports_a_missing_device():
    """With no Vulkan driver to find, the probe says why instead of crashing."""
    script = "from mlc.driver.backends import targets; print(targets.get('vulkan-spirv').can_run())"
    env = {**os.environ, "VK_ICD_FILENAMES": "/nonexistent/icd.json", "VK_DRIVER_FILES": "/nonexistent/icd.json"}
    result = subprocess.run([sys.executable, "-c", script], env=env, capture_output=True, text=True, check=True)
    assert result.stdout.startswith("(False, 'no vulkan device (")
    assert "make system-packages" in result.stdout


def _small_unet():
    sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "inputs"))
    from small_unet import SmallUNet

    return SmallUNet().eval(), torch.randn(1, 3, 16, 16)


@pytest.mark.iree
def test_vulkan_runs_a_unet():
    """Nearest upsampling (i32 positions: SPIR-V's i64 failed) and a skip concat (left
    outside mlc's groups: a concat in a dispatch of its own failed)."""
    require("vulkan-spirv")
    model, x = _small_unet()
    compiled = mlc.compile(model, (x,), target="vulkan-spirv")
    with torch.no_grad():
        torch.testing.assert_close(compiled(x), model(x), rtol=RTOL, atol=ATOL)


@pytest.mark.iree
def test_cuda_compiles_a_unet():
    """It failed with "LLVM Translation failed for builtin.unrealized_conversion_cast"
    from the concat's dispatch; running it needs a GPU (TOOLCHAIN.md's recipe)."""
    model, x = _small_unet()
    compiled = mlc.compile(model, (x,), target="cuda", target_options={"cuda-sm": 90})
    assert executables(compiled.vmfb)


@pytest.mark.iree
@pytest.mark.parametrize("sm", [80, 90])
def test_cuda_builds_ptx(sm):
    torch.manual_seed(0)
    model, x = models.FACTORIES["mlp"](), torch.randn(models.EXAMPLE_INPUTS["mlp"][0])
    compiled = mlc.compile(model, (x,), target="cuda", target_options={"cuda-sm": sm})
    kernels = executables(compiled.vmfb)
    assert kernels and all(kernel.endswith("_cuda_nvptx_fb.fb") for kernel in kernels)
    ptx = zipfile.ZipFile(io.BytesIO(compiled.vmfb)).read(kernels[0])
    assert re.search(rb"\.target\s+sm_%d\b" % sm, ptx)
    refused_without_a_cuda_device(compiled, x)
    with torch.no_grad():
        torch.testing.assert_close(compiled(x), model(x), rtol=RTOL, atol=ATOL)


# precision -> (budget against f32 eager, as test_precision.py states it; the pass and its
# statistic that counts the matmuls it changed; PTX that shows how those matmuls multiply)
CUDA_NARROW = {
    "bf16": (2e-2, "mlc-reduce-precision", "matmuls in bf16, accumulated in f32",
             rb"mma\.sync\.aligned\.m16n8k16\.row\.col\.f32\.bf16\.bf16\.f32"),  # the tensor cores
    # int8 weights, widened in the kernel, times bf16 activations on the tensor cores
    "int8": (5e-2, "mlc-quantize-int8", "matmuls by int8 weights, in bf16",
             rb"cvt\.s8\.s32(.|\n)*mma\.sync\.aligned\.m16n8k16\.row\.col\.f32\.bf16\.bf16\.f32"),
}


@pytest.mark.iree
@pytest.mark.parametrize("precision", list(CUDA_NARROW))
def test_cuda_computes_a_narrow_precision(precision):
    """cuda takes bf16 and int8: their sm_80 and sm_90 executables matched f32 eager within
    these budgets on an H200 (README, Targets). Here the PTX shows the narrow products,
    and where a CUDA device exists the result is checked against the budget."""
    budget, pass_name, statistic, instruction = CUDA_NARROW[precision]
    torch.manual_seed(0)
    model, x = models.FACTORIES["mlp"](), torch.randn(models.EXAMPLE_INPUTS["mlp"][0])
    compiled = mlc.compile(model, (x,), target="cuda", target_options={"cuda-sm": 80}, precision=precision)
    assert compiled.report.pass_statistics(pass_name)[statistic] == 2
    archive = zipfile.ZipFile(io.BytesIO(compiled.vmfb))
    assert any(re.search(instruction, archive.read(kernel)) for kernel in executables(compiled.vmfb))
    refused_without_a_cuda_device(compiled, x)
    with torch.no_grad():
        expected = model(x)
        assert 0 < float((compiled(x) - expected).norm() / expected.norm()) < budget


class SumOfAll(torch.nn.Module):
    def forward(self, x):
        return x.sum()


class ScaledRowSums(torch.nn.Module):
    def forward(self, x):
        return (x * 3.0).sum(-1)  # IREE takes it for a contraction with a constant vector


@pytest.mark.iree
@pytest.mark.parametrize("model, shape", [(SumOfAll(), (4, 8, 3, 2)), (ScaledRowSums(), (4, 128))],
                         ids=["sum-of-all", "scaled-row-sums"])
def test_cuda_compiles_reductions_that_fail_to_distribute(model, shape):
    """IREE's vector-distribution code for GPU reductions failed to compile these ("failed
    to distribute"); cuda compiles them again with its warp-reduction code (iree.WARP_REDUCTIONS),
    whose results matched eager on an H200 (README, Reliability)."""
    x = torch.randn(*shape)
    compiled = mlc.compile(model, (x,), target="cuda", target_options={"cuda-sm": 90})
    assert executables(compiled.vmfb)
    refused_without_a_cuda_device(compiled, x)
    torch.testing.assert_close(compiled(x), model(x), rtol=RTOL, atol=ATOL)


def test_cuda_unknown_compute_capability():
    with pytest.raises(mlc.UserError, match=r"unknown compute capability sm_12 \(cuda-sm takes one of .*90"):
        mlc.compile(Lookup(), (torch.zeros(2, 3, dtype=torch.int64),), target="cuda", target_options={"cuda-sm": 12})


LET_GO = """
import gc, resource, time, torch, mlc
def cpu():
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime
compiled = mlc.compile(torch.nn.Linear(4, 3), (torch.randn(2, 4),), target="vulkan-spirv")
compiled(torch.randn(2, 4))
del compiled
gc.collect()
before = cpu()
time.sleep(1.5)
print(cpu() - before)
"""


@pytest.mark.iree
def test_a_vulkan_model_lets_go_of_its_device():
    """A live Vulkan device on lavapipe keeps IREE's queue threads polling (about half a
    core); the compiled model owns its device, so once it is gone the process is idle."""
    require("vulkan-spirv")
    done = subprocess.run([sys.executable, "-c", LET_GO], capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr[-2000:]
    assert float(done.stdout.strip().splitlines()[-1]) < 0.2  # CPU seconds in 1.5 s of sleep
