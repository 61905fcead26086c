"""`compiled.profile(...)`: IREE's profiler times every dispatch of a call, and mlc
matches each to its fusion group, its ops and the model's source lines."""

import pytest
import torch

import mlc
import models  # examples/models.py, on the path through conftest.py

pytestmark = [pytest.mark.slow, pytest.mark.iree]


def test_every_dispatch_is_matched_to_the_plan():
    torch.manual_seed(0)
    model, x = models.make_cnn(), torch.randn(2, 3, 32, 32)
    compiled = mlc.compile(model, (x,))
    profile = compiled.profile(x, calls=5)
    kinds = compiled.report["dispatches by kind"]
    assert len(profile.dispatches) == compiled.report["dispatches"]
    by_kind = {kind: sum(d.kind == kind for d in profile.dispatches)
               for kind in ("fusion group", "formed by IREE", "data-tiling pack")}
    assert by_kind == {"fusion group": kinds["mlc dispatch regions"], "formed by IREE": kinds["formed by IREE"],
                       "data-tiling pack": kinds["data-tiling packs"]}
    groups = {d.group: d for d in profile.dispatches if d.kind == "fusion group"}
    assert sorted(groups) == list(range(len(compiled.report["fusion groups"])))
    for index, ops in enumerate(compiled.report["fusion groups"]):
        assert groups[index].ops == [name.removeprefix("mlc.") for name in ops]
    assert any("models.py:45" in source for d in profile.dispatches for source in d.sources)
    assert all(d.microseconds > 0 for d in profile.dispatches)
    # the dispatches run one after another: together no longer than a call
    assert sum(d.microseconds for d in profile.dispatches) / 1e3 <= profile.call_ms * 1.05
    assert "fusion group" in str(profile) and profile.to_dict()["calls"] == 5


class Divides(torch.nn.Module):
    def forward(self, a, b):
        return (a // b).float().relu() * 2


def test_a_call_with_a_run_time_check_is_one_call():
    """The divisor's check reads a flag on the host between two submissions of one call:
    the profile still lists the call's every dispatch, the check's reduction included."""
    a, b = torch.randint(1, 9, (64, 64)), torch.randint(1, 9, (64, 64))
    compiled = mlc.compile(Divides(), (a, b))
    profile = compiled.profile(a, b, calls=3)
    assert len(profile.dispatches) == compiled.report["dispatches"] == 2
    assert profile.to_dict()["calls"] == 3


def test_profile_checks_its_inputs_and_target():
    model, x = models.make_mlp(), torch.randn(8, 64)
    compiled = mlc.compile(model, (x,))
    with pytest.raises(mlc.UserError, match="expected shape"):
        compiled.profile(torch.randn(4, 64))
    with pytest.raises(mlc.UserError, match="calls must be at least 1"):
        compiled.profile(x, calls=0)
    jit = mlc.compile(model, (x,), target="mlir-cpu")
    with pytest.raises(mlc.UserError, match="runs on the llvm-cpu target"):
        jit.profile(x)
