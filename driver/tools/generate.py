"""Text generation with a key/value cache, for a Hugging Face causal LM.

    generator = mlc.generator(model, max_cache_len=128, precision="int8")
    tokens = generator.generate(input_ids, max_new_tokens=32)   # = model.generate(input_ids, max_new_tokens=32)
    generator.generate(input_ids, 32, do_sample=True, top_p=0.9)  # sampled, as model.generate samples
    generator.generate(batch["input_ids"], 32, attention_mask=batch["attention_mask"])  # left-padded prompts
    generator.timings                                           # time to first token, ms per token

The model is compiled twice, as one `CacheStep`: for the prompt (prefill, one
executable per bucket of prompt lengths: 16, 32, 64, ... by default, `prompt_buckets`)
and for one new token (decode). The cache is
transformers' static cache: a fixed-capacity key and value tensor per layer, written
at the run-time `position` (`index_copy`), so every decode step has one shape and one
executable. Each decode call takes the caches and returns them updated: mlc's
executables are functions, so the cache lives in the caller, not in the executable.
The prompt's call (a `PromptStep`) takes none: it returns them, zeros past the prompt.
The executables share one copy of the weights (a WeightStore, where the target loads
parameters): each holds their keys, and the store's archives hold the bytes, mapped once.
On the CPU the caches stay in IREE's memory between steps (`Compiled.run_resident`),
and IREE writes each step's new rows into them in place.

Prompts of different lengths come left-padded, with transformers' `attention_mask`: the
padded batch compiles once more, as a `PaddedCacheStep`, which also takes which slots of
the cache hold each sequence's tokens and each token's position in its own sequence.
"""

import dataclasses
import inspect
import time

import numpy as np
import torch

from ...errors import UserError
from ..backends import targets
from ..backends.weight_store import WeightStore
from .token_choice import TokenChoice


def cache_shape(config, max_cache_len: int, batch: int = 1) -> tuple[int, ...]:
    """[batch, key/value heads, capacity, head size] of one layer's key (or value) cache."""
    heads = getattr(config, "num_key_value_heads", None) or config.num_attention_heads
    head_dim = getattr(config, "head_dim", None) or config.hidden_size // config.num_attention_heads
    return batch, heads, max_cache_len, head_dim


class CacheStep(torch.nn.Module):
    """One call of a causal LM over a static cache: `input_ids` are the tokens at
    `position`, `position + 1`, ...; the results are the last token's logits (all that
    greedy decoding reads, so the LM head runs for one row), the next greedy token, and
    each layer's key and value caches with the new tokens written in.

    The next token is torch's argmax of the logits (the first of equal largest, the first
    NaN), taken inside the executable: read out and taken on the host, the logits cost
    0.3-0.4 ms of GPT-2's 6.5 ms decode step (AMD EPYC), most of it reading 200 KB that
    the other core's half of the LM head had just written."""

    def __init__(self, model: torch.nn.Module, max_cache_len: int):
        super().__init__()
        self.model = model
        self.max_cache_len = max_cache_len
        self.config = model.config.get_text_config()

    def forward(self, input_ids: torch.Tensor, position: torch.Tensor, *caches: torch.Tensor):
        return self.call(input_ids, position, (), caches)

    def call(self, input_ids: torch.Tensor, position: torch.Tensor, inputs, caches, last_row=None):
        """The step on `inputs` (what the step takes beyond the tokens, the position and the
        caches: none here), its logits those of row `last_row` (a 0-d tensor; None: the last)."""
        if inputs:
            raise TypeError(f"{type(self).__name__} takes no inputs beyond the tokens, the position and the caches")
        return self._run(input_ids, position, caches, last_row)

    def _run(self, input_ids: torch.Tensor, position: torch.Tensor, caches, last_row, **model_inputs):
        from transformers.cache_utils import StaticCache

        cache = StaticCache(max_cache_len=self.max_cache_len, config=self.config)
        _, heads, _, head_dim = cache_shape(self.config, self.max_cache_len)
        cache.early_initialization(input_ids.shape[0], heads, head_dim, caches[0].dtype, input_ids.device)
        for layer, keys, values in zip(cache.layers, caches[0::2], caches[1::2], strict=True):
            layer.keys = keys.clone()  # written in place by the model: a copy keeps the inputs unchanged
            layer.values = values.clone()
            layer.cumulative_length = position.clone()
        keeps = "logits_to_keep" in inspect.signature(self.model.forward).parameters
        logits = self.model(input_ids=input_ids, past_key_values=cache, use_cache=True, **model_inputs,
                            **self._rows_kept(keeps, last_row)).logits
        logits = logits[:, -1, :] if keeps or last_row is None else logits.index_select(1, last_row.reshape(1))[:, 0]
        caches = (tensor for layer in cache.layers for tensor in (layer.keys, layer.values))
        return (logits, logits.argmax(-1, keepdim=True), *caches)

    @staticmethod
    def _rows_kept(keeps: bool, last_row) -> dict:
        """transformers' `logits_to_keep`, where the model takes it: the last row (1), or row
        `last_row` (a tensor of positions); the LM head then multiplies that row only
        (Llama's prompt of 32: 31 ms of a 170 ms prefill)."""
        if not keeps:
            return {}
        return {"logits_to_keep": 1 if last_row is None else last_row.reshape(1)}


class PaddedCacheStep(CacheStep):
    """A `CacheStep` over left-padded sequences: `attention_mask` [batch, capacity] is 1 at
    each slot of the cache that holds a token of the sequence (0: padding, or not yet
    written), and `position_ids` [batch, tokens] each token's position within its own
    sequence, as `model.generate` derives them from its attention mask."""

    def forward(self, input_ids: torch.Tensor, position: torch.Tensor, attention_mask: torch.Tensor,
                position_ids: torch.Tensor, *caches: torch.Tensor):
        return self.call(input_ids, position, (attention_mask, position_ids), caches)

    def call(self, input_ids: torch.Tensor, position: torch.Tensor, inputs, caches, last_row=None):
        attention_mask, position_ids = inputs
        return self._run(input_ids, position, caches, last_row, attention_mask=attention_mask,
                         position_ids=position_ids)


class PromptStep(torch.nn.Module):
    """A step's first call, from empty caches: the prompt's tokens right-padded to `step`'s
    `max_cache_len` (a bucket of prompt lengths, `prompt_buckets`), the prompt's `length`,
    and `step`'s inputs but the position (0) and the caches.

    The tokens past `length` only follow the prompt (causal attention: no prompt token
    reads them); the logits are the prompt's last token's, and the caches are zeros from
    slot `length` on, padded with zeros to `capacity` on the way out. So one executable
    serves every prompt length of its bucket. Taken from the host, a long cache cost the
    first token its allocation in torch and its copy into IREE; written into zeros of the
    capacity inside, a scatter over all of it. GPT-2 int8 at a capacity of 1024 (Intel
    Xeon model 207): 92 ms to the first token, now 21 (15 at 96), with the CPU device
    reusing the memory of freed caches (iree.cpu_device)."""

    def __init__(self, step: CacheStep, capacity: int, layers: int):
        super().__init__()
        self.step = step
        self.capacity = capacity
        self.layers = layers

    def forward(self, input_ids: torch.Tensor, length: torch.Tensor, *inputs: torch.Tensor):
        slots = self.step.max_cache_len
        shape = cache_shape(self.step.config, slots, input_ids.shape[0])
        dtype = next(self.step.model.parameters()).dtype
        caches = [torch.zeros(shape, dtype=dtype) for _ in range(2 * self.layers)]
        logits, token, *caches = self.step.call(input_ids, torch.zeros((), dtype=torch.int64), inputs, caches,
                                                last_row=length - 1)
        written = (torch.arange(slots) < length)[:, None]  # [slots, 1]: the prompt's slots
        tail = self.capacity - slots
        return (logits, token,
                *(torch.nn.functional.pad(torch.where(written, cache, 0.0), (0, 0, 0, tail)) for cache in caches))


def prompt_bucket_lengths(buckets, capacity: int) -> tuple[int, ...]:
    """The prompt lengths a generator compiles its prompt's call for, ascending: a prompt
    takes the smallest that holds it (right-padded to it, PromptStep), or its own length
    past the largest. "powers-of-two": 16, 32, 64, ... and the capacity, so that any
    prompt takes at most twice its rows (or 16) and a generator of capacity 1024 at most 7
    executables; "exact": each prompt length its own executable; or the lengths given."""
    if buckets == "powers-of-two":
        return tuple(1 << power for power in range(4, capacity.bit_length()) if 1 << power < capacity) + (capacity,)
    if buckets == "exact":
        return ()
    if isinstance(buckets, str) or not hasattr(buckets, "__iter__") or \
            not all(isinstance(b, int) and not isinstance(b, bool) for b in buckets):
        raise UserError(f"mlc.generator: prompt_buckets must be \"powers-of-two\", \"exact\" or a list of prompt "
                        f"lengths, not {buckets!r}")
    outside = [b for b in buckets if not 1 <= b <= capacity]
    if outside:
        raise UserError(f"mlc.generator: prompt_buckets {outside} are not lengths from 1 to max_cache_len {capacity}")
    return tuple(sorted(set(buckets)))


class Padding:
    """What a left-padded batch adds to each call of a `PaddedCacheStep`; `mask` is the
    prompt's attention mask, [batch, prompt length], 0 then 1 in each row."""

    def __init__(self, mask: torch.Tensor, capacity: int):
        batch, length = mask.shape
        self.slots = torch.zeros(batch, capacity, dtype=torch.int64)
        self.slots[:, :length] = mask
        self.lengths = mask.sum(-1, keepdim=True)  # the tokens each sequence has so far
        # transformers' positions of a padded prompt (prepare_inputs_for_generation)
        self.prompt_positions = (mask.cumsum(-1) - 1).masked_fill(mask == 0, 1)

    def prompt(self, tokens: int) -> list[torch.Tensor]:
        """The inputs of the prompt's call (a PromptStep) of `tokens` slots: the prompt's,
        then those of the tokens that pad it to its bucket. These count as tokens that
        follow it (each at the next position), as they do unpadded: every key the call
        holds is then one its last row attends to, and none is masked for every row."""
        batch, length = self.prompt_positions.shape
        following = torch.arange(1, tokens - length + 1)
        slots = torch.cat([self.slots[:, :length], torch.ones(batch, tokens - length, dtype=torch.int64)], 1)
        return [slots, torch.cat([self.prompt_positions, self.prompt_positions[:, -1:] + following], 1)]

    def token_at(self, slot: int) -> list[torch.Tensor]:
        """The inputs of the step that writes each sequence's next token at `slot`."""
        self.slots[:, slot] = 1
        positions, self.lengths = self.lengths, self.lengths + 1
        return [self.slots.clone(), positions]


class NoPadding:
    """Prompts of one length: no inputs beyond the tokens, the position and the caches."""

    def prompt(self, tokens: int) -> list:
        return []

    def token_at(self, slot: int) -> list:
        return []


@dataclasses.dataclass
class Timings:
    """Of the last `generate` call, in seconds, compiles excluded."""

    first_token: float = 0.0  # prefill: the prompt in, the first new token out
    per_token: float = 0.0  # each later token, averaged over the decode steps
    tokens: int = 0


def _with_zero_masked_tail(compile_options: dict) -> dict:
    """`compile_options` with the promise `zero-masked-tail` (a target option every target
    takes: backends/target.py): each `generate` starts from zeroed caches (PromptStep)
    and writes slot `position` at each step, so the slots past the last one a step
    attends to are zeros, and its attention need not read them (mlc-form-attention). A
    decode step then reads the cache up to its position, not up to `max_cache_len`."""
    target_options = {"zero-masked-tail": True, **(compile_options.get("target_options") or {})}
    return {**compile_options, "target_options": target_options}


def _with_one_copy_of_the_weights(compile_options: dict) -> dict:
    """`compile_options` with a WeightStore for the large weights, where the target loads
    parameters and the caller chose no `external_params`: the decode step and each prompt
    bucket's executable then hold the model's weights once between them, not once each."""
    target = targets.get(compile_options.get("target", "llvm-cpu"))
    if "external_params" in compile_options or not target.external_params:
        return compile_options
    return {**compile_options, "external_params": WeightStore()}


class Generator:
    """A causal LM compiled for generation with a static cache (`mlc.generator`)."""

    def __init__(self, model: torch.nn.Module, *, max_cache_len: int, prompt_buckets="powers-of-two",
                 **compile_options):
        if not hasattr(model, "config") or not hasattr(model, "generation_config"):
            raise UserError(f"mlc.generator takes a Hugging Face causal LM (a transformers PreTrainedModel with "
                            f"generation), not a {type(model).__name__}")
        config = model.config.get_text_config()
        positions = getattr(config, "max_position_embeddings", None)
        if positions is not None and max_cache_len > positions:
            raise UserError(f"mlc.generator: max_cache_len {max_cache_len} is past the {positions} positions "
                            f"the model knows (max_position_embeddings)")
        self.step = CacheStep(model.eval(), max_cache_len)
        self.padded_step = PaddedCacheStep(model, max_cache_len)
        self.max_cache_len = max_cache_len
        self.prompt_buckets = prompt_bucket_lengths(prompt_buckets, max_cache_len)
        self.compile_options = _with_one_copy_of_the_weights(_with_zero_masked_tail(compile_options))
        self.layers = config.num_hidden_layers
        # (batch, tokens per call, padded, prompt) -> Compiled: the prompt's calls have a bucket's tokens
        self._compiled = {}
        self.timings = Timings()

    def empty_cache(self, batch: int = 1) -> list[torch.Tensor]:
        """Zeroed caches, as a decode step's example inputs (the prompt's call makes its own)."""
        shape = cache_shape(self.step.config, self.max_cache_len, batch)
        dtype = next(self.step.model.parameters()).dtype
        return [torch.zeros(shape, dtype=dtype) for _ in range(2 * self.layers)]

    def compiled(self, tokens: int, batch: int = 1, padded: bool = False, *, prompt: bool = False):
        """The executable for calls of `tokens` tokens of `batch` sequences (`padded`: left-padded
        ones, a PaddedCacheStep), compiled on first use. A `prompt` call starts from empty
        caches (a PromptStep): it takes `tokens` tokens (a prompt right-padded to them), the
        prompt's length, and the step's inputs but the position and the caches; a padded
        prompt's `attention_mask` covers the call's slots only (Padding.prompt). Attention
        takes the cache slots past those a call attends to as the zeros the prompt's call
        leaves there (`zero-masked-tail`)."""
        key = batch, tokens, padded, prompt
        if key not in self._compiled:
            import mlc

            ids = torch.zeros(batch, tokens, dtype=torch.int64)
            slots = tokens if prompt else self.max_cache_len
            padding = [torch.ones(batch, slots, dtype=torch.int64), torch.zeros_like(ids)] if padded else []
            step = self.padded_step if padded else self.step
            if prompt:
                step = PromptStep(type(step)(step.model, tokens), self.max_cache_len, self.layers)
                example = (ids, torch.tensor(tokens), *padding)
            else:
                example = (ids, torch.tensor(0), *padding, *self.empty_cache(batch))
            self._compiled[key] = mlc.compile(step, example, **self.compile_options)
        return self._compiled[key]

    def generate(self, input_ids: torch.Tensor, max_new_tokens: int, *, attention_mask: torch.Tensor | None = None,
                 stop_at_eos: bool = True, output_logits: bool = False, **options):
        """The prompt followed by up to `max_new_tokens` new tokens, as `model.generate(input_ids,
        max_new_tokens=..., **options)` gives them: greedy, or sampled with `do_sample=True`
        (temperature, top_k, top_p, min_p; torch's global random generator, so a seed gives
        transformers' tokens at that seed), with `repetition_penalty` and `no_repeat_ngram_size`;
        what `options` leave unset comes from the model's generation config (token_choice.py).
        `input_ids` is [batch, prompt length]: prompts generated together; of different
        lengths, they come left-padded with their `attention_mask` (0 at padding), as a
        tokenizer with `padding_side="left"` gives them.
        A sequence ends after an end-of-text token (`eos_token_id`, one or several) and goes
        on with the pad token until every one has ended, unless `stop_at_eos` is False. With
        `output_logits`, (tokens, logits): the logits each new token was chosen from, one
        [batch, vocab] tensor per token, as transformers' `output_logits=True` gives them."""
        prompt = self._checked(input_ids, max_new_tokens)
        mask = self._checked_mask(attention_mask, prompt)
        choice = TokenChoice(self.step.model, options, prompt, stop_at_eos)
        batch, length = prompt.shape
        padding = NoPadding() if mask is None else Padding(mask, self.max_cache_len)
        bucket = self.prompt_bucket(length)
        prefill = self.compiled(bucket, batch, padded=mask is not None, prompt=True)
        decode = self.compiled(1, batch, padded=mask is not None)
        logits = [] if output_logits or choice.on_host else None
        start = time.perf_counter()
        padded_prompt = torch.nn.functional.pad(prompt, (0, bucket - length))
        token, caches = self._step(prefill, choice, logits, padded_prompt, torch.tensor(length),
                                   *padding.prompt(bucket))
        first = time.perf_counter()
        tokens = [token, *self._decode(decode, choice, padding, token, length, caches, max_new_tokens - 1, logits)]
        end = time.perf_counter()
        self.timings = Timings(first_token=first - start, per_token=(end - first) / max(1, len(tokens) - 1),
                               tokens=len(tokens))
        tokens = torch.cat([prompt, *tokens], dim=1)
        return (tokens, tuple(logits)) if output_logits else tokens

    def prompt_bucket(self, length: int) -> int:
        """The tokens of the prompt's call for a prompt of `length`: the smallest of
        `prompt_buckets` that holds it, else `length`."""
        return next((bucket for bucket in self.prompt_buckets if bucket >= length), length)

    def _decode(self, decode, choice: TokenChoice, padding, token: torch.Tensor, start: int, caches: list,
                steps: int, read) -> list[torch.Tensor]:
        """Up to `steps` tokens after `token` at position `start`, until `choice` is done (every
        sequence ended); `padding` gives each step's inputs of a padded batch. Where the target
        keeps results, the first step checks what it takes (`run_resident`), and each later one
        takes the step before's caches back as they are (`fed_back_loop`). `read`, unless
        None, is the list each step's logits are appended to."""
        tokens = []
        if steps == 0 or choice.done:
            return tokens
        token, caches = self._step(decode, choice, read, token, torch.tensor(start), *padding.token_at(start), *caches)
        tokens.append(token)
        if not decode.bound_target.keeps_results:
            for position in range(start + 1, start + steps):
                if choice.done:
                    break
                token, caches = self._step(decode, choice, read, token, torch.tensor(position),
                                           *padding.token_at(position), *caches)
                tokens.append(token)
            return tokens
        loop = None
        for position in range(start + 1, start + steps):
            if choice.done:
                break
            inputs = [token.numpy(), np.array(position, dtype=np.int64),
                      *(extra.numpy() for extra in padding.token_at(position))]
            if loop is None:
                loop = decode.fed_back_loop([*inputs, *(cache.take() for cache in caches)],
                                            fed_back={2 + i: len(inputs) + i for i in range(len(caches))},
                                            read=[1] if read is None else [0, 1])
            *logits, argmax = loop(inputs)
            logits = None if read is None else torch.from_numpy(logits[0])
            if read is not None:
                read.append(logits)
            token = choice.next(logits, torch.from_numpy(argmax))
            tokens.append(token)
        return tokens

    def _step(self, compiled, choice: TokenChoice, read, *args) -> tuple[torch.Tensor, list]:
        """The next token and the caches of one call. Where the target keeps results in its
        memory, the caches stay there from one step to the next (Compiled.run_resident):
        as tensors, each step would copy every cache out and back in. The logits stay
        there too, unread, unless `read` (a list, else None) is to get them."""
        results = compiled(*args) if not compiled.bound_target.keeps_results \
            else compiled.run_resident(*args, keep=self._kept(read))
        logits, argmax, *caches = results
        if read is not None:
            read.append(logits)
        return choice.next(logits if read is not None else None, argmax), caches

    def _kept(self, read) -> list[int]:
        """The results a step leaves in IREE's memory: the caches, and the logits unless
        they are `read` (a list, else None)."""
        caches = list(range(2, 2 + 2 * self.layers))
        return caches if read is not None else [0, *caches]

    def _checked_mask(self, attention_mask, prompt: torch.Tensor) -> torch.Tensor | None:
        """The prompt's attention mask as int64, or None where it pads nothing."""
        if attention_mask is None:
            return None
        if not isinstance(attention_mask, torch.Tensor) or attention_mask.shape != prompt.shape:
            raise UserError(f"generate: attention_mask must be a tensor of the prompt's shape {list(prompt.shape)}")
        mask = attention_mask.to(torch.int64)
        if not torch.equal(mask, attention_mask.to(torch.bool).to(torch.int64)):
            raise UserError("generate: attention_mask must hold 0 (padding) and 1 (a token) only")
        if bool(mask.all()):
            return None
        if not bool((mask[:, 1:] >= mask[:, :-1]).all()) or not bool(mask[:, -1].all()):
            raise UserError("generate: prompts of different lengths must be left-padded (padding_side=\"left\"): "
                            "in each row of attention_mask, 0s then 1s, at least one 1")
        parameters = inspect.signature(self.step.model.forward).parameters
        if "attention_mask" not in parameters or "position_ids" not in parameters:
            raise UserError(f"generate: {type(self.step.model).__name__} takes no attention_mask and position_ids, "
                            f"which padded prompts need")
        return mask

    def _checked(self, input_ids, max_new_tokens: int) -> torch.Tensor:
        if not isinstance(input_ids, torch.Tensor) or input_ids.dtype != torch.int64 or input_ids.dim() != 2:
            raise UserError("generate: input_ids must be an int64 tensor of shape [batch, prompt length]")
        if input_ids.shape[0] < 1 or input_ids.shape[1] < 1 or max_new_tokens < 1:
            raise UserError("generate: needs a prompt of at least one token and max_new_tokens >= 1")
        total = input_ids.shape[1] + max_new_tokens
        if total > self.max_cache_len:
            raise UserError(f"generate: {input_ids.shape[1]} prompt tokens + {max_new_tokens} new ones need a cache "
                            f"of {total}, but this generator's max_cache_len is {self.max_cache_len}")
        return input_ids
