"""The pipeline of target "mlir-cpu": linalg on tensors to the LLVM dialect, on mlc's
own passes (driver/backends/jit.py JIT-compiles the result)."""

from ..passes.lower_linalg_to_affine import default_tile_size

DEFAULT_TILE_SIZE = default_tile_size(32)  # 32: three 32x32 f32 tiles fit a 32 KiB L1
DEFAULT_VECTOR_SIZE = 16  # one AVX-512 register of f32


def to_llvm(tile_size: int = DEFAULT_TILE_SIZE, vector_size: int = DEFAULT_VECTOR_SIZE) -> str:
    """The lowering from linalg on tensors to the LLVM dialect, as mlc-opt pipeline text."""
    return ("builtin.module(mlc-decompose-linalg, mlc-bufferize, "
            f"mlc-lower-linalg-to-affine{{tile-sizes={tile_size}}}, mlc-vectorize{{vector-size={vector_size}}}, "
            "mlc-lower-to-llvm)")
