"""mlc: an MLIR-based compiler for PyTorch models.

    compiled = mlc.compile(model, example_args, target="llvm-cpu")
    compiled(x)             # runs the IREE executable, returns torch tensors
    compiled.ir("mlc")      # the model in mlc's graph dialect
    compiled.save("m.vmfb")
"""

from .errors import UserError

__all__ = ["compile", "UserError"]


def compile(model, example_args, *, target: str = "llvm-cpu", dynamic_shapes=None):
    """Compiles `model` for `target` ("llvm-cpu"); returns a callable `Compiled`.

    `example_args` is a tuple of tensors (or one tensor) of the shapes and dtypes
    the compiled model will take. `dynamic_shapes` means what it means to
    `torch.export.export`.
    """
    from .driver.compile import compile_model

    return compile_model(model, example_args, target=target, dynamic_shapes=dynamic_shapes)
