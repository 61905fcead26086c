"""The executable cache's effect on compile time: each zoo model compiled by
`mlc.compile` in a new process, first into an empty cache (a miss: IREE compiles),
then again (a hit: mlc's passes run, IREE's compile is skipped), then with
cache=False for reference. Each compile is its own process, as a user's next run is.

    .venv/bin/python benchmarks/compile_cache.py                       # vit_b_16, bert_base, gpt2
    .venv/bin/python benchmarks/compile_cache.py --models resnet18 --markdown
"""

import argparse
import json
import os
import platform
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

ONE_COMPILE = """
import json, sys, time
sys.path.insert(0, {examples!r})
import torch, zoo, mlc
model, inputs = zoo.build({name!r})
start = time.perf_counter()
compiled = mlc.compile(model, inputs, cache={cache!r})
seconds = time.perf_counter() - start
with torch.no_grad():
    want = zoo.outputs(model(*inputs))
got = zoo.outputs(compiled(*inputs))
error = max(((g - w).abs().max() / w.abs().max()).item() for g, w in zip(got, want))
stages = {{s["stage"]: s["seconds"] for s in compiled.report["stages"]}}
iree = next(v for k, v in stages.items() if k.startswith("compile for"))
print(json.dumps({{"seconds": seconds, "iree": iree, "cache": compiled.report["executable cache"], "error": error}}))
"""


def compile_once(name: str, cache) -> dict:
    code = ONE_COMPILE.format(examples=str(ROOT / "examples"), name=name, cache=cache)
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    return json.loads(done.stdout.strip().splitlines()[-1])


def cpu_name() -> str:
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or platform.machine()


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--models", default="vit_b_16,bert_base,gpt2")
    parser.add_argument("--markdown", action="store_true")
    args = parser.parse_args()
    rows = []
    with tempfile.TemporaryDirectory() as directory:
        for name in args.models.split(","):
            cache = os.path.join(directory, name)
            miss, hit, off = compile_once(name, cache), compile_once(name, cache), compile_once(name, False)
            assert (miss["cache"], hit["cache"], off["cache"]) == ("miss", "hit", "off"), (miss, hit, off)
            rows.append((name, miss, hit, off))
            print(f"{name}: miss {miss['seconds']:.1f} s (IREE {miss['iree']:.1f}), hit {hit['seconds']:.1f} s "
                  f"(cache read {hit['iree']:.2f}), no cache {off['seconds']:.1f} s; "
                  f"error vs eager {hit['error']:.1e}", file=sys.stderr)
    print(f"CPU: {cpu_name()}, {os.cpu_count()} cores")
    if args.markdown:
        print("| model | first compile (miss) | of it, IREE | second compile (hit) | of it, the cache | hit / miss |")
        print("| --- | --- | --- | --- | --- | --- |")
        for name, miss, hit, _ in rows:
            print(f"| {name} | {miss['seconds']:.1f} s | {miss['iree']:.1f} s | {hit['seconds']:.1f} s | "
                  f"{hit['iree']:.2f} s | {hit['seconds'] / miss['seconds']:.2f} |")
    else:
        print(json.dumps({name: {"miss": miss, "hit": hit, "off": off} for name, miss, hit, off in rows}, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
