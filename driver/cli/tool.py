"""What every mlc command does with failure: one `error:` line, exit 1, no traceback.

Set MLC_DEBUG=1 to see the traceback of an internal error.
"""

import argparse
import atexit
import os
import sys
import traceback
from typing import Callable, NoReturn

from ...errors import UserError
from .. import atomic_file


class ArgumentParser(argparse.ArgumentParser):
    """argparse that reports a bad flag as a UserError (exit 1) instead of exit 2."""

    def error(self, message: str):
        raise UserError(message)


def run_tool(tool: str, body: Callable[[], int]) -> int:
    """Runs a command's body and turns every failure into an `error:` line."""
    try:
        return body()
    except UserError as error:
        print(f"{error.location}: error: {error.message}" if error.location else f"{tool}: error: {error.message}",
              file=sys.stderr)
    except KeyboardInterrupt:
        print(f"{tool}: error: interrupted", file=sys.stderr)
    except BrokenPipeError:
        sys.stderr.close()  # the reader went away; nothing more to say
    except Exception as error:  # a bug in mlc, not in the input
        if os.environ.get("MLC_DEBUG"):
            traceback.print_exc()
        print(
            f"{tool}: error: internal error: {type(error).__name__}: {error} (set MLC_DEBUG=1 for a traceback)",
            file=sys.stderr,
        )
    return 1


def exit_now(tool: str, code: int) -> NoReturn:
    """Ends an installed command's process with `code`, its output flushed and its atexit
    work (temporary folders) done, but not the interpreter's teardown of torch, MLIR and
    IREE: that took 1.3 s of a 4.1 s `mlc-compile` and 0.4 s of a 1.2 s `mlc-opt` (AMD EPYC,
    Zen 3), and lit runs them 370 times. `main()` returns instead, for callers in Python.
    Output that cannot be written (a full disk) fails the command, as a write did."""
    atexit._run_exitfuncs()
    for stream in (sys.stdout, sys.stderr):
        try:
            stream.flush()
        except (BrokenPipeError, ValueError):  # the reader went away (run_tool closed stderr for that)
            pass
        except OSError as error:
            os.write(2, f"{tool}: error: could not write the output: {error.strerror}\n".encode())
            code = code or 1
    os._exit(code)


def write_output(data: str | bytes, path: str | None) -> None:
    """Writes a tool's output to `path`, or to stdout for None or "-"."""
    if path in (None, "-"):
        try:
            sys.stdout.write(data) if isinstance(data, str) else sys.stdout.buffer.write(data)
        except BrokenPipeError:
            raise  # the reader went away: run_tool says nothing
        except OSError as error:  # as exit_now says it where the write waited in a buffer
            raise UserError(f"could not write the output: {error.strerror}") from None
        return
    try:
        atomic_file.write(path, data)  # an interrupted write leaves the old file, never half of one
    except OSError as error:
        raise UserError(f"could not write output file '{path}': {error.strerror}") from None
