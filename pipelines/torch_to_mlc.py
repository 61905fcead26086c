"""The pipeline from torch-mlir's backend contract to mlc's graph dialect."""

TORCH_TO_MLC = [
    "torch-func-backend-type-conversion",
    "mlc-convert-torch-to-mlc",
    "func.func(torch-finalizing-backend-type-conversion)",
    "canonicalize",
    "cse",
]


def torch_to_mlc(allow_fallback: bool = False) -> list[str]:
    """TORCH_TO_MLC, or with the ops mlc cannot convert lowered by torch-mlir (mlc-lower-torch-fallback)."""
    if not allow_fallback:
        return TORCH_TO_MLC
    return [TORCH_TO_MLC[0], "mlc-convert-torch-to-mlc{allow-fallback=true}", "mlc-lower-torch-fallback",
            *TORCH_TO_MLC[2:]]
