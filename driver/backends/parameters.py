"""External parameters: large weights go to an IREE parameter archive (`.irpa`), not the `.vmfb`.

Inline, every weight is copied into the bytecode handed to IREE, again inside the
compiler, and again into the executable: peak memory is several times the model.
With an archive, mlc writes the weights straight from their numpy arrays and hands
IREE a module whose large constants are parameter references, as IREE spells them:

    util.global private @"param.fc1.weight" = #stream.parameter.named<"model"::"fc1.weight"> : tensor<...>
    %w = util.global.load @"param.fc1.weight" : tensor<...>

util and stream are not registered in torch-mlir's context, so these are built as
unregistered ops and an opaque attribute; IREE reads them, by name, as its own.
At run time an `io_parameters` module serves the archive under the scope "model",
as `iree-run-module --parameters=model=weights.irpa` does.

Weights that O2 computes at compile time (transposes) would double the model in
memory: with an archive they go to an unnamed file as soon as they are folded and are
mapped back (`FoldedWeightFile`), and the archive copies them from that file, so their
bytes stay in the page cache, not in the process.
"""

import os
import tempfile
import time
import uuid

import iree.runtime
import numpy as np
from torch_mlir import ir

from ...errors import UserError
from ...passes import constant_values
from .. import atomic_file
from ..report import Report, StageRecord

SCOPE = "model"
# Smaller constants (biases, norm scales, shape tensors) stay in the module: they
# cost the .vmfb little, and IREE can still fold them.
MIN_BYTES = 4096
GLOBAL_PREFIX = "param."


def _large_weights(module: ir.Operation, min_bytes: int) -> list[tuple[ir.Operation, str]]:
    """(arith.constant, resource name) for each `dense_resource` constant of at least `min_bytes`."""
    found = []

    def visit(op):
        if op.name == "arith.constant":
            name = constant_values.resource_name(op.attributes["value"])
            type_ = op.results[0].type
            dtype = constant_values.dtype_of(type_)
            if name is not None and dtype is not None and np.prod(type_.shape) * dtype.itemsize >= min_bytes:
                found.append((op, name))
        return ir.WalkResult.ADVANCE

    module.walk(visit)
    return found


def raw_bytes(array: np.ndarray) -> np.ndarray:
    """The array's bytes in C order, as uint8: Python's buffers take no bf16 (ml_dtypes'
    format 'E'), so its `.data` cannot be written or hashed as it is."""
    return np.ascontiguousarray(array).reshape(-1).view(np.uint8)


def _array(op: ir.Operation, name: str) -> np.ndarray:
    type_ = op.results[0].type
    # TODO(constant_values): make this lookup public (it reads the resource table
    # that the importer and the constant folder fill, or the printed blobs).
    array = constant_values._resource_value(op, name, type_, constant_values.dtype_of(type_))
    if array is None:
        raise UserError(f"the bytes of weight '{name}' are unknown, so it cannot go to a parameter archive")
    return array


def _declare_global(module: ir.Operation, key: str, type_: ir.Type) -> str:
    """A `util.global` at the top of the module whose value is parameter `key`; returns its symbol."""
    symbol = GLOBAL_PREFIX + key
    value = ir.Attribute.parse(f'#stream.parameter.named<"{SCOPE}"::"{_escape(key)}"> : {type_}')
    body = module.regions[0].blocks[0]
    with ir.InsertionPoint.at_block_begin(body), ir.Location.unknown():
        ir.Operation.create("util.global", attributes={
            "sym_name": ir.StringAttr.get(symbol),
            "sym_visibility": ir.StringAttr.get("private"),
            "type": ir.TypeAttr.get(type_),
            "initial_value": value,
        })
    return symbol


def _escape(key: str) -> str:
    return key.replace("\\", "\\\\").replace('"', '\\"')


def externalize(module: ir.Operation, min_bytes: int = MIN_BYTES, key_of=None) -> dict[str, np.ndarray]:
    """Turns each large weight constant of a linalg-level module into a load of a
    parameter global; returns the weights by parameter key: the resource name (the
    torch state_dict name for imported weights), or `key_of(array)` if given."""
    module.context.allow_unregistered_dialects = True
    arrays, symbols, keys = {}, {}, {}  # key -> array, key -> global, resource name -> key
    for op, name in _large_weights(module, min_bytes):
        type_ = op.results[0].type
        if name not in keys:
            array = _array(op, name)
            keys[name] = key = key_of(array) if key_of is not None else name
            if key not in symbols:
                arrays[key] = array
                with module.context:
                    symbols[key] = _declare_global(module, key, type_)
        with ir.InsertionPoint(op), op.location:
            load = ir.Operation.create("util.global.load", results=[type_],
                                       attributes={"global": ir.FlatSymbolRefAttr.get(symbols[keys[name]])})
        op.results[0].replace_all_uses_with(load.results[0])
        op.erase()
    return arrays


def check_writable(path) -> None:
    """Fails early, before compiling, if the archive cannot be written at `path`."""
    directory = os.path.dirname(os.path.abspath(path))
    if os.path.isdir(path) or not os.path.isdir(directory) or not os.access(directory, os.W_OK):
        raise UserError(f"cannot write the parameter archive '{path}': "
                        + ("it is a directory" if os.path.isdir(path) else "its directory does not exist or is not writable"))


class FoldedWeightFile:
    """An unnamed file beside the archive holding the arrays folded at compile time, each
    written as soon as it exists and mapped back read-only: the page cache holds the bytes,
    and `write_archive` copies them file to file without mapping them into the process."""

    ALIGNMENT = 64

    def __init__(self, directory: str):
        self._file = tempfile.TemporaryFile(dir=directory, prefix="mlc-folded-")
        self._regions: dict[int, tuple[int, int, np.ndarray]] = {}  # address -> (offset, bytes, mapping)

    def store(self, array: np.ndarray) -> np.ndarray:
        """The array's bytes, written to the file and mapped back (small arrays stay as they are)."""
        if array.nbytes < MIN_BYTES:
            return array
        offset = -(-self._file.seek(0, os.SEEK_END) // self.ALIGNMENT) * self.ALIGNMENT
        self._file.seek(offset)
        self._file.write(raw_bytes(array))
        self._file.flush()
        mapped = np.memmap(self._file, dtype=array.dtype, mode="r", offset=offset, shape=array.shape)
        self._regions[mapped.ctypes.data] = (offset, array.nbytes, mapped)
        return mapped

    def region(self, array: np.ndarray) -> tuple[int, int] | None:
        """(offset, bytes) in the file of an array `store` returned (or a view of all of it)."""
        found = self._regions.get(array.ctypes.data)
        return found[:2] if found is not None and found[1] == array.nbytes else None

    def file_handle(self) -> iree.runtime.FileHandle:
        return iree.runtime.FileHandle.wrap_fd(self._file.fileno())

    def close(self) -> None:
        """Frees the file once nothing maps it (the mappings stay valid)."""
        self._file.close()


def keep_folded_weights_on_disk(context: ir.Context, directory) -> FoldedWeightFile:
    """From now on, arrays folded in `context` go to a `FoldedWeightFile` in `directory`
    (the archive's)."""
    folded = FoldedWeightFile(directory)
    constant_values.keep_new_arrays_with(context, folded.store)
    return folded


def write_archive(arrays: dict[str, np.ndarray], path, folded: FoldedWeightFile | None = None) -> None:
    """Writes the arrays as an IREE parameter archive, one at a time: from their memory,
    or, for those in `folded`, from that file."""
    index = iree.runtime.ParameterIndex()
    handle = folded.file_handle() if folded is not None else None
    for key, array in arrays.items():
        region = folded.region(array) if folded is not None else None
        if region is None:
            index.add_buffer(key, raw_bytes(array))
        else:
            offset, length = region
            index.add_from_file_handle(key, handle, length, offset)
    try:
        with atomic_file.replacing(path) as temporary:  # whole or not at all
            index.create_archive_file(str(temporary))
    except Exception as error:  # IREE raises its own status errors for I/O failures
        raise UserError(f"could not write the parameter archive '{path}': {error}") from None


def stop_folding_to(module: ir.Operation, folded: FoldedWeightFile | None) -> None:
    """Arrays folded from now on stay in memory; the file goes once nothing maps it."""
    if folded is not None:
        constant_values.keep_new_arrays_with(module.context, None)
        folded.close()


def remove(path) -> None:
    """Removes an archive if it was written (a temporary one, after a failed compile)."""
    try:
        os.remove(path)
    except FileNotFoundError:
        pass


def archive_paths(parameters) -> list[str]:
    """The archives an executable's parameters are in: one path, or a WeightStore's."""
    return list(parameters.paths) if hasattr(parameters, "paths") else [os.fspath(parameters)]


def io_module(instance, parameters):
    """The `io_parameters` VM module that serves the archive at `parameters` (a path, or
    a WeightStore's archives), memory-mapped, under the scope the compiled module asks
    for. Add it before the program's module."""
    index = iree.runtime.ParameterIndex()
    for path in archive_paths(parameters):
        index.load(path)
    return iree.runtime.create_io_parameters_module(instance, index.create_provider(scope=SCOPE))


def export(module: ir.Operation, path, report: Report, min_bytes: int = MIN_BYTES,
           folded: FoldedWeightFile | None = None) -> None:
    """Moves the module's large weights into an archive at `path` (those folded into
    `folded` from there); notes what moved in `report`."""
    begin = time.perf_counter()
    arrays = externalize(module, min_bytes)
    write_archive(arrays, path, folded)
    stop_folding_to(module, folded)
    report.stages.append(StageRecord("parameter archive", round(time.perf_counter() - begin, 4)))
    report.parameters = {"archive": str(path), "count": len(arrays),
                         "bytes": int(sum(array.nbytes for array in arrays.values()))}


def resolve(external_params) -> tuple[str | None, bool]:
    """(archive path or None, whether it is a temporary file the Compiled owns) for
    `mlc.compile(..., external_params=True | "weights.irpa" | False)`; a path must be
    writable (targets.check_external_params checks the target can load one)."""
    if external_params is False or external_params is None:
        return None, False
    if external_params is True:
        # Created only when the archive is written, after lowering: a model that fails
        # to import or lower leaves no file behind.
        return os.path.join(tempfile.gettempdir(), f"mlc-{uuid.uuid4().hex}.irpa"), True
    if not isinstance(external_params, (str, os.PathLike)):
        raise UserError(f"external_params must be True, False or a path to an .irpa file, got {external_params!r}")
    check_writable(external_params)
    return os.fspath(external_params), False
