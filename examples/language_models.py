"""Causal language models for generation (mlc.generator), built by transformers from
configs with seeded random weights (nothing is downloaded).

    gpt2          GPT-2 small (124M): learned positions, multi-head attention, tied LM head
    llama         a 12-layer Llama (124M): RoPE, grouped-query attention (12 heads, 4 for keys/values), SwiGLU
    gpt2-tiny     GPT-2 at 2 layers of 64, a vocabulary of 1000: for tests
    llama-tiny    Llama at 2 layers of 64, 4 heads and 2 for keys/values, a vocabulary of 1000

Random weights at transformers' default initializer range make every step's logits
nearly flat, so greedy decoding repeats one token; `initializer_range` 0.3 gives the
tiny models varied tokens, so that comparing them with `model.generate` tests something.
"""

import torch

TINY = dict(vocab_size=1000, initializer_range=0.3, bos_token_id=0, eos_token_id=0)


def build(name: str) -> torch.nn.Module:
    import transformers

    torch.manual_seed(0)
    if name == "gpt2":
        config = transformers.GPT2Config()
        return transformers.GPT2LMHeadModel(config).eval()
    if name == "llama":
        config = transformers.LlamaConfig(vocab_size=32000, hidden_size=768, intermediate_size=2048,
                                          num_hidden_layers=12, num_attention_heads=12, num_key_value_heads=4,
                                          max_position_embeddings=1024)
        return transformers.LlamaForCausalLM(config).eval()
    if name == "gpt2-tiny":
        return transformers.GPT2LMHeadModel(transformers.GPT2Config(n_layer=2, n_embd=64, n_head=4, n_positions=64,
                                                                     **TINY)).eval()
    if name == "llama-tiny":
        config = transformers.LlamaConfig(hidden_size=64, intermediate_size=128, num_hidden_layers=2,
                                          num_attention_heads=4, num_key_value_heads=2, max_position_embeddings=64,
                                          **TINY)
        return transformers.LlamaForCausalLM(config).eval()
    raise KeyError(name)


def eager_generate(model: torch.nn.Module, prompt: torch.Tensor, new_tokens: int, **options) -> torch.Tensor:
    """transformers' greedy generation of exactly `new_tokens` tokens (no end-of-text stop)."""
    with torch.no_grad():
        return model.generate(prompt, attention_mask=torch.ones_like(prompt), do_sample=False,
                              max_new_tokens=new_tokens, min_new_tokens=new_tokens,
                              pad_token_id=model.config.eos_token_id, **options)
