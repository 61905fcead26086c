"""`mlc.bisect` and `mlc-compile --bisect`: a deliberately wrong pass, written with the
public Pass API and put into a pipeline, is named, and so is the op it broke, with its
source line; a correct pipeline gives a report of Nones."""

import inspect
import subprocess
import sys
from pathlib import Path

import pytest
import torch
from torch_mlir import ir

import mlc
import mlc.pipelines
from mlc.dialects.elementwise_ops import AbsOp, ReluOp
from mlc.passes import Pass, register

pytestmark = pytest.mark.slow
ROOT = Path(__file__).resolve().parents[2]


@register
class BreakRelu(Pass):
    """Deliberately wrong: relu(x) becomes abs(x), wherever it is (fusion groups too)."""

    name = "test-break-relu"

    def run(self, module):
        found = []
        module.walk(lambda op: (found.append(op) if isinstance(op.opview, ReluOp) else None) or ir.WalkResult.ADVANCE)
        for op in found:
            with ir.InsertionPoint(op), op.location:
                wrong = AbsOp(op.operands[0], op.results[0].type)
            op.results[0].replace_all_uses_with(wrong.result)
            op.erase()


class MLP(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.first, self.second = torch.nn.Linear(8, 16), torch.nn.Linear(16, 4)

    def forward(self, x):
        hidden = self.first(x)
        hidden = torch.relu(hidden)
        return self.second(hidden)


class ConvNet(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.conv, self.norm, self.fc = torch.nn.Conv2d(3, 8, 3, padding=1), torch.nn.BatchNorm2d(8), torch.nn.Linear(8, 4)

    def forward(self, x):
        y = self.norm(self.conv(x))
        y = torch.relu(y)
        return self.fc(y.mean((2, 3)))


def relu_line(cls) -> str:
    lines, first = inspect.getsourcelines(cls.forward)
    return f"{Path(__file__).name}:{first + next(i for i, line in enumerate(lines) if 'torch.relu' in line)}"


def seeded(cls):
    torch.manual_seed(0)
    model = cls().eval()
    for module in model.modules():
        if isinstance(module, torch.nn.BatchNorm2d):
            module.running_mean.normal_()
            module.running_var.uniform_(0.5, 2.0)
    return model


@pytest.mark.iree
def test_correct_pipeline_reports_nothing():
    report = mlc.bisect(seeded(MLP), (torch.randn(4, 8),))
    assert (report.pass_name, report.op, report.location, report.max_error) == (None, None, None, None)
    assert str(report).startswith("mlc matches eager after every pass")


@pytest.mark.iree
def test_names_the_wrong_pass_and_the_fused_op_it_broke():
    pipeline = mlc.pipelines.get("O2").append(BreakRelu())  # after mlc-fuse: the relu is inside a group
    report = mlc.bisect(seeded(MLP), (torch.randn(4, 8),), pipeline=pipeline)
    assert report.pass_name == "test-break-relu"
    assert report.op == "mlc.fusion_group(matmul, add, abs)" and report.location.endswith(relu_line(MLP))
    assert report.max_error > 0.1
    assert f"after pass 'test-break-relu'; first wrong op: {report.op} at {report.location}" in str(report)


@pytest.mark.iree
def test_reads_nhwc_values_as_eager_nchw():
    pipeline = mlc.pipelines.get("O2")
    pipeline.insert(pipeline.passes.index("mlc-convert-layout{layout=nhwc}") + 1, BreakRelu())
    report = mlc.bisect(seeded(ConvNet), (torch.randn(2, 3, 16, 16),), pipeline=pipeline)
    assert report.pass_name == "test-break-relu"
    assert report.op == "mlc.abs" and report.location.endswith(relu_line(ConvNet))


@pytest.mark.iree
def test_mlc_compile_bisect():
    command = [Path(sys.executable).parent / "mlc-compile", f"{ROOT}/examples/models.py:make_cnn",
               "--input-shape", "2x3x32x32xf32", "--bisect"]
    result = subprocess.run(command, capture_output=True, text=True)
    assert result.returncode == 0 and result.stdout.startswith("mlc matches eager after every pass"), result.stderr


@pytest.mark.parametrize("arguments, message", [
    (["model.mlir", "--bisect"], "--bisect compares with eager PyTorch: it needs a Python model"),
    ([f"{ROOT}/examples/models.py:make_cnn", "--bisect"], "needs --input-shape"),
    ([f"{ROOT}/examples/models.py:make_cnn", "--input-shape", "2x3x32x32xf32", "--bisect", "--emit=mlc"],
     "--bisect compiles at the example shapes with the weights inline: drop --dynamic-dim, --params and --emit"),
])
def test_mlc_compile_bisect_errors(arguments, message):
    result = subprocess.run([Path(sys.executable).parent / "mlc-compile", *arguments], capture_output=True, text=True)
    assert result.returncode == 1 and message in result.stderr and "Traceback" not in result.stderr
