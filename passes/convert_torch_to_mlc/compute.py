"""torch linear algebra, convolution and pooling -> mlc matmul, conv2d and pooling."""

import math

from ...dialects import compute_ops, elementwise_ops, reduction_ops, shape_ops
from ...dialects.op_base import DYNAMIC
from .attributes import boolean, i64, i64_array, string, tensor_type
from .patterns import NotConvertible, converts
from .resampling import adaptive_avg_pool
from .sizes import dim, merged_shape
from .values import reshape


def transpose_last_two(value):
    rank = value.type.rank
    permutation = list(range(rank - 2)) + [rank - 1, rank - 2]
    shape = [value.type.shape[p] for p in permutation]
    return shape_ops.TransposeOp(value, i64_array(permutation), tensor_type(shape, value.type.element_type)).result


def matmul(lhs, rhs, result_type, bias=None):
    """mlc.matmul in the forms kernels take, [M,K]x[K,N] or [B,M,K]x[B,K,N]: other
    ranks are reshaped here, in the graph, so that no reshape lands inside a
    fused kernel (IREE's CPU code generation rejects those). A bias over the last
    axis is added before reshaping back, so it fuses with the matmul. Dynamic
    sizes are computed from the operands'."""
    lhs_shape, rhs_shape = list(lhs.type.shape), list(rhs.type.shape)
    element_type = result_type.element_type
    rank = len(lhs_shape)
    if rank > 2 and len(rhs_shape) == 2:
        flat_shape, flat_sizes = merged_shape(lhs, [range(rank - 1), [rank - 1]])
        product_type = tensor_type([flat_shape[0], rhs_shape[-1]], element_type)
        product = compute_ops.MatmulOp(reshape(lhs, flat_shape, flat_sizes), rhs, product_type).result
        return reshape(_plus_bias(product, bias), result_type.shape, _result_sizes(result_type, lhs, rhs))
    if rank > 3 and lhs_shape[:-2] == rhs_shape[:-2] and len(rhs_shape) == rank:
        groups = [range(rank - 2), [rank - 2], [rank - 1]]
        lhs_flat, lhs_sizes = merged_shape(lhs, groups)
        rhs_flat, rhs_sizes = merged_shape(rhs, groups)
        product_type = tensor_type([lhs_flat[0], lhs_flat[1], rhs_flat[2]], element_type)
        product = compute_ops.MatmulOp(
            reshape(lhs, lhs_flat, lhs_sizes), reshape(rhs, rhs_flat, rhs_sizes), product_type
        ).result
        return reshape(_plus_bias(product, bias), result_type.shape, _result_sizes(result_type, lhs, rhs))
    return _plus_bias(compute_ops.MatmulOp(lhs, rhs, result_type).result, bias)


def _result_sizes(result_type, lhs, rhs) -> list:
    """The dynamic sizes of a matmul's result: lhs's but the last, then rhs's last."""
    rank = result_type.rank
    sources = [(lhs, d) for d in range(rank - 1)] + [(rhs, rhs.type.rank - 1)]
    return [dim(value, d) for (value, d), size in zip(sources, result_type.shape) if size == DYNAMIC]


def _plus_bias(value, bias):
    return value if bias is None else elementwise_ops.AddOp(value, bias, value.type).result


@converts("torch.aten.mm", "torch.aten.bmm", "torch.aten.matmul")
def matmul_family(op):
    if op.operand_type(0).rank < 2 or op.operand_type(1).rank < 2:
        raise NotConvertible("matmul of a 1-D operand")
    return matmul(op.tensor(0), op.tensor(1), op.result_type())


@converts("torch.aten.linear")
def linear(op):
    """y = x @ w^T + b. The transpose of the weight folds away at compile time."""
    if op.operand_type(0).rank < 2:
        raise NotConvertible("linear of a 1-D input")
    bias = None if op.is_none(2) else op.tensor(2)
    return matmul(op.tensor(0), transpose_last_two(op.tensor(1)), op.result_type(), bias)


def _pairs(padding):
    """torch's symmetric [ph, pw] -> mlc's [top, bottom, left, right]."""
    return [padding[0], padding[0], padding[1], padding[1]]


def _conv(op, stride, padding, dilation, groups, bias_index):
    if len(padding) != 2:
        raise NotConvertible("only 2-D convolutions convert")
    bias = None if op.is_none(bias_index) else op.tensor(bias_index)
    return compute_ops.Conv2dOp(
        op.tensor(0), op.tensor(1), i64_array(stride), i64_array(_pairs(padding)), i64_array(dilation),
        i64(groups), string("NCHW"), op.result_type(), bias=bias,
    ).result


@converts("torch.aten.conv2d")
def conv2d(op):
    if op.operand_type(0).rank != 4:
        raise NotConvertible("unbatched conv2d input")
    return _conv(op, op.ints(3), op.ints(4), op.ints(5), op.int(6), bias_index=2)


@converts("torch.aten.convolution")
def convolution(op):
    if op.bool(6):
        raise NotConvertible("transposed convolution")
    return _conv(op, op.ints(3), op.ints(4), op.ints(5), op.int(8), bias_index=2)


@converts("torch.aten.max_pool2d")
def max_pool2d(op):
    kernel = op.ints(1)
    stride = op.ints(2) or kernel
    return compute_ops.MaxPool2dOp(
        op.tensor(0), i64_array(kernel), i64_array(stride), i64_array(_pairs(op.ints(3))),
        i64_array(op.ints(4)), boolean(op.bool(5)), string("NCHW"), op.result_type(),
    ).result


@converts("torch.aten.avg_pool2d")
def avg_pool2d(op):
    if not op.is_none(6):
        raise NotConvertible("avg_pool2d with divisor_override")
    kernel = op.ints(1)
    stride = op.ints(2) or kernel
    return compute_ops.AvgPool2dOp(
        op.tensor(0), i64_array(kernel), i64_array(stride), i64_array(_pairs(op.ints(3))),
        boolean(op.bool(4)), boolean(op.bool(5)), string("NCHW"), op.result_type(),
    ).result


@converts("torch.aten.adaptive_avg_pool2d")
def adaptive_avg_pool2d(op):
    """Global pooling is a mean; an exact divisor of the input is a plain average pool;
    other sizes are weighted gathers (see resampling.adaptive_avg_pool)."""
    input_type = op.operand_type(0)
    out_h, out_w = op.ints(1)
    in_h, in_w = input_type.shape[-2:]
    if input_type.rank != 4:
        raise NotConvertible("unbatched adaptive_avg_pool2d input")
    if in_h % out_h or in_w % out_w:  # windows of varying size: one axis at a time
        return adaptive_avg_pool(adaptive_avg_pool(op.tensor(0), 3, out_w), 2, out_h)
    if (out_h, out_w) == (1, 1):
        return reduction_ops.ReduceMeanOp(op.tensor(0), i64_array([2, 3]), boolean(True), op.result_type()).result
    kernel = [in_h // out_h, in_w // out_w]
    return compute_ops.AvgPool2dOp(
        op.tensor(0), i64_array(kernel), i64_array(kernel), i64_array([0, 0, 0, 0]),
        boolean(False), boolean(True), string("NCHW"), op.result_type(),
    ).result
