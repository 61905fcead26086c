"""torch linear algebra, convolution and pooling -> mlc matmul, conv2d and pooling."""

import math

from ...dialects import compute_ops, elementwise_ops, reduction_ops, shape_ops
from ...dialects.op_base import DYNAMIC
from .attributes import boolean, i64, i64_array, string, tensor_type
from .patterns import NotConvertible, converts
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
    axis is added before reshaping back, so it fuses with the matmul."""
    lhs_shape, rhs_shape = list(lhs.type.shape), list(rhs.type.shape)
    element_type = result_type.element_type
    if len(lhs_shape) > 2 and len(rhs_shape) == 2 and DYNAMIC not in lhs_shape[:-1]:
        rows = math.prod(lhs_shape[:-1])
        flat = reshape(lhs, [rows, lhs_shape[-1]])
        product_type = tensor_type([rows, rhs_shape[-1]], element_type)
        product = _plus_bias(compute_ops.MatmulOp(flat, rhs, product_type).result, bias)
        return reshape(product, result_type.shape)
    if len(lhs_shape) > 3 and lhs_shape[:-2] == rhs_shape[:-2] and DYNAMIC not in lhs_shape[:-2]:
        batch = math.prod(lhs_shape[:-2])
        product_type = tensor_type([batch, lhs_shape[-2], rhs_shape[-1]], element_type)
        product = compute_ops.MatmulOp(
            reshape(lhs, [batch] + lhs_shape[-2:]), reshape(rhs, [batch] + rhs_shape[-2:]), product_type
        ).result
        return reshape(_plus_bias(product, bias), result_type.shape)
    return _plus_bias(compute_ops.MatmulOp(lhs, rhs, result_type).result, bias)


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
    """Global pooling is a mean; an exact divisor of the input is a plain average pool."""
    input_type = op.operand_type(0)
    out_h, out_w = op.ints(1)
    in_h, in_w = input_type.shape[-2:]
    if input_type.rank != 4 or in_h % out_h or in_w % out_w:
        raise NotConvertible("adaptive_avg_pool2d whose output does not divide the input")
    if (out_h, out_w) == (1, 1):
        return reduction_ops.ReduceMeanOp(op.tensor(0), i64_array([2, 3]), boolean(True), op.result_type()).result
    kernel = [in_h // out_h, in_w // out_w]
    return compute_ops.AvgPool2dOp(
        op.tensor(0), i64_array(kernel), i64_array(kernel), i64_array([0, 0, 0, 0]),
        boolean(False), boolean(True), string("NCHW"), op.result_type(),
    ).result
