"""mlc's matmul library: f32 and bf16 matmuls on MKL inside mlc's executable, through an IREE
executable plugin (driver/backends/native/mlc_matmul.c, passes/library_matmuls.py), chosen per
shape by measurement (driver/backends/matmul_choice.py)."""

import json
import math
import os
import subprocess
import sys

import numpy as np
import pytest
import torch
from conftest import assert_matches, cache_of_its_own, compile_and_compare

import mlc
from mlc.driver.backends import iree as iree_backend
from mlc.driver.backends import matmul_choice, matmul_library
from mlc.errors import UserError

pytestmark = pytest.mark.skipif(not matmul_library.available()[0],
                                reason=f"mlc's matmul plugin cannot be built here: {matmul_library.available()[1]}")
ON = {"target_options": {"matmul-library": True}}


class MLP(torch.nn.Module):
    """Two linear layers with GELU between: bias and GELU go into the library's calls."""

    def __init__(self, features=64, hidden=256):
        super().__init__()
        self.up, self.down = torch.nn.Linear(features, hidden), torch.nn.Linear(hidden, features)

    def forward(self, x):
        return self.down(torch.nn.functional.gelu(self.up(x)))


def library_shapes(compiled) -> list[str]:
    return compiled.report["matmul library"]["library"]


@pytest.mark.iree
def test_an_mlp_on_the_library_matches_eager():
    torch.manual_seed(0)
    compiled = compile_and_compare(MLP(), torch.randn(24, 64), **ON)
    assert library_shapes(compiled) == ["24x64x256", "24x256x64"]
    assert compiled.report["dispatches by kind"]["library matmuls"] == 2
    # bias + GELU, and bias: epilogues of the library's calls, no region of their own
    assert compiled.report["dispatches by kind"]["mlc dispatch regions"] == 0
    assert compiled.report.pass_statistic("mlc-library-matmuls", "epilogues on the library") == 2


@pytest.mark.iree
def test_a_linear_layer_of_three_dimensional_input_and_a_matmul_alone():
    """[batch, tokens, features] folds into rows before the library's region; a linear
    layer without bias leaves its group with nothing else to do, and the group is gone."""
    torch.manual_seed(0)
    layer = torch.nn.Linear(48, 40, bias=False)
    compiled = compile_and_compare(layer, torch.randn(3, 7, 48), **ON)
    assert library_shapes(compiled) == ["21x48x40"]
    assert compiled.report["dispatches by kind"] == {**compiled.report["dispatches by kind"],
                                                      "library matmuls": 1, "mlc dispatch regions": 0}


@pytest.mark.iree
def test_odd_column_counts_and_a_single_row():
    """Blocks of columns: 24 in two workgroups (16 and 8), 40 in three (16, 16, 8), 8 in
    one; a single row."""
    torch.manual_seed(0)
    for rows, columns in ((13, 24), (1, 24), (5, 40), (3, 8)):
        compile_and_compare(torch.nn.Linear(32, columns), torch.randn(rows, 32), **ON)


@pytest.mark.iree
def test_constant_weights_are_packed_once_and_found_again_by_their_values():
    """Models of one shape and other weights, called in turn in one process, and a third
    compiled after the first is gone (IREE may put its weights where the first's were):
    the plugin keeps each weight's packed blocks under its values' fingerprint, so each
    model gives its own numbers, call after call."""
    torch.manual_seed(0)
    x = torch.randn(24, 64)
    layers = [torch.nn.Linear(64, 96) for _ in range(3)]
    compiled = [mlc.compile(layer, (x,), cache=False, **ON) for layer in layers[:2]]
    for model in compiled:
        assert model.report.pass_statistic("mlc-library-matmuls", "weights packed once") == 1
    for _ in range(2):
        for model, layer in zip(compiled, layers):
            assert_matches(model(x), layer(x).detach())
    del compiled[0]
    third = mlc.compile(layers[2], (x,), cache=False, **ON)
    for model, layer in ((compiled[0], layers[1]), (third, layers[2])) * 2:
        assert_matches(model(x), layer(x).detach())


@pytest.mark.iree
def test_a_weight_split_in_other_blocks_finds_its_own_packed_blocks(monkeypatch):
    """Executables compiled for 2 and for 3 cores split one weight's 48 columns among
    their workgroups as 32 + 16 and 16 + 16 + 16: each block is keyed by its first column,
    so neither takes the other's block of 16 (keyed by the block's number, the second
    executable read the first's last 16 columns as its middle ones: off by 2.1)."""
    torch.manual_seed(0)
    layer, x = torch.nn.Linear(64, 48), torch.randn(24, 64)
    compiled = []
    for cores in (2, 3):  # the workgroups a plan for IREE's task workers has
        monkeypatch.setattr(os, "sched_getaffinity", lambda pid, cores=cores: set(range(cores)))
        compiled.append(mlc.compile(layer, (x,), cache=False,
                                    target_options={"matmul-library": True, "driver": "local-task"}))
    monkeypatch.undo()
    for _ in range(2):
        for model in compiled:
            assert_matches(model(x), layer(x).detach())


@pytest.mark.iree
def test_weights_in_a_parameter_archive_are_packed_at_each_call():
    """An archive can be swapped for another after compiling, and a block packed under
    the compiled values' fingerprint would then be another weight's."""
    torch.manual_seed(0)
    compiled = compile_and_compare(torch.nn.Linear(64, 96), torch.randn(24, 64), external_params=True, **ON)
    statistics = compiled.report.pass_statistics("mlc-library-matmuls")
    assert statistics["matmuls on the library"] == 1 and "weights packed once" not in statistics


@pytest.mark.iree
def test_past_the_packed_weights_limit_blocks_are_packed_at_each_call(tmp_path):
    """MLC_PACKED_WEIGHTS_LIMIT=0: nothing is kept packed, and the numbers are the same; at
    int8 too, where rows quantized for the AMX kernel then go to MKL's GEMM unpacked."""
    script = tmp_path / "unkept.py"
    script.write_text("""
import torch, mlc
torch.manual_seed(0)
layer, x = torch.nn.Linear(64, 96), torch.randn(24, 64)
compiled = mlc.compile(layer, (x,), cache=False, target_options={"matmul-library": True})
assert compiled.report.pass_statistic("mlc-library-matmuls", "weights packed once") == 1
for _ in range(2):
    torch.testing.assert_close(torch.as_tensor(compiled(x)), layer(x).detach(), rtol=1e-4, atol=1e-4)
on = mlc.compile(layer, (x,), cache=False, precision="int8", target_options={"matmul-library": True})
off = mlc.compile(layer, (x,), cache=False, precision="int8", target_options={"matmul-library": False})
for _ in range(2):
    torch.testing.assert_close(torch.as_tensor(on(x)), torch.as_tensor(off(x)), rtol=1e-6, atol=1e-6)
print("same")
""")
    done = subprocess.run([sys.executable, str(script)], capture_output=True, text=True,
                          env={**os.environ, "MLC_PACKED_WEIGHTS_LIMIT": "0"})
    assert done.returncode == 0 and done.stdout.strip() == "same", done.stderr[-2000:]


@pytest.mark.iree
def test_a_weight_that_is_an_input_is_packed_by_mkl_at_each_call():
    torch.manual_seed(0)
    compiled = compile_and_compare(torch.matmul, torch.randn(24, 64), torch.randn(64, 96),
                                   call_with=[(torch.randn(24, 64), torch.randn(64, 96)) for _ in range(2)], **ON)
    statistics = compiled.report.pass_statistics("mlc-library-matmuls")
    assert statistics["weights packed at each call"] == 1 and "weights packed once" not in statistics


@pytest.mark.iree
def test_bf16_matmuls_on_the_library_stay_within_the_budget():
    """At bf16 mlc leaves matmuls outside its groups; the library takes them there, as
    bf16 x bf16 summed in f32 (AMX where the CPU has it)."""
    torch.manual_seed(0)
    model, x = MLP(), torch.randn(24, 64)
    compiled = mlc.compile(model, (x,), precision="bf16", **ON)
    assert library_shapes(compiled) == ["24x64x256xbf16", "24x256x64xbf16"]
    assert compiled.report["dispatches by kind"]["library matmuls"] == 2
    assert compiled.report.pass_statistic("mlc-library-matmuls", "weights packed once") == 2
    with torch.no_grad():
        expected = model(x)
    error = float((torch.as_tensor(compiled(x)) - expected).norm() / expected.norm())
    assert 0 < error < 2e-2  # rounded to bf16, and within the bf16 budget (test_precision.py)


@pytest.mark.iree
def test_bf16_epilogues_and_the_cast_to_bf16_run_inside_the_library_call():
    """At bf16 the group after each product is its epilogue: the bias, GELU and the cast
    of the result to bf16 for the next product, then the bias and the residual. Both go
    into the library's calls, which leaves only the cast of the input to IREE; the
    result is the one IREE's groups gave, to bf16's rounding (GELU's erf is the plugin's),
    and NaN still spreads."""
    torch.manual_seed(0)
    model, x = Block("none"), torch.randn(37, 64) * 3
    on = mlc.compile(model, (x,), precision="bf16", **ON)
    off = mlc.compile(model, (x,), precision="bf16", target_options={"matmul-library": False})
    assert on.report.pass_statistic("mlc-library-matmuls", "epilogues on the library") == 2
    assert on.report["dispatches by kind"]["mlc dispatch regions"] == 1
    np.testing.assert_allclose(np.asarray(on(x)), np.asarray(off(x)), rtol=2e-2, atol=2e-2)
    with torch.no_grad():
        expected = model(x)
    assert float((torch.as_tensor(on(x)) - expected).norm() / expected.norm()) < 2e-2
    special = x.clone()
    special[0, 0] = float("nan")
    assert torch.isnan(torch.as_tensor(on(special))[0]).all()


@pytest.mark.iree
def test_attention_scores_and_f64_stay_on_iree():
    """Batched matmuls of two activations and f64 matmuls are not the library's."""
    torch.manual_seed(0)
    compiled = compile_and_compare(lambda q, k: q @ k.transpose(-1, -2), torch.randn(2, 8, 16), torch.randn(2, 8, 16),
                                   **ON)
    assert library_shapes(compiled) == []
    compiled = compile_and_compare(torch.nn.Linear(16, 8).double(), torch.randn(4, 16, dtype=torch.float64), **ON)
    assert library_shapes(compiled) == []


@pytest.mark.iree
def test_small_matmuls_are_not_measured_and_stay_on_iree(monkeypatch):
    """Below MIN_FLOPS the call through the plugin costs more than a kernel could save."""
    monkeypatch.setattr(matmul_choice, "measure", lambda shapes: pytest.fail(f"measured {shapes}"))
    torch.manual_seed(0)
    compiled = compile_and_compare(MLP(), torch.randn(4, 64))
    choice = compiled.report["matmul library"]
    assert choice["library"] == [] and choice["iree"] == ["4x64x256", "4x256x64"]
    assert choice["why"] == "every matmul is below 16 MFLOP (up to 16 rows: 512 KiB of weight)"


def test_small_bf16_matmuls_are_measured_where_iree_has_no_bf16_kernel(monkeypatch):
    """Without AVX-512-BF16, IREE 3.13 multiplies bf16 one widened element at a time, so
    a bf16 matmul of 128 KiB of weight or more is measured (Llama's 1x768x256 rows), where
    with it one below MIN_FLOPS and MIN_WEIGHT_BYTES stays IREE's unmeasured; f32, and a
    smaller bf16 weight, stay either way."""
    shapes, measured = ["1x768x256xbf16", "1x768x128", "1x64x64xbf16"], []

    class Known:
        def get(self, wanted):
            measured.extend(wanted)
            return {s: {"iree ms": 0.5, "iree one thread ms": 0.6, "library ms": 0.05} for s in wanted}

    monkeypatch.setattr(matmul_choice, "eligible_shapes", lambda module: shapes)
    monkeypatch.setattr(matmul_choice.Measurements, "here", classmethod(lambda cls: Known()))
    fields = matmul_choice.cpu_fields()
    monkeypatch.setattr(matmul_choice, "cpu_fields", lambda: {**fields, "flags": "avx2 fma"})
    choice = matmul_choice.choose(None, {})
    assert measured == ["1x768x256xbf16"]
    assert choice["library"] == ["1x768x256xbf16"] and choice["iree"] == ["1x768x128", "1x64x64xbf16"]
    measured.clear()
    monkeypatch.setattr(matmul_choice, "cpu_fields", lambda: {**fields, "flags": "avx2 fma avx512f avx512bw avx512_bf16"})
    assert matmul_choice.choose(None, {})["library"] == [] and measured == []


def test_a_large_weight_is_timed_on_the_columns_that_fit(monkeypatch):
    """GPT-2's head (768 x 50257, 154 MB) is timed on 10912 of its columns (32 MB);
    bf16 halves the bytes per column. The choice applies to the whole matmul."""
    assert matmul_choice.timed_as("128x768x50257") == "128x768x10912"
    assert matmul_choice.timed_as("128x768x50257xbf16") == "128x768x21840xbf16"
    assert matmul_choice.timed_as("128x768x3072") == "128x768x3072"
    timed = {"128x768x10912": {"iree ms": 9.0, "library ms": 5.0}}

    class Known:
        def get(self, shapes):
            return {s: timed[s] for s in shapes}

    monkeypatch.setattr(matmul_choice, "eligible_shapes", lambda module: ["128x768x50257"])
    monkeypatch.setattr(matmul_choice.Measurements, "here", classmethod(lambda cls: Known()))
    choice = matmul_choice.choose(None, {})
    assert choice["library"] == ["128x768x50257"]
    assert choice["measured"] == {"128x768x50257": timed["128x768x10912"]}


def test_a_shared_plugin_is_the_one_a_new_cache_would_build(tmp_path):
    """share_plugin puts this process's plugin, under its build key's name, into a new
    private cache: a process given that cache loads it instead of running gcc. A cache
    directory others can write to gets nothing (it is not used at all)."""
    if not matmul_library.available()[0]:
        pytest.skip("mlc's matmul plugin cannot be built here")
    built = matmul_library.plugin()
    matmul_library.share_plugin(tmp_path / "new" / "cache")
    shared = tmp_path / "new" / "cache" / "plugins" / built.name
    assert shared.read_bytes() == built.read_bytes()
    assert (tmp_path / "new" / "cache").stat().st_mode & 0o777 == 0o700
    (tmp_path / "open").mkdir(mode=0o777)
    (tmp_path / "open").chmod(0o777)
    with pytest.warns(UserWarning, match="not private"):
        matmul_library.share_plugin(tmp_path / "open")
    assert not (tmp_path / "open" / "plugins").exists()


@pytest.mark.iree
def test_a_shape_is_measured_once_per_machine(tmp_path, monkeypatch):
    """The first compile times both kernels; the next reads the table on disk."""
    monkeypatch.setenv("MLC_CACHE_DIR", str(tmp_path))
    matmul_library.plugin.cache_clear()
    try:
        shape = "64x256x512"
        measured = matmul_choice.Measurements.here().get([shape])[shape]
        assert measured["iree ms"] > 0 and measured["library ms"] > 0
        assert ("own kernel ms" in measured) == matmul_choice.own_kernel_suits(shape)
        monkeypatch.setattr(matmul_choice, "measure", lambda shapes: pytest.fail(f"measured {shapes} again"))
        assert matmul_choice.Measurements.here().get([shape])[shape] == measured
        table = json.loads(next((tmp_path / "matmul-choices").glob("*.json")).read_text())
        assert table == {shape: measured}
    finally:
        matmul_library.plugin.cache_clear()


def test_timings_with_mlc_kernels_held_off_are_kept_apart(monkeypatch):
    """With MLC_F32_KERNEL=mkl (or MLC_INT8_KERNEL=mkl, or MKL held below the CPU) the
    plugin's variants run other kernels, and their timings go to a table of their own."""
    for name in ("MLC_F32_KERNEL", "MLC_INT8_KERNEL", "MKL_ENABLE_INSTRUCTIONS"):
        monkeypatch.delenv(name, raising=False)
    tables = {matmul_choice.Measurements.here().path}
    for name, value in (("MLC_F32_KERNEL", "mkl"), ("MLC_INT8_KERNEL", "mkl"), ("MKL_ENABLE_INSTRUCTIONS", "AVX2")):
        monkeypatch.setenv(name, value)
        tables.add(matmul_choice.Measurements.here().path)
        monkeypatch.delenv(name)
    assert len(tables) == 4


def test_the_choice_follows_the_measurements(monkeypatch):
    """The library wins a shape of several rows only when it measured at least 10 %
    faster; a single row, timed on cold copies of its weight, when it measured faster."""
    times = {"128x768x3072": {"iree ms": 4.0, "library ms": 2.0}, "128x3072x768": {"iree ms": 4.0, "library ms": 3.9},
             "1x768x3072": {"iree ms": 0.40, "library ms": 0.39}, "1x3072x768": {"iree ms": 0.40, "library ms": 0.41}}

    class Known:
        def get(self, shapes):
            return {s: times[s] for s in shapes}

    monkeypatch.setattr(matmul_choice, "eligible_shapes", lambda module: [*times, "2x3x4"])
    monkeypatch.setattr(matmul_choice.Measurements, "here", classmethod(lambda cls: Known()))
    choice = matmul_choice.choose(None, {})
    assert choice["library"] == ["128x768x3072", "1x768x3072"]
    assert choice["iree"] == ["128x3072x768", "1x3072x768", "2x3x4"]


@pytest.mark.iree
def test_int8_matmuls_on_the_library_sum_exactly_as_iree_does():
    """At int8 both kernels sum int8 x int8 in int32 exactly (several rows on the plugin's
    AMX, VNNI or AVX2 kernel, or on MKL, which unsigned-shifts A and corrects by B's column
    sums, kept with the packed weight; a single row on its VNNI or AVX2 kernel), and the
    plugin quantizes as IREE does, so the outputs agree to rounding: with odd sizes, a
    single row, activations at -127 and 127, and quotients on the half-integers."""
    torch.manual_seed(0)
    model = torch.nn.Sequential(torch.nn.Linear(72, 200), torch.nn.ReLU(), torch.nn.Linear(200, 40))
    # Rows whose quotients x / sx lie on or next to half-integers, where round-half-even
    # decides: sx = 1 exactly, then sx = 100 / 127.
    halves = torch.tensor([[127.0] + [n + 0.5 for n in range(-35, 36)]])
    near_halves = torch.cat([torch.tensor([100.0]), (torch.arange(-35, 36) + 0.5) * (100 / 127)])[None]
    for x in (torch.randn(13, 72), torch.randn(1, 72), torch.tensor([[-1.0, 1.0] * 36]),
              torch.cat([halves, near_halves] * 3)):
        on = mlc.compile(model, (x,), precision="int8", **ON)
        off = mlc.compile(model, (x,), precision="int8", target_options={"matmul-library": False})
        # A single row is quantized in the library's call, and several rows too where the
        # plugin's kernels take them (mlc-quantize-int8{whole-matrices}).
        whole = x.shape[0] == 1 or matmul_choice.quantized_matrices_whole(ON["target_options"])
        kind = "q8" if whole else "i8"
        if not matmul_library.exact_int8():  # no VNNI: on the plugin's AVX2 kernels (MKL's int8 would saturate)
            assert whole
            assert library_shapes(on) == [f"{x.shape[0]}x72x200xq8", f"{x.shape[0]}x200x40xq8"]
        else:
            assert library_shapes(on) == [f"{x.shape[0]}x72x200x{kind}", f"{x.shape[0]}x200x40x{kind}"]
            packed = on.report.pass_statistic("mlc-library-matmuls", "weights packed once")
            assert packed == 2  # the weight packed once: with its column sums, or for the VNNI row kernel
        for _ in range(2):
            np.testing.assert_allclose(np.asarray(on(x)), np.asarray(off(x)), rtol=1e-6, atol=1e-6)


# A C program on the plugin's own source: quantize_avx512 against quantize_portable on
# rows made to hit round-half-even's ties, near-ties, any bit pattern, inf and NaN.
QUANTIZE_CHECK = r"""
#include "mlc_matmul.c" /* first: it defines _GNU_SOURCE */
#include <stdio.h>

static uint32_t state = 1;
static uint32_t next(void) { state ^= state << 13; state ^= state >> 17; state ^= state << 5; return state; }

int main(void) {
  if (!quantize_avx512_available()) { puts("no AVX-512"); return 0; }
  enum { K = 1000 };
  float x[K];
  uint8_t portable[K], avx512[K];
  size_t differ = 0, total = 0;
  for (int row = 0; row < 4000; ++row) {
    for (size_t i = 0; i < K; ++i) {
      const uint32_t u = next();
      switch (row % 4) {
        case 0: x[i] = ((int)(u % 2000001) - 1000000) * 1e-6f * ldexpf(1.0f, row % 40 - 20); break;
        case 1: x[i] = ((int)(u % 255) - 127 + 0.5f) * 0.37f; break; /* ties once scaled */
        case 2: memcpy(&x[i], &u, sizeof u); break;                    /* any bits */
        default: x[i] = (int)(u % 255 - 127) * 0.5f + (float)((int)(u >> 20) % 3 - 1) * 1e-6f;
      }
    }
    if (row % 4 == 1) x[0] = 127 * 0.37f;
    if (row % 97 == 0) x[row % K] = INFINITY;
    if (row % 89 == 0) x[row % K] = NAN;
    const size_t k = K - row % 16; /* every tail */
    const float sx = row_scale(x, k);
    quantize_portable(x, k, sx, portable, 0x80);
    quantize_avx512(x, k, sx, avx512, 0x80);
    for (size_t i = 0; i < k; ++i) differ += portable[i] != avx512[i];
    total += k;
  }
  printf("%zu of %zu differ\n", differ, total);
  return 0;
}
"""


def test_rows_quantized_on_avx512_match_the_portable_loop(tmp_path):
    """The plugin quantizes int8 rows on AVX-512 by a product where the portable loop (and
    IREE's lowering) divides: the two give the same bytes on 4 million values, ties and
    near-ties included (native/quantize_avx512.h)."""
    printed = _run_plugin_check(tmp_path, "quantize_check", QUANTIZE_CHECK)
    if printed == "no AVX-512":
        pytest.skip("this CPU has no AVX-512 BW and VL: only the portable loop runs")
    assert printed.startswith("0 of ") and int(printed.split()[2]) > 3_900_000, printed


# A C program on the plugin's own source: the AVX2 row kernels (native/gemv_avx2.h) on
# the packed layouts of sgemm_avx512.h and gemm_bf16.h, on odd shapes (K blocks of 256
# and a part of one, panels of 64 columns and a part of one). The values are multiples
# of 1/8 small enough that every sum is exact in f32, so any order of the sums gives the
# reference's bits; the reference sums in double. Where the CPU has AVX-512-BF16, the
# portable bf16 pack must give the AVX-512 pack's bytes. The int8 row kernel
# (native/gemv_s8_avx2.h) and the plain loop (row_sums_exact) against int64 sums, with
# weights of any byte (-128 too) and rows at +-127, where vpmaddubsw's pairs come
# closest to saturating.
AVX2_ROWS_CHECK = r"""
#include "mlc_matmul.c" /* first: it defines _GNU_SOURCE */
#include <stdio.h>

static float value(size_t i, size_t salt) { return (float)((int)((i * 2654435761u + salt) % 17) - 8) / 8; }

static uint16_t bf16_of(float f) { uint32_t bits; memcpy(&bits, &f, 4); return (uint16_t)(bits >> 16); }

int main(void) {
  if (!gemv_avx2_available()) { puts("no AVX2"); return 0; }
  const size_t shapes[][2] = {{1, 1}, {2, 3}, {300, 130}, {256, 64}, {513, 129}, {768, 200}, {1030, 65}};
  size_t wrong = 0, checked = 0, packs_differ = 0;
  for (size_t s = 0; s < sizeof shapes / sizeof shapes[0]; ++s) {
    const size_t k = shapes[s][0], n = shapes[s][1];
    float *w = malloc(k * n * 4), *x = malloc(k * 4), *y = malloc(n * 4);
    uint16_t *wb = malloc(k * n * 2), *xb = malloc((k + 1) * 2);
    for (size_t i = 0; i < k * n; ++i) wb[i] = bf16_of(w[i] = value(i, s));
    for (size_t i = 0; i < k; ++i) xb[i] = bf16_of(x[i] = value(i, s + 7));
    float* packed = aligned_alloc(64, sgemm_avx512_packed_bytes(n, k));
    sgemm_avx512_pack(w, n, n, k, packed);
    const size_t words = gemm_bf16_packed_words(n, k);
    uint32_t* packed_bf16 = aligned_alloc(64, (words * 4 + 63) / 64 * 64);
    gemm_bf16_pack_bf16_portable(wb, n, n, k, packed_bf16);
    if (gemm_bf16_available()) {
      uint32_t* avx512 = aligned_alloc(64, (words * 4 + 63) / 64 * 64);
      gemm_bf16_pack_bf16(wb, n, n, k, avx512);
      packs_differ += memcmp(avx512, packed_bf16, words * 4) != 0;
      free(avx512);
    }
    for (int bf16 = 0; bf16 < 2; ++bf16) {
      if (bf16 && k % 2) continue; /* the plugin multiplies bf16 of an even K only */
      if (bf16)
        gemv_bf16_avx2_packed(xb, packed_bf16, n, k, y);
      else
        sgemv_avx2_packed(x, packed, n, k, y);
      for (size_t j = 0; j < n; ++j, ++checked) {
        double sum = 0;
        for (size_t i = 0; i < k; ++i) sum += (double)x[i] * w[i * n + j];
        wrong += (double)y[j] != sum;
      }
    }
    free(w), free(x), free(y), free(wb), free(xb), free(packed), free(packed_bf16);
  }
  for (size_t s = 0; s < sizeof shapes / sizeof shapes[0]; ++s) {
    const size_t k = shapes[s][0], n = shapes[s][1], k4 = (k + 3) / 4 * 4;
    int8_t *w = malloc(k * n), *q = calloc(k4, 1), *packed = aligned_alloc(64, (gemv_s8_avx2_packed_bytes(n, k) + 63) / 64 * 64);
    int32_t *sums = malloc(n * 4), *plain = malloc(n * 4);
    for (size_t i = 0; i < k * n; ++i) w[i] = s % 2 ? (i % 3 ? -128 : 127) : (int8_t)(i * 2654435761u >> 13);
    for (size_t i = 0; i < k; ++i) q[i] = s % 2 ? (i % 2 ? -127 : 127) : (int8_t)((int)(i * 40503u % 255) - 127);
    gemv_s8_avx2_pack(w, n, n, k, packed);
    gemv_s8_avx2_packed(q, packed, sums, k, n);
    row_sums_exact(q, w, n, plain, k, n);
    for (size_t j = 0; j < n; ++j, checked += 2) {
      long long sum = 0;
      for (size_t i = 0; i < k; ++i) sum += (long long)q[i] * w[i * n + j];
      wrong += (sums[j] != sum) + (plain[j] != sum);
    }
    /* 13 rows on gemm_s8_avx2.h (two tiles of 6 and one of 1): row r is q, negated where r
     * is odd, as int16 pairs with a zero past an odd K */
    enum { ROWS = 13 };
    const size_t lda = (k + 1) / 2 * 2, padded = (n + 15) / 16 * 16;
    int16_t *a = calloc(ROWS * lda, 2), *wide = aligned_alloc(64, (gemm_s8_avx2_packed_bytes(n, k) + 63) / 64 * 64);
    int32_t* c = malloc(GEMM_S8_AVX2_ROWS * padded * 4);
    for (size_t r = 0; r < ROWS; ++r)
      for (size_t i = 0; i < k; ++i) a[r * lda + i] = r % 2 ? -q[i] : q[i];
    gemm_s8_avx2_pack(w, n, n, k, wide);
    for (size_t first = 0; first < ROWS; first += GEMM_S8_AVX2_ROWS) {
      const size_t rows = ROWS - first < GEMM_S8_AVX2_ROWS ? ROWS - first : GEMM_S8_AVX2_ROWS;
      gemm_s8_avx2_columns(a + first * lda, lda, rows, wide, 0, padded, k, c, padded);
      for (size_t r = 0; r < rows; ++r)
        for (size_t j = 0; j < n; ++j, ++checked) {
          long long sum = 0;
          for (size_t i = 0; i < k; ++i) sum += (long long)a[(first + r) * lda + i] * w[i * n + j];
          wrong += c[r * padded + j] != sum;
        }
    }
    free(w), free(q), free(packed), free(sums), free(plain), free(a), free(wide), free(c);
  }
  printf("%zu of %zu wrong, %zu packs differ\n", wrong, checked, packs_differ);
  return 0;
}
"""


def _run_plugin_check(tmp_path, name: str, source_text: str) -> str:
    """Builds a C program that includes the plugin's source, as the plugin is built, and
    returns what it prints."""
    if not matmul_library.buildable():
        pytest.skip("no C compiler or MKL here to build the plugin's source")
    include, libraries, compiler = matmul_library._tools()
    source, program = tmp_path / f"{name}.c", tmp_path / name
    source.write_text(source_text)
    subprocess.run([compiler, "-O3", "-fno-trapping-math", f"-I{matmul_library.NATIVE}", f"-I{include}",
                    str(source), "-o", str(program), *map(str, libraries), f"-Wl,-rpath,{libraries[0].parent}",
                    "-lm"], check=True)
    return subprocess.run([str(program)], capture_output=True, text=True, check=True).stdout.strip()


def test_single_rows_on_avx2_sum_the_packed_weights_exactly(tmp_path):
    """The row kernels a CPU without AVX-512 runs (native/gemv_avx2.h) read the f32 and
    bf16 packed layouts right, tails included; the portable bf16 pack writes the AVX-512
    one's bytes; the int8 kernels of a CPU without VNNI, for a row (native/gemv_s8_avx2.h)
    and for several (gemm_s8_avx2.h), sum exactly, at -128 and +-127 too. Any x86 CI
    machine runs this, with AVX-512 or not."""
    printed = _run_plugin_check(tmp_path, "avx2_rows_check", AVX2_ROWS_CHECK)
    if printed == "no AVX2":
        pytest.skip("this CPU has no AVX2 and FMA")
    assert printed.startswith("0 of ") and int(printed.split()[2]) > 9000 and printed.endswith(" 0 packs differ"), printed


class QuantizedBlock(torch.nn.Module):
    """A transformer's MLP at int8: Linear, GELU, Linear, the residual added."""

    def __init__(self):
        super().__init__()
        self.up, self.down = torch.nn.Linear(72, 200), torch.nn.Linear(200, 72)

    def forward(self, x):
        return x + self.down(torch.nn.functional.gelu(self.up(x)))


def test_int8_matrices_run_whole_where_the_cpu_has_amx_vnni_or_avx2(monkeypatch):
    """mlc-quantize-int8{whole-matrices} is the CPU's choice: set where single rows run
    whole and the CPU has AMX-INT8, AVX-512 VNNI or AVX2 (the plugin's own kernels); not
    on AVX2 with MLC_INT8_KERNEL=mkl (MKL's int8 would saturate there), nor without any of
    the three, nor where single rows do not run whole."""
    fields = matmul_choice.cpu_fields()
    flags = " ".join(f for f in fields.get("flags", "").split() if f not in ("amx_int8", "avx512_vnni", "avx2"))

    def whole(extra: str, rows_whole: bool = True) -> bool:
        monkeypatch.setattr(matmul_choice, "quantized_rows_whole", lambda options: rows_whole)
        monkeypatch.setattr(matmul_choice, "cpu_fields", lambda: {**fields, "flags": f"{flags} {extra}"})
        monkeypatch.setattr(matmul_library, "_cpu_flags", lambda: set(f"{flags} {extra}".split()))
        return matmul_choice.quantized_matrices_whole({})

    assert whole("amx_int8") and whole("avx512_vnni avx512bw") and whole("avx2")
    assert not whole("")
    assert not whole("amx_int8", rows_whole=False)
    monkeypatch.setenv("MLC_INT8_KERNEL", "mkl")
    assert not whole("avx2")


@pytest.mark.iree
def test_int8_matrices_run_whole_with_their_epilogues():
    """Where several int8 rows run whole (AMX), each Linear is one call of the plugin's
    mlc_gemm_s8_quantizing, which quantizes the rows, multiplies and rescales, and takes
    the bias and GELU, or the bias and the residual, after it: two calls and no region
    of IREE's. Its numbers are the steps' on IREE's kernel, to rounding (GELU's erf is
    the plugin's own); odd sizes, 13 rows, the weight packed once."""
    torch.manual_seed(0)
    model, x = QuantizedBlock().eval(), torch.randn(13, 72)
    on = mlc.compile(model, (x,), precision="int8", **ON)
    off = mlc.compile(model, (x,), precision="int8", target_options={"matmul-library": False})
    if not matmul_choice.quantized_matrices_whole(ON["target_options"]):
        assert all(shape.endswith("i8") for shape in library_shapes(on))  # the steps, as before
    else:
        assert library_shapes(on) == ["13x72x200xq8", "13x200x72xq8"]
        assert on.report.pass_statistic("mlc-library-matmuls", "epilogues on the library") == 2
        assert on.report.pass_statistic("mlc-library-matmuls", "weights packed once") == 2
        assert on.report["dispatches"] == 2
    for _ in range(2):
        np.testing.assert_allclose(np.asarray(on(x)), np.asarray(off(x)), rtol=1e-5, atol=1e-5)
    with torch.no_grad():
        expected = model(x)
    assert float((on(x) - expected).norm() / expected.norm()) < 5e-2  # int8's budget (test_precision.py)


@pytest.mark.iree
def test_int8_single_rows_run_whole_on_the_library_and_sum_exactly():
    """A single int8 row (mlc.quantized_matmul) runs on the plugin in one call, which
    quantizes the f32 row itself and runs its own VNNI kernel (gemv_s8_vnni.h), or its
    AVX2 kernel without VNNI (gemv_s8_avx2.h): rows in
    fours with a remainder (75, 130), columns in 64s with a masked remainder (130, 67,
    split between workgroups), weights and activations at +-127 (the VNNI kernel adds 128
    to the weights and subtracts 128 times the activations' sum). The numbers of the
    steps as graph ops, to rounding (there IREE may fuse the rescale and the bias into
    one multiply-add), and no dispatch of those steps is left: the two library calls and
    the two groups of bias and ReLU are all."""
    torch.manual_seed(0)
    model = torch.nn.Sequential(torch.nn.Linear(75, 130), torch.nn.ReLU(), torch.nn.Linear(130, 67))
    with torch.no_grad():
        model[0].weight.copy_(torch.sign(model[0].weight))  # int8-weight quantizes these to +-127
    for x in (torch.randn(1, 75), torch.tensor([[-1.0, 1.0, 1.0] * 25]), torch.randn(1, 1, 75)):
        on = mlc.compile(model, (x,), precision="int8", **ON)
        off = mlc.compile(model, (x,), precision="int8", target_options={"matmul-library": False})
        assert library_shapes(on) == ["1x75x130xq8", "1x130x67xq8"]  # without VNNI on AVX2 (gemv_s8_avx2.h)
        assert on.report["dispatches by kind"] == {**on.report["dispatches by kind"], "library matmuls": 2,
                                                   "mlc dispatch regions": 2, "formed by IREE": 0}
        assert off.report["dispatches by kind"]["mlc dispatch regions"] >= 6  # the steps, as graph ops
        np.testing.assert_allclose(np.asarray(on(x)), np.asarray(off(x)), rtol=1e-6, atol=1e-6)


@pytest.mark.iree
def test_int8_single_rows_sum_the_same_on_the_packed_copy_and_as_the_weight_lies():
    """A constant int8 weight of a single row is laid out once as the VNNI row kernel
    streams it (gemv_s8_pack), and each block's first calls take the packed copy and the
    weight as it lies in turn, timed, before the faster is kept (native/mlc_matmul.c,
    ROW_TRIALS). Both sum exactly: each of the first 21 calls (trials, then the choice)
    gives the same bits, those of IREE's steps to rounding. Rows past a multiple of 4 (75, 130), columns past a
    multiple of 64 (130, 67) and a block of more than GEMV_S8_GROUPS groups (300 columns
    split between two threads) are padded in the packed copy."""
    torch.manual_seed(0)
    model = torch.nn.Sequential(torch.nn.Linear(75, 130), torch.nn.ReLU(), torch.nn.Linear(130, 67),
                                torch.nn.ReLU(), torch.nn.Linear(67, 600))
    x = torch.randn(1, 75)
    on = mlc.compile(model, (x,), precision="int8", **ON)
    off = mlc.compile(model, (x,), precision="int8", target_options={"matmul-library": False})
    assert on.report.pass_statistic("mlc-library-matmuls", "weights packed once") == 3
    first = np.asarray(on(x))
    np.testing.assert_allclose(first, np.asarray(off(x)), rtol=1e-6, atol=1e-6)  # IREE may fuse rescale and bias
    for _ in range(20):
        np.testing.assert_array_equal(np.asarray(on(x)), first)


@pytest.mark.iree
def test_bf16_single_rows_on_the_row_kernel_sum_as_iree_does():
    """A single bf16 row runs on the plugin's own kernel (gemv_bf16.h) where the CPU has
    AVX-512-BF16: rows in fours with a remainder (75 = 4 x 18 + 3, 130 = 4 x 32 + 2),
    columns in 32s with a masked remainder (130, 67, split between workgroups). Weights of
    +-1 and activations in eighths keep every product and sum exact in f32, so both
    kernels agree exactly whatever their order of summation."""
    torch.manual_seed(0)
    model = torch.nn.Sequential(torch.nn.Linear(75, 130), torch.nn.ReLU(), torch.nn.Linear(130, 67))
    with torch.no_grad():
        for layer in (model[0], model[2]):
            layer.weight.copy_(torch.sign(layer.weight))
            layer.bias.copy_(torch.round(layer.bias * 8) / 8)
    x = torch.randint(-8, 9, (1, 75)) / 8.0
    on = mlc.compile(model, (x,), precision="bf16", **ON)
    off = mlc.compile(model, (x,), precision="bf16", target_options={"matmul-library": False})
    assert library_shapes(on) == ["1x75x130xbf16", "1x130x67xbf16"]
    expected = np.asarray(off(x))
    assert np.abs(expected).max() > 1  # not a row of zeros
    np.testing.assert_array_equal(np.asarray(on(x)), expected)


def test_int8_stays_on_iree_where_mkl_would_saturate(monkeypatch):
    """Without VNNI, MKL's int8 GEMM sums byte pairs in saturating 16 bits: no int8
    matmul goes to the library there, even with the option on."""
    monkeypatch.setattr(matmul_choice, "eligible_shapes", lambda module: ["64x768x3072xi8", "64x768x3072xbf16"])
    monkeypatch.setattr(matmul_library, "_cpu_flags", lambda: {"avx2", "avx512f", "avx512bw"})
    choice = matmul_choice.choose(None, {"matmul-library": True})
    assert choice["library"] == ["64x768x3072xbf16"]
    monkeypatch.setattr(matmul_library, "_cpu_flags", lambda: {"avx512f", "avx512_vnni"})
    assert matmul_library.exact_int8()
    monkeypatch.setenv("MKL_ENABLE_INSTRUCTIONS", "AVX2")
    assert not matmul_library.exact_int8()


def test_a_kernel_far_slower_in_the_first_round_is_not_timed_again(monkeypatch):
    """A kernel HOPELESS times slower than the fastest after the first round keeps that
    one time (IREE's bf16 kernel without AVX-512-BF16: 50-300 ms a call where the
    library takes 1-4); the others are timed every round. On a clock that each call
    moves by its kernel's cost."""
    clock, calls = [0.0], {}

    def kernel(name: str, seconds: float):
        def run(_):
            calls[name] = calls.get(name, 0) + 1
            clock[0] += seconds
        return run

    monkeypatch.setattr(matmul_choice, "time", type("Clock", (), {"perf_counter": staticmethod(lambda: clock[0])}))
    kernels = {"library": kernel("library", 0.001), "iree": kernel("iree", 0.1), "own kernel": kernel("own kernel", 0.003)}
    timing = matmul_choice._rounds(kernels, dict.fromkeys(kernels), 1)
    assert timing == {"library ms": 1.0, "iree ms": 100.0, "own kernel ms": 3.0}
    every_round = matmul_choice.ROUNDS * (1 + matmul_choice.CALLS)
    assert calls == {"library": every_round, "iree": 1 + matmul_choice.CALLS, "own kernel": every_round}


def test_a_shape_timed_while_a_cpu_was_taken_is_timed_again():
    """Several rows no faster on IREE's two workers than on one thread: one CPU was busy
    elsewhere. The shape is timed again and each variant keeps its faster time; a plausible
    timing, or a single row (where the workers' overhead can lose), is timed once."""
    calls = []

    def timings(*results):
        def time_once():
            calls.append(1)
            return results[len(calls) - 1]
        return time_once

    busy = {"iree ms": 1.40, "iree one thread ms": 1.25, "library ms": 1.5, "own kernel ms": 1.30}
    quiet = {"iree ms": 0.85, "iree one thread ms": 1.36, "library ms": 1.6, "own kernel ms": 0.80}
    assert matmul_choice.timed_again_if_disturbed("64x2048x512", timings(busy, quiet)) == {
        "iree ms": 0.85, "iree one thread ms": 1.25, "library ms": 1.5, "own kernel ms": 0.80}
    assert len(calls) == 2
    calls.clear()
    assert matmul_choice.timed_again_if_disturbed("64x2048x512", timings(quiet)) == quiet and len(calls) == 1
    calls.clear()
    row = {"iree ms": 0.040, "iree one thread ms": 0.034, "library ms": 0.054}
    assert matmul_choice.timed_again_if_disturbed("1x768x768xbf16", timings(row)) == row and len(calls) == 1


def test_mlc_f32_kernel_takes_the_shapes_it_measured_fastest_on(monkeypatch):
    """Of the shapes the plugin wins by 10 % over IREE's kernel, those where mlc's own f32
    kernel beat MKL run on it; a shape never timed on it (bf16) stays MKL's."""
    times = {"128x768x3072": {"iree ms": 4.0, "library ms": 3.9, "own kernel ms": 3.0},  # mlc's kernel wins it
             "128x3072x768": {"iree ms": 4.0, "library ms": 2.0, "own kernel ms": 3.0},  # MKL wins it
             "197x768x768": {"iree ms": 1.0, "library ms": 1.5, "own kernel ms": 0.95},  # IREE's kernel keeps it
             "128x768x768xbf16": {"iree ms": 1.0, "library ms": 0.5}}

    class Known:
        def get(self, shapes):
            return {s: times[s] for s in shapes}

    monkeypatch.setattr(matmul_choice, "eligible_shapes", lambda module: list(times))
    monkeypatch.setattr(matmul_choice.Measurements, "here", classmethod(lambda cls: Known()))
    choice = matmul_choice.choose(None, {})
    assert choice["library"] == ["128x768x3072", "128x3072x768", "128x768x768xbf16"]
    assert choice["own kernel"] == ["128x768x3072"] and choice["iree"] == ["197x768x768"]
    assert matmul_choice.kernels(choice)[0] == matmul_choice.own_kernel("128x768x3072")  # "mlc AVX-512", or AVX2
    assert matmul_choice.matmul_ms(None, choice) == pytest.approx(3.0 + 2.0 + 1.0 + 0.5)
    monkeypatch.setenv("MLC_F32_KERNEL", "mkl")  # the plugin then runs it on MKL, and says so
    assert matmul_choice.kernels(choice)[0] == matmul_library.kernel_of("128x768x3072")


def test_the_mlc_option_puts_every_shape_on_the_plugin_and_mlc_kernels_unmeasured(monkeypatch):
    """matmul-library=mlc: every matmul on the plugin, each that mlc's own f32 or bf16
    kernel can run (own_kernel_suits) on it, nothing timed; int8 stays on the plugin's own
    int8 kernels as with on."""
    if not matmul_library.available()[0]:
        pytest.skip("mlc's matmul plugin cannot be built here")
    shapes = ["128x768x3072", "1x768x768", "45x300x130xbf16", "45x301x130xbf16", "128x768x768xi8"]
    monkeypatch.setattr(matmul_choice.Measurements, "here", classmethod(lambda cls: pytest.fail("timed")))
    choice = matmul_choice.choose_measured(shapes, {"matmul-library": "mlc"})
    library = [s for s in shapes if matmul_library.exact_int8() or not s.endswith("i8")]
    assert choice["library"] == library and choice["iree"] == []
    assert choice["own kernel"] == [s for s in library if matmul_choice.own_kernel_suits(s)]
    assert "45x301x130xbf16" not in choice["own kernel"]  # an odd depth: gemm_bf16.h reads rows in pairs


# precision -> (mlc's own kernel, the instructions it needs, its error against eager's f32)
OWN_KERNELS = {"f32": ("AVX-512F, or AVX2 and FMA for a single row", 1e-5),
               "bf16": ("AVX-512-BF16, or AVX2 and FMA for a single row", 2e-2)}


@pytest.mark.iree
@pytest.mark.parametrize("precision, rows", [("f32", 45), ("f32", 1), ("bf16", 45), ("bf16", 1)])
def test_products_on_mlc_kernel_match_eager_and_mkl(tmp_path, precision, rows):
    """mlc's own f32 kernel (sgemm_avx512.h) and bf16 kernel (gemm_bf16.h) on odd sizes,
    each product's weight packed once: 45 rows (6 at a time, and 3) or a single row (a
    decode step's, which streams the packed weight), a depth of 300 (f32: a K block of
    256 and one of 44), 130 and 300 columns split between the plugin's threads (panels
    of 64 not whole); with several rows bias, GELU and residual in the call (at bf16 the
    first call's result cast to bf16 there). Against eager, and against MKL
    (MLC_F32_KERNEL=mkl; a single bf16 row then on gemv_bf16.h): as right. MKL's log
    (MKL_VERBOSE) shows that MKL packed and ran no GEMM with mlc's kernel, and did without
    it (a single bf16 row: not the same bits). Bits alone do not tell them apart: on an
    Intel Xeon (model 207) MKL's f32 GEMM of 45 rows gave mlc's bits exactly."""
    instructions, budget = OWN_KERNELS[precision]
    shape = f"{rows}x300x130" + ("" if precision == "f32" else f"x{precision}")
    if not matmul_choice.own_kernel_suits(shape):
        pytest.skip(f"mlc's {precision} kernel needs {instructions}")
    kernel = matmul_choice.own_kernel(shape)
    script = """
import sys, numpy as np, torch, mlc
from mlc.driver.backends import matmul_choice
class Block(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.up, self.down = torch.nn.Linear(300, 130), torch.nn.Linear(130, 300)

    def forward(self, x):
        return x + self.down(torch.nn.functional.gelu(self.up(x)))

torch.manual_seed(0)
model, x = Block().eval(), torch.randn(int(sys.argv[4]), 300)
compiled = mlc.compile(model, (x,), precision=sys.argv[2], target_options={"matmul-library": "mlc"})
with torch.no_grad():
    expected = model(x).numpy()
got = np.asarray(compiled(x))
np.save(sys.argv[1], got)
print(sorted(set(matmul_choice.kernels(compiled.report["matmul library"]))),
      compiled.report.pass_statistics("mlc-library-matmuls").get("matmuls on mlc's own kernel"),
      float(np.abs(got - expected).max() / np.abs(expected).max()) < float(sys.argv[3]))
"""
    runs = {"mlc": {}, "mkl": {"MLC_F32_KERNEL": "mkl"}}
    outputs = {"mlc": f"['{kernel}'] 2 True", "mkl": f"['{matmul_library.kernel_of(shape)}'] 2 True"}
    results, mkl_gemms = {}, {}
    for name, settings in runs.items():
        env = {key: value for key, value in os.environ.items() if key != "MLC_F32_KERNEL"}
        env.update(settings, MLC_CACHE_DIR=str(cache_of_its_own(tmp_path / name)), MKL_VERBOSE="1")
        done = subprocess.run([sys.executable, "-c", script, str(tmp_path / f"{name}.npy"), precision, str(budget),
                               str(rows)], capture_output=True, text=True, env=env)
        assert done.returncode == 0, done.stderr[-2000:]
        lines = done.stdout.strip().splitlines()
        assert [line for line in lines if not line.startswith("MKL_VERBOSE")][-1] == outputs[name], done.stdout
        # the plugin's MKL calls take packed weights, but a single bf16 row's (eager's
        # reference calls plain SGEMM)
        mkl_gemms[name] = [line for line in lines if line.startswith("MKL_VERBOSE") and "GEMM" in line
                           and ("_PACK" in line or "_COMPUTE(" in line or "BF16BF16F32(" in line)]
        results[name] = np.load(tmp_path / f"{name}.npy")
    assert mkl_gemms["mlc"] == []
    if matmul_library.kernel_of(shape).startswith("MKL"):
        assert any("_COMPUTE(" in line or "BF16BF16F32(" in line for line in mkl_gemms["mkl"]), mkl_gemms["mkl"]
    else:  # both on the plugin's own kernels
        assert not np.array_equal(results["mlc"], results["mkl"])


@pytest.mark.iree
def test_int8_matrices_give_the_same_floats_with_mlc_kernels_forced_off(tmp_path):
    """Several quantized rows run on the plugin's AMX kernel (amx_s8.h), its VNNI kernel
    (vnni_s8.h) or, with neither, its AVX2 kernel (gemm_s8_avx2.h). With
    MKL_ENABLE_INSTRUCTIONS=AVX512_E3 the AMX kernel steps aside with MKL's, for the VNNI
    kernel; with MLC_INT8_KERNEL=mkl as well, both step aside for MKL's VNNI GEMM. All sum
    exactly and rescale alike, so the floats are the same, bit for bit. On AVX2, the
    weight packed at each call (MLC_PACKED_WEIGHTS_LIMIT=0) gives them too, and
    MLC_INT8_KERNEL=mkl leaves the matmuls IREE's steps (MKL's int8 would saturate), equal
    to rounding (GELU's erf is the plugin's own after its kernels). 45 rows (the kernels' 6
    at a time, and 3), depths of 75 and 130 (not whole groups of 4, nor pairs), 130 and 75
    columns (not whole panels of 64 or 16) split between the plugin's threads."""
    if not matmul_choice.quantized_matrices_whole(ON["target_options"]):
        pytest.skip("several int8 rows run whole on the library only where the CPU has AMX-INT8, VNNI or AVX2")
    script = """
import sys, numpy as np, torch, mlc
from mlc.driver.backends import matmul_library
class Block(torch.nn.Module):  # QuantizedBlock, of odd sizes
    def __init__(self):
        super().__init__()
        self.up, self.down = torch.nn.Linear(75, 130), torch.nn.Linear(130, 75)

    def forward(self, x):
        return x + self.down(torch.nn.functional.gelu(self.up(x)))

torch.manual_seed(0)
model, x = Block().eval(), torch.randn(45, 75)
compiled = mlc.compile(model, (x,), precision="int8", target_options={"matmul-library": True})
np.save(sys.argv[1], np.asarray(compiled(x)))
print(sorted({matmul_library.kernel_of(s) for s in compiled.report["matmul library"]["library"]}))
"""
    below_amx = {"MKL_ENABLE_INSTRUCTIONS": "AVX512_E3"}
    runs = {"mlc VNNI": below_amx, "MKL AVX-512-VNNI": {**below_amx, "MLC_INT8_KERNEL": "mkl"}}
    if matmul_library.mkl_kernel("i8") == "AMX":
        runs["mlc AMX"] = {}
    reference = "mlc VNNI"
    if not matmul_library.exact_int8():
        runs = {"mlc AVX2": {}, "mlc AVX2 packed at each call": {"MLC_PACKED_WEIGHTS_LIMIT": "0"},
                "IREE": {"MLC_INT8_KERNEL": "mkl"}}
        reference = "mlc AVX2"
    results = {}
    for expected_kernel, settings in runs.items():
        name = expected_kernel.replace(" ", "_")
        env = {key: value for key, value in os.environ.items()
               if key not in ("MKL_ENABLE_INSTRUCTIONS", "MLC_INT8_KERNEL")}
        env.update(settings, MLC_CACHE_DIR=str(cache_of_its_own(tmp_path / name)))
        done = subprocess.run([sys.executable, "-c", script, str(tmp_path / f"{name}.npy")], capture_output=True,
                              text=True, env=env)
        assert done.returncode == 0, done.stderr[-2000:]
        on_library = "[]" if expected_kernel == "IREE" else f"['{expected_kernel.removesuffix(' packed at each call')}']"
        assert done.stdout.strip() == on_library, (settings, done.stdout)
        results[expected_kernel] = np.load(tmp_path / f"{name}.npy")
    for kernel, result in results.items():
        if kernel == "IREE":
            np.testing.assert_allclose(result, results[reference], rtol=1e-5, atol=1e-5)
        else:
            np.testing.assert_array_equal(result, results[reference])


@pytest.mark.iree
def test_bf16_on_the_library_with_amx_forced_off(tmp_path):
    """MKL_ENABLE_INSTRUCTIONS=AVX512_E3 holds MKL below AMX (AVX512_E4): its bf16 GEMM
    then runs without AMX, and the result is as right as with it."""
    script = """
import torch, mlc
from mlc.driver.backends import matmul_library
torch.manual_seed(0)
model, x = torch.nn.Linear(64, 256), torch.randn(24, 64)
compiled = mlc.compile(model, (x,), precision="bf16", target_options={"matmul-library": True})
with torch.no_grad():
    expected = model(x)
error = float((torch.as_tensor(compiled(x)) - expected).norm() / expected.norm())
print(compiled.report["matmul library"]["library"], matmul_library.mkl_kernel("bf16"), 0 < error < 2e-2)
"""
    env = {**os.environ, "MKL_ENABLE_INSTRUCTIONS": "AVX512_E3",
           "MLC_CACHE_DIR": str(cache_of_its_own(tmp_path / "cache"))}
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, env=env)
    assert done.returncode == 0, done.stderr[-2000:]
    shapes, kernel, within = done.stdout.split("] ")[0] + "]", *done.stdout.split("] ")[1].split()
    assert shapes == "['24x64x256xbf16']" and kernel != "AMX" and within == "True", done.stdout


BF16_ROWS_SCRIPT = """
import numpy as np, torch, mlc
from mlc.driver.backends import matmul_library
torch.manual_seed(0)
model, x = torch.nn.Sequential(torch.nn.Linear(130, 200), torch.nn.GELU(), torch.nn.Linear(200, 70)), torch.randn(45, 130)
compiled = mlc.compile(model, (x,), precision="bf16", target_options={"matmul-library": True})
with torch.no_grad():
    expected = model(x)
result = torch.as_tensor(compiled(x))
np.save(OUT, result.numpy())
print(sorted(compiled.report["matmul library"]["library"]), matmul_library.kernel_of("45x130x200xbf16"),
      float((result - expected).norm() / expected.norm()))
"""


@pytest.mark.iree
def test_bf16_rows_run_as_f32_where_the_cpu_has_no_bf16_instructions(tmp_path):
    """Without AVX-512-BF16, several bf16 rows on a packed weight run on MKL's f32 GEMM, the
    weight widened once and the rows at each call (gemm_bf16_packed_block): the products of
    MKL's bf16 GEMM (MLC_BF16_KERNEL=mkl), which widens itself there. With the instructions,
    both are MKL's bf16 GEMM."""
    results, names = {}, {}
    for held in ("", "mkl"):
        out = tmp_path / f"result{held}.npy"
        env = {**os.environ, "MLC_BF16_KERNEL": held, "MLC_CACHE_DIR": str(cache_of_its_own(tmp_path / "cache"))}
        done = subprocess.run([sys.executable, "-c", f"OUT = {str(out)!r}" + BF16_ROWS_SCRIPT], capture_output=True,
                              text=True, env=env)
        assert done.returncode == 0, done.stderr[-2000:]
        shapes, names[held], error = done.stdout.rsplit("] ", 1)[0] + "]", *done.stdout.rsplit("] ", 1)[1].rsplit(" ", 1)
        assert shapes == "['45x130x200xbf16', '45x200x70xbf16']" and 0 < float(error) < 2e-2, done.stdout
        results[held] = np.load(out)
    widened = "avx512_bf16" not in matmul_library._cpu_flags()
    assert names[""].endswith("(bf16 widened)") == widened and "widened" not in names["mkl"], names
    np.testing.assert_allclose(results[""], results["mkl"], rtol=1e-5, atol=1e-6)


def test_a_bad_option_value_is_an_error():
    with pytest.raises(UserError, match="matmul-library must be auto, true, false or mlc, got 'sometimes'"):
        mlc.compile(MLP(), (torch.randn(2, 64),), target_options={"matmul-library": "sometimes"})


def test_on_where_the_plugin_cannot_be_built_is_an_error(monkeypatch):
    monkeypatch.setattr(matmul_library, "available", lambda: (False, "no C compiler (cc, gcc or clang) on PATH"))
    monkeypatch.setattr(matmul_choice, "eligible_shapes", lambda module: ["256x256x256"])
    with pytest.raises(UserError, match="matmul-library is on, but mlc's matmul plugin cannot be used here: no C"):
        matmul_choice.choose(None, {"matmul-library": True})
    with pytest.raises(UserError, match="matmul-library is mlc, but mlc's matmul plugin cannot be used here: no C"):
        matmul_choice.choose(None, {"matmul-library": "mlc"})
    assert matmul_choice.choose(None, {})["why"].startswith("unavailable: no C compiler")


@pytest.mark.iree
def test_a_saved_executable_runs_in_iree_run_module_with_the_printed_flag(tmp_path):
    torch.manual_seed(0)
    model, x = MLP().eval(), torch.randn(24, 64)
    compiled = mlc.compile(model, (x,), **ON)
    compiled.save(tmp_path / "mlp.vmfb")
    plugin = tmp_path / matmul_library.PLUGIN_NAME
    assert plugin.exists()
    np.save(tmp_path / "x.npy", x.numpy())
    np.save(tmp_path / "expected.npy", model(x).detach().numpy())
    run = [str(iree_backend.runtime_tool("iree-run-module")), f"--module={tmp_path / 'mlp.vmfb'}",
           "--device=local-task", "--function=main", f"--input=@{tmp_path / 'x.npy'}",
           f"--expected_output=@{tmp_path / 'expected.npy'}", "--expected_f32_threshold=0.0001"]
    done = subprocess.run([*run, matmul_library.run_flag(plugin)], capture_output=True, text=True)
    assert done.returncode == 0, done.stdout + done.stderr
    # On the calling thread, as mlc runs it; the plugin's helpers end before IREE unloads
    # it (left running, they crashed about one exit in two).
    alone = [arg.replace("local-task", "local-sync") for arg in run]
    for _ in range(3):
        done = subprocess.run([*alone, matmul_library.run_flag(plugin)], capture_output=True, text=True)
        assert done.returncode == 0, done.stdout + done.stderr
    without = subprocess.run(run, capture_output=True, text=True)
    assert without.returncode != 0 and "no executable loader registered" in without.stdout + without.stderr


@pytest.mark.iree
def test_loading_without_the_plugin_says_why(tmp_path):
    """A process that made IREE's CPU driver before mlc could hand it the plugin."""
    torch.manual_seed(0)
    mlc.compile(MLP(), (torch.randn(24, 64),), **ON).save(tmp_path / "mlp.vmfb")
    script = f"""
import iree.runtime, numpy as np
iree.runtime.Config("local-task")  # the driver exists, without mlc's plugin
from mlc.driver.backends import iree as iree_backend
try:
    iree_backend.load(open({str(tmp_path / 'mlp.vmfb')!r}, "rb").read())
except Exception as error:
    print(type(error).__name__, error)
"""
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, env={**os.environ})
    assert done.stdout.startswith("MissingPlugin this executable runs matmuls on mlc's matmul library"), done.stderr
    assert "--executable_plugin=PATH/libmlc_matmul.so" in done.stdout


def test_a_plugin_that_failed_to_build_is_named_as_the_cause(monkeypatch):
    """Loading an executable that calls the plugin, where the plugin's build failed: the
    compiler's message, not advice about the order of IREE's devices."""
    monkeypatch.setattr(matmul_library, "available",
                        lambda: (False, "building it failed: cc ...\nmlc_matmul.c:12: error: expected ';'"))
    error = matmul_library.missing_plugin_error(RuntimeError("NOT_FOUND; no executable loader registered"))
    assert "cannot be used here: building it failed" in str(error) and "expected ';'" in str(error)
    assert "executable_plugin" not in str(error)


def test_a_process_whose_cpu_driver_lacks_the_plugin_keeps_every_matmul_on_iree(monkeypatch):
    """Measuring needs the plugin loaded; where this process made IREE's CPU driver first,
    the compile goes on with IREE's kernel and says why."""

    class Unloadable:
        def get(self, shapes):
            raise matmul_library.MissingPlugin("no plugin in this process")

    monkeypatch.setattr(matmul_choice, "eligible_shapes", lambda module: ["256x256x256"])
    monkeypatch.setattr(matmul_choice.Measurements, "here", classmethod(lambda cls: Unloadable()))
    choice = matmul_choice.choose(None, {})
    assert choice["library"] == [] and choice["iree"] == ["256x256x256"]
    assert choice["why"] == "unavailable: IREE's CPU driver in this process lacks the plugin"


def test_kernel_of_names_what_runs_each_library_shape(monkeypatch):
    """A single int8 row on the plugin's VNNI kernel, several rows it quantizes on its AMX
    kernel (up to a VNNI strip's rows on its VNNI kernel, where the CPU has both), and a single bf16 row of at most 8192 columns per block on its AVX-512-BF16
    kernel, where the CPU has them; quantized rows on its AVX2 kernels where the CPU has
    no VNNI; MKL otherwise."""
    monkeypatch.delenv("MKL_ENABLE_INSTRUCTIONS", raising=False)
    monkeypatch.setattr(matmul_library, "_cpu_flags", lambda: {"avx512f", "avx512bw", "avx512_vnni"})
    assert matmul_library.kernel_of("1x768x3072xi8") == "mlc VNNI"
    assert matmul_library.kernel_of("4x768x3072xi8") == "MKL AVX-512-VNNI"
    assert matmul_library.kernel_of("1x768x3072") == "MKL AVX-512"
    monkeypatch.setattr(matmul_library, "_cpu_flags", lambda: {"avx512f", "amx_int8", "amx_bf16"})
    assert matmul_library.kernel_of("1x768x3072xi8") == "MKL AMX"
    assert matmul_library.kernel_of("128x768x3072xq8") == "mlc AMX"  # rows mlc quantizes: its own AMX kernel
    assert matmul_library.kernel_of("128x768x3072xi8") == "MKL AMX"  # int8 rows from PT2E's graphs: MKL's
    monkeypatch.setenv("MKL_ENABLE_INSTRUCTIONS", "AVX512_E3")  # held below AMX: both kernels
    assert matmul_library.kernel_of("128x768x3072xq8") == "MKL AVX-512"
    monkeypatch.delenv("MKL_ENABLE_INSTRUCTIONS")
    monkeypatch.setattr(matmul_library, "_cpu_flags", lambda: {"avx512f", "avx512bw", "avx512_vnni", "amx_int8"})
    assert matmul_library.kernel_of("6x768x3072xq8") == "mlc VNNI"  # a decode step's batch: one strip
    assert matmul_library.kernel_of("7x768x3072xq8") == "mlc AMX"
    monkeypatch.setattr(matmul_library, "_cpu_flags", lambda: {"avx512f", "avx512bw", "avx512_bf16", "amx_bf16"})
    assert matmul_library.kernel_of("1x768x3072xbf16") == "mlc AVX-512-BF16"
    assert matmul_library.kernel_of("1x768x50257xbf16") == "MKL AMX"  # blocks of 25136 columns: MKL's
    assert matmul_library.kernel_of("2x768x3072xbf16") == "MKL AMX"
    monkeypatch.setattr(matmul_library, "_cpu_flags", lambda: {"avx2", "fma"})  # AMD's Zen 3: no VNNI
    assert matmul_library.kernel_of("1x768x3072xq8") == "mlc AVX2"  # a quantized row: gemv_s8_avx2.h
    assert matmul_library.kernel_of("2x768x3072xq8") == "mlc AVX2"  # several: gemm_s8_avx2.h
    assert matmul_library.kernel_of("2x768x3072xi8") == "MKL AVX2"  # int8 rows from PT2E's graphs


def test_few_rows_are_measured_for_their_weight():
    """A decode step's rows (one sequence's or a batch's) are bound by their weight:
    measured from 512 KiB whatever their flops. More rows of the same weight, or a
    smaller weight, stay unmeasured below MIN_FLOPS, on IREE."""
    rows = matmul_choice.WEIGHT_BOUND_ROWS
    assert matmul_choice.is_weight_bound("1x768x3072xi8")
    assert matmul_choice.is_weight_bound("4x512x1024")  # 4 MFLOP, 2 MiB of weight
    assert matmul_choice.is_weight_bound(f"{rows}x512x1024")
    assert not matmul_choice.is_weight_bound(f"{rows + 1}x512x1024")
    assert not matmul_choice.is_weight_bound("1x64x256")


def test_few_rows_are_timed_on_cold_copies_of_their_weight():
    """A decode step reads each weight once, from memory: a few rows are timed on copies
    of their weight that together take twice the last-level cache (within bounds; at most
    MAX_COPIES), one copy per product. More rows are timed on one weight."""
    cold = matmul_choice.cold_bytes()
    assert matmul_choice.MIN_COLD_BYTES <= cold <= matmul_choice.MAX_COLD_BYTES
    assert cold >= min(matmul_choice.MAX_COLD_BYTES, 2 * matmul_choice.last_level_cache_bytes())
    assert matmul_choice.copies("1x768x2304xbf16") == -(-cold // (768 * 2304 * 2))  # 3.4 MiB each
    assert matmul_choice.copies("1x768x768xi8") == matmul_choice.MAX_COPIES
    assert matmul_choice.copies("1x8192x8192xbf16") == 1  # 128 MiB
    assert matmul_choice.copies("4x768x3072") == -(-cold // (768 * 3072 * 4))  # a batch of 4 sequences
    assert matmul_choice.copies(f"{matmul_choice.WEIGHT_BOUND_ROWS + 1}x768x3072") == 1
    assert matmul_choice.copies("128x768x3072") == 1


def test_every_copy_of_a_timed_weight_has_values_of_its_own():
    """Equal copies would be one packed weight on the plugin and one constant in IREE,
    read from the cache: values that repeated every 7 copies did."""
    values = [matmul_choice._varied_values(64, 64, "f32", copy).tobytes() for copy in range(matmul_choice.MAX_COPIES)]
    assert len(set(values)) == len(values)


@pytest.mark.iree
def test_every_copy_of_a_timed_weight_is_checked():
    """Each copy has values of its own (IREE would keep one of equal constants), and
    both kernels' products on each are checked before any is timed."""
    shape = "1x256x1024xbf16"
    assert matmul_choice.copies(shape) == matmul_choice.MAX_COPIES
    assert not np.array_equal(matmul_choice._varied_values(256, 1024, "bf16", 0),
                              matmul_choice._varied_values(256, 1024, "bf16", 1))
    measured = matmul_choice.measure([shape])[shape]
    assert measured["iree ms"] > 0 and measured["library ms"] > 0



def gelu_new(x):
    """GPT-2's activation as Hugging Face writes it (NewGELUActivation): mlc-form-gelu
    makes it GELU's tanh form."""
    return 0.5 * x * (1.0 + torch.tanh(math.sqrt(2.0 / math.pi) * (x + 0.044715 * torch.pow(x, 3.0))))


class Block(torch.nn.Module):
    """A residual MLP: linear, GELU (erf, tanh, or tanh written out), linear, plus the input."""

    def __init__(self, approximate):
        super().__init__()
        self.up, self.down, self.approximate = torch.nn.Linear(64, 130), torch.nn.Linear(130, 64), approximate

    def forward(self, x):
        h = self.up(x)
        h = gelu_new(h) if self.approximate == "written out" else torch.nn.functional.gelu(h, approximate=self.approximate)
        return x + self.down(h)


@pytest.mark.iree
@pytest.mark.parametrize("approximate", ["none", "tanh", "written out"])
def test_epilogues_bias_gelu_and_residual_run_inside_the_library_call(approximate):
    """Both groups are only epilogues (bias + GELU; bias + residual): no region is left,
    and the result is eager's, with NaN and infinities in the input too, and with GELU's
    input far out on both sides in one row (where the AVX-512 erf clamps |x|)."""
    torch.manual_seed(0)
    x = torch.randn(37, 64) * 3
    special = x.clone()
    special[0, :4] = torch.tensor([float("nan"), float("inf"), -float("inf"), 1e30])
    far = x.clone()
    far[1] *= 1e4
    compiled = compile_and_compare(Block(approximate), x, call_with=[(x,), (special,), (far,)], **ON)
    statistics = compiled.report.pass_statistics("mlc-library-matmuls")
    assert statistics["epilogues on the library"] == 2 and statistics["regions left empty"] == 2
    assert compiled.report["dispatches by kind"]["mlc dispatch regions"] == 0
    assert torch.isnan(compiled(special)[0]).all()


class NormThenHead(torch.nn.Module):
    """An RMSNorm's scaling and a bias-free head, as a Llama ends: on llvm-cpu a matmul's
    group takes no producer (IREE's data tiling packs its operands there), so the scaling
    is a group of its own and the library pass has nothing to move out."""

    def __init__(self):
        super().__init__()
        self.scale, self.head = torch.nn.Parameter(torch.rand(256) + 0.5), torch.nn.Linear(256, 1000, bias=False)

    def forward(self, x):
        normed = x * torch.rsqrt(x.pow(2).mean(-1, keepdim=True) + 1e-6)
        return self.head(normed * self.scale)


@pytest.mark.iree
@pytest.mark.parametrize("rows", [1, 24])
def test_a_matmuls_producer_stays_out_of_its_group_and_the_library_takes_the_matmul(rows):
    torch.manual_seed(0)
    x = torch.randn(rows, 256)
    compiled = compile_and_compare(NormThenHead(), x, **ON)
    statistics = compiled.report.pass_statistics("mlc-library-matmuls")
    assert "prologues moved out" not in statistics and statistics["matmuls on the library"] == 1
    assert ["mlc.matmul"] in compiled.report.fusion_groups
