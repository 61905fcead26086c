"""The value of an `mlc.constant`: read as a numpy array, or built from one.

A `dense<...>` attribute numpy reads directly. A `dense_resource<name>` blob (a
weight) the Python bindings cannot read, so its array comes from a table, per
context and resource name, that whoever creates a blob fills: the torch importer
and `make_constant` call `register`. For a module parsed from text (mlc-opt) the
table is filled from the module's `dialect_resources` section, printed once.

Arrays returned are read-only: a weight's array is the model's own memory.
"""

import math
import re
import weakref
from typing import Callable

import ml_dtypes
import numpy as np
from torch_mlir import ir

from ..dialects import data_ops
from .graph import defining

__all__ = ["attribute_value", "constant_attribute", "dtype_of", "keep_new_arrays_with", "make_constant", "register",
           "resource_name", "splat_of", "value_of"]

# MLIR element type -> numpy dtype (bf16: ml_dtypes', which numpy computes with in f32
# and rounds, as IREE does).
BF16 = np.dtype(ml_dtypes.bfloat16)
DTYPES = {
    "bf16": BF16,
    "f16": np.dtype(np.float16),
    "f32": np.dtype(np.float32),
    "f64": np.dtype(np.float64),
    "i1": np.dtype(np.bool_),
    "i8": np.dtype(np.int8),
    "i16": np.dtype(np.int16),
    "i32": np.dtype(np.int32),
    "i64": np.dtype(np.int64),
}
# Up to this many elements a new constant is a `dense<...>` (readable, printable);
# larger ones become resource blobs that reference the array.
DENSE_LIMIT = 64

# context -> resource name -> array (or raw bytes as uint8, from text); None: not found.
_TABLE: "weakref.WeakKeyDictionary[ir.Context, dict[str, np.ndarray | None]]" = weakref.WeakKeyDictionary()
# context -> where the arrays of new blobs live (see `keep_new_arrays_with`).
_STORES: "weakref.WeakKeyDictionary[ir.Context, Callable[[np.ndarray], np.ndarray]]" = weakref.WeakKeyDictionary()
# A resource name as printed: bare, or quoted when it has other characters (quotes dropped).
_RESOURCE_NAME = re.compile(r'dense_resource<(?:"((?:[^"\\]|\\.)*)"|([^>]*))>')
_BLOB = re.compile(r'^\s*(?:"((?:[^"\\]|\\.)*)"|([^\s:"]+)): "0x([0-9A-Fa-f]*)",?$', re.M)


def dtype_of(type_: ir.Type) -> np.dtype | None:
    """The numpy dtype of a tensor type's elements; None for types numpy lacks."""
    element = type_.element_type if isinstance(type_, ir.ShapedType) else type_
    return DTYPES.get(str(element))


def _table(context: ir.Context) -> dict:
    return _TABLE.setdefault(context, {})


def resource_name(attr: ir.Attribute) -> str | None:
    """`fc1.weight` for `dense_resource<fc1.weight> : ...`; None for other attributes."""
    try:
        ir.DenseResourceElementsAttr(attr)
    except ValueError:
        return None
    quoted, bare = _RESOURCE_NAME.match(str(attr)).groups()
    return bare if quoted is None else quoted


def register(attr: ir.Attribute, array: np.ndarray) -> None:
    """Records the array behind a `dense_resource` attribute (made with
    `get_from_buffer`), so that `value_of` can read it; keeps the array alive."""
    _table(attr.context)[resource_name(attr)] = array


def keep_new_arrays_with(context: ir.Context, store: "Callable[[np.ndarray], np.ndarray] | None") -> None:
    """Hands each array that `make_constant` puts in a blob of `context` to `store`, which
    returns the array to keep: the same bytes, e.g. mapped back from a file, so that weights
    folded at compile time need not stay in the process's memory. None: keep them as made."""
    if store is None:
        _STORES.pop(context, None)
    else:
        _STORES[context] = store


def _root(op: ir.Operation) -> ir.Operation:
    while op.parent is not None:
        op = op.parent
    return op


def _load_printed_blobs(op: ir.Operation) -> None:
    """Fills the table from the `dialect_resources: { builtin: {...} }` section of
    the module holding `op`: the only way to read blobs that were parsed from text.
    Each blob's first 4 bytes are its alignment; the rest are the raw elements."""
    text = _root(op).get_asm()
    start = text.rfind("{-#")
    builtin = text.find("builtin: {", start) if start >= 0 else -1
    if builtin < 0:
        return
    section = text[builtin : text.find("}", builtin)]
    table = _table(op.context)
    for quoted, bare, hex_digits in _BLOB.findall(section):
        table.setdefault(bare or quoted, np.frombuffer(bytes.fromhex(hex_digits)[4:], np.uint8).copy())


def _resource_value(op: ir.Operation, name: str, type_: ir.RankedTensorType, dtype: np.dtype):
    table = _table(op.context)
    if name not in table:
        _load_printed_blobs(op)
        table.setdefault(name, None)  # not printed either: do not print again
    stored = table[name]
    if stored is None or stored.nbytes != math.prod(type_.shape) * dtype.itemsize:
        return None
    return np.ascontiguousarray(stored).reshape(-1).view(dtype).reshape(type_.shape)


def value_of(value: ir.Value) -> np.ndarray | None:
    """The array of a value produced by `mlc.constant`; None for any other value,
    for element types numpy lacks, for bf16 `dense<...>` literals (the bindings read
    them as Python objects) and for blobs whose bytes are unknown."""
    constant = defining(value, data_ops.ConstantOp)
    return None if constant is None else attribute_value(constant.operation, value.type)


def attribute_value(op: ir.Operation, type_: ir.RankedTensorType) -> np.ndarray | None:
    """The array held by the `value` attribute of `op` (an `mlc.constant`, or the
    `arith.constant` it lowers to), read-only; None where `value_of` gives None."""
    attr = op.attributes["value"]
    dtype = dtype_of(type_)
    if dtype is None:
        return None
    if isinstance(attr, ir.DenseElementsAttr):
        if dtype == BF16:
            return None
        array = np.array(attr).astype(dtype, copy=False).reshape(type_.shape)
    else:
        name = resource_name(attr)
        array = None if name is None else _resource_value(op, name, type_, dtype)
    if array is not None:
        array = array.view()
        array.flags.writeable = False
    return array


def splat_of(value: ir.Value) -> float | int | bool | None:
    """The element of a value produced by an `mlc.constant` holding a `dense<...>`
    splat (the same element everywhere); None otherwise. Reads no array."""
    constant = defining(value, data_ops.ConstantOp)
    if constant is None:
        return None
    attr = constant.attributes["value"]
    if not isinstance(attr, ir.DenseElementsAttr) or not attr.is_splat:
        return None
    return attr.get_splat_value().value


def _is_splat(array: np.ndarray) -> bool:
    """Every element has the same bits (so -0.0 and 0.0 differ, and NaN can splat)."""
    bits = array.reshape(-1).view(f"u{array.dtype.itemsize}")
    return bits.size > 0 and bool((bits == bits[0]).all())


def make_constant(array: np.ndarray, type_: ir.RankedTensorType, name: str = "constant") -> ir.Value:
    """An `mlc.constant` of `type_` holding `array`, built at the current insertion
    point (see `constant_attribute`)."""
    return data_ops.ConstantOp(constant_attribute(array, type_, name), type_).result


def positions_constant(positions, name: str = "positions") -> ir.Value:
    """Constant positions for an `mlc.gather` (flip, pads, diagonals, windows, resampling),
    as i32 where they fit: IREE's Vulkan target emulates i64 without the Int64 capability,
    and its emulation cannot read an i64 constant inside a dispatch (every gather at such
    positions failed to compile: "failed to legalize unresolved target materialization
    from ('i64') to ('vector<2xi32>')")."""
    array = np.asarray(positions, dtype=np.int64)
    fits = array.size == 0 or (array.min() >= -(2**31) and array.max() < 2**31)
    width = 32 if fits else 64
    type_ = ir.RankedTensorType.get(list(array.shape), ir.IntegerType.get_signless(width))
    return make_constant(array, type_, name)


def constant_attribute(array: np.ndarray, type_: ir.RankedTensorType, name: str = "constant") -> ir.Attribute:
    """The attribute of a constant of `type_` holding `array`. Small arrays, splats and
    booleans become `dense<...>`; others a resource blob named `name` (MLIR makes it
    unique) that references the array."""
    dtype = dtype_of(type_)
    array = np.ascontiguousarray(np.asarray(array, dtype=dtype).reshape(type_.shape))
    raw = array.view(np.uint16) if dtype == BF16 else array  # the bindings take bf16 as its bits
    if array.size <= DENSE_LIMIT or dtype == np.bool_ or _is_splat(array):
        return ir.DenseElementsAttr.get(raw[(0,) * array.ndim] if _is_splat(array) else raw, type=type_)
    array = _STORES.get(type_.context, lambda made: made)(array)
    raw = array.view(np.uint16) if dtype == BF16 else array
    attr = ir.DenseResourceElementsAttr.get_from_buffer(raw, name, type_)
    register(attr, array)
    return attr
