"""adaptive_avg_pool1d regressions. torch-mlir decomposed it into an avg_pool1d of
kernel 1 whose result type carried the adaptive output size (behind an always-failing
assertion); mlc converted that avg_pool1d as it stood, so its verifier reported a
wrong result shape, and with dynamic sizes the Python process died. mlc now converts
adaptive_avg_pool1d itself and declines a 1-D pool whose result is not its window's.
Each compile runs in a child process, so a crash fails the test instead of pytest."""

import subprocess
import sys
import textwrap

import pytest

pytestmark = pytest.mark.iree  # each child compiles for llvm-cpu
CHILD = textwrap.dedent("""
    import sys
    import torch
    import torch.nn.functional as F
    import mlc

    out, length, dynamic_dim, fallback = (int(a) for a in sys.argv[1:])

    class Pool(torch.nn.Module):
        def forward(self, x):
            return F.adaptive_avg_pool1d(x, out)

    x = torch.randn(3, 4, length)
    dynamic_shapes = {"x": {dynamic_dim: torch.export.Dim("d", min=2, max=64)}}
    compiled = mlc.compile(Pool(), (x,), dynamic_shapes=dynamic_shapes, allow_fallback=bool(fallback))
    for batch in (3, 5):
        y = torch.randn(batch, 4, length) if dynamic_dim == 0 else torch.randn(3, 4, length + batch)
        torch.testing.assert_close(compiled(y), Pool()(y), rtol=1e-5, atol=1e-6)
    print("ok")
""")


@pytest.mark.parametrize(("out", "length", "dynamic_dim", "fallback"), [
    (5, 8, 0, 0),  # uneven windows, strict: a gather, no verifier error
    (4, 12, 0, 0),  # equal windows, strict: mlc.avg_pool_nd
    (5, 8, 2, 1),  # a dynamic length: declined by mlc, lowered by the fallback
])
def test_adaptive_avg_pool1d_dynamic_sizes(out, length, dynamic_dim, fallback):
    child = subprocess.run([sys.executable, "-c", CHILD, str(out), str(length), str(dynamic_dim), str(fallback)],
                           capture_output=True, text=True, timeout=600)
    assert child.returncode == 0, child.stderr[-3000:]
    assert child.stdout.strip().endswith("ok")
