"""`mlc-fold-batchnorm` and `mlc-convert-layout` on real models: the IR they leave, and
its numerics after IREE llvm-cpu compared with PyTorch eager.

Tolerance: float32 results match eager within rtol=1e-4 and atol=1e-5, as in
test_end_to_end.py: folding a batch norm into the weights reassociates float32
arithmetic, and the NHWC kernels sum in another order; changing the layout alone
moves elements and computes nothing.

Models: the bundled CNN (examples/models.py, input 2x3x32x32), a small ResNet (stem,
two basic blocks, global pooling, Linear + BatchNorm1d) and a MobileNet-style
depthwise-separable block with pooling and ReLU6.
"""

import sys
from pathlib import Path

import numpy as np
import pytest
import torch
from conftest import ATOL, RTOL
from torch import nn
from torch_mlir import ir

import mlc.pipelines
from mlc.driver.backends import iree as iree_backend
from mlc.driver.backends import targets
from mlc.driver.compilation import Compilation, import_model
from mlc.passes.graph import folds_to_constant
from mlc.pipelines import PipelineRunner

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "examples"))
import models  # noqa: E402

GRAPH_PASSES = "mlc-fold-batchnorm, mlc-convert-layout{layout=nhwc}, canonicalize, cse"
PIPELINE = f"builtin.module({GRAPH_PASSES}, mlc-lower-to-linalg)"
WINDOW_OPS = ("mlc.conv2d", "mlc.max_pool2d", "mlc.avg_pool2d")


class BasicBlock(nn.Module):
    """relu(x + bn(conv(relu(bn(conv(x))))))"""

    def __init__(self, channels):
        super().__init__()
        self.conv1 = nn.Conv2d(channels, channels, 3, padding=1, bias=False)
        self.bn1 = nn.BatchNorm2d(channels)
        self.conv2 = nn.Conv2d(channels, channels, 3, padding=1, bias=False)
        self.bn2 = nn.BatchNorm2d(channels)

    def forward(self, x):
        return torch.relu(x + self.bn2(self.conv2(torch.relu(self.bn1(self.conv1(x))))))


class SmallResNet(nn.Module):
    def __init__(self):
        super().__init__()
        self.stem = nn.Sequential(nn.Conv2d(3, 8, 3, padding=1, bias=False), nn.BatchNorm2d(8), nn.ReLU())
        self.blocks = nn.Sequential(BasicBlock(8), BasicBlock(8))
        self.head = nn.Sequential(nn.Linear(8, 6), nn.BatchNorm1d(6))

    def forward(self, x):
        x = self.blocks(self.stem(x))
        return self.head(torch.flatten(nn.functional.adaptive_avg_pool2d(x, 1), 1))


class DepthwiseSeparable(nn.Module):
    """Depthwise conv + BN + ReLU6, max pool, pointwise conv + BN, average pool."""

    def __init__(self):
        super().__init__()
        self.depthwise = nn.Conv2d(4, 4, 3, padding=1, groups=4)
        self.bn1 = nn.BatchNorm2d(4)
        self.pointwise = nn.Conv2d(4, 8, 1, bias=False)
        self.bn2 = nn.BatchNorm2d(8)

    def forward(self, x):
        x = nn.functional.max_pool2d(nn.functional.relu6(self.bn1(self.depthwise(x))), 2)
        return nn.functional.avg_pool2d(self.bn2(self.pointwise(x)), 2)


def _seeded(cls):
    torch.manual_seed(0)
    model = cls().eval()
    for module in model.modules():  # non-trivial statistics, so a wrong fold shows
        if isinstance(module, (nn.BatchNorm1d, nn.BatchNorm2d)):
            module.running_mean.uniform_(-0.5, 0.5)
            module.running_var.uniform_(0.5, 1.5)
            module.weight.data.uniform_(0.5, 1.5)
            module.bias.data.uniform_(-0.5, 0.5)
    return model


# name -> (model factory, input shape, convs and pools, batch norms folded, activation transposes left)
MODELS = {
    "cnn": (models.make_cnn, (2, 3, 32, 32), 3, {"folded into conv2d": 3}, 2),
    "resnet": (lambda: _seeded(SmallResNet), (2, 3, 16, 16), 5, {"folded into conv2d": 5, "folded into matmul": 1}, 2),
    "depthwise": (lambda: _seeded(DepthwiseSeparable), (1, 4, 16, 16), 4, {"folded into conv2d": 2}, 2),
}


def to_mlc(name):
    """(model, input, module at the mlc level: converted from torch, no graph passes yet)."""
    factory, shape, *_ = MODELS[name]
    model = factory()
    torch.manual_seed(1)
    x = torch.randn(shape)
    _, module = import_model(model, (x,))
    pipeline = mlc.pipelines.get("O0")  # no graph passes: the mlc level is the conversion alone
    Compilation(module, target=targets.bind("llvm-cpu"), pipeline=pipeline).run("mlc")
    return model, x, module


def run(text, module):
    runner = PipelineRunner(text, context=module.context)
    runner.run(module)
    return {record.name: record.statistics for record in runner.records}


def ops(module, *names):
    found = []

    def visit(op):
        if op.name in names:
            found.append(op.opview)
        return ir.WalkResult.ADVANCE

    module.walk(visit)
    return found


def activation_transposes(module):
    """The transposes of values computed at run time (a weight's transpose is folded)."""
    return [op for op in ops(module, "mlc.transpose") if not folds_to_constant(op.operands[0])]


@pytest.mark.parametrize("name", sorted(MODELS))
def test_ir_after_each_pass(name):
    _, _, window_ops, folded, transposes_left = MODELS[name]
    _, _, module = to_mlc(name)
    assert len(ops(module, *WINDOW_OPS)) == window_ops

    statistics = run("builtin.module(mlc-fold-batchnorm)", module)["mlc-fold-batchnorm"]
    assert statistics == folded
    assert not ops(module, "mlc.batch_norm")

    statistics = run("builtin.module(mlc-convert-layout{layout=nhwc}, canonicalize, cse)", module)["mlc-convert-layout"]
    assert all(op.attributes["layout"].value == "NHWC" for op in ops(module, *WINDOW_OPS))
    assert statistics["converted to NHWC"] == window_ops
    assert statistics["transposes inserted"] == 2 * window_ops
    assert statistics["transposes remaining"] == transposes_left
    # Transposes only at the chain's edges: one into NHWC on the input, one out of
    # NHWC after the global mean or the last pool; none meets another, no window op
    # reads one but the first.
    transposes = activation_transposes(module)
    assert len(transposes) == transposes_left
    entry, exit_ = transposes
    assert list(entry.attributes["permutation"]) == [0, 2, 3, 1]
    assert list(exit_.attributes["permutation"]) == [0, 3, 1, 2]
    assert isinstance(entry.operands[0].owner, ir.Block)  # the function's argument
    assert exit_.operands[0].owner.name in ("mlc.reduce_mean", "mlc.avg_pool2d")
    readers = [op for op in ops(module, *WINDOW_OPS) if op.operands[0].owner.name == "mlc.transpose"]
    assert len(readers) == 1


@pytest.mark.slow
@pytest.mark.iree
@pytest.mark.parametrize("name", sorted(MODELS))
def test_matches_eager(name):
    model, x, module = to_mlc(name)
    run(PIPELINE, module)
    vmfb = iree_backend.compile_to_vmfb(module, iree_backend.LLVM_CPU)
    actual = iree_backend.load(vmfb)(x.numpy()).to_host()
    with torch.no_grad():
        expected = model(x).numpy()
    np.testing.assert_allclose(actual, expected, rtol=RTOL, atol=ATOL)
