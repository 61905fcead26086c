"""The picture of the fusion plan: `compiled.graph()` and `mlc-compile --graph`, and the
page in a real headless browser (Chromium from Debian, where it is installed)."""

import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
import torch

import mlc

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "examples"))
import models  # noqa: E402

pytestmark = [pytest.mark.slow,
              pytest.mark.skipif(shutil.which("dot") is None, reason="Graphviz's dot is not installed (make system-packages)")]
ROOT = Path(__file__).resolve().parents[2]
MLC_COMPILE = Path(sys.executable).parent / "mlc-compile"
BROWSER = shutil.which("chromium") or shutil.which("chromium-browser")


@pytest.fixture(scope="module")
def cnn():
    torch.manual_seed(0)
    return mlc.compile(models.make_cnn().eval(), (torch.randn(2, 3, 32, 32),))


@pytest.mark.iree
def test_one_box_per_fusion_group(cnn):
    page = cnn.graph()
    groups = len(cnn.report["fusion groups"])
    assert groups > 1 and len(re.findall(r'<g id="group&#45;\d+" class="cluster fusion&#45;group">', page)) == groups
    assert f"<p>{groups} fusion groups" in page
    assert re.search(r"<title>[^<]*</title>", page)


@pytest.mark.iree
def test_hover_says_kind_shape_and_source_line(cnn):
    tooltips = re.findall(r'xlink:title="([^"]*)"', cnn.graph())
    assert any(t.startswith("conv2d&#10;2x32x32x16xf32&#10;") and "models.py:" in t for t in tooltips), tooltips


@pytest.mark.iree
def test_self_contained(cnn, tmp_path):
    page = cnn.graph(str(tmp_path / "plan.html"))
    assert (tmp_path / "plan.html").read_text() == page
    assert not re.search(r'(src|href)="(https?:)?//', page)


@pytest.mark.iree
@pytest.mark.skipif(BROWSER is None, reason="no Chromium here (Debian package chromium)")
def test_loads_in_a_headless_browser(cnn, tmp_path):
    (tmp_path / "plan.html").write_text(cnn.graph())
    result = subprocess.run([BROWSER, "--headless", "--no-sandbox", "--disable-gpu", "--enable-logging=stderr",
                             "--v=0", "--dump-dom", f"file://{tmp_path / 'plan.html'}"],
                            capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, result.stderr
    assert "CONSOLE" not in result.stderr and "Uncaught" not in result.stderr
    groups = len(cnn.report["fusion groups"])
    # the page's script ran: it renamed each group's box for hovering
    assert sorted(re.findall(r"<title>fusion group (\d+)</title>", result.stdout)) == sorted(map(str, range(groups)))


@pytest.mark.iree
def test_mlc_compile_graph(tmp_path):
    result = subprocess.run([MLC_COMPILE, f"{ROOT}/examples/models.py:make_mlp", "--input-shape", "8x64xf32",
                             "-o", tmp_path / "mlp.vmfb", "--graph", tmp_path / "plan.html"], capture_output=True, text=True)
    assert result.returncode == 0, result.stderr
    page = (tmp_path / "plan.html").read_text()
    assert "<title>mlc fusion plan: " in page and "fusion&#45;group" in page and "matmul" in page


LINALG = """
func.func @main(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = linalg.exp ins(%x : tensor<4xf32>) outs(%x : tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}
"""


@pytest.mark.parametrize("arguments, message", [
    ([f"{ROOT}/examples/models.py:make_mlp", "--input-shape", "8x64xf32", "--emit=torch"],
     "--graph draws the optimized mlc graph: it needs --emit=mlc or later"),
    (["linalg.mlir", "--emit=linalg"], "--graph draws the mlc graph: the input is already at level 'linalg'"),
])
def test_mlc_compile_graph_errors(tmp_path, arguments, message):
    (tmp_path / "linalg.mlir").write_text(LINALG)
    result = subprocess.run([MLC_COMPILE, *arguments, "--graph", tmp_path / "plan.html"], cwd=tmp_path,
                            capture_output=True, text=True)
    assert result.returncode == 1 and message in result.stderr and "Traceback" not in result.stderr


@pytest.mark.iree
def test_without_graphviz_is_an_error(cnn, monkeypatch):
    monkeypatch.setattr(shutil, "which", lambda name: None)
    with pytest.raises(mlc.UserError, match="needs Graphviz's dot \\(the Debian package graphviz\\)"):
        cnn.graph()
