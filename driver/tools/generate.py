"""Text generation with a key/value cache, for a Hugging Face causal LM.

    generator = mlc.generator(model, max_cache_len=128, precision="int8")
    tokens = generator.generate(input_ids, max_new_tokens=32)   # = model.generate(input_ids, max_new_tokens=32)
    generator.generate(input_ids, 32, do_sample=True, top_p=0.9)  # sampled, as model.generate samples
    generator.timings                                           # time to first token, ms per token

The model is compiled twice, as one `CacheStep`: for the prompt (prefill, one
executable per prompt length) and for one new token (decode). The cache is
transformers' static cache: a fixed-capacity key and value tensor per layer, written
at the run-time `position` (`index_copy`), so every decode step has one shape and one
executable. Each call takes the caches and returns them updated: mlc's executables
are functions, so the cache lives in the caller, not in the executable. On the CPU
the caches stay in IREE's memory between steps (`Compiled.run_resident`), and IREE
writes each step's new rows into them in place.
"""

import dataclasses
import inspect
import time

import numpy as np
import torch

from ...errors import UserError
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
        from transformers.cache_utils import StaticCache

        cache = StaticCache(max_cache_len=self.max_cache_len, config=self.config)
        _, heads, _, head_dim = cache_shape(self.config, self.max_cache_len)
        cache.early_initialization(input_ids.shape[0], heads, head_dim, caches[0].dtype, input_ids.device)
        for layer, keys, values in zip(cache.layers, caches[0::2], caches[1::2], strict=True):
            layer.keys = keys.clone()  # written in place by the model: a copy keeps the inputs unchanged
            layer.values = values.clone()
            layer.cumulative_length = position.clone()
        logits = self.model(input_ids=input_ids, past_key_values=cache, use_cache=True, **self._last_row).logits[:, -1, :]
        caches = (tensor for layer in cache.layers for tensor in (layer.keys, layer.values))
        return (logits, logits.argmax(-1, keepdim=True), *caches)

    @property
    def _last_row(self) -> dict:
        """transformers' `logits_to_keep=1`, where the model takes it: the LM head then
        multiplies the last row only (Llama's prompt of 32: 31 ms of a 170 ms prefill)."""
        return {"logits_to_keep": 1} if "logits_to_keep" in inspect.signature(self.model.forward).parameters else {}


@dataclasses.dataclass
class Timings:
    """Of the last `generate` call, in seconds, compiles excluded."""

    first_token: float = 0.0  # prefill: the prompt in, the first new token out
    per_token: float = 0.0  # each later token, averaged over the decode steps
    tokens: int = 0


class Generator:
    """A causal LM compiled for generation with a static cache (`mlc.generator`)."""

    def __init__(self, model: torch.nn.Module, *, max_cache_len: int, **compile_options):
        if not hasattr(model, "config") or not hasattr(model, "generation_config"):
            raise UserError(f"mlc.generator takes a Hugging Face causal LM (a transformers PreTrainedModel with "
                            f"generation), not a {type(model).__name__}")
        config = model.config.get_text_config()
        positions = getattr(config, "max_position_embeddings", None)
        if positions is not None and max_cache_len > positions:
            raise UserError(f"mlc.generator: max_cache_len {max_cache_len} is past the {positions} positions "
                            f"the model knows (max_position_embeddings)")
        self.step = CacheStep(model.eval(), max_cache_len)
        self.max_cache_len = max_cache_len
        self.compile_options = compile_options
        self.layers = config.num_hidden_layers
        self._compiled = {}  # (batch, tokens per call) -> Compiled: 1 token is decode, others a prompt length
        self.timings = Timings()

    def empty_cache(self, batch: int = 1) -> list[torch.Tensor]:
        shape = cache_shape(self.step.config, self.max_cache_len, batch)
        dtype = next(self.step.model.parameters()).dtype
        return [torch.zeros(shape, dtype=dtype) for _ in range(2 * self.layers)]

    def compiled(self, tokens: int, batch: int = 1):
        """The executable for calls of `tokens` tokens of `batch` sequences, compiled on first use."""
        if (batch, tokens) not in self._compiled:
            import mlc

            example = (torch.zeros(batch, tokens, dtype=torch.int64), torch.tensor(0), *self.empty_cache(batch))
            self._compiled[batch, tokens] = mlc.compile(self.step, example, **self.compile_options)
        return self._compiled[batch, tokens]

    def generate(self, input_ids: torch.Tensor, max_new_tokens: int, *, stop_at_eos: bool = True,
                 output_logits: bool = False, **options):
        """The prompt followed by up to `max_new_tokens` new tokens, as `model.generate(input_ids,
        max_new_tokens=..., **options)` gives them: greedy, or sampled with `do_sample=True`
        (temperature, top_k, top_p, min_p; torch's global random generator, so a seed gives
        transformers' tokens at that seed), with `repetition_penalty` and `no_repeat_ngram_size`;
        what `options` leave unset comes from the model's generation config (token_choice.py).
        `input_ids` is [batch, prompt length]: prompts of one length, generated together.
        A sequence ends after an end-of-text token (`eos_token_id`, one or several) and goes
        on with the pad token until every one has ended, unless `stop_at_eos` is False. With
        `output_logits`, (tokens, logits): the logits each new token was chosen from, one
        [batch, vocab] tensor per token, as transformers' `output_logits=True` gives them."""
        prompt = self._checked(input_ids, max_new_tokens)
        choice = TokenChoice(self.step.model, options, prompt, stop_at_eos)
        batch, length = prompt.shape
        prefill, decode = self.compiled(length, batch), self.compiled(1, batch)
        logits = [] if output_logits or choice.on_host else None
        start = time.perf_counter()
        token, caches = self._step(prefill, choice, logits, prompt, torch.tensor(0), *self.empty_cache(batch))
        first = time.perf_counter()
        tokens = [token, *self._decode(decode, choice, token, length, caches, max_new_tokens - 1, logits)]
        end = time.perf_counter()
        self.timings = Timings(first_token=first - start, per_token=(end - first) / max(1, len(tokens) - 1),
                               tokens=len(tokens))
        tokens = torch.cat([prompt, *tokens], dim=1)
        return (tokens, tuple(logits)) if output_logits else tokens

    def _decode(self, decode, choice: TokenChoice, token: torch.Tensor, start: int, caches: list, steps: int,
                read) -> list[torch.Tensor]:
        """Up to `steps` tokens after `token` at position `start`, until `choice` is done (every
        sequence ended). Where the target keeps results, the first step checks what it takes
        (`run_resident`), and each later one takes the step before's caches back as they are
        (`run_fed_back`). `read`, unless None, is the list each step's logits are appended to."""
        tokens = []
        if steps == 0 or choice.done:
            return tokens
        token, caches = self._step(decode, choice, read, token, torch.tensor(start), *caches)
        tokens.append(token)
        if not decode.bound_target.keeps_results:
            for position in range(start + 1, start + steps):
                if choice.done:
                    break
                token, caches = self._step(decode, choice, read, token, torch.tensor(position), *caches)
                tokens.append(token)
            return tokens
        views = [cache.take()[0] for cache in caches]
        for position in range(start + 1, start + steps):
            if choice.done:
                break
            logits, argmax, *kept = decode.run_fed_back([token.numpy(), np.array(position, dtype=np.int64), *views],
                                                        self._kept(read))
            logits = None if read is None else torch.from_numpy(logits)
            if read is not None:
                read.append(logits)
            views = [view for view, _ in kept]
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
