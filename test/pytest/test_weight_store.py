"""A WeightStore: executables compiled from one model hold each of its weights once
(driver/backends/weight_store.py), as a generator's decode step and prefills do."""

import gc
import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
import torch
from conftest import assert_matches
from test_precision import BUDGETS, relative_error

import mlc
from mlc.driver.backends import matmul_library

TOOLS = Path(sys.executable).parent
LIBRARY = {"target_options": {"matmul-library": True}}


class MLP(torch.nn.Module):
    """Two 2 MiB weights, each well over the archive's smallest."""

    def __init__(self, up=None):
        super().__init__()
        self.up = up if up is not None else torch.nn.Linear(512, 1024)
        self.down = torch.nn.Linear(1024, 512)

    def forward(self, x):
        return self.down(torch.relu(self.up(x)))


def compile_in(store, model, rows: int, **options):
    x = torch.randn(rows, 512)
    compiled = mlc.compile(model, (x,), external_params=store, cache=False, **options)
    with torch.no_grad():
        assert_matches(compiled(x), model(x))
    return compiled


@pytest.mark.iree
def test_executables_of_one_model_write_each_weight_once():
    """Two batch sizes of one model: the second compile finds every weight in the store;
    a model that shares one layer with it adds only the other."""
    torch.manual_seed(0)
    model, store = MLP().eval(), mlc.WeightStore()
    first = compile_in(store, model, 4)
    second = compile_in(store, model, 16)
    weights = (512 * 1024 + 1024 * 512) * 4
    assert first.report["parameters"]["bytes written"] == first.report["parameters"]["bytes"] >= weights
    assert second.report["parameters"]["bytes written"] == 0 and second.report["parameters"]["bytes"] >= weights
    assert len(store.paths) == 1 and store.bytes < 2 * weights
    other = compile_in(store, MLP(up=model.up).eval(), 4)  # its own `down`, `up` from the first
    assert 0 < other.report["parameters"]["bytes written"] < other.report["parameters"]["bytes"]
    assert len(store.paths) == 2
    for compiled, rows in ((first, 4), (second, 16)):  # still their own numbers
        x = torch.randn(rows, 512)
        with torch.no_grad():
            assert_matches(compiled(x), model(x))


@pytest.mark.iree
@pytest.mark.skipif(not matmul_library.available()[0], reason="mlc's matmul plugin cannot be built here")
def test_a_stores_weights_are_packed_once_each_under_its_own_values():
    """A store's key names its bytes, so the plugin packs its weights once, as it does those
    inside an executable (a user's archive is packed at each call: it could be swapped).
    Two layers of one shape in one store, called in turn, each give their own numbers."""
    torch.manual_seed(0)
    store, x = mlc.WeightStore(), torch.randn(24, 64)
    layers = [torch.nn.Linear(64, 96) for _ in range(2)]
    compiled = [mlc.compile(layer, (x,), external_params=store, cache=False, **LIBRARY) for layer in layers]
    for model in compiled:
        assert model.report.pass_statistic("mlc-library-matmuls", "weights packed once") == 1
    for _ in range(2):
        for model, layer in zip(compiled, layers):
            assert_matches(model(x), layer(x).detach())


@pytest.mark.iree
def test_an_executable_of_two_archives_saves_and_profiles(tmp_path):
    """`save` writes one archive of the store's weights (here from two archives), which
    iree-run-module serves; `profile` serves IREE's benchmark both."""
    torch.manual_seed(0)
    store, up = mlc.WeightStore(), torch.nn.Linear(512, 1024)
    compile_in(store, MLP(up=up).eval(), 4)
    model = MLP(up=up).eval()
    compiled = compile_in(store, model, 4)
    assert len(store.paths) == 2
    compiled.save(tmp_path / "m.vmfb")
    x = torch.randn(4, 512)
    np.save(tmp_path / "x.npy", x.numpy())
    flags = [matmul_library.run_flag(tmp_path / matmul_library.PLUGIN_NAME)] \
        if matmul_library.calls_plugin(compiled.artifact) else []
    subprocess.run([str(TOOLS / "iree-run-module"), *flags, f"--module={tmp_path / 'm.vmfb'}",
                    f"--parameters=model={tmp_path / 'm.irpa'}", "--device=local-task", "--function=main",
                    f"--input=@{tmp_path / 'x.npy'}", f"--output=@{tmp_path / 'y.npy'}"],
                   capture_output=True, text=True, check=True)
    with torch.no_grad():
        assert_matches(torch.from_numpy(np.load(tmp_path / "y.npy")), model(x))
    profile = compiled.profile(x, calls=2)
    assert profile.dispatches and all(d.microseconds > 0 for d in profile.dispatches)


@pytest.mark.iree
def test_the_store_goes_with_the_last_executable_that_reads_it():
    torch.manual_seed(0)
    store = mlc.WeightStore()
    compiled = compile_in(store, MLP().eval(), 4)
    directory = store.directory
    del store
    gc.collect()
    assert os.listdir(directory)  # the executable still reads it
    del compiled
    gc.collect()
    assert not os.path.exists(directory)


@pytest.mark.iree
@pytest.mark.parametrize("external_params", ["store", "archive"])
def test_bf16_weights_go_to_an_archive(external_params):
    """bf16 arrays (ml_dtypes) have no buffer format Python can write or hash: their bytes
    are taken as uint8."""
    torch.manual_seed(0)
    model, x = MLP().eval(), torch.randn(4, 512)
    compiled = mlc.compile(model, (x,), precision="bf16", cache=False,
                           external_params=mlc.WeightStore() if external_params == "store" else True)
    assert compiled.report["parameters"]["count"] >= 2
    with torch.no_grad():
        expected = model(x)
    assert relative_error(compiled(x), expected) < BUDGETS["bf16"][0]


def test_a_store_in_a_directory_that_cannot_hold_one_is_a_user_error(tmp_path):
    with pytest.raises(mlc.UserError, match=r"cannot make a weight store in '.*missing': No such file or directory"):
        mlc.WeightStore(tmp_path / "missing")
    store = mlc.WeightStore(tmp_path)
    assert os.path.dirname(store.directory) == str(tmp_path) and store.paths == [] and store.bytes == 0
