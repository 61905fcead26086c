"""torch literals and dtype conversions -> mlc constant and cast."""

import numpy as np
from torch_mlir import ir

from ...dialects import data_ops
from ..constant_values import dtype_of, make_constant
from .patterns import NotConvertible, converts
from .values import cast_to


@converts("torch.vtensor.literal")
def literal(op):
    """Weights: the dense_resource attribute moves over as is, never copied. Small
    `dense` literals of signed integers (si64) are rebuilt signless, as mlc's types are."""
    value, result_type = op.op.attributes["value"], op.result_type()
    if isinstance(value, ir.DenseElementsAttr) and value.type != result_type:
        return make_constant(np.array(value), result_type, "literal")
    return data_ops.ConstantOp(value, result_type).result


@converts("torch.aten.to.dtype", "torch.aten._to_copy", "torch.prims.convert_element_type", "torch.aten.type_as")
def cast(op):
    return cast_to(op.tensor(0), op.result_type().element_type)


@converts("torch.aten.arange.start_step", "torch.aten.arange.start", "torch.aten.arange")
def arange(op):
    """With constant bounds (position ids of a fixed length) the range is a constant."""
    bounds = {"torch.aten.arange": 1, "torch.aten.arange.start": 2, "torch.aten.arange.start_step": 3}[op.name]
    values = [op.float(i) for i in range(bounds)]
    result_type = op.result_type()
    return make_constant(np.arange(*values).astype(dtype_of(result_type)), result_type, "arange")
