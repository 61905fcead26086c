"""`make fuzz-kernels`: the matmul plugin's hand-written kernels at random shapes, against eager.

    .venv/bin/python test/fuzz/kernels.py --cases 300                 # each configuration below
    .venv/bin/python test/fuzz/kernels.py --cases 50 --seed 7 --configurations mlc

The plugin (driver/backends/native) runs mlc's matmuls, attention and LayerNorms in C of
its own: f32 and bf16 GEMMs and rows, int8 on AMX and VNNI, quantization, GELU, the
epilogues. Each has tails (rows not a whole strip, columns not a whole panel, depths not a
whole group) that fixed shapes test a few of. Here each case draws a block at random sizes:
- a Linear (bias or not), GELU, tanh GELU, ReLU or nothing, a residual, maybe a second
  Linear back: at f32, bf16 or int8, batched or not, one row (a decode step's) to 300;
- attention (torch's scaled_dot_product_attention plain, causal or with a mask of one of
  the broadcasts mlc-form-attention takes, or written out), maybe a LayerNorm after: f32
  or bf16;
- a LayerNorm of an added residual at widths 1 to 1100, large and tiny magnitudes.
It compiles with `matmul-library=mlc` (every matmul on the plugin, on mlc's own kernel
wherever one can run it) and compares with f32 eager: within 1e-4 of the result's largest
magnitude at f32; at bf16 within 1 % plus twice the error of eager on the operands rounded
to bf16 (a sharp softmax magnifies that rounding); within the 5 % budget at int8.

Each configuration runs in a process of its own, since the plugin reads its switches once:
    mlc        mlc's own kernels (AMX for int8 where the CPU has it; MLC_ATTENTION_KERNEL=own:
               attention's f32 products of several rows too, measured faster or not)
    below-amx  MKL_ENABLE_INSTRUCTIONS=AVX512_E3: int8 on mlc's VNNI kernel, bf16 on MKL
    mkl        MLC_F32_KERNEL=mkl MLC_INT8_KERNEL=mkl MLC_BF16_KERNEL=mkl: MKL's GEMMs instead
               (bf16 too where the CPU lacks AVX-512-BF16: "mlc" widens it to f32 there),
               attention's products too
A finding prints the case, its seed and the command that repeats it; the exit status is
the number of findings (at most 100).
"""

import argparse
import dataclasses
import os
import random
import subprocess
import sys
import time

CONFIGURATIONS = {"mlc": {"MLC_ATTENTION_KERNEL": "own"}, "below-amx": {"MKL_ENABLE_INSTRUCTIONS": "AVX512_E3"},
                  "mkl": {"MLC_F32_KERNEL": "mkl", "MLC_INT8_KERNEL": "mkl", "MLC_BF16_KERNEL": "mkl"}}
F32_BUDGET = 1e-4
BF16_FLOOR = 1e-2
INT8_BUDGET = 5e-2


@dataclasses.dataclass
class Case:
    kind: str  # "linear", "attention" or "layer norm"
    precision: str
    sizes: dict

    def __str__(self) -> str:
        return f"{self.kind} at {self.precision}: " + ", ".join(f"{k} {v}" for k, v in self.sizes.items())


def draw(rng: random.Random) -> Case:
    """One case at random sizes (see the module docstring)."""
    kind = rng.choice(["linear", "linear", "attention", "layer norm"])
    if kind == "linear":
        return Case(kind, rng.choice(["f32", "bf16", "int8"]), {
            "rows": rng.choice([1, 1, rng.randint(2, 8), rng.randint(9, 70), rng.randint(70, 300)]),
            "depth": rng.choice([rng.randint(1, 40), rng.randint(40, 700), rng.choice([64, 256, 768])]),
            "columns": rng.choice([rng.randint(1, 40), rng.randint(40, 700), rng.choice([64, 256, 768])]),
            "batch": rng.choice([0, 0, rng.randint(2, 3)]), "bias": rng.random() < 0.6,
            "activation": rng.choice(["", "gelu", "tanh gelu", "relu"]), "residual": rng.random() < 0.4,
            "back": rng.random() < 0.3})
    if kind == "attention":
        batch, heads = rng.randint(1, 2), rng.randint(1, 6)
        rows = rng.choice([1, rng.randint(2, 20), rng.randint(20, 260)])
        form = rng.choice(["plain", "causal", "mask", "written out"])
        keys = rows if form == "causal" or rng.random() < 0.6 else rng.randint(1, 260)
        return Case(kind, rng.choice(["f32", "f32", "bf16"]), {
            "batch": batch, "heads": heads, "rows": rows, "keys": keys,
            "head size": rng.choice([rng.randint(1, 20), 32, 64, rng.randint(20, 130)]), "form": form,
            "scale": rng.choice([None, None, 0.125, 1.7]),
            "mask": rng.choice([(batch, 1, 1, keys), (batch, heads, rows, keys), (1, 1, rows, keys), (batch, 1, rows, keys)]),
            "blocked mask": rng.random() < 0.7, "layer norm": rng.random() < 0.3})
    return Case(kind, rng.choice(["f32", "bf16"]), {
        "rows": rng.choice([(1,), (rng.randint(2, 300),), (2, rng.randint(2, 100))]),
        "width": rng.choice([rng.randint(1, 40), rng.randint(40, 1100), 768]), "affine": rng.random() < 0.7,
        "eps": rng.choice([1e-5, 1e-12, 1e-3]), "magnitude": rng.choice([1, 100, 1e-3]), "offset": rng.choice([0, 5])})


def instantiate(case: Case, seed: int):
    """(module, inputs) of `case`, with weights and inputs from `seed`."""
    import torch
    import torch.nn.functional as F

    torch.manual_seed(seed)
    s = case.sizes
    if case.kind == "linear":
        class Block(torch.nn.Module):
            def __init__(self):
                super().__init__()
                self.up = torch.nn.Linear(s["depth"], s["columns"], bias=s["bias"])
                self.down = torch.nn.Linear(s["columns"], s["depth"], bias=s["bias"]) if s["back"] else None

            def forward(self, x, residual):
                y = self.up(x)
                y = {"gelu": F.gelu, "tanh gelu": lambda v: F.gelu(v, approximate="tanh"), "relu": torch.relu,
                     "": lambda v: v}[s["activation"]](y)
                y = y + residual if s["residual"] else y
                return self.down(y) + x if self.down is not None else y

        lead = (s["batch"],) if s["batch"] else ()
        return Block().eval(), (torch.randn(*lead, s["rows"], s["depth"]), torch.randn(*lead, s["rows"], s["columns"]))
    if case.kind == "attention":
        class Attention(torch.nn.Module):
            def forward(self, q, k, v, mask):
                if s["form"] == "written out":
                    scale = s["scale"] or q.shape[-1] ** -0.5
                    out = torch.softmax(q @ k.transpose(-1, -2) * scale + mask, dim=-1) @ v
                else:
                    out = F.scaled_dot_product_attention(q, k, v, attn_mask=mask if s["form"] == "mask" else None,
                                                         is_causal=s["form"] == "causal", scale=s["scale"])
                return F.layer_norm(out, out.shape[-1:]) if s["layer norm"] else out

        q = torch.randn(s["batch"], s["heads"], s["rows"], s["head size"])
        k, v = (torch.randn(s["batch"], s["heads"], s["keys"], s["head size"]) for _ in range(2))
        blocked = torch.where(torch.rand(s["mask"]) < 0.15, -1e4, 0.0)
        return Attention().eval(), (q, k, v, blocked if s["blocked mask"] else torch.randn(s["mask"]))
    norm = torch.nn.LayerNorm(s["width"], elementwise_affine=s["affine"], eps=s["eps"])
    if s["affine"]:
        torch.nn.init.normal_(norm.weight)
        torch.nn.init.normal_(norm.bias)

    class Norm(torch.nn.Module):
        def __init__(self):
            super().__init__()
            self.norm = norm

        def forward(self, x, residual):
            return self.norm(x + residual)

    x = torch.randn(*s["rows"], s["width"]) * s["magnitude"] + s["offset"]
    return Norm().eval(), (x, torch.randn(*s["rows"], s["width"]))


def error(got, expected) -> float:
    """The largest difference, over the largest magnitude of `expected`."""
    import numpy as np

    return float(np.abs(got - expected).max() / max(float(np.abs(expected).max()), 1e-30))


def budget(case: Case, module, inputs, expected) -> float:
    """The error `case` may have against f32 eager (see the module docstring)."""
    import copy

    import torch

    if case.precision == "f32":
        return F32_BUDGET
    if case.precision == "int8":
        return INT8_BUDGET
    rounded = copy.deepcopy(module)
    with torch.no_grad():
        for parameter in rounded.parameters():
            parameter.copy_(parameter.bfloat16().float())
        eager = rounded(*(x.bfloat16().float() for x in inputs)).numpy()
    return BF16_FLOOR + 2 * error(eager, expected)


def check(case: Case, seed: int) -> str | None:
    """None if `case` compiled and ran within its budget, else what went wrong."""
    import numpy as np
    import torch

    import mlc

    module, inputs = instantiate(case, seed)
    with torch.no_grad():
        expected = module(*inputs).numpy()
    try:
        compiled = mlc.compile(module, inputs, precision=case.precision, target_options={"matmul-library": "mlc"})
        got = np.asarray(compiled(*inputs))
    except Exception as failure:  # a crash is a finding too
        return f"{type(failure).__name__}: {str(failure).splitlines()[0] if str(failure) else ''}"
    allowed = budget(case, module, inputs, expected)
    found = error(got, expected)
    return None if found <= allowed else f"error {found:.3g}, allowed {allowed:.3g}"


def run_configuration(name: str, first_seed: int, cases: int) -> int:
    """Checks `cases` cases from `first_seed` in this process; prints each finding."""
    findings, start = 0, time.monotonic()
    for seed in range(first_seed, first_seed + cases):
        case = draw(random.Random(seed))
        problem = check(case, seed)
        if problem is not None:
            findings += 1
            print(f"finding ({name}): {case}: {problem}\n  repeat: {sys.executable} {__file__} "
                  f"--seed {seed} --cases 1 --configurations {name}", flush=True)
    print(f"{name}: {cases} cases, {findings} findings, {time.monotonic() - start:.0f} s", flush=True)
    return findings


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--cases", type=int, default=100, help="cases per configuration (default 100)")
    parser.add_argument("--seed", type=int, default=0, help="the first case's seed")
    parser.add_argument("--configurations", default=",".join(CONFIGURATIONS),
                        help=f"a comma-separated list of {', '.join(CONFIGURATIONS)}")
    parser.add_argument("--in-process", metavar="NAME", help=argparse.SUPPRESS)  # one configuration, here
    args = parser.parse_args()
    if args.in_process:
        return min(run_configuration(args.in_process, args.seed, args.cases), 100)
    names = args.configurations.split(",")
    unknown = [name for name in names if name not in CONFIGURATIONS]
    if unknown:
        parser.error(f"unknown configuration {unknown[0]!r}; choose from {', '.join(CONFIGURATIONS)}")
    findings = 0
    for name in names:
        env = {key: value for key, value in os.environ.items()
               if key not in ("MKL_ENABLE_INSTRUCTIONS", "MLC_F32_KERNEL", "MLC_INT8_KERNEL")}
        env.update(CONFIGURATIONS[name])
        done = subprocess.run([sys.executable, __file__, "--in-process", name, "--seed", str(args.seed),
                               "--cases", str(args.cases)], env=env)
        findings += done.returncode if done.returncode >= 0 else 1
    return min(findings, 100)


if __name__ == "__main__":
    sys.exit(main())
