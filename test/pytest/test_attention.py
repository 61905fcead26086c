"""Attention on mlc's matmul plugin: `mlc-form-attention` makes each attention's steps one
mlc.attention, and its lowering calls the plugin's `mlc_attention` once per head
(passes/form_attention.py, passes/lower_to_linalg/attention.py,
driver/backends/native/mlc_attention.h). Each case is checked against eager, and
against the steps where the plugin is off."""

import math
import os
import subprocess
import sys

import numpy as np
import pytest
import torch
import torch.nn.functional as F
from conftest import assert_matches, cache_of_its_own, compile_and_compare
from test_precision import BF16_BUDGET, cpu_flags, relative_error

import mlc
from mlc.driver.backends import matmul_library

pytestmark = [pytest.mark.iree,
              pytest.mark.skipif(not matmul_library.available()[0],
                                 reason=f"mlc's matmul plugin cannot be built here: {matmul_library.available()[1]}")]
OFF = {"target_options": {"matmul-library": False}}


def formed(compiled) -> int:
    return compiled.report.pass_statistic("mlc-form-attention", "attentions formed")


class Attention(torch.nn.Module):
    """torch's scaled_dot_product_attention with the given keyword arguments."""

    def __init__(self, **options):
        super().__init__()
        self.options = options

    def forward(self, q, k, v, *mask):
        return F.scaled_dot_product_attention(q, k, v, *mask, **self.options)


def qkv(batch=2, heads=3, m=37, n=37, d=16, dv=16):
    torch.manual_seed(0)
    return torch.randn(batch, heads, m, d), torch.randn(batch, heads, n, d), torch.randn(batch, heads, n, dv)


CASES = {
    "no mask": (Attention(), qkv()),
    "scale": (Attention(scale=0.3), qkv(m=5, n=29, d=8, dv=24)),
    "causal": (Attention(is_causal=True), qkv(m=21, n=21)),
    # the odd lengths leave a tail after the softmax's vectors of 16
    "197 keys": (Attention(), qkv(batch=1, heads=4, m=197, n=197, d=64, dv=64)),
    # a decode step's: mlc-matvec-to-reduction, which makes such scores a sum, runs after
    # mlc-form-attention where the plugin runs attention
    "one query row": (Attention(), qkv(m=1, n=37)),
    # the plugin's own loops for a single row: keys 16 at a time and a tail of 2 (50),
    # vectors of 16 and a tail of the key's 20 columns, a block of 64 and a tail of the
    # value's 88
    "one query row, long": (Attention(scale=0.7), qkv(m=1, n=50, d=20, dv=88)),
    # on a CPU with AVX2 but not AVX-512 (attention_row_avx2.h): keys 8 at a time and a
    # tail of 5 (45), a vector of 8 and a tail of 5 columns (13), a block of 64, one of 8
    # and a tail of 3 of the value's 75
    "one query row, AVX2's tails": (Attention(scale=0.4), qkv(m=1, n=45, d=13, dv=75)),
    "one query row, masked": (Attention(is_causal=False), (*qkv(m=1, n=40, d=64, dv=64), torch.randn(1, 1, 1, 40))),
}


@pytest.mark.parametrize("case", CASES, ids=list(CASES))
def test_attention_on_the_plugin_matches_eager(case):
    model, inputs = CASES[case]
    compiled = compile_and_compare(model, *inputs)
    assert formed(compiled) == 1
    assert compiled.report["dispatches by kind"]["library attention"] == 1
    assert matmul_library.calls_plugin(compiled.artifact)


def test_an_additive_padding_mask_broadcast_over_heads_and_rows():
    """BERT's mask: [batch, 1, 1, keys], read with strides 0 over heads and queries."""
    q, k, v = qkv(batch=2, heads=3, m=11, n=13)
    mask = torch.zeros(2, 1, 1, 13)
    mask[0, ..., 9:] = -math.inf
    mask[1, ..., :2] = -1e4
    compiled = compile_and_compare(Attention(), q, k, v, mask)
    assert formed(compiled) == 1


def test_a_boolean_mask_gives_a_fully_masked_query_zero_weights_as_torch_does():
    """A query whose every key is masked gets zeros (torch's attention), not NaN."""
    q, k, v = qkv(batch=1, heads=2, m=6, n=9)
    keep = torch.rand(1, 2, 6, 9) > 0.3
    keep[0, 1, 4, :] = False
    compiled = compile_and_compare(Attention(), q, k, v, keep)
    assert formed(compiled) == 1
    out = compiled(q, k, v, keep)
    assert torch.equal(out[0, 1, 4], torch.zeros(16))


def test_nan_and_infinity_in_the_scores_propagate_as_in_eager():
    q, k, v = qkv(batch=1, heads=2, m=4, n=20)
    compiled = mlc.compile(Attention(), (q, k, v))
    q[0, 0, 1, 3] = math.nan
    q[0, 1, 2, :] = math.inf
    with torch.no_grad():
        expected = Attention()(q, k, v)
    assert_matches(compiled(q, k, v), expected)
    assert torch.isnan(compiled(q, k, v)[0, 0, 1]).all()


@pytest.mark.parametrize("options", [{}, OFF, {"opt_level": 0}], ids=["plugin", "steps", "O0"])
def test_a_query_whose_scores_are_all_minus_inf_gets_zero_weights_as_torch_does(options):
    """torch's attention zeroes a query whose scores are all -inf, mask or none (here an
    infinite query against negative keys: the random programs' seed 140002 made it by
    overflowing a float16), as its reference `_safe_softmax` does; softmax gives NaN."""
    q, k, v = qkv(batch=1, heads=2, m=6, n=9)
    k = -k.abs() - 0.1
    q[0, 1, 4] = 0.0
    q[0, 1, 4, 0] = math.inf
    keep = torch.ones(1, 2, 6, 9, dtype=torch.bool)
    keep[0, 0, 2] = False
    for inputs in ((q, k, v), (q, k, v, keep)):
        compiled = compile_and_compare(Attention(), *inputs, **options)
        if not options:
            assert formed(compiled) == 1
        out = compiled(*inputs)
        assert torch.equal(out[0, 1, 4], torch.zeros(16))
    assert torch.equal(out[0, 0, 2], torch.zeros(16))


TAIL = {"target_options": {"zero-masked-tail": True}}


def zero_tail(m: int, attended: int, n: int = 100) -> tuple:
    """A cache of n slots as mlc.generator keeps it: q of m rows at the positions before
    `attended`, each row attending to the keys up to its own; k and v zeros past
    `attended` (the promise of `zero-masked-tail`)."""
    q, k, v = qkv(batch=1, heads=3, m=m, n=n, d=64, dv=64)
    k[..., attended:, :] = 0.0
    v[..., attended:, :] = 0.0
    positions = torch.arange(attended - m, attended)
    keep = (torch.arange(n)[None, :] <= positions[:, None]).expand(1, 1, m, n)
    return q, k, v, keep


# decode steps at positions 0, 15 (16 keys: one block), 16 (a block and one), 39 and the
# last slot; a prompt of 7 rows at the start of the cache
TAIL_CASES = [(1, 1), (1, 16), (1, 17), (1, 40), (1, 100), (7, 7)]


@pytest.mark.parametrize("m, attended", TAIL_CASES, ids=[f"{m} rows, {a} keys" for m, a in TAIL_CASES])
def test_keys_past_a_zero_tail_are_not_read(m, attended):
    """With `zero-masked-tail` (mlc.generator's cache: slots not yet written are zeros),
    the plugin reads the keys up to the last one attended to, and gives eager's results;
    a single row's, bit for bit those of reading every key. The keys past it are not
    read: made NaN, against the promise, they change nothing."""
    inputs = zero_tail(m, attended)
    compiled = compile_and_compare(Attention(), *inputs, **TAIL)
    assert "zero_masked_tail = true" in compiled.ir("mlc")
    out = compiled(*inputs)
    if m == 1:
        assert torch.equal(out, mlc.compile(Attention(), inputs)(*inputs))
    q, k, v, keep = inputs
    last = (attended + 15) // 16 * 16  # the keys read: rounded up to a block of 16
    if last < k.shape[-2]:
        k[..., last:, :] = math.nan
        v[..., last:, :] = math.nan
        assert torch.equal(compiled(q, k, v, keep), out)


def test_a_zero_tail_still_makes_an_infinite_query_nan_as_torch_does():
    """An infinite query row against keys that score it -inf: over the keys attended to
    alone its scores are all -inf (zero weights), but the zero keys past them score
    inf * 0 = NaN, and torch's row is NaN; so is mlc's, though it skips those keys (32
    attended: a whole number of blocks, so that the keys read hold no zero one)."""
    q, k, v, keep = zero_tail(4, 32)
    k[..., :32, :] = -k[..., :32, :].abs() - 0.1
    q[0, 1, 2] = 0.0
    q[0, 1, 2, 0] = math.inf
    compiled = compile_and_compare(Attention(), q, k, v, keep, **TAIL)
    assert torch.isnan(compiled(q, k, v, keep)[0, 1, 2]).all()


def test_a_zero_tail_makes_a_query_infinite_in_bf16_nan():
    """At bf16 the scores multiply the query rounded to bf16, where 3.4e38 (finite in f32,
    within half a bf16 step of the largest float) is inf: the row is NaN over all n, as
    for an infinite query above, though the query the plugin holds is finite. Without
    AVX-512-BF16 the products multiply f32, and the row is f32's."""
    q, k, v, keep = zero_tail(4, 32)
    k[..., :32, :] = -k[..., :32, :].abs() - 0.1
    q[0, 1, 2] = 0.0
    q[0, 1, 2, 0] = 3.4e38
    assert torch.isinf(q.to(torch.bfloat16)).sum() == 1 and torch.isfinite(q).all()
    compiled = mlc.compile(Attention(), (q, k, v, keep), precision="bf16", **TAIL)
    assert "zero_masked_tail = true" in compiled.ir("mlc") and "bf16_products = true" in compiled.ir("mlc")
    out = compiled(q, k, v, keep)
    if "avx512_bf16" in cpu_flags():
        assert torch.isnan(out[0, 1, 2]).all()
        out[0, 1, 2] = 0.0  # the other rows are bf16's
        assert torch.isfinite(out).all()
    else:
        with torch.no_grad():
            assert_matches(out, Attention()(q, k, v, keep))


def test_self_attention_of_one_input():
    """q, k and v one value (random programs, seed 165005): mlc-attention-views erased the
    view ops that cut its heads once per operand, and the second read an erased op (the
    process died in torch-mlir's C API)."""
    compiled = compile_and_compare(Attention(is_causal=True), *(torch.randn(3, 6, 3, 6),) * 3)
    assert formed(compiled) == 1


def test_multi_head_attention_layers_match_eager():
    """nn.MultiheadAttention, whose export transposes heads around the products: the key's
    transposes fold into one, and the layer's matmuls stay on their own path."""
    torch.manual_seed(0)
    layer = torch.nn.MultiheadAttention(64, 4, batch_first=True).eval()

    class SelfAttention(torch.nn.Module):
        def __init__(self):
            super().__init__()
            self.layer = layer

        def forward(self, x):
            return self.layer(x, x, x, need_weights=False)[0]

    compiled = compile_and_compare(SelfAttention(), torch.randn(3, 50, 64))
    assert formed(compiled) == 1
    # the batch moved back in front after the output projection joins the heads' transpose
    assert compiled.report.pass_statistic("mlc-move-row-transposes", "row transposes moved into a product's input") == 1
    without_plugin = compile_and_compare(SelfAttention(), torch.randn(3, 50, 64), **OFF)
    assert without_plugin.report.pass_statistic("mlc-move-row-transposes", "transposes removed") == 1


def test_without_the_plugin_attention_stays_as_its_steps():
    """`matmul-library` off (and every target but llvm-cpu): no mlc.attention; the steps
    compile as before."""
    model, inputs = CASES["causal"]
    compiled = compile_and_compare(model, *inputs, **OFF)
    assert formed(compiled) == 0
    assert "mlc.attention" not in compiled.ir("mlc")


def test_without_the_plugin_attention_keeps_data_tiling():
    """Off the plugin, the zeroing of -inf scores' weights (a compare and a select) is a
    group of its own, not the value product's producer: inside that group IREE's data
    tiling failed ("exceeded stack allocation limit"), and mlc compiled the whole model
    again without data tiling (ViT-B/16 1313 ms against 214, AMD EPYC)."""
    model, inputs = CASES["197 keys"]
    compiled = compile_and_compare(model, *inputs, **OFF)
    assert compiled.report["data tiling"] == "on"
    assert ["mlc.compare", "mlc.select"] in compiled.report.fusion_groups


def test_without_the_plugin_one_query_row_scores_are_a_sum():
    """Off the plugin, mlc-matvec-to-reduction keeps its place before the attention's
    passes: one query row by the transposed keys is a multiply and a sum, no matmul."""
    model, inputs = CASES["one query row"]
    compiled = compile_and_compare(model, *inputs, **OFF)
    assert formed(compiled) == 0
    graph = compiled.ir("mlc")
    assert '"mlc.reduce_sum"' in graph and graph.count('"mlc.matmul"') == 1  # the value's product


def _bf16(x: torch.Tensor) -> torch.Tensor:
    return x.to(torch.bfloat16).double()


def bf16_products_reference(q, k, v, mask=None, causal=False):
    """Attention whose two products multiply bf16 operands (the weights rounded after the
    softmax), each sum and the softmax exact (f64), as the plugin computes it at bf16."""
    scores = _bf16(q) @ _bf16(k).transpose(-1, -2) / math.sqrt(q.shape[-1])
    if causal:
        scores = scores.masked_fill(torch.ones(scores.shape[-2:], dtype=torch.bool).triu(1), -math.inf)
    if mask is not None:
        scores = scores + mask.double()
    return (_bf16(torch.softmax(scores, -1).float()) @ _bf16(v)).float()


BF16_CASES = {
    # rows in tiles of 6 and a tail, 197 keys: an odd number of pairs of the value's rows
    "197 keys": (Attention(), qkv(batch=1, heads=4, m=197, n=197, d=64, dv=64), {}),
    # a query's width of 9: an odd pair; the value's 70 columns: a panel of 64 and a tail
    "odd widths, masked": (Attention(), (*qkv(m=13, n=29, d=9, dv=70), torch.randn(2, 1, 13, 29)), {}),
    "causal": (Attention(is_causal=True), qkv(m=21, n=21), {"causal": True}),
}


@pytest.mark.parametrize("case", BF16_CASES, ids=list(BF16_CASES))
def test_attention_at_bf16_multiplies_bf16_on_the_plugin(case):
    """At bf16, mlc-reduce-precision casts the products' operands to bf16; the plugin's
    attention takes the f32 values before the casts, with bf16_products. Where the CPU has
    AVX-512-BF16 its products multiply bf16 (native/gemm_bf16.h) and the result is that of
    bf16 operands summed exactly; where not, they multiply f32 and it is f32's."""
    model, inputs, options = BF16_CASES[case]
    compiled = mlc.compile(model, inputs, precision="bf16")
    assert formed(compiled) == 1
    graph = compiled.ir("mlc")
    assert "mlc.cast" not in graph and "bf16_products = true" in graph
    actual = compiled(*inputs)
    with torch.no_grad():
        exact = model(*inputs)
    if "avx512_bf16" in cpu_flags():
        assert relative_error(actual, bf16_products_reference(*inputs, **options)) < 1e-4
        assert 1e-4 < relative_error(actual, exact) < BF16_BUDGET
    else:
        assert_matches(actual, exact)


@pytest.mark.skipif(not {"amx_bf16", "amx_tile"} <= cpu_flags(), reason="the CPU has no AMX-BF16")
def test_attention_at_bf16_multiplies_on_amx_where_the_cpu_has_it(tmp_path):
    """With AMX-BF16, a head's two products at bf16 go to MKL's bf16 GEMM, which runs on AMX
    (mlc_attention.h: attention_on_amx), the operands rounded as gemm_bf16.h rounds them;
    MKL_ENABLE_INSTRUCTIONS below AMX keeps them on gemm_bf16.h. MKL's log (MKL_VERBOSE)
    shows which ran; both give bf16 operands summed exactly."""
    script = """
import sys, numpy as np, torch, torch.nn.functional as F, mlc
torch.manual_seed(0)
q, k, v = torch.randn(1, 4, 197, 64), torch.randn(1, 4, 197, 64), torch.randn(1, 4, 197, 64)
class Attention(torch.nn.Module):
    def forward(self, q, k, v):
        return F.scaled_dot_product_attention(q, k, v)

np.save(sys.argv[1], np.asarray(mlc.compile(Attention(), (q, k, v), precision="bf16")(q, k, v)))
"""
    inputs = qkv(batch=1, heads=4, m=197, n=197, d=64, dv=64)  # the script's, seeded alike
    reference = bf16_products_reference(*inputs)
    gemms = {}
    for name, limit in {"amx": {}, "below": {"MKL_ENABLE_INSTRUCTIONS": "AVX512_E3"}}.items():
        env = {key: value for key, value in os.environ.items() if key != "MKL_ENABLE_INSTRUCTIONS"}
        env.update(limit, MKL_VERBOSE="1", MLC_CACHE_DIR=str(cache_of_its_own(tmp_path / name)))
        done = subprocess.run([sys.executable, "-c", script, str(tmp_path / f"{name}.npy")], capture_output=True,
                              text=True, env=env)
        assert done.returncode == 0, done.stderr[-2000:]
        gemms[name] = [line for line in done.stdout.splitlines() if "GEMM_BF16BF16F32(" in line]
        assert relative_error(torch.from_numpy(np.load(tmp_path / f"{name}.npy")), reference) < 1e-4
    assert len(gemms["amx"]) == 2 * 4 and gemms["below"] == []  # two products of 4 heads


SEVERAL_ROWS = ["scale", "causal", "197 keys"]  # CASES whose products are of several query rows


@pytest.mark.parametrize("kernel", ["own", "mkl"])
def test_both_kernels_of_several_rows_match_eager(kernel, tmp_path):
    """A head's f32 products of several query rows run on mlc's AVX-512 kernel or on MKL's
    sgemm, whichever the plugin measured faster for the shape (mlc_attention.h:
    attention_on_own_kernel); MLC_ATTENTION_KERNEL takes one unmeasured. Each matches
    eager, and MKL's log (MKL_VERBOSE) shows which ran: no sgemm on mlc's kernel, where
    the CPU has AVX-512."""
    script = """
import sys, numpy as np, torch
sys.path.insert(0, sys.argv[1])
import mlc
from test_attention import CASES, SEVERAL_ROWS
for index, case in enumerate(SEVERAL_ROWS):
    model, inputs = CASES[case]
    np.save(f"{sys.argv[2]}/{index}.npy", np.asarray(mlc.compile(model, inputs)(*inputs)))
"""
    env = dict(os.environ, MLC_ATTENTION_KERNEL=kernel, MKL_VERBOSE="1",
               MLC_CACHE_DIR=str(cache_of_its_own(tmp_path / "cache")))
    done = subprocess.run([sys.executable, "-c", script, os.path.dirname(__file__), str(tmp_path)],
                          capture_output=True, text=True, env=env)
    assert done.returncode == 0, done.stderr[-2000:]
    for index, case in enumerate(SEVERAL_ROWS):
        model, inputs = CASES[case]
        with torch.no_grad():
            assert_matches(torch.from_numpy(np.load(tmp_path / f"{index}.npy")), model(*inputs))
    sgemms = [line for line in done.stdout.splitlines() if "SGEMM(" in line]
    if kernel == "mkl" or "avx512f" not in cpu_flags():
        assert sgemms  # two per head
    else:
        assert sgemms == []


class FusedProjection(torch.nn.Module):
    """GPT-2's self-attention: one projection for q, k and v, split, heads moved to the
    front by transposes, causal SDPA, heads moved back."""

    def __init__(self, dim=48, heads=4):
        super().__init__()
        self.qkv, self.heads = torch.nn.Linear(dim, 3 * dim), heads

    def forward(self, x):
        batch, tokens, dim = x.shape
        q, k, v = self.qkv(x).split(dim, dim=2)
        q, k, v = (t.view(batch, tokens, self.heads, dim // self.heads).transpose(1, 2) for t in (q, k, v))
        out = F.scaled_dot_product_attention(q, k, v, is_causal=True)
        return out.transpose(1, 2).reshape(batch, tokens, dim)


def test_query_key_and_value_are_read_where_the_projection_left_them():
    """mlc-attention-views: the slices and transposes of the projection's result become
    strides, and their copies go (a batch of 2 with 4 heads: heads in two runs)."""
    torch.manual_seed(0)
    compiled = compile_and_compare(FusedProjection(), torch.randn(2, 19, 48))
    assert formed(compiled) == 1
    assert compiled.report.pass_statistic("mlc-attention-views", "operands read in place") == 3
    assert "mlc.slice" not in compiled.ir("mlc")


class GatheredHeads(torch.nn.Module):
    """A fused projection cut into heads, attention, and the heads gathered back into
    rows ([batch, heads, tokens, dim] to [batch, tokens, heads * dim]) for the output
    projection, as BERT and GPT-2 do."""

    def __init__(self, width=64, heads=4):
        super().__init__()
        self.heads = heads
        self.qkv, self.out = torch.nn.Linear(width, 3 * width), torch.nn.Linear(width, width)

    def forward(self, x):
        batch, tokens, width = x.shape
        q, k, v = self.qkv(x).view(batch, tokens, 3, self.heads, width // self.heads).permute(2, 0, 3, 1, 4)
        attended = F.scaled_dot_product_attention(q, k, v)
        return self.out(attended.transpose(1, 2).reshape(batch, tokens, width))


def test_bf16_products_read_and_write_in_place():
    """At bf16, the plugin's bf16 products read q, k and v where the fused projection left
    them (row strides of 3 x 64) and write the heads back into rows, within bf16's budget."""
    torch.manual_seed(0)
    model, x = GatheredHeads().eval(), torch.randn(2, 30, 64)
    compiled = mlc.compile(model, (x,), precision="bf16")
    assert "bf16_products = true" in compiled.ir("mlc")
    assert compiled.report.pass_statistic("mlc-attention-views", "operands read in place") == 3
    assert compiled.report.pass_statistic("mlc-attention-output-views", "transposes written by the attention") == 1
    with torch.no_grad():
        expected = model(x)
    assert relative_error(torch.as_tensor(compiled(x)), expected) < BF16_BUDGET


@pytest.mark.parametrize("batch", [1, 2])
def test_heads_gathered_back_into_rows_are_written_there(batch):
    """The transpose after the attention is no dispatch: the plugin writes each head's
    rows where it would have put them (mlc-attention-output-views)."""
    torch.manual_seed(5)
    compiled = compile_and_compare(GatheredHeads(), torch.randn(batch, 37, 64), target_options={"matmul-library": True})
    assert compiled.report.pass_statistic("mlc-attention-output-views", "transposes written by the attention") == 1
    assert compiled.report["dispatches by kind"]["mlc dispatch regions"] == 0
