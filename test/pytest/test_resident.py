"""`Compiled.run_resident`: results kept in IREE's memory from one call to the next (a
generator's caches), against the same calls with tensors."""

import pytest
import torch

import mlc
from mlc.driver.resident import Resident


class Decay(torch.nn.Module):
    """A state carried from call to call, and a summary of it."""

    def forward(self, x, state):
        state = state * 0.5 + x
        return state.sum(-1), state


def compiled_decay(target="llvm-cpu"):
    return mlc.compile(Decay(), (torch.randn(3, 8), torch.zeros(3, 8)), target=target)


@pytest.mark.iree
def test_resident_state_gives_the_results_of_tensors():
    compiled = compiled_decay()
    xs = [torch.randn(3, 8) for _ in range(4)]
    state = torch.zeros(3, 8)
    resident = compiled.run_resident(xs[0], state, keep=[1])[1]
    for x in xs[1:]:
        total, resident = compiled.run_resident(x, resident, keep=[1])
        assert isinstance(resident, Resident) and isinstance(total, torch.Tensor)
    expected_state = torch.zeros(3, 8)
    for x in xs:
        expected_total, expected_state = compiled(x, expected_state)
    torch.testing.assert_close(total, expected_total)
    torch.testing.assert_close(resident.tensor(), expected_state)
    assert resident.shape == (3, 8) and "in IREE's memory" in repr(resident)


@pytest.mark.iree
def test_a_resident_is_taken_once():
    """A call may write its results into a resident input's memory: passing it again, or
    reading it after, is an error instead of a stale value."""
    compiled = compiled_decay()
    _, resident = compiled.run_resident(torch.randn(3, 8), torch.zeros(3, 8), keep=[1])
    compiled.run_resident(torch.randn(3, 8), resident, keep=[1])
    with pytest.raises(mlc.UserError, match="passed to a call already"):
        compiled(torch.randn(3, 8), resident)
    with pytest.raises(mlc.UserError, match="passed to a call already"):
        resident.tensor()
    assert "spent" in repr(resident)


@pytest.mark.iree
def test_a_resident_of_another_shape_is_refused():
    compiled = compiled_decay()
    _, resident = compiled.run_resident(torch.randn(3, 8), torch.zeros(3, 8), keep=[1])
    other = mlc.compile(Decay(), (torch.randn(2, 8), torch.zeros(2, 8)))
    with pytest.raises(mlc.UserError, match=r"input 1: expected a \[2, 8\] torch.float32 tensor, got a resident "
                                            r"\[3, 8\] float32"):
        other(torch.randn(2, 8), resident)
    with pytest.raises(mlc.UserError, match="profile\\(\\) takes tensors, not resident values"):
        compiled.profile(torch.randn(3, 8), resident)


@pytest.mark.iree
def test_targets_that_do_not_keep_results_say_so():
    compiled = compiled_decay(target="mlir-cpu")
    with pytest.raises(mlc.UserError, match="run_resident runs on the llvm-cpu target, not 'mlir-cpu'"):
        compiled.run_resident(torch.randn(3, 8), torch.zeros(3, 8), keep=[1])
    _, resident = compiled_decay().run_resident(torch.randn(3, 8), torch.zeros(3, 8), keep=[1])
    with pytest.raises(mlc.UserError, match="input 1: a Resident goes to an executable for llvm-cpu, not 'mlir-cpu'"):
        compiled(torch.randn(3, 8), resident)
