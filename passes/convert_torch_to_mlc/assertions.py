"""torch.runtime.assert: a constant-true assertion is dropped (shapes are static);
a constant-false one is how torch-mlir marks a decomposition it could not do
(e.g. adaptive_max_pool2d with uneven windows), so it is reported with its message."""

from .patterns import NotConvertible, converts


@converts("torch.runtime.assert", makes=())
def runtime_assert(op):
    if op.bool("condition"):
        return []
    message = op.op.attributes["message"]
    raise NotConvertible(f"torch-mlir: {str(message).strip(chr(34))}")
