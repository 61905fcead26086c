"""precision="bf16": matmuls multiply in bfloat16 and sum in float32, within the stated
budget of f32 eager (README, Precision), with the weights stored in bf16."""

import subprocess
import sys

import pytest
import torch

import mlc
import models  # examples/models.py, on the path through conftest.py

# The budget: the relative error (L2 norm of the difference over the L2 norm of eager's
# f32 result) of each output. bf16 keeps 8 bits of mantissa (relative rounding 2^-9) per
# operand; sums in f32 average the roundings out, and measured errors are 0.3-0.6 %.
BF16_BUDGET = 2e-2


def relative_error(actual: torch.Tensor, expected: torch.Tensor) -> float:
    return float((actual.float() - expected).norm() / expected.norm())


@pytest.mark.iree
@pytest.mark.parametrize("name", ["mlp", "transformer_block"])
def test_bf16_stays_within_its_budget(name):
    torch.manual_seed(0)
    model = models.FACTORIES[name]()
    inputs = tuple(torch.randn(shape) for shape in models.EXAMPLE_INPUTS[name])
    compiled = mlc.compile(model, inputs, precision="bf16")
    with torch.no_grad():
        expected = model(*inputs)
    actual = compiled(*inputs)
    assert actual.dtype == torch.float32  # the model's type at its edges
    assert 0 < relative_error(actual, expected) < BF16_BUDGET  # rounded, and within the budget
    assert compiled.report["precision"] == "bf16"
    narrowed = sum(record["statistics"].get("matmuls in bf16, accumulated in f32", 0)
                   for stage in compiled.report["stages"] for record in stage.get("passes", []))
    assert narrowed >= 2


@pytest.mark.iree
def test_bf16_weights_take_half_the_bytes():
    torch.manual_seed(0)
    model, x = models.MLP(256, 512, 256).eval(), torch.randn(8, 256)
    f32 = mlc.compile(model, (x,))
    bf16 = mlc.compile(model, (x,), precision="bf16")
    weight_bytes = 4 * sum(p.numel() for p in model.parameters())
    assert len(f32.vmfb) - len(bf16.vmfb) > 0.4 * weight_bytes
    assert "bf16" in bf16.ir("mlc") and "bf16" not in f32.ir("mlc")


def test_an_unknown_precision_is_an_error():
    with pytest.raises(mlc.UserError, match=r"precision must be one of f32, bf16, got 'fp8'"):
        mlc.compile(torch.nn.Linear(4, 4), (torch.randn(2, 4),), precision="fp8")


def test_mlc_compile_takes_precision(tmp_path):
    model = tmp_path / "m.py"
    model.write_text("import torch\nclass Net(torch.nn.Linear):\n    def __init__(self):\n        super().__init__(8, 4)\n")
    done = subprocess.run([sys.executable, "-m", "mlc.driver.cli.mlc_compile", f"{model}:Net", "--input-shape", "2x8xf32",
                           "--precision", "bf16", "--emit", "mlc", "--quiet"], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    assert "tensor<8x4xbf16>" in done.stdout or "tensor<4x8xbf16>" in done.stdout
    refused = subprocess.run([sys.executable, "-m", "mlc.driver.cli.mlc_compile", f"{model}:Net", "--input-shape",
                              "2x8xf32", "--precision", "fp8"], capture_output=True, text=True)
    assert refused.returncode != 0 and "invalid choice: 'fp8'" in refused.stderr and "Traceback" not in refused.stderr
