"""What `mlc-compile` takes as a model: `file.py:ClassOrFactory`, `.pt2`, or `.mlir`."""

import importlib.util
import logging
import re
import sys
from pathlib import Path

import torch

from ...errors import UserError

DTYPES = {
    "f32": torch.float32, "f16": torch.float16, "bf16": torch.bfloat16, "f64": torch.float64,
    "i64": torch.int64, "i32": torch.int32, "i8": torch.int8, "i1": torch.bool,
}
_SHAPE = re.compile(r"^((?:\d+x)*)([a-z]+\d*)$")


def parse_input_shape(text: str) -> tuple[list[int], torch.dtype]:
    """`1x3x224x224xf32` -> ([1, 3, 224, 224], torch.float32); `f32` alone is a scalar."""
    match = _SHAPE.match(text)
    if not match or match.group(2) not in DTYPES:
        raise UserError(
            f"bad --input-shape '{text}': expected dims and a dtype like 1x3x224x224xf32 "
            f"(dtypes: {', '.join(DTYPES)})"
        )
    dims = [int(d) for d in match.group(1).split("x") if d]
    return dims, DTYPES[match.group(2)]


def example_input(dims, dtype) -> torch.Tensor:
    """Deterministic example data: the values only pick a trace, shapes matter."""
    generator = torch.Generator().manual_seed(0)
    if dtype.is_floating_point:
        return torch.randn(dims, generator=generator).to(dtype)
    if dtype == torch.bool:
        return torch.zeros(dims, dtype=torch.bool)
    return torch.randint(0, 8, dims, generator=generator, dtype=dtype)


def load_python_model(spec: str) -> torch.nn.Module:
    """`path/to/file.py:Name`: Name is an nn.Module class or a function returning a model."""
    path_text, _, name = spec.rpartition(":")
    path = Path(path_text)
    if not path.is_file():
        raise UserError(f"model file '{path}' not found")
    module_spec = importlib.util.spec_from_file_location(f"mlc_user_model_{path.stem}", path)
    module = importlib.util.module_from_spec(module_spec)
    sys.path.insert(0, str(path.parent.resolve()))
    try:
        module_spec.loader.exec_module(module)
    except Exception as error:
        raise UserError(f"importing '{path}' failed: {type(error).__name__}: {error}") from None
    finally:
        sys.path.pop(0)
    factory = getattr(module, name, None)
    if factory is None:
        raise UserError(f"'{path}' defines no '{name}'")
    try:
        model = factory()
    except Exception as error:
        raise UserError(f"calling {name}() from '{path}' failed: {type(error).__name__}: {error}") from None
    if not isinstance(model, torch.nn.Module):
        raise UserError(f"{name}() returned {type(model).__name__}, not a torch.nn.Module")
    return model.eval()


def load_exported_program(path: str) -> torch.export.ExportedProgram:
    if not Path(path).is_file():
        raise UserError(f"could not open '{path}': no such file")
    export_logger = logging.getLogger("torch.export")
    level = export_logger.level
    export_logger.setLevel(logging.CRITICAL)  # torch logs a traceback before it raises
    try:
        return torch.export.load(path)
    except Exception as error:
        first_line = str(error).strip().splitlines()[0] if str(error).strip() else ""
        raise UserError(f"'{path}' is not a torch.export program: {type(error).__name__}: {first_line}") from None
    finally:
        export_logger.setLevel(level)
