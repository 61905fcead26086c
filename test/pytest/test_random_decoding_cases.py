"""CI's fixed batch of random decoding cases (test/fuzz/decoding.py): random causal LMs
generating through mlc.generator against eager. `make fuzz-decoding` runs the open-ended search."""

import os
import random
import subprocess
import sys
from pathlib import Path

import pytest
import torch
from conftest import cache_of_its_own

from mlc.driver.backends import targets
from mlc.driver.tools.generate import Generator

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "fuzz"))
import decoding  # noqa: E402

FUZZ = Path(decoding.__file__)
SEED = "20261530"


def test_the_cases_cover_each_family_precision_and_edge():
    """300 draws hold every family at every precision and library setting, one-token
    prompts, full caches, grouped and single key/value heads, and heads that do not fill
    Gemma's width, and batches of 1 to 4 prompts, left-padded or of one length."""
    cases = [decoding.draw(random.Random(seed)) for seed in range(300)]
    assert {(c.family, c.precision) for c in cases} == {
        (family, precision) for family in decoding.FAMILIES for precision in ("f32", "bf16", "int8")}
    assert {c.matmul_library for c in cases} == {"auto", "mlc", "false"}
    sizes = [c.sizes for c in cases]
    assert any(s["prompt"] == 1 for s in sizes) and any(s["prompt"] > 32 for s in sizes)
    assert any(s["cache"] == s["prompt"] + s["new tokens"] for s in sizes)
    assert any(1 < s["key/value heads"] < s["heads"] for s in sizes) and any(s["key/value heads"] == 1 for s in sizes)
    assert any(c.sizes["hidden"] != c.sizes["heads"] * c.sizes["head size"] for c in cases if c.family == "gemma")
    assert {s["batch"] for s in sizes} == {1, 2, 3, 4}
    assert {s["padded"] for s in sizes if s["batch"] > 1} == {True, False}
    assert not any(s["padded"] for s in sizes if s["batch"] == 1 or s["prompt"] == 1)


def test_the_int8_reference_rounds_as_mlc_quantize_int8():
    """255 symmetric levels scaled by the largest magnitude along the dimension; a zero row stays zero."""
    x = torch.tensor([[1.0, -0.5, 0.004], [0.0, 0.0, 0.0]])
    rounded = decoding._int8_rounded(x, -1)
    assert rounded[0].tolist() == pytest.approx([1.0, -64 / 127, 1 / 127])
    assert rounded[1].tolist() == [0.0, 0.0, 0.0]


def test_the_f32_budget_grows_only_where_rounding_moves_eager_logits_as_much():
    """Seed 332's Llama (3 layers, weights of 0.5) nearly ties two keys at its third new
    token: f32's rounding alone moves those logits past the 1e-4 budget; the other tokens'
    by far less."""
    case = decoding.draw(random.Random(332))
    model, prompt, _ = decoding.instantiate(case, 332)
    with torch.no_grad():
        ids = model.generate(prompt, attention_mask=torch.ones_like(prompt), do_sample=False, max_new_tokens=7,
                             min_new_tokens=7, pad_token_id=0)
    sensitivity = decoding.rounding_sensitivity(model, ids, torch.ones_like(ids), 0)[0].tolist()
    assert sensitivity[2] > decoding.F32_BUDGET
    assert sorted(sensitivity)[len(sensitivity) // 2] < decoding.F32_BUDGET / 10


def test_padded_prompts_are_padded_on_the_left():
    """A padded case's first prompt is whole; the others have 1 to all of their tokens,
    after END, where the mask is 0; eager's positions count each sequence's own tokens."""
    case = next(c for c in (decoding.draw(random.Random(seed)) for seed in range(100))
                if c.sizes["padded"] and c.sizes["batch"] > 2 and c.sizes["prompt"] > 4)
    _, prompt, mask = decoding.instantiate(case, 0)
    assert mask[0].all() and (mask[:, 1:] >= mask[:, :-1]).all() and mask[:, -1].all() and not mask.all()
    assert (prompt[mask == 0] == decoding.END).all()
    positions = decoding.eager_inputs(mask)["position_ids"]
    assert [positions[row, mask[row] == 1].tolist() for row in range(len(mask))] == \
        [list(range(int(mask[row].sum()))) for row in range(len(mask))]


@pytest.mark.iree
def test_a_wrong_result_is_a_finding(monkeypatch, tmp_path):
    """The check passes a right generation and fails one whose logits are off by more than the
    budget. A prompt of one token: the prefill is the decode step, one compile."""
    monkeypatch.setenv("MLC_CACHE_DIR", str(tmp_path))
    case = decoding.Case("llama", "f32", "auto", {
        "layers": 1, "heads": 4, "key/value heads": 2, "head size": 8, "hidden": 32, "intermediate": 40,
        "activation": None, "vocabulary": 50, "tied": False, "bias": True, "initializer range": 0.3,
        "prompt": 1, "new tokens": 4, "cache": 7})
    assert decoding.check(case, 5) is None
    generate = Generator.generate

    def logits_off_by_a_thousandth(self, *args, **options):
        tokens, logits = generate(self, *args, **options)
        return tokens, tuple(row * 1.001 for row in logits)

    monkeypatch.setattr(Generator, "generate", logits_off_by_a_thousandth)
    assert decoding.check(case, 5) == "the logits of token 0: error 0.001, allowed 0.0001"


@pytest.mark.iree
def test_a_fixed_batch_of_random_decoding_cases_matches_eager(tmp_path):
    """Four cases in one process: Phi-3 at f32 on IREE's kernels, Llama at bf16 and Gemma
    at int8 on mlc's, Qwen2 at f32 on those its measurement chose; the last two batches
    left-padded."""
    done = subprocess.run([sys.executable, str(FUZZ), "--cases", "4", "--seed", SEED, "--jobs", "1"],
                          capture_output=True, text=True, env={**os.environ, "MLC_CACHE_DIR": str(cache_of_its_own(tmp_path / "cache"))})
    assert done.returncode == 0, done.stdout + done.stderr[-2000:]
    assert f"4 cases from seed {SEED}, 0 findings" in done.stdout


def test_other_targets_draw_the_same_sizes_at_f32():
    """`--target vulkan-spirv`: the sizes of the CPU's case, at f32 (vulkan-spirv's one precision)."""
    for seed in range(20):
        on_cpu, on_vulkan = (decoding.draw(random.Random(seed), target) for target in ("llvm-cpu", "vulkan-spirv"))
        assert on_vulkan.sizes == on_cpu.sizes and on_vulkan.family == on_cpu.family
        assert on_vulkan.precision == "f32" and str(on_vulkan).startswith(f"{on_cpu.family} at f32, on vulkan-spirv: ")


@pytest.mark.parametrize("arguments, message", [
    (["--cases", "0"], "--cases and --jobs must be at least 1"),
    (["--target", "tpu"], "unknown target 'tpu'; choose from llvm-cpu, vulkan-spirv, cuda, mlir-cpu")])
def test_bad_arguments_are_an_error(arguments, message):
    """Each a usage error (exit 2) with its reason; a target with no device here is one too."""
    done = subprocess.run([sys.executable, str(FUZZ), *arguments], capture_output=True, text=True)
    assert done.returncode == 2
    assert message in done.stderr


def test_a_target_that_cannot_run_here_is_an_error():
    runs, why = targets.get("cuda").can_run()
    if runs:
        pytest.skip("cuda runs here")
    done = subprocess.run([sys.executable, str(FUZZ), "--target", "cuda"], capture_output=True, text=True)
    assert done.returncode == 2
    assert f"cuda cannot run here: {why}" in done.stderr
