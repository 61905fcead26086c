"""What a compiled model takes and gives back is what the model takes and gives back:
0-d tensors in, Python numbers, several results and the same tensor twice out, inputs
the model changes in place changed for the caller, unsigned integers as unsigned."""

import pytest
import torch

import mlc


class Scaled(torch.nn.Module):
    def forward(self, x, scale):
        return x * scale


class SizeAndSum(torch.nn.Module):
    def forward(self, x):
        return x.sum(), x.shape[0]


class SameTwice(torch.nn.Module):
    def forward(self, x):
        y = x + 1
        return y, [y, x * 2], {"y": y}


class AddsInPlace(torch.nn.Module):
    def forward(self, x):
        x.add_(1)
        return x * 2


class CountsCalls(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.register_buffer("calls", torch.zeros(1))

    def forward(self, x):
        self.calls.add_(1)
        return x * self.calls


class Bytes(torch.nn.Module):
    def forward(self, x):
        return x + 1, x * 3


class ToBfloat16(torch.nn.Module):
    def forward(self, x):
        return x.bfloat16()


class MatmulOfBytes(torch.nn.Module):
    def forward(self, x):
        return x @ x.T


@pytest.mark.iree
def test_0d_tensor_input():
    x, scale = torch.randn(3), torch.tensor(2.5)
    compiled = mlc.compile(Scaled(), (x, scale))
    torch.testing.assert_close(compiled(x, scale), x * 2.5)


@pytest.mark.iree
def test_the_same_tensor_given_twice_as_example_is_two_inputs():
    """torch.export makes aliased example inputs one input: compiled from (x, x), a call
    with two tensors read the second for both. So are a view of an earlier input and a
    parameter of the model's own, given as an input."""
    model = Scaled()
    model.weight = torch.nn.Parameter(torch.ones(3))
    x = torch.zeros(3)
    a, b = torch.arange(3.0), torch.full((3,), 10.0)
    for example in [(x, x), (x, x.view(3)), (model.weight, x)]:
        compiled = mlc.compile(model, example)
        torch.testing.assert_close(compiled(a, b), a * b)
    assert model.weight.requires_grad and example[0] is model.weight  # the caller's tensors stay as they were


@pytest.mark.iree
def test_python_number_result():
    x = torch.randn(5)
    total, size = mlc.compile(SizeAndSum(), (x,))(x)
    assert size == 5 and isinstance(size, int)
    torch.testing.assert_close(total, x.sum())


@pytest.mark.iree
def test_results_kept_across_calls_keep_their_values():
    """Each result owns its memory: 0-d bfloat16 results made from IREE's mapped buffer
    read back as 0.0 once later calls had run (OpInfo's `bfloat16` case, now and then)."""
    x = torch.tensor(-8.5)
    compiled = mlc.compile(ToBfloat16(), (x,))
    results = [compiled(x) for _ in range(100)]
    assert all(r.dtype == torch.bfloat16 and r.item() == -8.5 for r in results)


class LargeAndSmall(torch.nn.Module):
    def forward(self, x):
        return x * 2, (x + 1).bfloat16(), x.sum()


@pytest.mark.iree
def test_large_results_keep_irees_buffer_alive():
    """A result of 16 KiB or more is handed out without a copy: its array keeps IREE's
    buffer (whose mapping IREE's own arrays do not keep), and it holds its values while
    later calls run; a small one is copied."""
    import gc

    import numpy as np

    from mlc.driver.backends import iree as iree_backend

    compiled = mlc.compile(LargeAndSmall(), (torch.zeros(64, 512),))
    main = iree_backend.load(compiled.artifact, driver=compiled.runtime_driver)
    large, bf16, small = (iree_backend.host_result(r) for r in main(np.ones((64, 512), np.float32)))

    def owners(array):
        while array is not None and not isinstance(array, iree_backend._Mapped):
            array = getattr(array, "base", None)
        return array

    assert owners(large) is not None and owners(bf16) is not None and bf16.dtype.name == "bfloat16"
    assert small.base is None and small.flags.owndata
    kept = [(float(i), compiled(torch.full((64, 512), float(i)))) for i in range(50)]
    gc.collect()
    for _ in range(20):
        compiled(torch.full((64, 512), -1.0))
    for value, (doubled, shifted, total) in kept:
        assert bool((doubled == 2 * value).all()) and bool((shifted == torch.tensor(value + 1).bfloat16()).all())
        assert total.item() == value * 64 * 512


@pytest.mark.iree
def test_several_results_and_the_same_tensor_twice():
    x = torch.randn(4)
    y, (again, doubled), named = mlc.compile(SameTwice(), (x,))(x)
    torch.testing.assert_close(y, x + 1)
    torch.testing.assert_close(again, x + 1)
    torch.testing.assert_close(doubled, x * 2)
    torch.testing.assert_close(named["y"], x + 1)


@pytest.mark.iree
def test_input_changed_in_place_is_changed_for_the_caller():
    compiled = mlc.compile(AddsInPlace(), (torch.zeros(3),))
    x = torch.zeros(3)
    torch.testing.assert_close(compiled(x), torch.full((3,), 2.0))
    torch.testing.assert_close(x, torch.ones(3))


def test_buffer_changed_in_place_is_refused_before_compiling():
    with pytest.raises(mlc.UserError, match="the model changes its buffer 'calls' when called"):
        mlc.compile(CountsCalls(), (torch.randn(3),))


@pytest.mark.iree
def test_uint8_results_are_uint8():
    x = torch.tensor([[200, 3], [250, 1]], dtype=torch.uint8)
    plus, times = mlc.compile(Bytes(), (x,), allow_fallback=False)(x)
    assert plus.dtype == times.dtype == torch.uint8
    assert torch.equal(plus, x + 1) and torch.equal(times, x * 3)  # wrapping around at 256


def test_uint8_matmul_is_an_error_not_a_wrong_number():
    """mlc's integer ops are signed, and a uint8 matmul is not among the ops it computes
    widened (test_strict_gaps_integers.py), so it is not converted; torch-mlir's lowering
    crashes on it, which mlc sees in a forked copy of the process: an error."""
    x = torch.tensor([[200, 3, 250]], dtype=torch.uint8)
    with pytest.raises(mlc.UserError, match=r"unsigned integers: mlc's integer ops are signed"):
        mlc.compile(MatmulOfBytes(), (x,), allow_fallback=False)
    with pytest.raises(mlc.UserError, match=r"torch-mlir's lowering crashed \(SIGSEGV\) on the ops mlc left to it: "
                                            r"torch.aten.mm"):
        mlc.compile(MatmulOfBytes(), (x,))
