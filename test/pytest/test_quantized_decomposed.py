"""PT2E's decomposed quantization ops (quantized_decomposed.quantize_per_tensor and
dequantize_per_tensor) through mlc's own conversions, against torch's reference
implementation: integers exactly, floats within f32's tolerance."""

import pytest
import torch
import torch.ao.quantization.fx._decomposed  # noqa: F401 (registers torch.ops.quantized_decomposed)
from conftest import assert_matches
from test_precision import INT8_BUDGET, relative_error

import mlc

QD = torch.ops.quantized_decomposed


class RoundTrip(torch.nn.Module):
    """x -> q (returned) -> x' (returned): the integers and the float they stand for."""

    def __init__(self, scale, zero_point, low, high, dtype):
        super().__init__()
        self.params = (scale, zero_point, low, high, dtype)

    def forward(self, x):
        q = QD.quantize_per_tensor(x, *self.params)
        return q, QD.dequantize_per_tensor(q, *self.params)


# (scale, zero point, qmin, qmax, dtype): signed with an offset, unsigned around 128, a
# scale of 0.5 (ties at .5 round to even), a narrow range that clamps most values.
CASES = {
    "int8": (0.05, 3, -128, 127, torch.int8),
    "uint8": (0.02, 128, 0, 255, torch.uint8),
    "halves": (0.5, 0, -128, 127, torch.int8),
    "clamped": (0.01, 0, -16, 15, torch.int8),
}


@pytest.mark.iree
@pytest.mark.parametrize("opt_level", [0, 2])
@pytest.mark.parametrize("case", list(CASES))
def test_round_trip_matches_torch(case, opt_level):
    x = torch.randn(16, 32) * 2
    x[0, :8] = torch.tensor([0.25, 0.75, -0.25, -0.75, 1.25, 100.0, -100.0, 0.0])  # ties and saturation
    model = RoundTrip(*CASES[case])
    compiled = mlc.compile(model, (x,), opt_level=opt_level, allow_fallback=False)
    actual, expected = compiled(x), model(x)
    assert actual[0].dtype == CASES[case][4]
    assert_matches(actual, expected)


class QuantizedLinear(torch.nn.Module):
    """A Linear as PT2E leaves it: the activation quantized and dequantized, the weight
    stored in int8 and dequantized, the product in f32."""

    def __init__(self):
        super().__init__()
        weight = torch.randn(32, 64) * 0.1
        self.weight_scale = float(weight.abs().max() / 127)
        self.register_buffer("weight", torch.round(weight / self.weight_scale).to(torch.int8))
        self.bias = torch.nn.Parameter(torch.randn(32))

    def forward(self, x):
        x = QD.dequantize_per_tensor(QD.quantize_per_tensor(x, 0.05, 0, -128, 127, torch.int8),
                                     0.05, 0, -128, 127, torch.int8)
        weight = QD.dequantize_per_tensor(self.weight, self.weight_scale, 0, -127, 127, torch.int8)
        return torch.nn.functional.linear(x, weight, self.bias)


@pytest.mark.iree
@pytest.mark.parametrize("precision", ["f32", "int8"])
def test_a_pt2e_shaped_linear(precision):
    """In f32 it is torch's reference; with precision="int8" its folded weight is quantized
    again for the int8 kernels, within int8's budget of the reference."""
    torch.manual_seed(0)
    model, x = QuantizedLinear().eval(), torch.randn(8, 64)
    compiled = mlc.compile(model, (x,), precision=precision, allow_fallback=False)
    with torch.no_grad():
        expected = model(x)
    if precision == "f32":
        torch.testing.assert_close(compiled(x), expected, rtol=1e-4, atol=1e-5)
    else:
        assert relative_error(compiled(x), expected) < INT8_BUDGET
        assert compiled.report.pass_statistic("mlc-quantize-int8", "matmuls in int8") == 1
