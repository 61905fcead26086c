"""mlc's fusion plan decides IREE's kernels: at O2 the executable issues exactly
one dispatch per fusion group, plus the packs that IREE's data tiling adds for
matmul operands (counted apart), less the groups that only transpose an attention's
result (the plugin's call writes it: mlc-attention-output-views), and results still
match PyTorch."""

import pytest
import torch

import mlc
import models  # examples/models.py, on the path through conftest.py

pytestmark = [pytest.mark.slow, pytest.mark.iree]


def test_one_dispatch_per_fusion_group(example_model):
    name, model, inputs = example_model
    compiled = mlc.compile(model, inputs, opt_level=2)
    groups = compiled.report["ops"]["after optimization"]["fusion groups"]
    assert groups == len(compiled.report["fusion groups"]) > 0
    kinds = compiled.report["dispatches by kind"]
    # a group that only transposes an attention's result is written by the attention's call
    written = compiled.report.pass_statistic("mlc-attention-output-views", "transposes written by the attention")
    assert kinds["mlc dispatch regions"] == groups - written
    # IREE forms one dispatch of its own per convolution input pad mlc keeps out of a region
    pads = compiled.report.pass_statistic("mlc-form-dispatch-regions", "input pads computed before their region")
    assert kinds["formed by IREE"] == pads
    on_library = kinds["library attention"] + kinds["library layer norms"]  # in no group
    assert compiled.report["dispatches"] == groups - written + pads + on_library + kinds["data-tiling packs"]
    assert compiled.report["data tiling"] == "on" and kinds["at load"] > 0  # weights packed once


def test_without_data_tiling_each_group_is_one_dispatch(example_model):
    name, model, inputs = example_model
    compiled = mlc.compile(model, inputs, target_options={"data-tiling": False})
    pads = compiled.report.pass_statistic("mlc-form-dispatch-regions", "input pads computed before their region")
    kinds = compiled.report["dispatches by kind"]
    on_library = kinds["library attention"] + kinds["library layer norms"]  # in no group
    written = compiled.report.pass_statistic("mlc-attention-output-views", "transposes written by the attention")
    assert compiled.report["dispatches"] == len(compiled.report["fusion groups"]) - written + pads + on_library
    assert compiled.report["dispatches by kind"]["data-tiling packs"] == 0
    assert compiled.report["data tiling"] == "off (target option)"
    with torch.no_grad():
        torch.testing.assert_close(compiled(*inputs), model(*inputs), rtol=1e-4, atol=1e-5)
    with torch.no_grad():
        torch.testing.assert_close(compiled(*inputs), model(*inputs), rtol=1e-4, atol=1e-5)


def test_batchnorm_is_gone_from_the_cnn_at_o2():
    model, inputs = models.make_cnn(), (torch.randn(2, 3, 32, 32),)
    assert "mlc.batch_norm" in mlc.compile(model, inputs, opt_level=1).ir("mlc")
    optimized = mlc.compile(model, inputs, opt_level=2).ir("mlc")
    assert "mlc.batch_norm" not in optimized
    assert 'layout = "NHWC"' in optimized and 'layout = "NCHW"' not in optimized


def test_levels_keep_results(example_model, tmp_path):
    name, model, inputs = example_model
    with torch.no_grad():
        expected = model(*inputs)
    for level in (0, 1):
        report = tmp_path / f"O{level}.json"
        compiled = mlc.compile(model, inputs, opt_level=level, report=str(report))
        torch.testing.assert_close(compiled(*inputs), expected, rtol=1e-4, atol=1e-5)
        assert f'"pipeline": "O{level}"' in report.read_text()
