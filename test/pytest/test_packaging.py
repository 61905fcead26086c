"""The repository root is the package `mlc`: it must import from a wheel, not only
from the editable install, with its four subpackages and its commands."""

import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def wheel(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("wheel")
    subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "--quiet", "--no-deps", "--no-build-isolation", "-w", str(out), str(ROOT)],
        check=True,
    )
    return next(out.glob("mlc-*.whl"))


def test_wheel_holds_every_package(wheel):
    names = set(zipfile.ZipFile(wheel).namelist())
    assert "mlc/__init__.py" in names
    for folder in ("dialects", "passes", "pipelines", "driver"):
        for init in (ROOT / folder).rglob("__init__.py"):
            packaged = "mlc/" + init.relative_to(ROOT).as_posix()
            assert packaged in names, f"{packaged} is missing: list its package in pyproject.toml"
    assert not any(name.startswith(("mlc/test/", "mlc/examples/", "mlc/benchmarks/")) for name in names)
    assert {"mlc/driver/backends/native/mlc_matmul.c", "mlc/driver/backends/native/iree_executable_plugin.h"} <= names  # the plugin's source
    entry_points = next(n for n in names if n.endswith("entry_points.txt"))
    text = zipfile.ZipFile(wheel).read(entry_points).decode()
    assert "mlc-opt = mlc.driver.cli.mlc_opt:command" in text and "mlc-compile = mlc.driver.cli.mlc_compile:command" in text


def test_import_from_the_wheel(wheel, tmp_path):
    zipfile.ZipFile(wheel).extractall(tmp_path)
    probe = "import mlc, mlc.dialects, mlc.passes; print(mlc.__file__); print(sorted(mlc.passes.PASSES))"
    result = subprocess.run(
        [sys.executable, "-c", probe], cwd=tmp_path, env={"PYTHONPATH": str(tmp_path)},
        capture_output=True, text=True, check=True,
    )
    assert result.stdout.startswith(str(tmp_path / "mlc" / "__init__.py"))
    assert "mlc-lower-to-linalg" in result.stdout
