"""mlc.generator: greedy and sampled generation with a static key/value cache, the prefill and the
decode step compiled by mlc, against transformers' own `model.generate`."""

import functools
import re

import language_models  # examples/language_models.py, on the path through conftest.py
import numpy as np
import pytest
import torch
from test_precision import BUDGETS, relative_error

import mlc
from mlc.driver.backends import matmul_library, targets
from mlc.driver.tools.generate import Padding, cache_shape
from mlc.passes.merge_sibling_matmuls import MergeSiblingMatmuls

PROMPT = 8
BUCKET = 16  # the prompt's call: the prompt right-padded to the smallest of the powers of two from 16
NEW_TOKENS = 32


def prompt_of(model) -> torch.Tensor:
    return torch.randint(0, model.config.vocab_size, (1, PROMPT), generator=torch.Generator().manual_seed(1))


def bucketed(prompt: torch.Tensor, tokens: int = BUCKET) -> torch.Tensor:
    """`prompt` right-padded to `tokens` with tokens that are not 0 (what the generator pads
    with): the prompt's call must not read them."""
    return torch.cat([prompt, torch.full((prompt.shape[0], tokens - prompt.shape[1]), 7)], 1)


@pytest.mark.iree
@pytest.mark.parametrize("name", ["gpt2-tiny", "llama-tiny"])
def test_greedy_tokens_equal_model_generate(name):
    """GPT-2 (learned positions) and Llama (RoPE, grouped-query attention): 32 new tokens."""
    model = language_models.build(name)
    prompt = prompt_of(model)
    expected = language_models.eager_generate(model, prompt, NEW_TOKENS)
    assert len(set(expected[0, PROMPT:].tolist())) > NEW_TOKENS // 4  # varied tokens, not one repeated
    generator = mlc.generator(model, max_cache_len=48)
    actual = generator.generate(prompt, NEW_TOKENS, stop_at_eos=False)  # eager's min_new_tokens
    assert actual.tolist() == expected.tolist()
    assert generator.timings.tokens == NEW_TOKENS and 0 < generator.timings.per_token
    assert sorted(generator._compiled) == [(1, 1, False, False), (1, BUCKET, False, True)]  # one prefill, one decode
    store = generator.compile_options["external_params"]  # the two hold each weight once between them
    held = [compiled.report["parameters"] for compiled in generator._compiled.values()]
    assert all(parameters["store"] == store.directory for parameters in held)
    assert store.bytes < 1.2 * max(parameters["bytes"] for parameters in held) < sum(p["bytes"] for p in held)


@pytest.mark.iree
def test_generation_stops_after_the_end_of_text_token_as_model_generate_does():
    """The model's eos_token_id (one or a list) ends the generation after it, where it is the
    first new token too; stop_at_eos=False runs on. The model's config is read at each call."""
    model = language_models.build("llama-tiny")
    prompt = prompt_of(model)
    generator = mlc.generator(model, max_cache_len=48)
    unstopped = generator.generate(prompt, NEW_TOKENS, stop_at_eos=False)[0, PROMPT:].tolist()
    tenth = unstopped[10]
    first_end = unstopped.index(tenth)
    for ends, stop in [(tenth, first_end), ([1234, tenth], first_end), (unstopped[0], 0)]:
        model.generation_config.eos_token_id = ends
        with torch.no_grad():
            expected = model.generate(prompt, attention_mask=torch.ones_like(prompt), do_sample=False,
                                      max_new_tokens=NEW_TOKENS, pad_token_id=0)
        tokens = generator.generate(prompt, NEW_TOKENS)
        assert tokens.tolist() == expected.tolist()
        assert tokens[0, PROMPT:].tolist() == unstopped[:stop + 1] and generator.timings.tokens == stop + 1
        assert generator.generate(prompt, NEW_TOKENS, stop_at_eos=False)[0, PROMPT:].tolist() == unstopped
    model.generation_config.eos_token_id = None
    assert generator.generate(prompt, NEW_TOKENS)[0, PROMPT:].tolist() == unstopped


SAMPLED = [{"do_sample": True, "temperature": 0.7, "top_k": 20, "top_p": 0.9},
           {"do_sample": True, "min_p": 0.05, "temperature": 1.5},
           {"repetition_penalty": 1.3, "no_repeat_ngram_size": 2}]  # greedy, with transformers' processors


def seeded(seed: int, generate, *args, **options) -> list:
    torch.manual_seed(seed)
    with torch.no_grad():
        return generate(*args, **options).tolist()


def eager_sampled(model, prompt, new_tokens: int, **options):
    """transformers' generation of exactly `new_tokens` tokens with `options` (sampled or not)."""
    return model.generate(prompt, attention_mask=torch.ones_like(prompt), max_new_tokens=new_tokens,
                          min_new_tokens=new_tokens, pad_token_id=0, **options)


@pytest.mark.iree
def test_sampled_tokens_equal_model_generate_at_the_same_seed():
    """do_sample with temperature, top-k, top-p and min-p, and greedy with a repetition
    penalty and n-gram blocking: transformers' processors on mlc's logits and torch's global
    random generator, so a seed gives transformers' tokens, and another seed others. What
    the call leaves unset comes from the model's generation config, as in model.generate."""
    model = language_models.build("llama-tiny")
    prompt = prompt_of(model)
    generator = mlc.generator(model, max_cache_len=48)
    greedy = generator.generate(prompt, NEW_TOKENS, stop_at_eos=False).tolist()
    for options in SAMPLED:
        actual = seeded(5, generator.generate, prompt, NEW_TOKENS, min_new_tokens=NEW_TOKENS, **options)
        assert actual == seeded(5, eager_sampled, model, prompt, NEW_TOKENS, **options)
        assert actual != greedy
    assert seeded(6, generator.generate, prompt, NEW_TOKENS, min_new_tokens=NEW_TOKENS, **SAMPLED[0]) != \
        seeded(5, generator.generate, prompt, NEW_TOKENS, min_new_tokens=NEW_TOKENS, **SAMPLED[0])
    model.generation_config.do_sample, model.generation_config.top_k = True, 10
    actual = seeded(7, generator.generate, prompt, NEW_TOKENS, min_new_tokens=NEW_TOKENS)
    assert actual == seeded(7, eager_sampled, model, prompt, NEW_TOKENS) and actual != greedy


@pytest.mark.iree
@pytest.mark.parametrize("name", ["gpt2-tiny", "llama-tiny"])
def test_a_batch_of_prompts_equals_model_generate(name):
    """Three prompts of one length, generated together: a sequence that ends goes on with
    the pad token until all have ended, greedy or sampled at a seed, as in model.generate."""
    model = language_models.build(name)
    prompts = torch.randint(0, model.config.vocab_size, (3, PROMPT), generator=torch.Generator().manual_seed(1))
    generator = mlc.generator(model, max_cache_len=48)
    unstopped = generator.generate(prompts, NEW_TOKENS, stop_at_eos=False)
    assert unstopped.tolist() == seeded(0, eager_sampled, model, prompts, NEW_TOKENS)
    assert [generator.generate(prompts[i:i + 1], NEW_TOKENS, stop_at_eos=False).tolist()[0] for i in range(3)] == \
        unstopped.tolist()
    new = unstopped[:, PROMPT:]
    model.generation_config.eos_token_id = [int(new[1, 5]), int(new[0, 20])]  # two rows end early, one runs on
    for options in [{}, SAMPLED[0]]:
        actual = seeded(4, generator.generate, prompts, NEW_TOKENS, pad_token_id=0, **options)
        with torch.no_grad():
            assert actual == seeded(4, model.generate, prompts, attention_mask=torch.ones_like(prompts),
                                    max_new_tokens=NEW_TOKENS, pad_token_id=0, **options)
    assert sorted(generator._compiled) == [(1, 1, False, False), (1, BUCKET, False, True), (3, 1, False, False),
                                          (3, BUCKET, False, True)]


def left_padded(model, lengths: list[int]) -> tuple[torch.Tensor, torch.Tensor]:
    """Random prompts of `lengths` tokens, left-padded with token 0, and their attention mask."""
    ids = torch.zeros(len(lengths), max(lengths), dtype=torch.int64)
    mask = torch.zeros_like(ids)
    rng = torch.Generator().manual_seed(2)
    for row, length in enumerate(lengths):
        ids[row, ids.shape[1] - length:] = torch.randint(1, model.config.vocab_size, (length,), generator=rng)
        mask[row, ids.shape[1] - length:] = 1
    return ids, mask


@pytest.mark.iree
@pytest.mark.parametrize("name", ["gpt2-tiny", "llama-tiny"])
def test_left_padded_prompts_equal_model_generate(name):
    """Prompts of 8, 5 and 1 tokens, left-padded, with transformers' attention mask: the
    tokens of model.generate on the same batch, greedy and sampled at a seed, and each
    sequence's tokens those of its prompt alone. A mask of all ones pads nothing: the
    batch runs on the unpadded executables."""
    model = language_models.build(name)
    ids, mask = left_padded(model, [PROMPT, 5, 1])
    generator = mlc.generator(model, max_cache_len=48)
    for options in [{}, SAMPLED[0]]:
        actual = seeded(3, generator.generate, ids, NEW_TOKENS, attention_mask=mask, pad_token_id=0, **options)
        with torch.no_grad():
            assert actual == seeded(3, model.generate, ids, attention_mask=mask, max_new_tokens=NEW_TOKENS,
                                    pad_token_id=0, **options)
    unstopped = generator.generate(ids, NEW_TOKENS, attention_mask=mask, stop_at_eos=False)
    for row, length in enumerate([PROMPT, 5, 1]):
        alone = generator.generate(ids[row:row + 1, PROMPT - length:], NEW_TOKENS, stop_at_eos=False)
        assert unstopped[row, PROMPT:].tolist() == alone[0, length:].tolist()
    generator.generate(ids, 2, attention_mask=torch.ones_like(mask))
    assert sorted(key for key in generator._compiled if key[0] == 3) == \
        [(3, 1, False, False), (3, 1, True, False), (3, BUCKET, False, True), (3, BUCKET, True, True)]


def test_generation_settings_mlc_does_not_apply_are_refused():
    """A setting that would change the tokens and that mlc does not apply (beams, suppressed
    tokens, ...) is refused, given or set by the model's generation config, never ignored;
    so are unknown options and values transformers' processors refuse. Nothing compiles."""
    model = language_models.build("gpt2-tiny")
    generator = mlc.generator(model, max_cache_len=16)
    prompt = torch.zeros(1, 4, dtype=torch.int64)
    for options, message in [({"num_beams": 2}, r"num_beams=2 \(given\) is not applied by mlc.generator"),
                             ({"do_sample": True, "typical_p": 0.5}, r"typical_p=0.5 \(given\)"),
                             ({"beams": 2}, "unknown option 'beams'"),
                             ({"do_sample": True, "temperature": 0.0}, "temperature"),
                             ({"do_sample": True, "top_p": -0.5}, "top_p"), ({"do_sample": True, "top_k": -3}, "top_k")]:
        with pytest.raises(mlc.UserError, match=message):
            generator.generate(prompt, 4, **options)
    model.generation_config.suppress_tokens = [3]
    with pytest.raises(mlc.UserError, match=r"suppress_tokens=\[3\] \(set by the model's generation_config\)"):
        generator.generate(prompt, 4)
    assert generator._compiled == {}


@pytest.mark.iree
def test_generation_on_vulkan_equals_model_generate():
    """Off the CPU each step passes its caches back as tensors (no resident results): the
    same tokens, sampled ones too, and the same stop after the end-of-text token. Every decode step's logits
    were wrong there (58 % off) until matmuls kept their producers out of their dispatches
    on Vulkan (test_gpu_targets.py)."""
    runs, why = targets.get("vulkan-spirv").can_run()
    if not runs:
        pytest.skip(f"vulkan-spirv cannot run here: {why}")
    model = language_models.build("llama-tiny")
    prompt = prompt_of(model)
    generator = mlc.generator(model, max_cache_len=24, target="vulkan-spirv")
    assert not generator.compiled(1).bound_target.keeps_results
    unstopped = language_models.eager_generate(model, prompt, 12)
    assert generator.generate(prompt, 12, stop_at_eos=False).tolist() == unstopped.tolist()
    model.generation_config.eos_token_id = int(unstopped[0, PROMPT + 4])
    with torch.no_grad():
        expected = model.generate(prompt, attention_mask=torch.ones_like(prompt), do_sample=False, max_new_tokens=12,
                                  pad_token_id=0)
    assert generator.generate(prompt, 12).tolist() == expected.tolist()
    assert expected.shape[1] <= PROMPT + 5
    sampled = {"do_sample": True, "top_k": 20}
    assert seeded(3, generator.generate, prompt, 12, min_new_tokens=12, **sampled) == \
        seeded(3, eager_sampled, model, prompt, 12, **sampled)


@pytest.mark.iree
def test_output_logits_are_model_generate_logits():
    """generate(output_logits=True): the logits each new token was chosen from, read out of
    IREE's memory at each step, as transformers gives them; the tokens are the same as without."""
    model = language_models.build("llama-tiny")
    prompt = prompt_of(model)
    expected = language_models.eager_generate(model, prompt, 6, output_logits=True, return_dict_in_generate=True)
    generator = mlc.generator(model, max_cache_len=16)
    tokens, logits = generator.generate(prompt, 6, stop_at_eos=False, output_logits=True)
    assert tokens.tolist() == expected.sequences.tolist() == generator.generate(prompt, 6, stop_at_eos=False).tolist()
    assert len(logits) == 6 and all(row.shape == (1, model.config.vocab_size) for row in logits)
    for row, expected_row in zip(logits, expected.logits, strict=True):
        torch.testing.assert_close(row, expected_row, rtol=1e-4, atol=1e-4)


@pytest.mark.iree
@pytest.mark.parametrize("name", ["gpt2-tiny", "llama-tiny"])
def test_the_prompt_call_makes_caches_of_the_capacity(name):
    """The prompt's call takes no caches (PromptStep): it returns them at the generator's
    capacity, with the prompt's rows as eager's step writes them into zeroed caches and
    zeros after them. The prompt comes right-padded to its bucket, with its length: the
    logits are its last token's. A left-padded batch's too, its mask cut to the call's slots."""
    model = language_models.build(name)
    generator = mlc.generator(model, max_cache_len=24)
    ids, mask = left_padded(model, [PROMPT, 5])
    padding = Padding(mask, 24)
    for padded, inputs, eager_inputs, step in [
            (False, [], [ids, torch.tensor(0)], generator.step),
            (True, padding.prompt(BUCKET), [ids, torch.tensor(0), padding.slots, padding.prompt_positions],
             generator.padded_step)]:
        logits, token, *caches = generator.compiled(BUCKET, 2, padded, prompt=True)(bucketed(ids), torch.tensor(PROMPT),
                                                                                   *inputs)
        with torch.no_grad():
            expected_logits, _, *expected = step(*eager_inputs, *generator.empty_cache(2))
        torch.testing.assert_close(logits, expected_logits, rtol=1e-4, atol=1e-5)
        assert token.tolist() == logits.argmax(-1, keepdim=True).tolist()
        assert len(caches) == 2 * model.config.num_hidden_layers
        for cache, expected_cache in zip(caches, expected, strict=True):
            assert cache.shape == cache_shape(model.config, 24, 2)
            torch.testing.assert_close(cache, expected_cache, rtol=1e-4, atol=1e-5)
            assert not cache[:, :, PROMPT:].any()


def without_rows_kept(model):
    """`model` as a causal LM whose forward takes no `logits_to_keep`: its logits come for
    every row, and the prompt's call picks its last token's."""
    class NoRowsKept(type(model)):
        def forward(self, input_ids=None, past_key_values=None, use_cache=None, attention_mask=None,
                    position_ids=None, **kwargs):
            return super().forward(input_ids=input_ids, past_key_values=past_key_values, use_cache=use_cache,
                                   attention_mask=attention_mask, position_ids=position_ids, **kwargs)

    bare = NoRowsKept(model.config).eval()
    bare.load_state_dict(model.state_dict())
    return bare


@pytest.mark.iree
def test_prompts_of_one_bucket_share_an_executable():
    """Prompts of 3, 8 and 13 tokens run right-padded to 16 on one executable, one of 20 to
    32 on another, a left-padded batch of 13 and 5 on the padded one of 16: each gives
    model.generate's tokens."""
    model = language_models.build("llama-tiny")
    generator = mlc.generator(model, max_cache_len=48)
    rng = torch.Generator().manual_seed(3)
    for length in [3, 8, 13, 20]:
        prompt = torch.randint(1, model.config.vocab_size, (1, length), generator=rng)
        expected = language_models.eager_generate(model, prompt, 12)
        assert generator.generate(prompt, 12, stop_at_eos=False).tolist() == expected.tolist()
    ids, mask = left_padded(model, [13, 5])
    with torch.no_grad():
        expected = model.generate(ids, attention_mask=mask, do_sample=False, max_new_tokens=12, min_new_tokens=12,
                                  pad_token_id=0)
    assert generator.generate(ids, 12, attention_mask=mask, stop_at_eos=False).tolist() == expected.tolist()
    assert sorted(generator._compiled) == [(1, 1, False, False), (1, 16, False, True), (1, 32, False, True),
                                          (2, 1, True, False), (2, 16, True, True)]


@pytest.mark.iree
def test_a_bucket_picks_the_prompts_last_row_without_logits_to_keep():
    """A model whose forward takes no `logits_to_keep` gives logits for every row of the
    bucket: the prompt's call takes its last token's (index_select), not the last row's."""
    model = without_rows_kept(language_models.build("llama-tiny"))
    prompt = torch.randint(1, model.config.vocab_size, (1, 5), generator=torch.Generator().manual_seed(4))
    expected = language_models.eager_generate(model, prompt, 8)
    assert mlc.generator(model, max_cache_len=24).generate(prompt, 8, stop_at_eos=False).tolist() == expected.tolist()


def test_prompt_buckets():
    """The default: powers of two from 16, and the capacity; "exact": a prompt's own length;
    a list: its lengths, and a prompt past the largest runs at its own. Lengths outside the
    cache, or anything else, are refused before anything compiles."""
    model = language_models.build("gpt2-tiny")
    generator = functools.partial(mlc.generator, model, max_cache_len=48)
    assert generator().prompt_buckets == (16, 32, 48)
    assert mlc.generator(model, max_cache_len=64).prompt_buckets == (16, 32, 64)
    assert [generator().prompt_bucket(length) for length in [1, 16, 17, 33, 48]] == [16, 16, 32, 48, 48]
    assert [generator(prompt_buckets="exact").prompt_bucket(length) for length in [1, 17]] == [1, 17]
    assert [generator(prompt_buckets=[24, 8]).prompt_bucket(length) for length in [3, 9, 30]] == [8, 24, 30]
    for buckets, message in [([0, 8], r"prompt_buckets \[0\] are not lengths from 1 to max_cache_len 48"),
                             ([49], r"\[49\] are not lengths"), ("pow2", "must be \"powers-of-two\""),
                             (16, "not 16"), ([8.0], "not \\[8.0\\]")]:
        with pytest.raises(mlc.UserError, match=message):
            generator(prompt_buckets=buckets)


@pytest.mark.iree
@pytest.mark.parametrize("name", ["gpt2-tiny", "llama-tiny"])
def test_decode_step_writes_the_cache_at_the_position(name):
    """One decode step against eager's, and the cache rows it writes: only the position's.
    Where attention runs on mlc's plugin, the step's does too: one query row by the key
    cache is no matvec there (mlc-matvec-to-reduction runs after mlc-form-attention),
    Llama's grouped keys and values are read from the cache, not repeated per head, and
    the slots past the position are taken as the zeros they are (`zero-masked-tail`)."""
    model = language_models.build(name)
    generator = mlc.generator(model, max_cache_len=16)
    if matmul_library.available()[0]:
        cache = "x".join(map(str, cache_shape(model.config, 16)))
        key_and_value_from_cache = rf'"mlc.attention".* : \(tensor<\w+>, tensor<{cache}xf32>, tensor<{cache}xf32>'
        found = re.findall(key_and_value_from_cache, generator.compiled(1).ir("mlc"))
        assert len(found) == model.config.num_hidden_layers
        assert generator.compiled(1).ir("mlc").count("zero_masked_tail = true") == model.config.num_hidden_layers
    caches = [torch.randn(cache_shape(model.config, 16)) for _ in range(4)]
    for cache in caches:
        cache[:, :, 10:] = 0.0  # as the generator's: the slots past the position not yet written
    token, position = torch.tensor([[5]]), torch.tensor(9)
    logits, next_token, *written = generator.compiled(1)(token, position, *caches)
    with torch.no_grad():
        expected_logits, _, *expected_written = generator.step(token, position, *caches)
    torch.testing.assert_close(logits, expected_logits, rtol=1e-4, atol=1e-5)
    assert next_token.tolist() == logits.argmax(-1, keepdim=True).tolist()
    for cache, before, after in zip(expected_written, caches, written):
        torch.testing.assert_close(after, cache, rtol=1e-4, atol=1e-5)
        unchanged = torch.ones(16, dtype=torch.bool)
        unchanged[9] = False
        assert torch.equal(after[:, :, unchanged], before[:, :, unchanged])
        assert not torch.equal(after[:, :, 9], before[:, :, 9])


@pytest.mark.iree
def test_decode_step_updates_resident_caches_in_place():
    """With matmuls on mlc's plugin, each cache the step returns is the buffer it took,
    written in place (mlc.update_slice, mlc-outline-library-dispatches): before, IREE
    copied every cache into a new buffer at every step. int8's single rows call the plugin
    where it sums them exactly (on any CPU unless MLC_INT8_KERNEL=mkl); elsewhere they
    stay on IREE's kernel, and f32's are put there."""
    model = language_models.build("gpt2-tiny")
    on_plugin = {"precision": "int8"} if matmul_library.exact_int8_rows() else {"target_options": {"matmul-library": True}}
    step = mlc.generator(model, max_cache_len=16, **on_plugin).compiled(1)
    assert step.report.pass_statistic("mlc-outline-library-dispatches", "library dispatches outlined") > 0
    caches = [torch.randn(cache_shape(model.config, 16)) for _ in range(4)]
    first = step.run_resident(torch.tensor([[5]]), torch.tensor(3), *caches, keep=range(2, 6))
    taken = [_address(cache) for cache in first[2:]]
    second = step.run_resident(torch.tensor([[6]]), torch.tensor(4), *first[2:], keep=range(2, 6))
    assert [_address(cache) for cache in second[2:]] == taken
    loop = step.fed_back_loop([np.array([[7]]), np.array(5), *(cache.take() for cache in second[2:])],
                              fed_back={2 + i: 2 + i for i in range(4)}, read=[1])
    loop([np.array([[7]]), np.array(5)])
    assert loop.in_place  # so each decode step of `generate` reuses one argument list


def _address(resident) -> int:
    """Where a resident value's buffer lies in host memory (IREE's CPU memory is the host's)."""
    view, dtype = resident._kept
    return view.map().asarray(view.shape, dtype).__array_interface__["data"][0]


@pytest.mark.iree
@pytest.mark.parametrize("precision", ["bf16", "int8"])
def test_narrow_precisions_stay_within_their_budget(precision):
    """The prefill's logits within the precision's budget of f32 eager; the tokens then follow
    the narrow logits, so they are compared with the f32 ones only where they start."""
    budget = BUDGETS[precision][0]
    model = language_models.build("gpt2-tiny")
    prompt = prompt_of(model)
    generator = mlc.generator(model, max_cache_len=48, precision=precision)
    logits = generator.compiled(BUCKET, prompt=True)(bucketed(prompt), torch.tensor(PROMPT))[0]
    with torch.no_grad():
        expected = model(prompt).logits[:, -1]
    assert 0 < relative_error(logits, expected) < budget
    tokens = generator.generate(prompt, NEW_TOKENS, stop_at_eos=False)
    assert tokens[0, PROMPT] == language_models.eager_generate(model, prompt, 1)[0, PROMPT]
    assert generator.compiled(1).report["precision"] == precision


@pytest.mark.iree
def test_int8_decode_merges_sibling_matvecs(monkeypatch):
    """mlc-merge-sibling-matmuls at int8: each Llama layer's q, k and v become one matvec
    of the decode step, and its gate and up another; the prompt's rows merge alike (none
    adds a bias). Each column is the same sum as before: the logits are those of the
    step and the prompt unmerged."""
    model = language_models.build("llama-tiny")
    prompt = prompt_of(model)
    merged = mlc.generator(model, max_cache_len=48, precision="int8")
    tokens = merged.generate(prompt, NEW_TOKENS, stop_at_eos=False)
    layers = model.config.num_hidden_layers
    for compiled in (merged.compiled(1), merged.compiled(BUCKET, prompt=True)):
        assert compiled.report.pass_statistics("mlc-merge-sibling-matmuls") == {
            "matmuls merged": 5 * layers, "merged matmuls": 2 * layers}
    monkeypatch.setattr(MergeSiblingMatmuls, "run", lambda self, module: None)
    separate = mlc.generator(model, max_cache_len=48, precision="int8")
    assert separate.compiled(1).report.pass_statistics("mlc-merge-sibling-matmuls") == {}
    assert torch.equal(separate.generate(prompt, NEW_TOKENS, stop_at_eos=False), tokens)
    prefill = merged.compiled(BUCKET, prompt=True)(bucketed(prompt), torch.tensor(PROMPT))
    torch.testing.assert_close(prefill[0], separate.compiled(BUCKET, prompt=True)(bucketed(prompt), torch.tensor(PROMPT))[0],
                               rtol=0, atol=0)
    caches = prefill[2:]
    step = (tokens[:, PROMPT:PROMPT + 1], torch.tensor(PROMPT), *caches)
    torch.testing.assert_close(merged.compiled(1)(*step)[0], separate.compiled(1)(*step)[0], rtol=0, atol=0)


def test_the_generator_promises_its_zero_cache_tail():
    """The generator's caches start zeroed, so it compiles with the promise
    `zero-masked-tail` (attention reads the cache up to the position where it runs on the
    plugin: test_attention.py; every target takes the promise), and a user's own value
    of it stands."""
    model = language_models.build("gpt2-tiny")
    generator = functools.partial(mlc.generator, model, max_cache_len=16)
    assert generator().compile_options["target_options"] == {"zero-masked-tail": True}
    options = {"matmul-library": False}
    with_options = generator(target_options=options)
    assert with_options.compile_options["target_options"] == {"zero-masked-tail": True, "matmul-library": False}
    assert options == {"matmul-library": False}
    off = generator(target_options={"zero-masked-tail": False})
    assert off.compile_options["target_options"] == {"zero-masked-tail": False}
    for name in targets.TARGETS:
        assert targets.bind(name, {"zero-masked-tail": True}).zero_masked_tail


def test_user_errors_are_clear():
    model = language_models.build("gpt2-tiny")
    with pytest.raises(mlc.UserError, match="takes a Hugging Face causal LM"):
        mlc.generator(torch.nn.Linear(2, 2))
    with pytest.raises(mlc.UserError, match="past the 64 positions the model knows"):
        mlc.generator(model, max_cache_len=100)
    with pytest.raises(mlc.UserError, match="unknown target 'cpu'"):  # before anything compiles
        mlc.generator(model, max_cache_len=16, target="cpu")
    generator = mlc.generator(model, max_cache_len=16)
    with pytest.raises(mlc.UserError, match=r"8 prompt tokens \+ 9 new ones need a cache of 17"):
        generator.generate(torch.zeros(1, 8, dtype=torch.int64), 9)
    with pytest.raises(mlc.UserError, match="at least one token"):
        generator.generate(torch.zeros(0, 8, dtype=torch.int64), 4)
    with pytest.raises(mlc.UserError, match="int64 tensor"):
        generator.generate(torch.zeros(1, 8), 4)
    with pytest.raises(mlc.UserError, match="at least one token and max_new_tokens >= 1"):
        generator.generate(torch.zeros(1, 8, dtype=torch.int64), 0)
    prompt = torch.ones(2, 3, dtype=torch.int64)
    for mask, message in [(torch.ones(2, 4), r"a tensor of the prompt's shape \[2, 3\]"),
                          (torch.tensor([[0, 2, 1], [1, 1, 1]]), "0 \\(padding\\) and 1 \\(a token\\) only"),
                          (torch.tensor([[1, 1, 0], [1, 1, 1]]), "must be left-padded"),
                          (torch.tensor([[0, 0, 0], [1, 1, 1]]), "at least one 1")]:
        with pytest.raises(mlc.UserError, match=message):
            generator.generate(prompt, 4, attention_mask=mask)
    assert generator._compiled == {}  # nothing compiled for a refused call


def test_padded_prompts_need_a_model_that_takes_their_mask_and_positions():
    """A causal LM whose forward takes no attention_mask or position_ids cannot generate
    from padded prompts: a UserError naming it, before anything compiles; unpadded
    prompts do not need them."""
    class NoPositions(type(language_models.build("gpt2-tiny"))):
        def forward(self, input_ids=None, past_key_values=None, use_cache=None, logits_to_keep=0, **kwargs):
            return super().forward(input_ids=input_ids, past_key_values=past_key_values, use_cache=use_cache,
                                   logits_to_keep=logits_to_keep)

    model = NoPositions(language_models.build("gpt2-tiny").config).eval()
    generator = mlc.generator(model, max_cache_len=16)
    with pytest.raises(mlc.UserError, match="NoPositions takes no attention_mask and position_ids"):
        generator.generate(torch.ones(2, 3, dtype=torch.int64), 4, attention_mask=torch.tensor([[0, 1, 1], [1, 1, 1]]))
    assert generator._compiled == {}
