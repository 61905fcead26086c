"""lit configuration for mlc: `.mlir` and Python tests, run against the installed tools."""

import os
import sys

import lit.formats

config.name = "mlc"
config.test_format = lit.formats.ShTest(execute_external=False)
config.suffixes = [".mlir", ".py"]
config.test_source_root = os.path.dirname(__file__)
config.test_exec_root = os.path.join(config.test_source_root, "..", "build", "lit")
# pytest's tests and shared inputs are not lit tests.
config.excludes = ["lit.cfg.py", "not.py", "pytest", "inputs", "conformance", "fuzz", "__pycache__"]

# Tools come from the Python environment running lit (the project's .venv).
bin_dir = os.path.dirname(sys.executable)
config.environment["PATH"] = os.pathsep.join([bin_dir, config.environment.get("PATH", os.environ["PATH"])])
config.environment["PYTHONDONTWRITEBYTECODE"] = "1"
# The executable cache of the tests: `make` names one under build/, which a fresh clone has empty.
config.environment["MLC_CACHE_DIR"] = os.environ.get(
    "MLC_CACHE_DIR", os.path.join(config.test_source_root, "..", "build", "cache"))
if "PYTHONPATH" in os.environ:  # an mlc ahead of the installed one (a git worktree's)
    config.environment["PYTHONPATH"] = os.environ["PYTHONPATH"]
config.substitutions.append(("%PYTHON", sys.executable))
config.substitutions.append(("%inputs", os.path.join(config.test_source_root, "inputs")))
# The Python FileCheck port installs as `filecheck`; tests spell it as LLVM does.
config.substitutions.append((r"(?<![\w-])FileCheck\b", "filecheck"))
config.substitutions.append((r"(?<![\w-])not\b", f"{sys.executable} {os.path.join(config.test_source_root, 'not.py')}"))
