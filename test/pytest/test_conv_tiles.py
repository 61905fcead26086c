"""mlc-conv-tiles (passes/conv_tiles.py): compiling for an x86 CPU with AVX2 but not
AVX-512, IREE's direct convolutions get vector tiles of full registers, and compute what
eager does."""

import large_models  # examples/, on the path through conftest.py
import pytest
import torch
from conftest import ATOL, RTOL

import mlc
import models
from mlc.driver.backends import cpu_instructions

pytestmark = pytest.mark.iree
AVX2 = {"target_options": {"cpu": "x86-64-v3"}}


def tiled(compiled) -> int:
    return compiled.report.pass_statistic("mlc-conv-tiles", "convolutions tiled for AVX2") or 0


@pytest.mark.parametrize("case", ["resnet_block", "cnn"])
def test_direct_convolutions_for_avx2_are_tiled_and_match_eager(case):
    """ResNet-18's first block at 56x56 (64 channels: 4 pixels by 16 channels, the
    residual and ReLU in the same dispatch) and the CNN of compare.py on a batch of 2 (16
    channels: 8 by 8; its stem of 3 channels keeps IREE's tiles), direct convolutions as
    IREE compiles them for x86-64-v3."""
    torch.manual_seed(0)
    if case == "resnet_block":
        model, x, convolutions = large_models.ResNet18().layer1[0].eval(), torch.randn(1, 64, 56, 56), 2
    else:
        model, x, convolutions = models.make_cnn(), torch.randn(2, 3, 32, 32), 2
    compiled = mlc.compile(model, (x,), **AVX2)
    assert tiled(compiled) == convolutions
    with torch.no_grad():
        torch.testing.assert_close(torch.as_tensor(compiled(x)), model(x), rtol=RTOL, atol=ATOL)


def test_only_cpus_with_avx2_but_not_avx512_get_mlcs_tiles(monkeypatch):
    """Named CPUs by what LLVM gives them; the host by its flags."""
    assert cpu_instructions.avx2_without_avx512({"cpu": "x86-64-v3"})
    assert cpu_instructions.avx2_without_avx512({"cpu": "znver3"})
    assert not cpu_instructions.avx2_without_avx512({"cpu": "znver4"})
    assert not cpu_instructions.avx2_without_avx512({"cpu": "sapphirerapids"})
    monkeypatch.setattr(cpu_instructions.platform, "machine", lambda: "x86_64")
    monkeypatch.setattr(cpu_instructions, "cpu_fields", lambda: {"flags": "sse4_2 avx avx2 fma"})
    assert cpu_instructions.avx2_without_avx512({})
    monkeypatch.setattr(cpu_instructions, "cpu_fields", lambda: {"flags": "avx2 avx512f avx512bw"})
    assert not cpu_instructions.avx2_without_avx512({})


def test_the_host_gets_mlcs_tiles_only_without_avx512():
    """Compiled for this machine: IREE keeps its own tiles where it has AVX-512 (its 8
    pixels by 16 channels fill a 16-lane register), mlc sets them where it has AVX2 only."""
    torch.manual_seed(0)
    model, x = large_models.ResNet18().layer1[0].eval(), torch.randn(1, 64, 56, 56)
    assert tiled(mlc.compile(model, (x,))) == (2 if cpu_instructions.avx2_without_avx512({}) else 0)
