"""mlc's conformance suite: PyTorch's OpInfo samples through mlc, compared with eager.

    .venv/bin/python test/conformance/run.py                 # every case, checked against expected.txt
    .venv/bin/python test/conformance/run.py --ops abs,nn.functional.conv1d --table
    .venv/bin/python test/conformance/run.py --paths mlc,torch-mlir --markdown   # with the reference path
    .venv/bin/python test/conformance/run.py --sample 2     # CI's half: the same cases every run

Each case runs in a worker process (worker.py), so a case that crashes the process
is recorded as "crash" and the suite goes on. The "mlc" path is strict (mlc's own
conversions); a case it finds unsupported is also run with the fallback
("mlc-fallback"). expected.txt lists the cases of the mlc paths that do not pass,
each with its reason: a case that fails and is not listed, or fails differently, is
a regression (the exit status is 1); a listed case that passes is printed, to be
taken off the list (`--update` rewrites it from a run).
"""

import argparse
import collections
import json
import os
import select
import subprocess
import sys
import time
import zlib
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
from cases import case_names  # noqa: E402

EXPECTED = HERE / "expected.txt"
# The workers' executable cache, as the other tests': build/cache, not the user's ~/.cache/mlc.
os.environ.setdefault("MLC_CACHE_DIR", str(HERE.parents[1] / "build" / "cache"))
PASSING = {"pass", "not exportable"}


class Worker:
    """A worker process, restarted after a crash or a timeout."""

    def __init__(self):
        self.process = None

    def run(self, case: str, path: str, timeout: float) -> dict:
        if self.process is None or self.process.poll() is not None:
            self.process = subprocess.Popen([sys.executable, str(HERE / "worker.py")], stdin=subprocess.PIPE,
                                            stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
        request = {"case": case, "path": path}
        self.process.stdin.write(json.dumps(request) + "\n")
        self.process.stdin.flush()
        ready, _, _ = select.select([self.process.stdout], [], [], timeout)
        line = self.process.stdout.readline() if ready else ""
        if line:
            return json.loads(line)
        if ready:
            code = self.process.wait()
            return {**request, "status": "crash", "why": f"the worker died (exit status {code})"}
        self.process.kill()
        self.process.wait()
        return {**request, "status": "timeout", "why": f"no result in {timeout:.0f} s"}

    def close(self):
        if self.process is not None and self.process.poll() is None:
            self.process.stdin.close()
            self.process.wait()


def sample(cases: list[str], one_in: int) -> list[str]:
    """About one case in `one_in`, chosen by a hash of its name: the same cases on every
    run and machine, and a case stays in (or out) when others are added."""
    return [case for case in cases if zlib.crc32(case.encode()) % one_in == 0]


def run_all(cases: list[str], paths: list[str], jobs: int, timeout: float, log) -> list[dict]:
    """Every case on every path, `jobs` workers at a time."""
    from concurrent.futures import ThreadPoolExecutor

    workers = [Worker() for _ in range(jobs)]
    free = list(workers)

    def one(case):
        worker = free.pop()
        try:
            results = []
            for path in paths:
                result = worker.run(case, path, timeout)
                results.append(result)
                if path == "mlc" and result["status"] == "unsupported":
                    results.append(worker.run(case, "mlc-fallback", timeout))
            log(results)
            return results
        finally:
            free.append(worker)

    try:
        with ThreadPoolExecutor(jobs) as pool:
            return [r for results in pool.map(one, cases) for r in results]
    finally:
        for worker in workers:
            worker.close()


def read_expected() -> dict:
    """(case, path) -> (status, reason) from expected.txt."""
    expected = {}
    for line in EXPECTED.read_text().splitlines():
        if line.strip() and not line.startswith("#"):
            key, _, reason = line.partition(" # ")
            case, path, status = key.split(None, 2)
            expected[case, path] = (status.strip(), reason.strip())
    return expected


def write_expected(results: list[dict]) -> None:
    lines = ["# Cases of mlc's paths that do not pass: <case> <path> <status> # <reason>.",
             "# Regenerate with `test/conformance/run.py --update` after checking each change."]
    for r in sorted(results, key=lambda r: (r["case"], r["path"])):
        if r["path"] != "torch-mlir" and r["status"] not in PASSING:
            lines.append(f"{r['case']} {r['path']} {r['status']} # {r['why']}")
    EXPECTED.write_text("\n".join(lines) + "\n")


def check(results: list[dict], expected: dict) -> tuple[list[str], list[str]]:
    """(regressions, newly passing cases), one line each. A regression is a case that
    fails and is not listed, or fails otherwise than listed; a listed case that passes
    is to be taken off the list (`--update`)."""
    regressions, newly_passing = [], []
    for r in results:
        if r["path"] == "torch-mlir":
            continue
        listed = expected.get((r["case"], r["path"]))
        if r["status"] in PASSING:
            if listed:
                newly_passing.append(f"newly passing (take it off expected.txt): {r['case']} {r['path']}")
        elif listed is None:
            regressions.append(f"regression: {r['case']} {r['path']}: {r['status']}: {r['why']}")
        elif r["status"] not in listed[0].split("|"):  # "error|unsupported": a case that varies between runs
            regressions.append(f"changed: {r['case']} {r['path']}: {listed[0]} -> {r['status']}: {r['why']}")
    return regressions, newly_passing


def summary(results: list[dict]) -> list[str]:
    """Markdown: per path, how many cases pass and how the others fail; the comparison
    the suite exists for (mlc strict on the cases torch-mlir -> IREE passes)."""
    by_path = collections.defaultdict(collections.Counter)
    for r in results:
        by_path[r["path"]][r["status"]] += 1
    statuses = sorted({s for counts in by_path.values() for s in counts})
    rows = ["| path | " + " | ".join(statuses) + " |", "|---" * (len(statuses) + 1) + "|"]
    for path, counts in by_path.items():
        rows.append(f"| {path} | " + " | ".join(str(counts[s]) for s in statuses) + " |")
    status = {(r["case"], r["path"]): r["status"] for r in results}
    cases = sorted({r["case"] for r in results if r["status"] != "not exportable"})
    if any(p == "torch-mlir" for _, p in status):
        reference = [c for c in cases if status.get((c, "torch-mlir")) == "pass"]
        strict = [c for c in reference if status.get((c, "mlc")) == "pass"]
        rows.append(f"\nOf {len(reference)} exportable cases torch-mlir -> IREE passes, mlc strict passes {len(strict)}.")
    default = [c for c in cases if "pass" in (status.get((c, "mlc")), status.get((c, "mlc-fallback")))]
    strict_all = [c for c in cases if status.get((c, "mlc")) == "pass"]
    ref_all = [c for c in cases if status.get((c, "torch-mlir")) == "pass"]
    rows.append(f"Of {len(cases)} exportable cases: mlc strict {len(strict_all)}, mlc default (fallback) "
                f"{len(default)}" + (f", torch-mlir -> IREE {len(ref_all)}." if ref_all else "."))
    return rows


def table(results: list[dict]) -> list[str]:
    """One row per case: each path's status and why."""
    by_case = collections.defaultdict(dict)
    for r in results:
        by_case[r["case"]][r["path"]] = r
    rows = []
    for case, paths in by_case.items():
        cells = [f"{p}={r['status']}" + (f" ({r['why']})" if r["status"] not in PASSING else "")
                 for p, r in paths.items()]
        rows.append(f"{case}: " + "; ".join(cells))
    return rows


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--ops", help="comma-separated OpInfo names (default: all)")
    parser.add_argument("--cases", help="a file of case names, one per line")
    parser.add_argument("--paths", default="mlc", help="comma-separated: mlc, mlc-fallback, torch-mlir")
    parser.add_argument("--sample", type=int, metavar="K", help="run about one case in K (a fixed choice, by name)")
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    parser.add_argument("--timeout", type=float, default=300)
    parser.add_argument("--table", action="store_true", help="print every case's result")
    parser.add_argument("--json", help="write every result to this file")
    parser.add_argument("--update", action="store_true", help="rewrite expected.txt from these results")
    parser.add_argument("--no-check", action="store_true", help="do not compare with expected.txt")
    args = parser.parse_args()
    ops = set(args.ops.split(",")) if args.ops else None
    cases = case_names(ops)
    if args.cases:
        cases = [c for c in Path(args.cases).read_text().split() if c]
    if args.sample:
        cases = sample(cases, args.sample)
    start = time.time()
    done = [0]

    def log(results):
        done[0] += 1
        failed = [f"{r['path']}={r['status']}" for r in results if r["status"] not in PASSING]
        if failed:
            print(f"[{done[0]}/{len(cases)}] {results[0]['case']}: {' '.join(failed)}", file=sys.stderr, flush=True)

    results = run_all(cases, args.paths.split(","), args.jobs, args.timeout, log)
    print(f"{len(cases)} cases in {time.time() - start:.0f} s", file=sys.stderr)
    if args.json:
        Path(args.json).write_text(json.dumps(results, indent=1))
    if args.table:
        print("\n".join(table(results)))
    print("\n".join(summary(results)))
    if args.update:
        write_expected(results)
        return 0
    if args.no_check:
        return 0
    regressions, newly_passing = check(results, read_expected() if EXPECTED.exists() else {})
    print("\n".join(newly_passing + regressions))
    print("\n".join(closing_lines(results, regressions)))
    return 1 if regressions else 0


def closing_lines(results: list[dict], regressions: list[str]) -> list[str]:
    """The runner's last lines, the count in the form CI reads: a case on an mlc path
    passes when its status is what expected.txt says (a pass, or a listed failure)."""
    checked = [r for r in results if r["path"] != "torch-mlir"]
    as_listed = sum(r["status"] not in PASSING for r in checked) - len(regressions)
    return [f"({len(checked) - len(regressions) - as_listed} cases pass, {as_listed} fail as expected.txt lists)",
            f"conformance: {len(checked) - len(regressions)} passed, {len(regressions)} failed"]


if __name__ == "__main__":
    sys.exit(main())
