"""torch literals and dtype conversions -> mlc constant and cast."""

from ...dialects import data_ops
from .patterns import NotConvertible, converts
from .values import cast_to


@converts("torch.vtensor.literal")
def literal(op):
    """Weights: the dense_resource attribute moves over as is, never copied."""
    return data_ops.ConstantOp(op.op.attributes["value"], op.result_type()).result


@converts("torch.aten.to.dtype", "torch.aten._to_copy", "torch.prims.convert_element_type", "torch.aten.type_as")
def cast(op):
    return cast_to(op.tensor(0), op.result_type().element_type)
