"""`make fuzz-decoding`: random causal language models generating through `mlc.generator`, against eager.

    .venv/bin/python test/fuzz/decoding.py --cases 100              # on two processes
    .venv/bin/python test/fuzz/decoding.py --cases 1 --seed 17 --jobs 1
    .venv/bin/python test/fuzz/decoding.py --cases 20 --target vulkan-spirv   # f32, no plugin there

A generator is two executables and the state between them: the prefill of a prompt, then
one decode step per token, each taking the caches the step before left in IREE's memory
and writing the new token's key and value rows at a run-time position. The fixed tests
(test_generate.py) decode two tiny models. Here each case draws one at random:
- a family: GPT-2 (learned positions), Llama (RoPE, grouped-query attention, SwiGLU),
  Qwen2 (biases on q, k and v), Gemma (its own head size, scaled embeddings), Phi-3
  (q, k and v fused, gate and up fused);
- its sizes: 1 to 3 layers, 1 to 8 heads, key/value heads any divisor, head sizes 2 to 64,
  vocabularies of 3 to 3000, tied or untied embeddings, biases or not, and the activation;
- a precision (f32, bf16, int8) and `matmul-library` (auto, mlc, or off: IREE's kernels);
  with `--target` another than llvm-cpu, f32 on that target (where each step passes its
  caches back as tensors: only the CPU keeps results in IREE's memory);
- a prompt of 1 to 40 tokens, 1 to 16 new ones, a cache with room to spare or none, and
  1 to 4 prompts generated together (drawn last, so a seed's other draws stay what they
  were before batches); half the batches left-padded, each prompt after the first of
  its own length, with transformers' attention mask (drawn after everything else).

It generates with `output_logits=True` and checks:
- each sequence went on after its first end-of-text token (token 0; a vocabulary of a few
  tokens draws it often) with the pad token (also 0) only, and the generation stopped
  right after the last sequence ended, or at the number of tokens asked for;
- each new token before a sequence's end is the argmax of the logits it was chosen from
  (the first of equal ones);
- those logits against eager's, run over the whole sequence without a cache (mlc's tokens
  before it, teacher-forced, with the attention mask and positions model.generate gives
  padded prompts): at f32 within 1e-4 of their largest magnitude, or twice as
  far as f32's rounding alone can move eager's (`rounding_sensitivity`) where that is more:
  a Llama of 3 layers at weights of 0.5 moved one token's logits by 2.5e-4 so; at bf16 and
  int8 all new tokens' logits at once, within 1 % (of the norm) plus twice the error of
  eager under the same narrowing: `torch.autocast` to bf16, or its matmuls' weights and
  inputs rounded to int8 as mlc-quantize-int8 rounds them. Not token by token: two
  roundings of the same precision, each as right as the other, moved one token's logits of
  a Qwen2 by 5.7 % and 1.5 % (seed 1012), where its other tokens' moved by about 1 %.
A crash is a finding too. A finding prints the case and the command that repeats it; the
exit status is the number of findings (at most 100).
"""

import argparse
import dataclasses
import random
import subprocess
import sys
import time

from kernels import error  # the largest difference over the largest magnitude

END = 0  # every case's end-of-text token
F32_BUDGET = 1e-4
NARROW_FLOOR = 1e-2
FAMILIES = ("gpt2", "llama", "qwen2", "gemma", "phi3")


@dataclasses.dataclass
class Case:
    family: str
    precision: str
    matmul_library: str  # "auto", "mlc" or "false"; llvm-cpu's option
    sizes: dict
    target: str = "llvm-cpu"

    def __str__(self) -> str:
        sizes = ", ".join(f"{k} {v}" for k, v in self.sizes.items() if v is not None)
        where = f"matmul-library {self.matmul_library}" if self.target == "llvm-cpu" else f"on {self.target}"
        return f"{self.family} at {self.precision}, {where}: {sizes}"


def draw(rng: random.Random, target: str = "llvm-cpu") -> Case:
    """One case at random (see the module docstring); the same sizes on every target."""
    family, heads, head_size = rng.choice(FAMILIES), rng.randint(1, 8), rng.choice([2, 8, 16, 32, 64, rng.randint(1, 24) * 2])
    prompt, new = rng.choice([1, rng.randint(2, 12), rng.randint(12, 40)]), rng.randint(1, 16)
    precision, library = rng.choice(["f32", "f32", "bf16", "int8"]), rng.choice(["auto", "mlc", "false"])
    case = Case(family, precision if target == "llvm-cpu" else "f32", library, {
        "layers": rng.randint(1, 3), "heads": heads,
        "key/value heads": rng.choice([h for h in range(1, heads + 1) if heads % h == 0]), "head size": head_size,
        "hidden": rng.randint(2, 128) * 2 if family == "gemma" else heads * head_size,  # Gemma's heads need not fill it
        "intermediate": rng.choice([rng.randint(8, 64), rng.randint(64, 400)]),
        "activation": rng.choice(["gelu_new", "gelu", "relu", "gelu_pytorch_tanh"]) if family == "gpt2" else None,
        "vocabulary": rng.choice([rng.randint(3, 100), rng.randint(100, 3000)]),
        "tied": rng.random() < 0.5, "bias": rng.random() < 0.5, "initializer range": rng.choice([0.1, 0.3, 0.5]),
        "prompt": prompt, "new tokens": new, "cache": prompt + new + rng.choice([0, rng.randint(1, 40)]),
        "batch": rng.choice([1, 1, 2, 3, 4])}, target)
    s = case.sizes
    s["padded"] = s["batch"] > 1 and s["prompt"] > 1 and rng.random() < 0.5
    return case


def instantiate(case: Case, seed: int):
    """(model, prompt, attention mask) of `case`, with weights and prompt from `seed`; where
    it is padded, each prompt after the first has 1 to all of its tokens, after END as
    padding (the mask 0 there), as a tokenizer pads on the left."""
    import torch
    import transformers

    torch.manual_seed(seed)
    s = case.sizes
    common = dict(vocab_size=s["vocabulary"], initializer_range=s["initializer range"], bos_token_id=END,
                  eos_token_id=END, pad_token_id=END, tie_word_embeddings=s["tied"])
    llama_like = dict(hidden_size=s["hidden"], intermediate_size=s["intermediate"], num_hidden_layers=s["layers"],
                      num_attention_heads=s["heads"], num_key_value_heads=s["key/value heads"],
                      max_position_embeddings=s["cache"], **common)
    if case.family == "gpt2":
        config = transformers.GPT2Config(n_layer=s["layers"], n_embd=s["hidden"], n_head=s["heads"],
                                         n_positions=s["cache"], n_inner=s["intermediate"],
                                         activation_function=s["activation"], **common)
        model = transformers.GPT2LMHeadModel(config)
    elif case.family == "llama":
        config = transformers.LlamaConfig(attention_bias=s["bias"], mlp_bias=s["bias"], rope_theta=500.0, **llama_like)
        model = transformers.LlamaForCausalLM(config)
    elif case.family == "qwen2":
        model = transformers.Qwen2ForCausalLM(transformers.Qwen2Config(**llama_like))
    elif case.family == "gemma":
        config = transformers.GemmaConfig(head_dim=s["head size"], **llama_like)
        model = transformers.GemmaForCausalLM(config)
    else:
        model = transformers.Phi3ForCausalLM(transformers.Phi3Config(**llama_like))
    generator = torch.Generator().manual_seed(seed)
    prompt = torch.randint(0, s["vocabulary"], (s.get("batch", 1), s["prompt"]), generator=generator)
    mask = torch.ones_like(prompt)
    if s.get("padded"):
        for row in range(1, prompt.shape[0]):
            pads = int(torch.randint(0, s["prompt"], (), generator=generator))
            prompt[row, :pads], mask[row, :pads] = END, 0
    return model.eval(), prompt, mask


def eager_inputs(mask):
    """The attention mask and the positions eager takes for sequences of `mask`, as
    model.generate derives them (left padding: each token's position in its own sequence)."""
    return {"attention_mask": mask, "position_ids": (mask.cumsum(-1) - 1).masked_fill(mask == 0, 1)}


def relative_error(got, expected) -> float:
    """The norm of the difference, over the norm of `expected`."""
    return float((got - expected).norm() / expected.norm().clamp_min(1e-30))


def narrowed_eager(model, precision: str):
    """A function of the token ids that gives eager's logits under the narrowing `precision`
    makes: torch.autocast to bf16; or, as mlc-quantize-int8 does, every matmul by a weight
    on int8 values: the weight's per output channel, its input's per row."""
    import copy

    import torch

    if precision == "bf16":
        def logits(ids, mask):
            with torch.autocast("cpu", torch.bfloat16):
                return model(ids, **eager_inputs(mask)).logits.float()
        return logits
    rounded = copy.deepcopy(model)
    for module in rounded.modules():
        weight = getattr(module, "weight", None)
        if isinstance(module, torch.nn.Embedding) or weight is None or weight.dim() != 2:
            continue
        depth = 0 if type(module).__name__ == "Conv1D" else 1  # GPT-2's Conv1D keeps [in, out]
        # A parameter of its own: an LM head tied to the input embedding rounds its copy,
        # as mlc-quantize-int8 does, and leaves the embedding's rows as they are.
        module.weight = torch.nn.Parameter(_int8_rounded(weight.data, depth), requires_grad=False)
        module.register_forward_pre_hook(lambda _, inputs: (_int8_rounded(inputs[0], -1), *inputs[1:]))
    return lambda ids, mask: rounded(ids, **eager_inputs(mask)).logits


def _int8_rounded(x, dim: int):
    """`x` rounded to 255 levels, symmetric, scaled by its largest magnitude along `dim`."""
    scale = x.abs().amax(dim=dim, keepdim=True) / 127
    scale = scale.where(scale > 0, 1.0)
    return (x / scale).round().clamp(-127, 127) * scale


def rounding_sensitivity(model, ids, mask, first: int, trials: int = 4):
    """How far f32's rounding alone can move the logits of each sequence's positions from
    `first` on, [batch, positions] (`mask`: the sequences' attention mask):
    the largest error over `trials` runs in f64, each with every weight and every module's
    result moved by a random half-ulp of f32 (relative 6e-8), against the unmoved run.
    Large where the model is ill-conditioned: scores of hundreds before a softmax that
    nearly ties two keys."""
    import copy

    import torch

    exact = copy.deepcopy(model).double()
    generator = torch.Generator().manual_seed(0)

    def moved(value):
        return value * (1 + torch.randn(value.shape, generator=generator, dtype=value.dtype) * 6e-8)

    with torch.no_grad():
        reference = exact(ids, **eager_inputs(mask)).logits[:, first:]
        worst = torch.zeros(reference.shape[:2], dtype=torch.float64)
        for _ in range(trials):
            rounded = copy.deepcopy(exact)
            for parameter in rounded.parameters():
                parameter.copy_(moved(parameter))
            for module in rounded.modules():
                module.register_forward_hook(
                    lambda _, __, result: moved(result) if isinstance(result, torch.Tensor) and result.is_floating_point() else None)
            logits = rounded(ids, **eager_inputs(mask)).logits[:, first:]
            for row, position in torch.cartesian_prod(*map(torch.arange, worst.shape)).tolist():
                worst[row, position] = max(worst[row, position], error(logits[row, position], reference[row, position]))
    return worst


def check(case: Case, seed: int) -> str | None:
    """None if `case` generated its tokens from logits within budget, else what went wrong."""
    import torch

    import mlc
    from mlc.driver.backends import matmul_library

    model, prompt, mask = instantiate(case, seed)
    library = {"auto": "auto", "mlc": "mlc", "false": False}[case.matmul_library]
    if library == "mlc" and not matmul_library.available()[0]:
        library = "auto"  # run_seeds said so
    where = {"target_options": {"matmul-library": library}} if case.target == "llvm-cpu" else {"target": case.target}
    try:
        generator = mlc.generator(model, max_cache_len=case.sizes["cache"], precision=case.precision, **where)
        tokens, logits = generator.generate(prompt, case.sizes["new tokens"], output_logits=True, attention_mask=mask)
    except Exception as failure:  # a crash is a finding too
        lines = str(failure).splitlines() or [""]
        cause = next((line.strip() for line in lines[1:] if "error:" in line), "")  # IREE's, under mlc's first line
        return f"{type(failure).__name__}: {lines[0]} {cause}".rstrip()
    got, new = torch.stack(logits).float(), tokens[:, prompt.shape[1]:]  # [step, sequence, vocab], [sequence, step]
    chosen_from = tokens[:, :-1]  # the sequences each new token's logits were computed on, teacher-forced
    attended = torch.cat([mask, torch.ones_like(new)], dim=1)[:, :-1]  # each new token attended, pads after an end too
    with torch.no_grad():
        expected = model(chosen_from, **eager_inputs(attended)).logits[:, prompt.shape[1] - 1:]
        expected = expected.transpose(0, 1)  # as `got`
        narrowed = None if case.precision == "f32" else narrowed_eager(model, case.precision)(chosen_from, attended)
    ends = [row.index(END) if END in row else None for row in new.tolist()]
    for row, end in enumerate(ends):
        if end is not None and set(new[row, end:].tolist()) != {END}:
            return f"sequence {row} went on after its end-of-text token at {end}: {new[row].tolist()}"
    if None not in ends and new.shape[1] != max(ends) + 1 or None in ends and new.shape[1] != case.sizes["new tokens"]:
        return f"{new.shape[1]} of {case.sizes['new tokens']} tokens, the end-of-text tokens at {ends}"
    for row, end in enumerate(ends):
        for step, token in enumerate(new[row, :None if end is None else end + 1].tolist()):
            if token != int(got[step, row].argmax()):
                return f"sequence {row}'s token {step} is {token}, not the argmax {int(got[step, row].argmax())} of its logits"
    if narrowed is not None:  # the whole generation's logits at once: rounding moves some tokens' far more
        found = relative_error(got, expected)
        allowed = NARROW_FLOOR + 2 * relative_error(narrowed[:, prompt.shape[1] - 1:].transpose(0, 1), expected)
        return None if found <= allowed else f"the logits: error {found:.3g}, allowed {allowed:.3g}"
    sensitivity = rounding_sensitivity(model, chosen_from, attended, prompt.shape[1] - 1)
    for row in range(new.shape[0]):
        for step in range(new.shape[1]):
            found, allowed = error(got[step, row], expected[step, row]), max(F32_BUDGET, 2 * float(sensitivity[row, step]))
            if not found <= allowed:
                where = f"sequence {row}'s token {step}" if new.shape[0] > 1 else f"token {step}"
                return f"the logits of {where}: error {found:.3g}, allowed {allowed:.3g}"
    return None


def run_seeds(seeds: list[int], target: str) -> int:
    """Checks the cases of `seeds` on `target` in this process; prints each finding."""
    from mlc.driver.backends import matmul_library

    available, why = matmul_library.available()
    if not available:
        print(f"mlc's matmul plugin cannot be built here ({why}): cases drawn with matmul-library mlc run with auto")
    findings, start = 0, time.monotonic()
    for seed in seeds:
        case = draw(random.Random(seed), target)
        problem = check(case, seed)
        if problem is not None:
            findings += 1
            print(f"finding: {case}: {problem}\n  repeat: {sys.executable} {__file__} --seed {seed} --cases 1 "
                  f"--jobs 1 --target {target}", flush=True)
    print(f"{len(seeds)} cases from seed {seeds[0] if seeds else '-'}, {findings} findings, "
          f"{time.monotonic() - start:.0f} s", flush=True)
    return findings


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--cases", type=int, default=50, help="how many cases (default 50)")
    parser.add_argument("--seed", type=int, default=0, help="the first case's seed")
    parser.add_argument("--jobs", type=int, default=2, help="processes, each taking every jobs-th seed (default 2)")
    parser.add_argument("--target", default="llvm-cpu", help="where the generators run (default llvm-cpu)")
    parser.add_argument("--in-process", type=int, metavar="JOB", help=argparse.SUPPRESS)  # one job's seeds, here
    args = parser.parse_args()
    if args.cases < 1 or args.jobs < 1:
        parser.error("--cases and --jobs must be at least 1")
    from mlc.driver.backends import targets

    if args.target not in targets.TARGETS:
        parser.error(f"unknown target {args.target!r}; choose from {', '.join(targets.TARGETS)}")
    runs, why = targets.get(args.target).can_run()
    if not runs:
        parser.error(f"{args.target} cannot run here: {why}")
    seeds = range(args.seed, args.seed + args.cases)
    if args.in_process is not None:
        return min(run_seeds(list(seeds[args.in_process::args.jobs]), args.target), 100)
    jobs = [subprocess.Popen([sys.executable, __file__, "--in-process", str(job), "--seed", str(args.seed),
                              "--cases", str(args.cases), "--jobs", str(args.jobs), "--target", args.target])
            for job in range(min(args.jobs, args.cases))]
    statuses = [job.wait() for job in jobs]
    return min(sum(status if status >= 0 else 1 for status in statuses), 100)


if __name__ == "__main__":
    sys.exit(main())
