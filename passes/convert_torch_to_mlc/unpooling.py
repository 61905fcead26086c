"""max_unpool and max pooling's gradient -> `mlc.scatter` into each (n, c) plane.

Both place values at indices that max pooling returned: flat positions within one
plane (the spatial dims) of a larger tensor. max_unpool writes its input into zeros
of the output's shape; max_pool's gradient adds grad_output into zeros of the
input's shape (overlapping windows may pick one position twice). The result is
viewed as [planes, plane size], and each value's position is the row (plane
number, index). Unbatched inputs ([C, ...]) are planes of C alone.
"""

import math

import numpy as np
from torch_mlir import ir

from ...dialects import indexing_ops
from ..constant_values import make_constant
from ..graph import cast_to, reshape, splat, tensor_type
from .patterns import NotConvertible, converts
from .scatter import _broadcast, _concat_columns, _scatter


def _i64():
    return ir.IntegerType.get_signless(64)


def _into_planes(op, values_key: str, spatial: int, combine: str):
    """Zeros of the op's result type with `values_key` combined in at `indices`:
    flat positions in the last `spatial` dims, within the plane of each value's
    leading coordinates."""
    values_type, indices_type, result_type = op.operand_type(values_key), op.operand_type("indices"), op.result_type()
    for what, type_ in (("input", values_type), ("indices", indices_type), ("result", result_type)):
        if any(d < 0 for d in type_.shape):
            raise NotConvertible(f"{what} has a dynamic shape")
    shape, values_shape = list(result_type.shape), list(values_type.shape)
    if len(shape) not in (spatial + 1, spatial + 2) or len(values_shape) != len(shape):
        raise NotConvertible(f"rank {len(values_shape)} into rank {len(shape)} for {spatial}-D planes")
    if list(indices_type.shape) != values_shape or values_shape[:-spatial] != shape[:-spatial]:
        raise NotConvertible(f"indices {indices_type} do not match values {values_type} and result {result_type}")
    element_type = result_type.element_type
    planes, plane = math.prod(shape[:-spatial]), math.prod(shape[-spatial:])
    per_plane = math.prod(values_shape[-spatial:])
    rows = planes * per_plane
    if rows == 0:
        return splat(0, element_type, shape)
    numbers = make_constant(np.arange(planes).reshape(planes, 1), tensor_type([planes, 1], _i64()), "planes")
    numbers = reshape(_broadcast(numbers, [planes, per_plane]), [rows, 1])
    indices = reshape(cast_to(op.tensor("indices"), _i64()), [rows, 1])
    updates = reshape(cast_to(op.tensor(values_key), element_type), [rows])
    zeros = splat(0, element_type, [planes, plane])
    return reshape(_scatter(zeros, _concat_columns([numbers, indices]), updates, combine), shape)


@converts("torch.aten.max_unpool2d", "torch.aten.max_unpool3d", makes=indexing_ops.ScatterOp)
def max_unpool(op):
    """Each input value at its index in its plane of the output (output_size, and
    max_unpool3d's stride and padding, only give the result's shape). Duplicate
    indices come from overlapping windows that chose one element: one value."""
    return _into_planes(op, "self_", 3 if op.name == "torch.aten.max_unpool3d" else 2, "replace")


@converts("torch.aten.max_pool2d_with_indices_backward", "torch.aten.max_pool3d_with_indices_backward",
          makes=indexing_ops.ScatterOp)
def max_pool_with_indices_backward(op):
    """The gradient w.r.t. the input: grad_output summed at the indices the forward
    pass chose, in each plane of the input (kernel, stride, padding, dilation and
    ceil_mode are in the indices already)."""
    spatial = 3 if op.name == "torch.aten.max_pool3d_with_indices_backward" else 2
    if op.operand_type("self_").shape != op.result_type().shape:
        raise NotConvertible("the gradient's shape is not the input's")
    return _into_planes(op, "grad_output", spatial, "add")
