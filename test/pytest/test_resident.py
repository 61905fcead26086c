"""`Compiled.run_resident`: results kept in IREE's memory from one call to the next (a
generator's caches), against the same calls with tensors."""

import numpy as np
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
def test_kept_results_fed_back_give_the_results_of_tensors():
    """`fed_back_loop`: after one checked call, each call takes the last one's state as
    IREE returned it (a generator's decode steps). Decay's new state is a new value, not
    an update of the old one in place: each call builds its arguments again."""
    compiled = compiled_decay()
    xs = [torch.randn(3, 8) for _ in range(5)]
    state = compiled.run_resident(xs[0], torch.zeros(3, 8), keep=[1])[1].take()
    loop = compiled.fed_back_loop([xs[1].numpy(), state], fed_back={1: 1}, read=[0])
    for x in xs[1:]:
        (total,) = loop([x.numpy()])
        assert isinstance(total, np.ndarray)
    expected_state = torch.zeros(3, 8)
    for x in xs:
        expected_total, expected_state = compiled(x, expected_state)
    torch.testing.assert_close(torch.from_numpy(total), expected_total)
    torch.testing.assert_close(Resident(loop.state()[0], compiled._main.read).tensor(), expected_state)
    assert loop.in_place is False  # the path that builds the arguments at each call


@pytest.mark.iree
def test_a_bfloat16_resident_keeps_its_dtype():
    """A kept result's dtype comes from IREE's element type (buffer_call.py): bfloat16,
    which numpy knows only through ml_dtypes, checks against the input and reads back."""
    compiled = mlc.compile(Decay(), (torch.randn(3, 8, dtype=torch.bfloat16), torch.zeros(3, 8, dtype=torch.bfloat16)))
    xs = [torch.randn(3, 8, dtype=torch.bfloat16) for _ in range(3)]
    resident = compiled.run_resident(xs[0], torch.zeros(3, 8, dtype=torch.bfloat16), keep=[1])[1]
    for x in xs[1:]:
        total, resident = compiled.run_resident(x, resident, keep=[1])
    expected = torch.zeros(3, 8, dtype=torch.bfloat16)
    for x in xs:
        expected_total, expected = compiled(x, expected)
    assert resident.dtype.name == "bfloat16" and resident.tensor().dtype == torch.bfloat16
    torch.testing.assert_close(resident.tensor(), expected)
    torch.testing.assert_close(total, expected_total)


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
    with pytest.raises(mlc.UserError, match="fed_back_loop runs on the llvm-cpu target, not 'mlir-cpu'"):
        compiled.fed_back_loop([np.zeros((3, 8), np.float32), np.zeros((3, 8), np.float32)], {1: 1}, read=[0])
    _, resident = compiled_decay().run_resident(torch.randn(3, 8), torch.zeros(3, 8), keep=[1])
    with pytest.raises(mlc.UserError, match="input 1: a Resident goes to an executable for llvm-cpu, not 'mlir-cpu'"):
        compiled(torch.randn(3, 8), resident)


class CacheWrite(torch.nn.Module):
    """A cache written at a run-time position, as transformers' static cache is
    (`index_copy_` into a clone), and a read of the whole updated cache."""

    def forward(self, row, position, cache):
        cache = cache.clone()
        cache.index_copy_(0, position, row)
        return cache.sum(0), cache


def compiled_cache_write():
    return mlc.compile(CacheWrite(), (torch.randn(1, 8), torch.tensor([0]), torch.zeros(6, 8)))


@pytest.mark.iree
def test_an_updated_input_leaves_the_callers_tensor_as_it_was():
    """IREE takes its inputs as consumed and writes the new row into the cache's buffer;
    a caller's tensor is copied in, so it stays as it was."""
    compiled = compiled_cache_write()
    cache = torch.randn(6, 8)
    before = cache.clone()
    row = torch.randn(1, 8)
    total, updated = compiled(row, torch.tensor([2]), cache)
    torch.testing.assert_close(cache, before)
    expected_total, expected = CacheWrite()(row, torch.tensor([2]), before)
    torch.testing.assert_close(updated, expected)
    torch.testing.assert_close(total, expected_total)


@pytest.mark.iree
def test_a_resident_cache_written_step_by_step_gives_eager_results():
    compiled = compiled_cache_write()
    rows = [torch.randn(1, 8) for _ in range(6)]
    resident, expected = torch.zeros(6, 8), torch.zeros(6, 8)
    for position, row in enumerate(rows):
        total, resident = compiled.run_resident(row, torch.tensor([position]), resident, keep=[1])
        expected_total, expected = CacheWrite()(row, torch.tensor([position]), expected)
        torch.testing.assert_close(total, expected_total)
    torch.testing.assert_close(resident.tensor(), expected)


@pytest.mark.iree
def test_a_cache_updated_in_place_keeps_one_argument_list():
    """`fed_back_loop` on a cache IREE updates in place: the loop builds its arguments
    once, writes each row and position into buffers it mapped, and gives eager's results."""
    compiled = compiled_cache_write()
    rows = [torch.randn(1, 8) for _ in range(6)]
    cache = compiled.run_resident(rows[0], torch.tensor([0]), torch.zeros(6, 8), keep=[1])[1].take()
    loop = compiled.fed_back_loop([rows[1].numpy(), np.array([1]), cache], fed_back={1: 2}, read=[0])
    expected = CacheWrite()(rows[0], torch.tensor([0]), torch.zeros(6, 8))[1]
    for position, row in enumerate(rows[1:], start=1):
        (total,) = loop([row.numpy(), np.array([position])])
        expected_total, expected = CacheWrite()(row, torch.tensor([position]), expected)
        torch.testing.assert_close(torch.from_numpy(total), expected_total)
    assert loop.in_place
    torch.testing.assert_close(Resident(loop.state()[0], compiled._main.read).tensor(), expected)


class Twice(torch.nn.Module):
    """One value returned twice: IREE gives both results one buffer."""

    def forward(self, x):
        y = x + 1
        return y, y


class WriteAndRead(torch.nn.Module):
    """A cache written in place beside a second input that is only read."""

    def forward(self, row, position, cache, other):
        cache = cache.clone()
        cache.index_copy_(0, position, row)
        return cache, other * 2


@pytest.mark.iree
def test_one_buffer_in_two_results_is_kept_apart():
    """IREE gives a value returned twice one buffer. A result that shares it with a kept one
    is copied out, and a call that takes it as two inputs gets a copy for the second: a
    write into one input's memory changes neither a result read before nor the other input."""
    twice = mlc.compile(Twice(), (torch.zeros(64, 64),))
    kept, read = twice.run_resident(torch.zeros(64, 64), keep=[0])
    write = mlc.compile(CacheWrite(), (torch.randn(1, 64), torch.tensor([0]), torch.zeros(64, 64)))
    write.run_resident(torch.full((1, 64), 7.0), torch.tensor([0]), kept, keep=[1])
    torch.testing.assert_close(read, torch.ones(64, 64))

    first, second = twice.run_resident(torch.zeros(64, 64), keep=[0, 1])
    write_and_read = mlc.compile(WriteAndRead(), (torch.randn(1, 64), torch.tensor([0]), torch.zeros(64, 64),
                                                  torch.zeros(64, 64)))
    cache, doubled = write_and_read(torch.full((1, 64), 7.0), torch.tensor([3]), first, second)
    torch.testing.assert_close(doubled, torch.full((64, 64), 2.0))
    assert cache[3].eq(7).all() and cache[2].eq(1).all()


class Fresh(torch.nn.Module):
    """A result of 64 MiB made from a small input: past glibc's largest mmap threshold, so
    each allocation of it is fresh memory unless IREE keeps the buffer."""

    def forward(self, x):
        return x.reshape(1, -1).expand(1024, -1) + 1


@pytest.mark.iree
def test_a_freed_result_buffer_serves_the_next_call():
    """The CPU device keeps the buffers calls free for later calls (iree.cpu_device): a
    result freed before the next call comes back without faulting in a page, where fresh
    memory faults in each of its 16K pages (a generator's prompt call returns its caches
    so: GPT-2's at a capacity of 1024 took 57 ms a call on fresh memory, 20 reused)."""
    import resource

    x = torch.randn(16384)
    compiled = mlc.compile(Fresh(), (x,))
    pages = 1024 * 16384 * 4 // resource.getpagesize()
    faults = []
    for _ in range(3):
        before = resource.getrusage(resource.RUSAGE_SELF).ru_minflt
        kept = compiled.run_resident(x, keep=[0])[0]
        faults.append(resource.getrusage(resource.RUSAGE_SELF).ru_minflt - before)
        del kept
    assert faults[-1] < pages // 8, (faults, pages)
    torch.testing.assert_close(compiled(x), Fresh()(x))
