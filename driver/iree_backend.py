"""The way out: an MLIR module -> IREE bytecode handoff -> `.vmfb` -> iree.runtime.

The module travels as MLIR bytecode (half the size of text, weights as
resource blobs). IREE is handed linalg on tensors, the level below mlc.
"""

import io
import re
import subprocess
import tempfile
import zipfile
from pathlib import Path

import iree._runtime_libs
import iree.compiler
import iree.runtime
import numpy as np
from torch_mlir import ir

from ..errors import UserError
from . import targets

TARGET_FLAGS = {
    "llvm-cpu": [
        "--iree-hal-target-device=local",
        "--iree-hal-local-target-device-backends=llvm-cpu",
        "--iree-llvmcpu-target-cpu=host",
    ],
}
RUNTIME_DRIVERS = {"llvm-cpu": "local-task"}


def check_target(target: str) -> None:
    targets.get(target)


def to_bytecode(module: ir.Operation) -> bytes:
    buffer = io.BytesIO()
    module.write_bytecode(buffer)
    return buffer.getvalue()


def _compiler_diagnostics(error: Exception) -> str:
    """The `error:` lines of iree-compile's output, without its invocation dump."""
    lines = [line.strip() for line in str(error).splitlines() if re.search(r"\berror:", line)]
    return "\n".join(lines[:10]) or str(error).strip().splitlines()[0]


def compile_to_vmfb(module: ir.Operation, target: str, extra_flags=()) -> bytes:
    """Compiles linalg-on-tensors to an IREE executable for `target`."""
    try:
        return iree.compiler.compile_str(to_bytecode(module), extra_args=TARGET_FLAGS[target] + list(extra_flags))
    except iree.compiler.CompilerToolError as error:
        raise UserError(f"IREE failed to compile for {target}:\n{_compiler_diagnostics(error)}") from None


_DISPATCH_CALL = "vm.call.variadic @hal.command_buffer.dispatch"
_KERNEL_NAME = re.compile(rb"(\w+?)_dispatch_(\d+)")


def _dump_module(vmfb: bytes) -> str:
    """The VM program of an executable, as `iree-dump-module` prints it."""
    tool = Path(iree._runtime_libs.__file__).parent / "iree-dump-module"
    with tempfile.NamedTemporaryFile(suffix=".vmfb") as file:
        file.write(vmfb)
        file.flush()
        return subprocess.run([str(tool), file.name], capture_output=True, text=True, check=True).stdout


def dispatch_count(vmfb: bytes) -> int:
    """How many dispatches (kernel launches) one call of the program issues: its
    dispatch call sites. Identical kernels share code but are separate dispatches."""
    return _dump_module(vmfb).count(_DISPATCH_CALL)


def kernel_count(vmfb: bytes) -> int:
    """How many distinct kernels the executable holds (after IREE deduplicates)."""
    module = zipfile.ZipFile(io.BytesIO(vmfb)).read("module.fb")
    return len(set(_KERNEL_NAME.findall(module)))


def load(vmfb: bytes, target: str):
    """The module's `main` function, loaded into an IREE runtime context."""
    config = iree.runtime.Config(RUNTIME_DRIVERS[target])
    context = iree.runtime.SystemContext(config=config)
    context.add_vm_module(iree.runtime.VmModule.copy_buffer(context.instance, vmfb))
    return context.modules.module["main"]


def _host_function(vmfb: bytes, target: str):
    """`main` as a function from numpy arrays to a list of numpy arrays."""
    main = load(vmfb, target)

    def call(*arrays):
        results = main(*arrays)
        results = results if isinstance(results, tuple) else (results,)
        return [np.asarray(result.to_host()) for result in results]

    return call


targets.register(targets.Target(
    name="llvm-cpu",
    description="IREE for this machine's CPU (host features, e.g. AVX-512)",
    needs="an x86-64 or AArch64 CPU",
    compile=lambda module, options: compile_to_vmfb(module, "llvm-cpu"),
    load=lambda vmfb: _host_function(vmfb, "llvm-cpu"),
    can_run=lambda: (True, ""),
))
