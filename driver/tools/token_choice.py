"""How `generate` picks each next token, as `model.generate` picks it.

The settings are resolved as transformers resolves them: the call's options over the
model's `generation_config` over transformers' defaults (so `do_sample=True` alone
samples from the top 50, as there). Then the same logits processors in the same order
(repetition penalty, n-gram blocking, a least length, then temperature, top-k, top-p and min-p when
sampling), and greedy argmax or `torch.multinomial` on torch's global random generator:
a seed gives the tokens transformers gives at that seed.

With no processor and no sampling, the token is the step's own argmax, taken inside the
executable, and the logits stay unread in IREE's memory. A setting that would change the
tokens and that mlc does not apply is refused, never ignored.
"""

import torch
import transformers

from ...errors import UserError

# Settings that change which tokens come out and that mlc does not apply, each with the
# values that leave it off.
NOT_APPLIED = {
    "num_beams": (None, 1), "num_return_sequences": (None, 1), "num_beam_groups": (None, 1),
    "diversity_penalty": (None, 0.0), "penalty_alpha": (None,), "dola_layers": (None,),
    "prompt_lookup_num_tokens": (None,), "guidance_scale": (None, 1, 1.0), "sequence_bias": (None,),
    "bad_words_ids": (None,), "force_words_ids": (None,), "constraints": (None,), "forced_bos_token_id": (None,), "forced_eos_token_id": (None,),
    "suppress_tokens": (None,), "begin_suppress_tokens": (None,), "exponential_decay_length_penalty": (None,),
    "remove_invalid_values": (None, False), "typical_p": (None, 1.0), "epsilon_cutoff": (None, 0.0),
    "eta_cutoff": (None, 0.0), "top_h": (None,), "watermarking_config": (None,), "token_healing": (None, False),
    "stop_strings": (None,), "max_time": (None,), "encoder_repetition_penalty": (None, 1.0),
    "encoder_no_repeat_ngram_size": (None, 0),
}
APPLIED = ("do_sample", "temperature", "top_k", "top_p", "min_p", "repetition_penalty", "no_repeat_ngram_size",
           "min_length", "min_new_tokens", "eos_token_id", "pad_token_id")


class TokenChoice:
    """The next-token rule of one `generate` call over a batch of prompts; `next` records
    each token chosen, and which sequences have ended."""

    def __init__(self, model, options: dict, prompt: torch.Tensor, stop_at_eos: bool = True):
        config = _resolved(model, options)
        every_end = _end_tokens(config.eos_token_id)  # a least length holds them back even without the stop
        ends = every_end if stop_at_eos else []
        self.sample = bool(config.do_sample)
        self.processors = _processors(config, self.sample, every_end, prompt.shape[1])
        self.sequence = prompt
        # Python sets and lists, not tensors: a decode step's three small torch ops on them took
        # 0.13 ms of a 3.2 ms step (Llama int8, AMD EPYC), cold after the step's weights
        self.ends = frozenset(ends)
        # an ended sequence goes on with padding, as in model.generate: its pad token, else its first end
        self.pad = config.pad_token_id if config.pad_token_id is not None else (ends[0] if ends else None)
        self.ended = [False] * prompt.shape[0]

    @property
    def on_host(self) -> bool:
        """Whether the logits are read out and the token chosen here, not by the step's argmax."""
        return self.sample or len(self.processors) > 0

    @property
    def done(self) -> bool:
        """Whether every sequence has produced an end-of-text token."""
        return all(self.ended)

    def next(self, logits: torch.Tensor | None, argmax: torch.Tensor) -> torch.Tensor:
        """The next tokens, [batch, 1] int64, from the step's logits ([batch, vocab]; None
        unless `on_host`) and the step's own argmax of them; the pad token where a
        sequence has ended."""
        token = argmax
        if self.on_host:
            scores = self.processors(self.sequence, logits.float())
            if self.sample:
                token = torch.multinomial(torch.softmax(scores, dim=-1), num_samples=1)
            else:
                token = scores.argmax(dim=-1, keepdim=True)
        if self.ends:
            if any(self.ended):
                token = torch.where(torch.tensor(self.ended)[:, None], self.pad, token)
            self.ended = [ended or chosen in self.ends for ended, (chosen,) in zip(self.ended, token.tolist())]
        if self.on_host:
            self.sequence = torch.cat([self.sequence, token], dim=1)
        return token


def _resolved(model, options: dict):
    """transformers' own resolution of the settings (`_prepare_generation_config`); an
    option it does not know comes back unused and is refused."""
    config, unused = model._prepare_generation_config(None, **options)
    unknown = sorted(set(unused) - {"output_attentions", "output_hidden_states"})
    if unknown:
        raise UserError(f"generate: unknown option {unknown[0]!r} (generation settings: "
                        f"{', '.join(APPLIED)}, as model.generate takes them)")
    for name, off in NOT_APPLIED.items():
        value = getattr(config, name, None)
        if not any(value is o or (o is not None and value == o) for o in off):
            where = "given" if name in options else "set by the model's generation_config"
            raise UserError(f"generate: {name}={value!r} ({where}) is not applied by mlc.generator, and would "
                            f"change the tokens; it applies {', '.join(APPLIED)}")
    return config


def _processors(config, sample: bool, ends: list[int], prompt: int) -> transformers.LogitsProcessorList:
    """transformers' processors for the settings mlc applies, in `model.generate`'s order."""
    processors = transformers.LogitsProcessorList()
    try:
        if config.repetition_penalty is not None and config.repetition_penalty != 1.0:
            processors.append(transformers.RepetitionPenaltyLogitsProcessor(config.repetition_penalty))
        if config.no_repeat_ngram_size:
            processors.append(transformers.NoRepeatNGramLogitsProcessor(config.no_repeat_ngram_size))
        if ends and config.min_length:  # no end-of-text token to hold back: nothing to do, as there
            processors.append(transformers.MinLengthLogitsProcessor(config.min_length, ends))
        if ends and config.min_new_tokens:
            processors.append(transformers.MinNewTokensLengthLogitsProcessor(prompt, config.min_new_tokens, ends))
        if not sample:
            return processors
        if config.temperature is not None and config.temperature != 1.0:
            processors.append(transformers.TemperatureLogitsWarper(config.temperature))
        if config.top_k:
            processors.append(transformers.TopKLogitsWarper(config.top_k))
        if config.top_p is not None and config.top_p < 1.0:
            processors.append(transformers.TopPLogitsWarper(config.top_p))
        if config.min_p is not None:
            processors.append(transformers.MinPLogitsWarper(config.min_p))
    except ValueError as error:  # the processors check their settings: temperature 0, top_p 2, ...
        raise UserError(f"generate: {error}") from None
    return processors


def _end_tokens(ends) -> list[int]:
    """The end-of-text tokens, one or a list, as transformers' generate reads them."""
    if ends is None:
        return []
    if isinstance(ends, torch.Tensor):
        ends = ends.tolist()
    return [ends] if isinstance(ends, int) else list(ends)
