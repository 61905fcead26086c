"""LayerNorm on mlc's matmul plugin: `mlc-library-layer-norms` marks each f32 LayerNorm of
static shape `library`, and its lowering calls the plugin's `mlc_layer_norm` on its rows
(passes/library_layer_norms.py, passes/lower_to_linalg/normalization.py,
driver/backends/native/mlc_layer_norm.h). Each case is checked against eager; the rows
the kernel treats apart (a tail after its vectors of 16, chunks of 256, rows shared among
its threads, constant and non-finite rows) each have one."""

import pytest
import torch
import torch.nn.functional as F
from conftest import Apply, compile_and_compare

import mlc
from mlc.driver.backends import matmul_library

pytestmark = [pytest.mark.iree,
              pytest.mark.skipif(not matmul_library.available()[0],
                                 reason=f"mlc's matmul plugin cannot be built here: {matmul_library.available()[1]}")]


def on_library(compiled) -> int:
    return compiled.report["dispatches by kind"]["library layer norms"]


def layer_norm(shape, normalized, eps=1e-5):
    """F.layer_norm over the trailing `normalized` dims, with a seeded weight and bias (in
    the input's dtype: float64 gives the exact result)."""
    torch.manual_seed(0)
    weight, bias = torch.randn(normalized), torch.randn(normalized)
    return lambda x: F.layer_norm(x, normalized, weight.to(x.dtype), bias.to(x.dtype), eps)


CASES = {  # (rows' shape, normalized dims)
    "BERT-base's rows, shared among threads": ((128, 768), (768,)),
    "a tail after the vectors of 16": ((5, 37), (37,)),
    "one element per row": ((3, 1), (1,)),
    "trailing dims, several chunks of 256": ((4, 6, 100), (6, 100)),
    "a batch of sequences": ((2, 197, 192), (192,)),
}


@pytest.mark.parametrize("case", CASES, ids=list(CASES))
def test_layer_norm_on_the_plugin_matches_eager(case):
    shape, normalized = CASES[case]
    torch.manual_seed(1)
    x = torch.randn(shape) * 3 + 1
    compiled = compile_and_compare(layer_norm(shape, normalized), x)
    assert on_library(compiled) == 1
    assert matmul_library.calls_plugin(compiled.artifact)


def test_rows_far_from_zero_are_as_close_to_exact_as_eagers():
    """Rows at 1e4 varying by 1e-2: f32 holds them to about 1e-3, so no f32 LayerNorm is
    exact (eager is 0.2 off). Against float64, the plugin's may be no further off than
    eager's: it takes the variance from the deviations (two passes), not from
    E[x^2] - E[x]^2, which f32 would lose entirely."""
    torch.manual_seed(2)
    x = 1e4 + 1e-2 * torch.randn(8, 256)
    model = layer_norm(x.shape, (256,))
    compiled = mlc.compile(Apply(model).eval(), (x,))
    assert on_library(compiled) == 1
    exact = model(x.double())
    assert (compiled(x).double() - exact).abs().max() <= (model(x).double() - exact).abs().max()


def test_a_constant_row_is_its_bias_and_a_non_finite_row_is_nan():
    """Variance 0: (x - mean) is 0, so the row is the bias. A NaN or an infinity makes
    its own row NaN, as in torch, and leaves the others alone."""
    x = torch.randn(4, 48)
    x[0] = 7.0
    x[1, 5] = float("nan")
    x[2, 40] = float("inf")
    compiled = compile_and_compare(layer_norm(x.shape, (48,)), x)
    result = compiled(x)
    assert torch.isnan(result[1]).all() and torch.isnan(result[2]).all() and not torch.isnan(result[3]).any()


def test_group_norm_rows_are_long():
    """GroupNorm is a LayerNorm of each group's channels and positions: rows of 4096 here."""
    torch.manual_seed(3)
    model = torch.nn.GroupNorm(4, 16).eval()
    x = torch.randn(2, 16, 32, 32) + 0.5
    compiled = compile_and_compare(model, x)
    assert on_library(compiled) == 1


def test_residual_adds_before_it_join_the_matmuls_call():
    """BERT's output projection, bias and residual, then LayerNorm: the norm is the
    plugin's, and its adds become the library matmul's epilogue (no dispatch of IREE's
    own is left)."""
    torch.manual_seed(4)
    linear, norm = torch.nn.Linear(64, 64), torch.nn.LayerNorm(64)
    model = lambda x, residual: norm(linear(x) + residual)  # noqa: E731
    compiled = compile_and_compare(model, torch.randn(32, 64), torch.randn(32, 64),
                                   target_options={"matmul-library": True})
    kinds = compiled.report["dispatches by kind"]
    assert kinds["library layer norms"] == 1 and kinds["library matmuls"] == 1, kinds
    assert kinds["mlc dispatch regions"] == 0, kinds


def test_without_the_library_layer_norm_is_iree_code():
    model, x = layer_norm((16, 64), (64,)), torch.randn(16, 64)
    compiled = compile_and_compare(model, x, target_options={"matmul-library": False})
    assert on_library(compiled) == 0 and not matmul_library.calls_plugin(compiled.artifact)
