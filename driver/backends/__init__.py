"""The ways out: the targets, each a way from linalg on tensors to something that runs.

`targets.py` is the target interface and its registry; `iree.py` is IREE's llvm-cpu,
vulkan-spirv and cuda, `jit.py` mlc's own path to LLVM (mlir-cpu). The CPU's vendor
matmuls (`matmul_choice.py`, `matmul_library.py`, `native/`) and IREE parameter
archives (`parameters.py`) serve the IREE targets.
"""
