"""The model zoo (examples/zoo.py) through mlc at -O2 on llvm-cpu, checked against
PyTorch eager. Real architectures at full size: run with `make test-models`."""

import pytest
import torch

import mlc
import zoo

pytestmark = pytest.mark.models


@pytest.mark.parametrize("name", sorted(zoo.FACTORIES))
def test_zoo_model_matches_eager(name):
    model, inputs = zoo.build(name)
    compiled = mlc.compile(model, inputs, opt_level=2)
    with torch.no_grad():
        expected = zoo.outputs(model(*inputs))
    actual = zoo.outputs(compiled(*inputs))
    assert len(actual) == len(expected)
    for want, got in zip(expected, actual):
        assert got.shape == want.shape and got.dtype == want.dtype
        scale = want.abs().max().item()
        assert scale > 0, "a zero output would make the comparison vacuous"
        error = (got - want).abs().max().item() / scale
        assert error <= zoo.TOLERANCE[name], f"{name}: relative error {error:.2e}"
    report = compiled.report
    assert not report.get("fallback"), "every op of the zoo converts to mlc"
    assert report["fusion groups"] and report["dispatches"] >= len(report["fusion groups"])
