"""What mlc writes (`compiled.save`, mlc-compile's output, parameter archives, the
reproducer's files) is written whole or not at all: a writer killed halfway leaves the
old file, never a truncated one that loads (driver/atomic_file.py)."""

import signal
import subprocess
import sys
import time

import pytest
import torch

import mlc
from mlc.driver import atomic_file

WRITER = """
import sys
from mlc.driver import atomic_file
atomic_file.write(sys.argv[1], b"new" * (400 * 2**20 // 3))  # 400 MB: long enough to be killed in
"""


def test_a_killed_writer_leaves_the_old_file(tmp_path):
    target = tmp_path / "model.vmfb"
    target.write_bytes(b"old and whole")
    writer = subprocess.Popen([sys.executable, "-c", WRITER, str(target)])
    deadline = time.monotonic() + 120
    while not list(tmp_path.glob(".model.vmfb.incoming-*")) and writer.poll() is None:
        assert time.monotonic() < deadline, "the writer never started its temporary file"
        time.sleep(0.01)
    writer.send_signal(signal.SIGKILL)
    writer.wait()
    assert target.read_bytes() in (b"old and whole", b"new" * (400 * 2**20 // 3))


def test_an_interrupted_write_leaves_the_old_file_and_no_temporary(tmp_path, monkeypatch):
    target = tmp_path / "out.mlir"
    target.write_text("old")

    def interrupted(self, data):
        with open(self, "w") as file:
            file.write(data[:3])
        raise KeyboardInterrupt

    monkeypatch.setattr(type(target), "write_text", interrupted)
    with pytest.raises(KeyboardInterrupt):
        atomic_file.write(target, "new text")
    monkeypatch.undo()
    assert target.read_text() == "old"
    assert [p.name for p in tmp_path.iterdir()] == ["out.mlir"]


def test_a_replaced_file_keeps_its_permissions(tmp_path):
    target = tmp_path / "script.sh"
    target.write_text("old")
    target.chmod(0o750)
    atomic_file.write(target, "new")
    assert target.read_text() == "new" and target.stat().st_mode & 0o777 == 0o750


@pytest.mark.iree
def test_save_replaces_a_saved_executable_whole(tmp_path):
    path = tmp_path / "m.vmfb"
    path.write_bytes(b"an older executable")
    compiled = mlc.compile(torch.nn.Linear(4, 2), (torch.randn(3, 4),))
    compiled.save(path)
    assert path.read_bytes() == compiled.vmfb
    assert [p.name for p in tmp_path.iterdir()] == ["m.vmfb"]
