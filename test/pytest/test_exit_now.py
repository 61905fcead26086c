"""The installed commands end through `exit_now` (driver/cli/tool.py), which skips the
interpreter's teardown: the exit code, output still in Python's buffers and atexit work
(finalizers that remove temporary files) must survive it."""

import os
import subprocess
import sys

# Output block-buffered, as a command's is on a pipe, unless the caller's environment says otherwise.
BUFFERED = {name: value for name, value in os.environ.items() if name != "PYTHONUNBUFFERED"}

PROGRAM = """
import pathlib, sys, weakref
from mlc.driver.cli.tool import exit_now

class Holder:
    pass

held = Holder()  # alive at exit: its finalizer runs among the atexit work
weakref.finalize(held, pathlib.Path(sys.argv[1]).touch)
sys.stdout.write("result")  # a pipe's stdout is block-buffered: still in Python's buffer here
sys.stderr.write("note")
exit_now('probe', 3)
"""


def test_exit_now_keeps_the_code_the_output_and_the_atexit_work(tmp_path):
    finalized = tmp_path / "finalized"
    run = subprocess.run([sys.executable, "-c", PROGRAM, str(finalized)], capture_output=True, text=True, timeout=120,
                         env=BUFFERED)
    assert (run.returncode, run.stdout, run.stderr) == (3, "result", "note")
    assert finalized.exists()


def test_exit_now_after_the_reader_went_away_says_nothing():
    """`mlc-opt file.mlir | head -1`: the rest of the output has nowhere to go, and that is
    no error of the command's. The reader closes its end before the command flushes."""
    program = ("import sys\nfrom mlc.driver.cli.tool import exit_now\n"
               "sys.stdout.write('x' * 100)\nsys.stdin.readline()\nexit_now('probe', 0)\n")
    command = subprocess.Popen([sys.executable, "-c", program], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                               stderr=subprocess.PIPE, env=BUFFERED)
    command.stdout.close()
    _, errors = command.communicate(b"go\n", timeout=120)
    assert (command.returncode, errors) == (0, b"")


def test_output_that_cannot_be_written_fails_the_command():
    """`mlc-opt file.mlir > /dev/full`: the output is lost, so the command says so and fails."""
    program = "import sys\nfrom mlc.driver.cli.tool import exit_now\nsys.stdout.write('module')\nexit_now('probe', 0)\n"
    with open("/dev/full", "w") as full:
        run = subprocess.run([sys.executable, "-c", program], stdout=full, stderr=subprocess.PIPE, text=True,
                             timeout=120, env=BUFFERED)
    assert run.returncode == 1
    assert run.stderr == "probe: error: could not write the output: No space left on device\n"
