"""The package's shape, checked: no import circle, the compile's core imports no tool,
and the target is looked up once per entry point (README, Architecture); mlc-compile
checks its flags before it loads the compiler."""

import ast
import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
PACKAGES = ("dialects", "passes", "pipelines", "driver")
TOOLS = ("mlc.driver.tools", "mlc.driver.cli")
# The core of a compile: what `Compilation` and `Compiled` need, which no tool may be.
CORE = ("mlc.driver.compilation", "mlc.driver.compiled", "mlc.driver.failures", "mlc.driver.frontend",
        "mlc.driver.backends")


def _module_name(path: Path) -> str:
    parts = ["mlc", *path.relative_to(ROOT).with_suffix("").parts]
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _modules() -> dict[str, Path]:
    paths = [ROOT / "__init__.py", ROOT / "errors.py"]
    for package in PACKAGES:
        paths += sorted((ROOT / package).rglob("*.py"))
    return {_module_name(path): path for path in paths}


def _imported(module: str, path: Path, modules: dict) -> set[str]:
    """The mlc modules `module` imports when it is imported (its top-level imports;
    an import inside a function runs when it is called, not when it loads)."""
    package = module if path.name == "__init__.py" else module.rpartition(".")[0]
    found = set()
    for node in ast.parse(path.read_text()).body:
        if isinstance(node, ast.ImportFrom):
            base = package.split(".")[: len(package.split(".")) - node.level + 1] if node.level else []
            source = ".".join(base + [node.module] if node.module else base) if node.level else node.module
            for alias in node.names:
                name = f"{source}.{alias.name}"
                found.add(name if name in modules else source)
        elif isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
    return {name for name in found if name in modules and name != module}


def _circles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan's algorithm, iterative)."""
    index, low, on_stack, stack, circles, counter = {}, {}, set(), [], [], 0
    for root in graph:
        if root in index:
            continue
        work = [(root, iter(sorted(graph[root])))]
        index[root] = low[root] = counter
        counter += 1
        stack.append(root)
        on_stack.add(root)
        while work:
            node, children = work[-1]
            child = next(children, None)
            if child is not None:
                if child not in index:
                    index[child] = low[child] = counter
                    counter += 1
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(sorted(graph[child]))))
                elif child in on_stack:
                    low[node] = min(low[node], index[child])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[node])
            if low[node] == index[node]:
                component = []
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    component.append(member)
                    if member == node:
                        break
                if len(component) > 1:
                    circles.append(sorted(component))
    return circles


def _graph() -> dict[str, set[str]]:
    modules = _modules()
    return {name: _imported(name, path, modules) for name, path in modules.items()}


def test_no_import_circle():
    assert _circles(_graph()) == []


def test_the_circle_finder_finds_one():
    assert _circles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]


def test_the_core_imports_no_tool():
    graph = _graph()
    offending = {name: sorted(t for t in imported if t.startswith(TOOLS))
                 for name, imported in graph.items() if name.startswith(CORE)}
    assert {name: tools for name, tools in offending.items() if tools} == {}


def test_each_entry_point_looks_its_target_up_once():
    """`targets.bind`/`get` by name in the entry points only (mlc.compile, mlc-compile,
    bisect, coverage, and mlc.generator, which chooses where its weights go), once each;
    every later stage asks the bound target."""
    lookups = {}
    for path in sorted((ROOT / "driver").rglob("*.py")):
        count = len(re.findall(r"\b(?:targets|target_registry)\.(?:get|bind)\(|\bTARGETS\[", path.read_text()))
        if count:
            lookups[str(path.relative_to(ROOT))] = count
    assert lookups == {"driver/compile.py": 1, "driver/cli/compile_job.py": 1, "driver/tools/bisect.py": 1,
                       "driver/tools/coverage.py": 1, "driver/tools/generate.py": 1, "driver/backends/targets.py": 1}


def test_mlc_compile_answers_a_bad_flag_before_loading_torch():
    """A flag error, a flag that does not apply to the model, or no model: one `error:`
    line, without the 5 s of importing torch, torch-mlir and IREE."""
    script = ("import sys; from mlc.driver.cli import mlc_compile; "
              "codes = [mlc_compile.main(argv.split()) for argv in sys.argv[1:]]; "
              "print(codes, sorted(m for m in ('torch', 'torch_mlir', 'iree') if m in sys.modules))")
    bad = ["--emit=everything m.mlir", "", "m.mlir --input-shape 2xf32", "net.onnx -o x.vmfb", "m.py:Net", "m.mlir",
           "m.mlir --emit=linalg --params w.irpa", "m.py:Net --input-shape 2xf32 --coverage --emit=mlc"]
    done = subprocess.run([sys.executable, "-c", script, *bad], capture_output=True, text=True, cwd=ROOT)
    assert done.stdout.strip() == f"{[1] * len(bad)} []", done.stderr
    assert done.stderr.count("mlc-compile: error:") == len(bad) and "Traceback" not in done.stderr


def test_mlc_compile_takes_an_mlir_file_without_torch(tmp_path):
    """An .mlir input compiles (to linalg and to a .vmfb) without loading torch: 1.2 of
    the 1.8 s of a small file's `--emit linalg` was torch's import (compile_job.py)."""
    script = ("import sys; from mlc.driver.cli import mlc_compile; "
              "codes = [mlc_compile.main(argv.split()) for argv in sys.argv[1:]]; "
              "print(codes, 'torch' in sys.modules)")
    source = ROOT / "test" / "mlc-compile" / "cpu.mlir"
    runs = [f"{source} --emit linalg -o {tmp_path}/a.mlir --quiet", f"{source} -o {tmp_path}/a.vmfb --quiet"]
    done = subprocess.run([sys.executable, "-c", script, *runs], capture_output=True, text=True, cwd=ROOT)
    assert done.stdout.strip() == "[0, 0] False", done.stderr
    assert "func.func" in (tmp_path / "a.mlir").read_text() and (tmp_path / "a.vmfb").stat().st_size > 0

