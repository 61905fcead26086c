"""The fallback (the default; `allow_fallback=False` turns it off): torch ops mlc does not convert are lowered by torch-mlir
inside the same module; the model compiles, runs on IREE and matches eager.

The model puts mlc's convolution, BatchNorm, ReLU (fused at O2),
`max_pool2d_with_indices_backward`, `polar` and `view_as_real` around a product of
complex numbers, which mlc has no conversion for (mlc builds complex tensors and takes
them apart, but computes on real numbers only; should mlc gain it, pick another op for
this test: the first test says which). Earlier fallback ops here, until mlc converted
them: `logit`, `max_pool2d_with_indices_backward`, `linalg.det` of 9x9 (mlc's LU now
goes up to 32x32), and `polar` and `view_as_real` themselves. Not `grid_sample` or a
determinant over 32x32: torch-mlir's lowerings of them are wrong (outside the grid's
[-1, 1]; no pivoting), and the fallback refuses them (KNOWN_WRONG).
"""

import inspect
import re

import pytest
import torch

import mlc


class SpreadPolar(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.conv = torch.nn.Conv2d(3, 4, 3, padding=1)
        self.norm = torch.nn.BatchNorm2d(4)

    def forward(self, x):
        y = torch.relu(self.norm(self.conv(x)))
        pooled, indices = torch.nn.functional.max_pool2d(y, 3, return_indices=True)
        window = ([3, 3], [3, 3], [0, 0], [1, 1], False)  # kernel, stride, padding, dilation, ceil_mode
        spread = torch.ops.aten.max_pool2d_with_indices_backward(pooled, y, *window, indices)
        squashed = torch.sigmoid(spread - 0.3) * 0.5 + 0.26
        rotated = torch.view_as_real(torch.polar(squashed, squashed * 3.0 + x[:, :1]).square()).sum(-1)  # line POLAR
        return torch.relu(squashed) * 2.0 + rotated


class Erfinv(torch.nn.Module):
    def forward(self, x):
        return torch.erfinv(torch.tanh(x)) + 1.0                # line ERFINV


class BagSizes(torch.nn.Module):
    """An embedding_bag whose bag sizes are used: mlc declines it, and torch-mlir's
    lowering would drop the per-sample weights."""

    def forward(self, weight, indices, offsets, per_sample_weights):
        bags, _, sizes, _ = torch.ops.aten.embedding_bag.padding_idx(
            weight, indices, offsets, False, 0, False, per_sample_weights, False, None)  # line BAG
        return bags, sizes


def _listed(message: str, op: str, cls, marker: str) -> bool:
    """Whether `message` lists `op` once, at the line of `cls` that carries `marker`."""
    lines, first = inspect.getsourcelines(cls)
    line = first + next(i for i, text in enumerate(lines) if f"# line {marker}" in text)
    return re.search(rf"^  {re.escape(op)} +x1  at \S*test_fallback\.py:{line}( +\[.*\])?$", message, re.MULTILINE) is not None


def _model():
    torch.manual_seed(0)
    model = SpreadPolar().eval()
    with torch.no_grad():
        model.norm.running_mean.uniform_(-0.5, 0.5)
        model.norm.running_var.uniform_(0.5, 2.0)
    return model


def test_without_fallback_every_missing_op_is_listed():
    with pytest.raises(mlc.UserError) as error:
        mlc.compile(_model(), (torch.randn(2, 3, 9, 9),), allow_fallback=False)
    message = str(error.value)
    assert "1 torch op(s) of 1 kind(s) have no conversion to mlc:" in message
    assert _listed(message, "torch.aten.mul.Tensor", SpreadPolar, "POLAR")
    assert "[complex tensors: mlc only builds them and takes them apart" in message
    assert "--no-fallback" in message


@pytest.mark.slow
@pytest.mark.iree
@pytest.mark.parametrize("opt_level", [0, 2])
def test_with_fallback_compiles_runs_and_matches_eager(opt_level):
    model = _model()
    x = torch.randn(2, 3, 9, 9)
    compiled = mlc.compile(model, (x,), target="llvm-cpu", opt_level=opt_level)  # the fallback is the default
    with torch.no_grad():
        expected = model(x)
    torch.testing.assert_close(compiled(x), expected, rtol=1e-4, atol=1e-5)
    assert compiled.report["fallback"] == {"torch.aten.mul.Tensor": 1}
    mlc_ir = compiled.ir("mlc")
    converted = '"mlc.conv2d"' if opt_level == 0 else '"mlc.matmul"'  # O2: 162 pixels, im2col + matmul
    assert converted in mlc_ir and "linalg.generic" in mlc_ir and "torch.aten" not in mlc_ir
    if opt_level == 2:
        assert compiled.report["fusion groups"], "mlc's fusion still runs beside the fallback ops"


def test_fallback_names_ops_torch_mlir_cannot_lower_either():
    with pytest.raises(mlc.UserError) as error:
        mlc.compile(Erfinv(), (torch.randn(4),))
    message = str(error.value)
    assert "1 torch op(s) of 1 kind(s) have no conversion to mlc and no lowering in torch-mlir:" in message
    assert _listed(message, "torch.aten.erfinv", Erfinv, "ERFINV")


def test_fallback_refuses_ops_torch_mlir_lowers_wrongly():
    inputs = (torch.randn(10, 3), torch.tensor([1, 2, 4, 5, 4]), torch.tensor([0, 2]), torch.rand(5))
    with pytest.raises(mlc.UserError) as error:
        mlc.compile(BagSizes(), inputs)
    message = str(error.value)
    assert "have no conversion to mlc, and torch-mlir's lowering of them is known wrong:" in message
    assert "torch-mlir's lowering ignores per_sample_weights" in message
    assert re.search(r"torch\.aten\.embedding_bag\.padding_idx +x1  at \S*test_fallback\.py:\d+ ", message)


class BigDet(torch.nn.Module):
    """A 33x33 determinant: larger than mlc's LU (up to 32x32), and torch-mlir's lowering
    of it (no pivoting) gave wrong determinants."""

    def forward(self, x):
        return torch.linalg.det(torch.tanh(x))                  # line BIGDET


def test_fallback_refuses_a_determinant_larger_than_mlcs_lu():
    x = torch.randn(33, 33)
    with pytest.raises(mlc.UserError) as error:
        mlc.compile(BigDet(), (x,))
    message = str(error.value)
    assert "1 torch op(s) of 1 kind(s) have no conversion to mlc, and torch-mlir's lowering of them is known wrong:" in message
    assert _listed(message, "torch.aten.linalg_det", BigDet, "BIGDET")
    assert "[torch-mlir's lowering (elimination without pivoting in an scf.for) gives wrong determinants" in message
    with pytest.raises(mlc.UserError) as error:  # without the fallback: mlc's own reason
        mlc.compile(BigDet(), (x,), allow_fallback=False)
    assert _listed(str(error.value), "torch.aten.linalg_det", BigDet, "BIGDET")
    assert "[determinant of a 33x33 matrix: mlc unrolls LU up to 32x32]" in str(error.value)


@pytest.mark.iree
def test_without_fallback_report_has_no_fallback_entry():
    compiled = mlc.compile(torch.nn.ReLU(), (torch.randn(4),), opt_level=0)
    assert "fallback" not in compiled.report


class GridSample(torch.nn.Module):
    def forward(self, x, grid):
        return torch.nn.functional.grid_sample(x, grid, align_corners=False)


@pytest.mark.iree
def test_grid_sample_leaves_the_fallback_alone():
    """torch-mlir's grid_sampler is wrong where the grid leaves [-1, 1] (2.28 off with zeros
    padding), so the fallback refuses it (KNOWN_WRONG); mlc now takes PyTorch's decomposition
    at import, and the fallback never sees it."""
    torch.manual_seed(0)
    x, grid = torch.randn(1, 2, 4, 4), torch.rand(1, 4, 4, 2) * 3 - 1.5
    compiled = mlc.compile(GridSample(), (x, grid))
    assert "fallback" not in compiled.report
    torch.testing.assert_close(compiled(x, grid), GridSample()(x, grid), rtol=1e-4, atol=1e-5)


