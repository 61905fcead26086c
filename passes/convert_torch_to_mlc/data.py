"""torch literals and dtype conversions -> mlc constant and cast."""

import numpy as np
from torch_mlir import ir
from torch_mlir.dialects import arith

from ...dialects import data_ops, shape_ops
from ...dialects import elementwise_ops as ew
from ...dialects.op_base import DYNAMIC, is_float
from ..constant_values import dtype_of, make_constant
from ..graph import cast_to, splat
from .patterns import NotConvertible, converts
from .sizes import dim, index, size_value
from .unsigned import is_unsigned


@converts("torch.vtensor.literal", makes=data_ops.ConstantOp)
def literal(op):
    """Weights: the dense_resource attribute moves over as is, never copied. Small
    `dense` literals of signed integers (si64) are rebuilt signless, as mlc's types are.
    A blob of unsigned integers (torch-mlir's importer types uint8 buffers ui8) is left to
    the fallback: read back through a printed scratch module, GPT-Neo's uint8 mask gave a
    wrong result once in four CI runs (relative error 0.14), which no rerun reproduced."""
    value, result_type = op.op.attributes["value"], op.result_type()
    if isinstance(value, ir.DenseElementsAttr) and value.type != result_type:
        return make_constant(np.array(value), result_type, "literal")
    if value.type != result_type:
        raise NotConvertible(f"a blob of {value.type.element_type} (mlc reads no unsigned blob)")
    return data_ops.ConstantOp(value, result_type).result


@converts("torch.aten.to.dtype", "torch.aten._to_copy", "torch.prims.convert_element_type", "torch.aten.type_as",
          makes=data_ops.CastOp)
def cast(op):
    """A float to unsigned integers goes through i64: torch truncates toward zero and
    keeps the low bits (-1.5 and 255.0 are both 255 as uint8), where one
    float-to-i8 conversion is undefined past 127."""
    x, element_type = op.tensor(0), op.result_type().element_type
    if is_unsigned(op.op.results[0].type) and is_float(x.type.element_type):
        x = cast_to(x, ir.IntegerType.get_signless(64))
    return cast_to(x, element_type)


@converts("torch.aten.arange.start_step", "torch.aten.arange.start", "torch.aten.arange",
          makes=(data_ops.ConstantOp, data_ops.IotaOp))
def arange(op):
    """With constant bounds (position ids of a fixed length) the range is a constant;
    with an end computed at run time, start + step * iota(length)."""
    bounds = {"torch.aten.arange": ("end",), "torch.aten.arange.start": ("start", "end"),
              "torch.aten.arange.start_step": ("start", "end", "step")}[op.name]
    result_type = op.result_type()
    if result_type.shape[0] != DYNAMIC:
        values = [op.float(bound) for bound in bounds]
        return make_constant(np.arange(*values).astype(dtype_of(result_type)), result_type, "arange")
    start = op.int("start") if "start" in bounds else 0
    step = op.int("step") if "step" in bounds else 1
    if step <= 0:
        raise NotConvertible("a decreasing range of computed length")
    end = size_value(op.operand("end"))
    length = arith.ceildivsi(arith.subi(end, index(start)), index(step))
    positions = data_ops.IotaOp([length], result_type).result
    element_type = result_type.element_type
    if step != 1:
        positions = ew.MulOp(positions, splat(step, element_type), result_type).result
    if start != 0:
        positions = ew.AddOp(positions, splat(start, element_type), result_type).result
    return positions


@converts("torch.aten.empty.memory_format", makes=data_ops.ConstantOp)
def empty(op):
    """Uninitialized memory may hold anything: zeros. Sizes known at compile time only."""
    result_type = op.result_type()
    if not result_type.has_static_shape:
        raise NotConvertible("empty of sizes computed at run time")
    return splat(0, result_type.element_type, result_type.shape)


@converts("torch.aten.fill.Scalar", "torch.aten.fill.Tensor", makes=(data_ops.ConstantOp, shape_ops.BroadcastOp))
def fill(op):
    """The value everywhere in the input's shape: a splat constant, or the 0-d value
    tensor broadcast (with the input's sizes where they are dynamic)."""
    result_type = op.result_type()
    element_type = result_type.element_type
    if op.name.endswith("Scalar"):
        if result_type.has_static_shape:
            return splat(op.float("value"), element_type, result_type.shape)
        value = splat(op.float("value"), element_type)
    else:
        value = cast_to(op.tensor("value"), element_type)
    x = op.tensor("self_")
    sizes = [dim(x, d) for d, size in enumerate(result_type.shape) if size == DYNAMIC]
    return shape_ops.BroadcastOp(value, sizes, result_type).result
