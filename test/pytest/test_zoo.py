"""The model zoo (examples/zoo.py) through mlc at -O2 on llvm-cpu, checked against
PyTorch eager. Real architectures at full size: run with `make test-models`."""

import pytest
import torch
import zoo

import mlc

pytestmark = [pytest.mark.models, pytest.mark.iree]


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


def test_bert_base_with_dynamic_batch_and_sequence():
    """One executable for every batch size and sequence length; position ids, the
    attention mask's expansion and the views are computed from the sizes at run time."""
    name = "bert_base"
    model, _ = zoo.build(name)
    example = torch.randint(0, 1000, (2, 128))
    dims = {0: torch.export.Dim("batch", max=64), 1: torch.export.Dim("seq", min=2, max=512)}
    compiled = mlc.compile(model, (example,), dynamic_shapes=(dims,))
    assert compiled.report["dynamic shapes"]["specialized"] == []
    for batch, seq in ((1, 16), (4, 128), (1, 512)):
        ids = torch.randint(0, 1000, (batch, seq))
        with torch.no_grad():
            expected = zoo.outputs(model(ids))
        for want, got in zip(expected, zoo.outputs(compiled(ids))):
            assert got.shape == want.shape
            assert (got - want).abs().max().item() / want.abs().max().item() <= zoo.TOLERANCE[name]
