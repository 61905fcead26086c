"""A fusion plan IREE cannot compile within the target's limits is not the user's
problem: mlc compiles the model again at -O1 (IREE forms the dispatches), warns and
says so in the report. A pipeline the user gave is never replaced."""

import sys
from pathlib import Path

import pytest
import torch

import mlc

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "inputs"))
from grouped_conv import GroupedConv  # noqa: E402

pytestmark = [pytest.mark.slow, pytest.mark.iree]


def test_plan_over_the_stack_limit_is_compiled_again_at_o1():
    model, x = GroupedConv().eval(), torch.randn(1, 48, 112, 112)
    with pytest.warns(UserWarning, match=r"could not compile mlc's -O2 plan .*stack allocation limit.*compiled at -O1"):
        compiled = mlc.compile(model, (x,))
    assert compiled.report["retried"]["pipeline"] == "O1"
    assert compiled.report["pipeline"] == "O1" and not compiled.report["fusion groups"]
    with torch.no_grad():
        torch.testing.assert_close(compiled(x), model(x), rtol=1e-4, atol=1e-5)


def test_a_pipeline_of_the_user_is_not_replaced():
    pipeline = mlc.pipelines.get("O2")
    with pytest.raises(mlc.UserError, match="exceeded stack allocation limit"):
        mlc.compile(GroupedConv().eval(), (torch.randn(1, 48, 112, 112),), pipeline=pipeline.drop("mlc-fold-batchnorm"))
