"""Progress of a long compile on stderr: a spinner with the running stage while it runs,
then one line per finished stage with its time and the total (BERT-base takes 15 s).

Shown only when asked for (mlc-compile does unless --quiet; the Python API with
`progress=True`) and stderr is a terminal, so that logs and pipes stay clean.
"""

import contextlib
import time

from rich.console import Console


class Progress:
    def __init__(self, enabled: bool):
        self.console = Console(stderr=True, highlight=False)
        self.enabled = enabled and self.console.is_terminal
        self.started = time.perf_counter()

    @contextlib.contextmanager
    def stage(self, name: str):
        """Shows `name` while the block runs, and its time once it has succeeded."""
        if not self.enabled:
            yield
            return
        began = time.perf_counter()
        with self.console.status(f"{name}"):
            yield
        now = time.perf_counter()
        self.console.print(f"[green]done[/] {name:<28} {now - began:6.1f} s   [dim](total {now - self.started:.1f} s)[/]")


SILENT = Progress(False)
