"""An integer divisor of 0 fails the call with one clear UserError, as eager PyTorch
raises ZeroDivisionError, on every target and level; a nonzero one gives eager's
results (`mlc.check_nonzero`, checked at each call)."""

import pytest
import torch

import mlc
from mlc.driver.backends import targets

MESSAGE = "integer division by zero: a divisor of the model's integer division, remainder or fmod is 0"


class Divisions(torch.nn.Module):
    def forward(self, a, b):
        return a // b, torch.remainder(a, b), torch.fmod(a, b), torch.div(a, b, rounding_mode="trunc")


class ByScalarZero(torch.nn.Module):
    def forward(self, a):
        return a // 0


# (target, opt_level, dtype): Vulkan's default target emulates int64 without division.
CASES = [("llvm-cpu", 0, torch.int64), ("llvm-cpu", 2, torch.int64), ("llvm-cpu", 2, torch.int32),
         ("mlir-cpu", 0, torch.int64), ("vulkan-spirv", 2, torch.int32)]


def _require(target: str):
    runs, why = targets.get(target).can_run()
    if not runs:
        pytest.skip(f"{target} cannot run here: {why}")


@pytest.mark.iree
@pytest.mark.parametrize("target,opt_level,dtype", CASES, ids=lambda case: str(case))
def test_a_zero_divisor_fails_the_call_and_others_match_eager(target, opt_level, dtype):
    _require(target)
    a = torch.tensor([[8, -9, 10, 11], [-7, 6, 0, 5]], dtype=dtype)
    b = torch.tensor([[3, 2, -4, 5], [2, -5, 7, 1]], dtype=dtype)
    compiled = mlc.compile(Divisions(), (a, b), target=target, opt_level=opt_level)
    for got, expected in zip(compiled(a, b), Divisions()(a, b), strict=True):
        torch.testing.assert_close(got, expected)
    zero = b.clone()
    zero[1, 2] = 0
    with pytest.raises(RuntimeError, match="ZeroDivisionError"):
        Divisions()(a, zero)
    with pytest.raises(mlc.UserError, match=MESSAGE):
        compiled(a, zero)
    for got, expected in zip(compiled(a, b), Divisions()(a, b), strict=True):  # and the next call is fine
        torch.testing.assert_close(got, expected)


@pytest.mark.iree
def test_a_constant_zero_divisor_fails_every_call():
    compiled = mlc.compile(ByScalarZero(), (torch.tensor([4, 5]),))
    with pytest.raises(mlc.UserError, match=MESSAGE):
        compiled(torch.tensor([4, 5]))


@pytest.mark.iree
def test_a_resident_call_fails_the_same_way():
    compiled = mlc.compile(Divisions(), (torch.ones(2, 4, dtype=torch.int64), torch.ones(2, 4, dtype=torch.int64)))
    with pytest.raises(mlc.UserError, match=MESSAGE):
        compiled.run_resident(torch.ones(2, 4, dtype=torch.int64), torch.zeros(2, 4, dtype=torch.int64), keep=[0])
