"""`make fuzz`: random programs through mlc, each compared with eager.

    .venv/bin/python test/fuzz/run.py --graphs 500              # 500 programs, llvm-cpu -O0 and -O2
    .venv/bin/python test/fuzz/run.py --minutes 30 --seed 7     # for half an hour, from seed 7
    .venv/bin/python test/fuzz/run.py --graphs 50 --also vulkan-spirv,mlir-cpu

Each program is compiled with mlc's own conversions at -O0 and -O2 on llvm-cpu; one with
a matmul also at -O2 with every matmul on mlc's plugin (`--matmul-library on`, where the
plugin builds; `--no-library` leaves it out); and about one in `--sample-every` (chosen
by its text) also for the `--also` targets. Hypothesis draws the programs in batches,
each batch from its own seed (`--seed` + batch number, so a run is repeatable). A
failure ends its batch: it is reduced to the lines that still fail the same way
(reduce.py), its reproducer goes to `--out` (default build/fuzz) and the next batch goes
on. The program being compiled is always in `--out`/current-<first seed>.py (one file
per run, so that runs side by side keep their own), as a reproducer with its batch and
configuration. Each batch runs in a process of its own (`--in-process`: all in this
one), so a crash in native code (mlc-opt or IREE killed by a signal) is a finding too:
that file becomes its reproducer, unreduced, and the run goes on. The summary counts
programs, findings by kind, and the time.
"""

import argparse
import collections
import json
import os
import re
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
os.environ.setdefault("MLC_CACHE_DIR", str(HERE.parents[1] / "build" / "cache"))

from check import Finding, check, configurations, finding, reproducer, write_reproducer  # noqa: E402
from graphs import programs  # noqa: E402
from hypothesis import HealthCheck, Phase, given, seed, settings  # noqa: E402
from hypothesis.errors import FlakyFailure  # noqa: E402
from reduce import reduce  # noqa: E402

BATCH = 25


class Campaign:
    """The run's state: programs tried, findings, and where reproducers go."""

    def __init__(self, out: Path, also: list[str], every: int, max_ops: int, log, first_seed: int = 0,
                 library: bool = False):
        self.out, self.also, self.every, self.max_ops, self.log = out, also, every, max_ops, log
        self.library = library
        self.current = out / f"current-{first_seed}.py"  # the program being compiled
        self.batch_seed = first_seed
        self.tried = 0
        self.in_batch = 0  # programs of the batch running
        self.ops: collections.Counter = collections.Counter()  # how often each op was drawn
        self.findings: list[dict] = []
        self.failing: tuple | None = None  # the configuration and finding of the example being shrunk

    def property(self, program) -> None:
        self.tried += 1
        self.in_batch += 1
        self.ops.update(program.ops)
        self.out.mkdir(parents=True, exist_ok=True)
        for configuration in configurations(program.source(), self.also, self.every, self.library):
            died = Finding("crash", f"the process died compiling or running it (batch {self.batch_seed})")
            self.current.write_text(f"# batch {self.batch_seed}, compiling for {configuration}, program "
                                    f"{self.in_batch} of the batch, {len(program.lines)} op(s)\n"
                                    f"{reproducer(program, configuration, died)}")
            try:
                check(program, configuration)
            except Finding as finding:
                self.failing = (configuration, finding, program)
                raise

    def batch(self, batch_seed: int, examples: int) -> None:
        """`examples` programs from `batch_seed`; a failure is reduced and written."""
        self.failing, self.batch_seed, self.in_batch = None, batch_seed, 0

        @seed(batch_seed)
        @settings(max_examples=examples, deadline=None, database=None, derandomize=False, print_blob=False,
                  suppress_health_check=list(HealthCheck), phases=[Phase.generate],
                  report_multiple_bugs=False)
        @given(programs(max_ops=self.max_ops))
        def one(program):
            self.property(program)

        try:
            one()
        except (Finding, FlakyFailure) as error:
            configuration, found, program = self.failing
            drawn = len(program.lines)
            if isinstance(error, FlakyFailure):  # Hypothesis ran it again and it passed: no reducing it
                found = Finding(found.kind, f"{found.detail}; flaky: the same program passed when run again")
            else:
                program, found = self._reduced(program, configuration, found)
            name = f"seed{batch_seed}-{len(self.findings)}"
            path = write_reproducer(self.out, name, program, configuration, found)
            record = {"kind": found.kind, "configuration": str(configuration), "detail": found.detail,
                      "ops": [len(program.lines), drawn], "reproducer": str(path)}
            self.findings.append(record)
            self.log(f"  {found.kind} ({configuration}): {found.detail}\n    reduced from {drawn} to "
                     f"{len(program.lines)} op(s): {path}")

    def batch_in_child(self, batch_seed: int, examples: int, command: list[str]) -> None:
        """`batch` in a process of its own (`command`, given where to write its results), so
        that a crash in native code ends the child, not the run: the program it was
        compiling, left in `self.current`, becomes the finding's reproducer."""
        self.batch_seed = batch_seed
        with tempfile.TemporaryDirectory(prefix="mlc-fuzz-") as folder:
            results = Path(folder) / "batch.json"
            done = subprocess.run([*command, str(results)])
            if results.exists():
                child = json.loads(results.read_text())
                self.tried += child["tried"]
                self.ops.update(child["ops"])
                self.findings += child["findings"]
            else:
                self.crashed(batch_seed, done.returncode)

    def crashed(self, batch_seed: int, returncode: int) -> None:
        """Records the child that ran `batch_seed` and died (`returncode`) as a finding."""
        why = f"killed by {signal.Signals(-returncode).name}" if returncode < 0 else f"exit status {returncode}"
        header, _, text = self.current.read_text().partition("\n") if self.current.exists() else ("", "", "")
        if f"# batch {batch_seed}, " not in header:  # it died before its first compile
            self.findings.append({"kind": "crash", "configuration": "", "detail": f"batch {batch_seed}: {why} "
                                  "before its first program", "ops": [0, 0], "reproducer": ""})
            self.log(f"  crash: batch {batch_seed}: {why} before its first program")
            return
        configuration, programs, ops = re.fullmatch(
            r"# batch \d+, compiling for (.*), program (\d+) of the batch, (\d+) op\(s\)", header).groups()
        self.tried += int(programs)
        path = self.out / f"seed{batch_seed}-{len(self.findings)}.py"
        path.write_text(text.replace("the process died compiling or running it", f"the process was {why} "
                                     "compiling or running it", 1))
        self.findings.append({"kind": "crash", "configuration": configuration, "detail": f"{why}, not reduced",
                              "ops": [int(ops), int(ops)], "reproducer": str(path)})
        self.log(f"  crash ({configuration}): {why}, program {programs} of batch {batch_seed}: {path}")

    @staticmethod
    def _reduced(program, configuration, found):
        """The fewest lines that still fail the same way, and their finding."""

        def same_failure(candidate) -> bool:
            again = finding(candidate, configuration)
            return again is not None and again.kind == found.kind

        program = reduce(program, same_failure)
        return program, finding(program, configuration) or found


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--graphs", type=int, default=200, help="programs to try (default 200)")
    parser.add_argument("--minutes", type=float, help="stop starting batches after this long")
    parser.add_argument("--seed", type=int, default=0, help="the first batch's seed")
    parser.add_argument("--max-ops", type=int, default=8, help="ops per program at most (default 8)")
    parser.add_argument("--also", default="", help="more targets for a sample, e.g. vulkan-spirv,mlir-cpu")
    parser.add_argument("--sample-every", type=int, default=10, help="about one program in N goes to --also")
    parser.add_argument("--no-library", action="store_true",
                        help="no configuration with every matmul on mlc's plugin")
    parser.add_argument("--out", type=Path, default=HERE.parents[1] / "build" / "fuzz")
    parser.add_argument("--json", type=Path, help="also write the summary here")
    parser.add_argument("--in-process", action="store_true",
                        help="run every batch in this process (a crash in native code then ends the run)")
    parser.add_argument("--run-seed", type=int, help=argparse.SUPPRESS)  # a child's: its run's first seed
    parser.add_argument("--one-batch", type=Path, help=argparse.SUPPRESS)  # a child's: its results' file
    args = parser.parse_args(argv)

    also = [target for target in args.also.split(",") if target]
    library = not args.no_library and _plugin_available()
    campaign = Campaign(args.out, also, args.sample_every, args.max_ops, lambda line: print(line, flush=True),
                        first_seed=args.seed if args.run_seed is None else args.run_seed, library=library)
    if args.one_batch:
        campaign.batch(args.seed, args.graphs)
        args.one_batch.write_text(json.dumps({"tried": campaign.tried, "ops": dict(campaign.ops),
                                              "findings": campaign.findings}))
        return 0
    start = time.monotonic()
    batch_seed = args.seed
    while campaign.tried < args.graphs:
        if args.minutes is not None and time.monotonic() - start > args.minutes * 60:
            break
        before = campaign.tried
        examples = min(BATCH, args.graphs - campaign.tried)
        if args.in_process:
            campaign.batch(batch_seed, examples)
        else:
            campaign.batch_in_child(batch_seed, examples, _child(args, batch_seed, examples, library))
        print(f"batch {batch_seed}: {campaign.tried - before} programs; {campaign.tried} in "
              f"{time.monotonic() - start:.0f} s, {len(campaign.findings)} finding(s)", flush=True)
        batch_seed += 1
    seconds = time.monotonic() - start
    kinds = collections.Counter(finding["kind"] for finding in campaign.findings)
    summary = {"programs": campaign.tried, "seconds": round(seconds), "findings": campaign.findings,
               "by kind": dict(kinds), "seeds": [args.seed, batch_seed - 1], "ops drawn": dict(campaign.ops)}
    print("ops drawn: " + ", ".join(f"{op} {n}" for op, n in campaign.ops.most_common()))
    print(f"\n{campaign.tried} random programs (seeds {args.seed}-{batch_seed - 1}) in {seconds:.0f} s: "
          f"{len(campaign.findings)} finding(s)" + "".join(f", {n} {kind}" for kind, n in kinds.items()))
    if args.json:
        args.json.write_text(json.dumps(summary, indent=2))
    return 1 if campaign.findings else 0


def _child(args, batch_seed: int, examples: int, library: bool) -> list[str]:
    """The command that runs one batch of this run in a process of its own; the file for
    its results comes last."""
    return [sys.executable, str(Path(__file__).resolve()), "--graphs", str(examples), "--seed", str(batch_seed),
            "--max-ops", str(args.max_ops), "--also", args.also, "--sample-every", str(args.sample_every),
            "--out", str(args.out), "--run-seed", str(args.seed), *([] if library else ["--no-library"]),
            "--one-batch"]


def _plugin_available() -> bool:
    from mlc.driver.backends import matmul_library

    ok, reason = matmul_library.available()
    if not ok:
        print(f"no matmul-library configuration: {reason}", flush=True)
    return ok


if __name__ == "__main__":
    sys.exit(main())
