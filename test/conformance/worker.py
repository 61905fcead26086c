"""Runs conformance cases one by one, in a process of its own: reads a JSON request
per line ({"case": ..., "path": ...}) on stdin, writes a JSON result per line on the
stdout it was started with. A case that crashes the process takes only this worker
down; the parent (run.py) records the crash and starts another.

Paths:
  mlc           mlc.compile, strict (allow_fallback=False): mlc's own conversions only
  mlc-fallback  mlc.compile with the fallback (the default)
  torch-mlir    torch-mlir's own linalg (torch_mlir.fx.export_and_import), compiled by IREE
"""

import io
import json
import os
import re
import sys
import warnings

import numpy as np
import torch
import torch.utils._pytree as pytree

sys.path.insert(0, os.path.dirname(__file__))
from cases import build  # noqa: E402

RTOL, ATOL = 1e-4, 1e-5


def compile_mlc(module, inputs, fallback: bool):
    import mlc

    compiled = mlc.compile(module, inputs, allow_fallback=fallback)
    return compiled, compiled.report.get("fallback", {})


def compile_torch_mlir(module, inputs):
    import iree.compiler
    import torch_mlir.fx

    from mlc.driver.backends import iree as iree_backend

    imported = torch_mlir.fx.export_and_import(module, *inputs, output_type="linalg-on-tensors")
    buffer = io.BytesIO()
    imported.operation.write_bytecode(buffer)
    vmfb = iree.compiler.compile_str(buffer.getvalue(), extra_args=list(iree_backend.CPU_FLAGS))
    main = iree_backend.load(vmfb)

    def run(*args):
        results = main(*[iree_backend.host_array(arg) for arg in args])
        results = results if isinstance(results, (tuple, list)) else [results]
        return [torch.from_numpy(np.asarray(r.to_host())) for r in results]

    return run, {}


def mismatch(expected, actual, kind: str) -> str | None:
    """Why `actual` is not `expected` (pytree leaves compared in order), or None."""
    want = pytree.tree_leaves(expected)
    got = pytree.tree_leaves(actual)
    if len(want) != len(got):
        return f"{len(got)} results, eager has {len(want)}"
    for i, (w, g) in enumerate(zip(want, got)):
        if not isinstance(w, torch.Tensor):
            if isinstance(g, torch.Tensor) and g.dim() == 0:
                g = g.item()
            if w != g and not (isinstance(w, float) and w != w and g != g):
                return f"result {i}: {g!r}, eager {w!r}"
            continue
        if not isinstance(g, torch.Tensor):
            return f"result {i}: a {type(g).__name__}, eager a tensor"
        if g.dtype != w.dtype:
            return f"result {i}: dtype {g.dtype}, eager {w.dtype}"
        if tuple(g.shape) != tuple(w.shape):
            return f"result {i}: shape {list(g.shape)}, eager {list(w.shape)}"
        if kind in ("random", "uninitialized") or (kind == "ties" and g.dtype == torch.int64):
            continue
        if w.is_complex() or w.is_floating_point():
            close = torch.isclose(g, w, rtol=RTOL, atol=ATOL, equal_nan=True)
            if not bool(close.all()):
                bad = (~close).nonzero()[0].tolist()
                return f"result {i}: {g[tuple(bad)].item()!r} at {bad}, eager {w[tuple(bad)].item()!r}"
        elif not torch.equal(g, w):
            bad = (g != w).nonzero()[0].tolist()
            return f"result {i}: {g[tuple(bad)].item()!r} at {bad}, eager {w[tuple(bad)].item()!r}"
    return None


def classify(error: Exception) -> tuple[str, str]:
    """("unsupported", the ops) when mlc names ops it has no conversion for, else ("error", why)."""
    text = str(error)
    if "have no conversion to mlc" in text or "are unknown to torch-mlir" in text:
        ops = re.findall(r"^\s+(torch\.\S+)", text, re.MULTILINE)
        return "unsupported", "no conversion: " + ", ".join(ops)
    return "error", _first_line(error)


def run_case(case: str, path: str) -> dict:
    torch.manual_seed(0)
    module, inputs, kind = build(case)
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            expected = module(*[i.clone() for i in inputs])
            torch.export.export(module, inputs, strict=False)
    except Exception as error:
        return {"status": "not exportable", "why": _first_line(error)}
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            if path == "torch-mlir":
                compiled, fallback = compile_torch_mlir(module, inputs)
            else:
                compiled, fallback = compile_mlc(module, inputs, fallback=path == "mlc-fallback")
    except Exception as error:
        status, why = classify(error)
        return {"status": status, "why": why}
    try:
        actual = compiled(*[i.clone() for i in inputs])
    except Exception as error:
        return {"status": "run error", "why": _first_line(error)}
    why = mismatch(expected, actual, kind)
    result = {"status": "wrong" if why else "pass", "why": why or ""}
    if fallback:
        result["fallback"] = sorted(fallback)
    return result


def _first_line(error: Exception) -> str:
    """The error's first line, or its first MLIR error when it has one."""
    lines = [line.strip() for line in str(error).strip().splitlines() if line.strip()]
    located = [line.split("error: ", 1)[1] for line in lines if "error: " in line]
    return f"{type(error).__name__}: {(located or lines or [''])[0]}"[:300]


def main() -> None:
    out = os.fdopen(os.dup(1), "w", buffering=1)
    os.dup2(2, 1)  # compilers' chatter on stdout must not reach the protocol
    for line in sys.stdin:
        request = json.loads(line)
        result = run_case(request["case"], request["path"])
        out.write(json.dumps({**request, **result}) + "\n")


if __name__ == "__main__":
    main()
