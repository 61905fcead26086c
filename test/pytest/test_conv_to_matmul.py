"""`mlc-conv-to-matmul` end to end: convolutions with few output pixels run as
im2col + matmul on IREE's data-tiled microkernels, and still match PyTorch eager.

Tolerance: rtol=1e-4 and atol=1e-5, as the other end-to-end tests: a matmul sums
the window's products in another order than a direct convolution.
"""

import platform

import large_models  # examples/, on the path through conftest.py
import pytest
import torch
from conftest import ATOL, RTOL
from torch import nn

import mlc
from mlc import pipelines
from mlc.driver.backends import cpu_instructions, targets

pytestmark = pytest.mark.iree


def layer3_to_layer4():
    """ResNet-18's last block at 14x14 and its first at 7x7: a 3x3 at stride 2 and a
    1x1 at stride 2 both read the first block's relu(x + ...)."""
    torch.manual_seed(0)
    resnet = large_models.ResNet18()
    for module in resnet.modules():  # non-trivial BatchNorm statistics
        if isinstance(module, nn.BatchNorm2d):
            module.running_mean.uniform_(-0.5, 0.5)
            module.running_var.uniform_(0.5, 1.5)
    return nn.Sequential(resnet.layer3[1], resnet.layer4[0]).eval()


class Dilated(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv = nn.Conv2d(4, 8, 3, padding=2, dilation=2)

    def forward(self, x):
        return torch.sigmoid(self.conv(x))


def o2(fuse: bool = True, max_pixels: int = 256) -> pipelines.Pipeline:
    pipeline = pipelines.get("O2")
    pipeline.passes = [f"mlc-conv-to-matmul{{max-pixels={max_pixels}}}" if p == "mlc-conv-to-matmul" else p
                       for p in pipeline.passes]
    return pipeline if fuse else pipeline.drop("mlc-fuse")


def conversions(compiled) -> dict:
    stage = next(s for s in compiled.report["stages"] if s["stage"] == "O2 graph passes")
    return next(p for p in stage["passes"] if p["name"] == "mlc-conv-to-matmul")["statistics"]


@pytest.mark.parametrize("fuse", [True, False], ids=["mlc-plan", "iree-plan"])
def test_resnet_downsampling_matches_eager(fuse):
    """Without mlc's fusion IREE forms the dispatches itself; IREE 3.13 miscompiled a
    1x1 stride-2 window copy there (it fused the relu feeding both convolutions into
    a two-result generic that wrote only every other pixel). mlc takes the strided
    pixels with a slice instead, which both plans run correctly."""
    model = layer3_to_layer4()
    x = torch.randn(1, 256, 14, 14)
    compiled = mlc.compile(model, (x,), pipeline=o2(fuse, max_pixels=49))
    with torch.no_grad():
        torch.testing.assert_close(compiled(x), model(x), rtol=RTOL, atol=ATOL)
    assert conversions(compiled) == {"convolutions to im2col + matmul": 2, "1x1 convolutions to matmul": 1,
                                     "kept (more pixels than max-pixels)": 2}


def test_dilated_window_matches_eager():
    torch.manual_seed(0)
    model = Dilated().eval()
    x = torch.randn(2, 4, 9, 9)
    compiled = mlc.compile(model, (x,))
    assert "mlc.im2col" in compiled.ir("mlc") and "mlc.conv2d" not in compiled.ir("mlc")
    with torch.no_grad():
        torch.testing.assert_close(compiled(x), model(x), rtol=RTOL, atol=ATOL)


def test_epilogue_fuses_with_the_matmul():
    """The bias, BatchNorm (folded) and ReLU after the matmul join its group: the
    result's reshape sank below them."""
    torch.manual_seed(0)
    model = nn.Sequential(nn.Conv2d(8, 16, 3, padding=1), nn.BatchNorm2d(16), nn.ReLU()).eval()
    compiled = mlc.compile(model, (torch.randn(1, 8, 7, 7),))
    groups = compiled.report["fusion groups"]
    assert ["mlc.matmul", "mlc.add", "mlc.relu"] in groups, groups


def _cpu_without_avx512(monkeypatch):
    fields = cpu_instructions.cpu_fields()
    flags = " ".join(f for f in fields.get("flags", "").split() if not f.startswith("avx512"))
    monkeypatch.setattr(cpu_instructions, "cpu_fields", lambda: {**fields, "flags": flags})
    monkeypatch.setattr(cpu_instructions.platform, "machine", lambda: "x86_64")


def test_the_cpu_chooses_how_many_pixels_become_a_matmul(monkeypatch):
    """llvm-cpu on this machine sets max-pixels by its CPU: more on an x86 CPU without
    AVX-512 (measured: README, Measured); the pass's default where it has AVX-512, for a
    named cpu, on the other targets, and wherever the pipeline set its own."""
    pixels = [p for p in pipelines.get("O2").graph_passes(targets.bind("llvm-cpu")) if "conv-to-matmul" in p]
    x86_without_avx512 = (platform.machine() in ("x86_64", "AMD64")
                          and "avx512f" not in cpu_instructions.cpu_fields().get("flags", "").split())
    assert pixels == (["mlc-conv-to-matmul{max-pixels=1024}"] if x86_without_avx512 else ["mlc-conv-to-matmul"])
    _cpu_without_avx512(monkeypatch)
    assert targets.bind("llvm-cpu").conv_matmul_pixels == cpu_instructions.AVX2_CONV_MATMUL_PIXELS == 1024
    assert targets.bind("llvm-cpu", {"cpu": "x86-64-v3"}).conv_matmul_pixels is None
    assert targets.bind("vulkan-spirv").conv_matmul_pixels is None
    assert "mlc-conv-to-matmul{max-pixels=49}" in o2(max_pixels=49).graph_passes(targets.bind("llvm-cpu"))
    monkeypatch.setattr(cpu_instructions, "cpu_fields", lambda: {"flags": "avx2 avx512f"})
    assert targets.bind("llvm-cpu").conv_matmul_pixels is None


def test_a_28x28_convolution_is_a_matmul_on_a_cpu_without_avx512(monkeypatch):
    """ResNet's 28x28 stage (784 pixels), with its BatchNorm, ReLU and residual: im2col +
    matmul where the CPU has no AVX-512, a direct convolution where it has, both eager's."""
    torch.manual_seed(0)
    model = large_models.ResNet18().layer2[1].eval()
    x = torch.randn(1, 128, 28, 28)
    with torch.no_grad():
        expected = model(x)
    direct = mlc.compile(model, (x,), target_options={"cpu": "x86-64-v3"})  # a named cpu: the default 256
    _cpu_without_avx512(monkeypatch)
    as_matmul = mlc.compile(model, (x,))
    assert conversions(direct) == {"kept (more pixels than max-pixels)": 2}
    assert conversions(as_matmul) == {"convolutions to im2col + matmul": 2}
    with torch.no_grad():
        torch.testing.assert_close(direct(x), expected, rtol=RTOL, atol=ATOL)
        torch.testing.assert_close(as_matmul(x), expected, rtol=RTOL, atol=ATOL)
