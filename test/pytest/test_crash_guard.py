"""torch-mlir's passes run in the user's process; where one of them crashes, mlc has
run it in a forked copy first, so the user gets an error and keeps the process."""

import pytest
import torch

import mlc
from mlc.passes.crash_guard import crash_signal


class ToComplex(torch.nn.Module):
    """torch-mlir's backend-contract pipeline aborts on complex casts."""

    def forward(self, x):
        return x.cfloat()


@pytest.mark.iree
def test_a_crash_in_torch_mlir_is_an_error():
    with pytest.raises(mlc.UserError, match=r"torch-mlir crashed \(SIGABRT\) bringing the model to its backend "
                                            r"contract; nothing else was lost.*torch.aten._to_copy"):
        mlc.compile(ToComplex(), (torch.randn(3),))
    compiled = mlc.compile(torch.nn.ReLU(), (torch.randn(3),))  # the process goes on
    assert torch.equal(compiled(torch.tensor([-1.0, 0.0, 2.0])), torch.tensor([0.0, 0.0, 2.0]))


def test_crash_signal_names_the_signal_and_none_for_work_that_raises():
    import ctypes

    assert crash_signal(lambda: ctypes.string_at(0)) == "SIGSEGV"
    assert crash_signal(lambda: 1 / 0) is None
    assert crash_signal(lambda: None) is None
