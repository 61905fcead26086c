"""Runs compiler code that may crash the process in a forked copy of it first.

torch-mlir's C++ passes run inside the user's Python process, and a few of its
patterns crash on inputs they do not expect (unsigned integer ops segfault in its
linalg lowering). A crash there would take the user's process down; run first in a
child made by fork (copy-on-write: no module is copied or serialized), the crash
kills only the child, and the parent reports it as an error instead.
"""

import faulthandler
import os
import signal


def crash_signal(work) -> str | None:
    """The name of the signal that killed a forked copy of this process running `work()`,
    or None when it finished (raising or not). Where there is no fork, None."""
    if not hasattr(os, "fork"):
        return None
    pid = os.fork()
    if pid == 0:  # the child: no output, no cleanup handlers, only the exit status matters
        try:
            faulthandler.disable()  # it writes to a descriptor of its own (pytest enables it)
            devnull = os.open(os.devnull, os.O_WRONLY)
            os.dup2(devnull, 1)
            os.dup2(devnull, 2)
            work()
        except BaseException:  # noqa: B036 - the parent reruns `work` and sees the exception itself
            pass
        os._exit(0)
    _, status = os.waitpid(pid, 0)
    return signal.Signals(os.WTERMSIG(status)).name if os.WIFSIGNALED(status) else None
