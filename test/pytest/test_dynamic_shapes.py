"""Dynamic shapes: compiled once with sizes marked dynamic, run at several sizes,
checked against eager; and the report of what torch.export specialized."""

import pytest
import torch
from conftest import compile_and_compare
from torch.export import Dim

import mlc
import models


@pytest.mark.slow
@pytest.mark.iree
def test_dynamic_batch_mlp_runs_at_several_sizes():
    runs = [(torch.randn(batch, 64),) for batch in (1, 5, 64)]
    compiled = compile_and_compare(models.make_mlp(), torch.randn(8, 64), dynamic_shapes=({0: Dim("batch")},),
                                   call_with=runs)
    assert compiled.report["dynamic shapes"]["inputs"][0][1] == "64"


@pytest.mark.iree
def test_dynamic_batch_alone_transformer_block():
    """With the sequence static, nn.MultiheadAttention's view [16, batch, 128] ->
    [16, batch * 8, 16] regroups the dynamic size with static ones (it was refused: "a
    dynamic reshape that is neither a collapse nor an expansion")."""
    runs = [(torch.randn(batch, 16, 128),) for batch in (1, 3, 5)]
    compile_and_compare(models.make_transformer_block(), torch.randn(2, 16, 128),
                        dynamic_shapes=({0: Dim("batch", max=8)},), call_with=runs)


@pytest.mark.slow
@pytest.mark.iree
def test_dynamic_batch_and_sequence_transformer_block():
    """nn.MultiheadAttention views [seq, batch * heads, head_dim]: sizes computed from both symbols."""
    dims = {0: Dim("batch", max=64), 1: Dim("seq", min=2, max=512)}
    runs = [(torch.randn(*shape, 128),) for shape in ((1, 8), (3, 40), (2, 128))]
    compiled = compile_and_compare(models.make_transformer_block(), torch.randn(2, 16, 128), dynamic_shapes=(dims,),
                                   call_with=runs)
    batch, seq, hidden = compiled.report["dynamic shapes"]["inputs"][0]
    assert batch.endswith("in [0, 64]") and seq.endswith("in [2, 512]") and hidden == "128"
    assert compiled.report["dynamic shapes"]["specialized"] == []


@pytest.mark.slow
@pytest.mark.iree
def test_dynamic_batch_cnn():
    runs = [(torch.randn(batch, 3, 64, 64),) for batch in (1, 3)]
    compile_and_compare(models.make_cnn(), torch.randn(2, 3, 64, 64), dynamic_shapes=({0: Dim("batch")},),
                        call_with=runs)


class AddsFixedTable(torch.nn.Module):
    """Adds an [8, 16] table: a dynamic first size must be 8."""

    def __init__(self):
        super().__init__()
        self.register_buffer("table", torch.arange(128.0).reshape(8, 16))

    def forward(self, x):
        return x + self.table


@pytest.mark.iree
def test_report_names_the_sizes_torch_export_specialized():
    compiled = mlc.compile(AddsFixedTable(), (torch.randn(8, 16),), dynamic_shapes=({0: Dim.AUTO, 1: Dim.AUTO},))
    report = compiled.report["dynamic shapes"]
    assert report["inputs"] == [["8", "16"]]
    assert report["specialized"] == ["input 0 dim 0: marked dynamic, specialized to 8",
                                     "input 0 dim 1: marked dynamic, specialized to 16"]


def test_a_size_a_named_dim_cannot_take_is_one_error():
    with pytest.raises(mlc.UserError, match="torch.export failed"):
        mlc.compile(AddsFixedTable(), (torch.randn(8, 16),), dynamic_shapes=({0: Dim("rows")},))


@pytest.mark.iree
def test_a_call_outside_the_static_sizes_is_refused():
    model = models.make_mlp()
    compiled = mlc.compile(model, (torch.randn(8, 64),), dynamic_shapes=({0: Dim("batch")},))
    with pytest.raises(mlc.UserError, match=r"input 0: expected shape \[s\d+, 64\], got \[4, 32\]"):
        compiled(torch.randn(4, 32))
