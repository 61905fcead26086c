"""Small mlc subgraphs conversions share: scalar constants, casts, reshapes."""

import math

from torch_mlir import ir

from ...dialects import data_ops, shape_ops
from .attributes import tensor_type


def splat(value: float, element_type: ir.Type, shape=()) -> ir.Value:
    """An mlc.constant holding `value` everywhere (a 0-d tensor by default)."""
    type_ = tensor_type(shape, element_type)
    if isinstance(element_type, ir.IntegerType):
        element = ir.IntegerAttr.get(element_type, int(value))
    else:
        element = ir.FloatAttr.get(element_type, float(value))
    return data_ops.ConstantOp(ir.DenseElementsAttr.get_splat(type_, element), type_).result


def cast_to(value: ir.Value, element_type: ir.Type) -> ir.Value:
    if value.type.element_type == element_type:
        return value
    return data_ops.CastOp(value, tensor_type(value.type.shape, element_type)).result


def reshape(value: ir.Value, shape, sizes=()) -> ir.Value:
    """`value` viewed as `shape`; `sizes` are index values for its dynamic sizes (see mlc.reshape)."""
    if list(value.type.shape) == list(shape) and not sizes:
        return value
    return shape_ops.ReshapeOp(value, list(sizes), tensor_type(shape, value.type.element_type)).result


def resolve_shape(sizes, input_shape) -> list[int]:
    """torch's view sizes: one -1 takes what is left."""
    if -1 in sizes:
        known = math.prod(s for s in sizes if s != -1)
        sizes = [math.prod(input_shape) // known if s == -1 else s for s in sizes]
    return list(sizes)
