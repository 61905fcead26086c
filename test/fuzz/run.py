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
per run, so that runs side by side keep their own), with its batch and configuration,
so a run that dies in native code leaves it behind. The summary counts programs,
findings by kind, and the time.
"""

import argparse
import collections
import json
import os
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
os.environ.setdefault("MLC_CACHE_DIR", str(HERE.parents[1] / "build" / "cache"))

from check import Finding, check, configurations, finding, write_reproducer  # noqa: E402
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
        self.ops: collections.Counter = collections.Counter()  # how often each op was drawn
        self.findings: list[dict] = []
        self.failing: tuple | None = None  # the configuration and finding of the example being shrunk

    def property(self, program) -> None:
        self.tried += 1
        self.ops.update(program.ops)
        self.out.mkdir(parents=True, exist_ok=True)
        for configuration in configurations(program.source(), self.also, self.every, self.library):
            self.current.write_text(f"# batch {self.batch_seed}, compiling for {configuration}\n{program.source()}")
            try:
                check(program, configuration)
            except Finding as finding:
                self.failing = (configuration, finding, program)
                raise

    def batch(self, batch_seed: int, examples: int) -> None:
        """`examples` programs from `batch_seed`; a failure is reduced and written."""
        self.failing, self.batch_seed = None, batch_seed

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
    args = parser.parse_args(argv)

    also = [target for target in args.also.split(",") if target]
    library = not args.no_library and _plugin_available()
    campaign = Campaign(args.out, also, args.sample_every, args.max_ops, lambda line: print(line, flush=True),
                        first_seed=args.seed, library=library)
    start = time.monotonic()
    batch_seed = args.seed
    while campaign.tried < args.graphs:
        if args.minutes is not None and time.monotonic() - start > args.minutes * 60:
            break
        before = campaign.tried
        campaign.batch(batch_seed, min(BATCH, args.graphs - campaign.tried))
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


def _plugin_available() -> bool:
    from mlc.driver.backends import matmul_library

    ok, reason = matmul_library.available()
    if not ok:
        print(f"no matmul-library configuration: {reason}", flush=True)
    return ok


if __name__ == "__main__":
    sys.exit(main())
