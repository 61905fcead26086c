"""torch linear algebra, conv2d and 2-D pooling -> mlc matmul, conv2d and pooling
(aten.convolution in every rank: convolution.py)."""


from ...dialects import compute_ops, elementwise_ops, reduction_ops, shape_ops
from ...dialects.op_base import DYNAMIC, is_float
from ..graph import boolean, i64, i64_array_attr, reshape, splat, string, tensor_type
from .patterns import NotConvertible, converts
from .pooling import avg_pool_nd, batched, batched_result_type, unbatched
from .resampling import adaptive_avg_pool
from .sizes import dim, merged_shape


def transpose_last_two(value):
    rank = value.type.rank
    permutation = list(range(rank - 2)) + [rank - 1, rank - 2]
    shape = [value.type.shape[p] for p in permutation]
    return shape_ops.TransposeOp(value, i64_array_attr(permutation), tensor_type(shape, value.type.element_type)).result


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


def _with_unit_dims(value, shape):
    """`value` reshaped to `shape`, which only adds or drops size-1 dimensions: its
    dynamic sizes are `value`'s, in order."""
    sizes = [dim(value, d) for d, size in enumerate(value.type.shape) if size == DYNAMIC]
    return reshape(value, shape, sizes)


def vector_matmul(lhs, rhs, result_type):
    """torch.matmul where an operand may be 1-D: a 1-D lhs is a row [1, K] (dropped
    from the result), a 1-D rhs a column [K, 1] (dropped too); vector @ vector is the
    0-d dot product. A product over nothing (K = 0) is zeros."""
    if lhs.type.rank and lhs.type.shape[-1] == 0 and result_type.has_static_shape:
        return splat(0, result_type.element_type, result_type.shape)
    if lhs.type.rank >= 2 and rhs.type.rank >= 2:
        return matmul(lhs, rhs, result_type)
    if lhs.type.rank == 0 or rhs.type.rank == 0:
        raise NotConvertible("matmul of a 0-d operand")
    element_type = result_type.element_type
    lhs_matrix = _with_unit_dims(lhs, [1, lhs.type.shape[0]]) if lhs.type.rank == 1 else lhs
    rhs_matrix = _with_unit_dims(rhs, [rhs.type.shape[0], 1]) if rhs.type.rank == 1 else rhs
    batch = ew_broadcast(lhs_matrix.type.shape[:-2], rhs_matrix.type.shape[:-2])
    product_shape = batch + [lhs_matrix.type.shape[-2], rhs_matrix.type.shape[-1]]
    if lhs.type.rank == 1 and rhs.type.rank > 2:
        # [1, K] x [..., K, N]: the rhs's batch, with one row each.
        product_shape = list(rhs.type.shape[:-2]) + [1, rhs.type.shape[-1]]
        product = compute_ops.MatmulOp(lhs_matrix, rhs_matrix, tensor_type(product_shape, element_type)).result
    else:
        product = matmul(lhs_matrix, rhs_matrix, tensor_type(product_shape, element_type))
    return _with_unit_dims(product, list(result_type.shape))


def ew_broadcast(lhs_batch, rhs_batch):
    batch = elementwise_ops.broadcast_shapes(list(lhs_batch), list(rhs_batch))
    if batch is None:
        raise NotConvertible("matmul batch dimensions that do not broadcast")
    return batch


@converts("torch.aten.mm", "torch.aten.bmm", "torch.aten.matmul", "torch.aten.mv", "torch.aten.dot",
          makes=(compute_ops.MatmulOp, shape_ops.ReshapeOp))
def matmul_family(op):
    return vector_matmul(op.tensor("self_"), op.tensor(1), op.result_type())


@converts("torch.aten.linear", makes=(compute_ops.MatmulOp, shape_ops.ReshapeOp, elementwise_ops.AddOp),
          keep_whole=True)
def linear(op):
    """y = x @ w^T + b. The transpose of the weight folds away at compile time. A 1-D
    input or weight is a vector in the product (torch.matmul's rules)."""
    x, weight = op.tensor("input"), op.tensor("weight")
    if x.type.rank == 0 or weight.type.rank == 0:
        raise NotConvertible("linear of a 0-d input or weight")
    result_type = op.result_type()
    bias = None if op.is_none("bias") else op.tensor("bias")
    if x.type.rank >= 2 and weight.type.rank == 2:
        return matmul(x, transpose_last_two(weight), result_type, bias)
    weight = transpose_last_two(weight) if weight.type.rank == 2 else weight
    product = vector_matmul(x, weight, result_type)
    return product if bias is None else elementwise_ops.AddOp(product, bias, result_type).result


def _scaled(op, key, value, element_type):
    """value * op's scalar `key` (beta or alpha); the value itself when that is 1."""
    factor = op.float(key)
    if factor == 1:
        return value
    return elementwise_ops.MulOp(value, splat(factor, element_type), value.type).result


ADD_PRODUCT_MAKES = (compute_ops.MatmulOp, shape_ops.ReshapeOp, shape_ops.TransposeOp, elementwise_ops.MulOp,
                     elementwise_ops.AddOp)


@converts("torch.aten.addbmm", makes=ADD_PRODUCT_MAKES, keep_whole=True)  # torch-mlir's form has prims.collapse
@converts("torch.aten.addmv", "torch.aten.addmm", "torch.aten.baddbmm", makes=ADD_PRODUCT_MAKES, keep_whole=True)
def add_product(op):
    """beta * input + alpha * product, the input ignored (NaN too) where beta is 0, as
    torch documents: kept whole, as torch-mlir's decomposition multiplied a NaN input by
    0. mv, mm and bmm are matmuls; addbmm's sum over the batch of products is one matmul over
    the batch and the contracted dimension together: [N, B*K] x [B*K, P]."""
    result_type = op.result_type()
    element_type = result_type.element_type
    lhs, rhs = op.tensor(1), op.tensor(2)
    if op.name == "torch.aten.addbmm":
        lhs = shape_ops.TransposeOp(lhs, i64_array_attr([1, 0, 2]),
                                    tensor_type([lhs.type.shape[i] for i in (1, 0, 2)], element_type)).result
        lhs_shape, lhs_sizes = merged_shape(lhs, [[0], [1, 2]])
        rhs_shape, rhs_sizes = merged_shape(rhs, [[0, 1], [2]])
        lhs, rhs = reshape(lhs, lhs_shape, lhs_sizes), reshape(rhs, rhs_shape, rhs_sizes)
    product = _scaled(op, "alpha", vector_matmul(lhs, rhs, result_type), element_type)
    if op.float("beta") == 0:
        return product
    addend = _scaled(op, "beta", op.tensor("self_"), element_type)
    return elementwise_ops.AddOp(product, addend, result_type).result


def _pairs(padding):
    """torch's symmetric [ph, pw] -> mlc's [top, bottom, left, right]."""
    return [padding[0], padding[0], padding[1], padding[1]]


def _conv(op, stride, padding, dilation, groups, bias_index):
    if len(padding) != 2:
        raise NotConvertible("only 2-D convolutions convert")
    bias = None if op.is_none(bias_index) else op.tensor(bias_index)
    return compute_ops.Conv2dOp(
        op.tensor("input"), op.tensor("weight"), i64_array_attr(stride), i64_array_attr(_pairs(padding)), i64_array_attr(dilation),
        i64(groups), string("NCHW"), op.result_type(), bias=bias,
    ).result


@converts("torch.aten.conv2d", makes=compute_ops.Conv2dOp, keep_whole=True)
def conv2d(op):
    if op.operand_type("input").rank != 4:
        raise NotConvertible("unbatched conv2d input")
    return _conv(op, op.ints("stride"), op.ints("padding"), op.ints("dilation"), op.int("groups"), bias_index=2)


@converts("torch.aten.max_pool2d", makes=compute_ops.MaxPool2dOp, keep_whole=True)
def max_pool2d(op):
    kernel = op.ints("kernel_size")
    stride = op.ints("stride") or kernel
    return compute_ops.MaxPool2dOp(
        op.tensor("self_"), i64_array_attr(kernel), i64_array_attr(stride), i64_array_attr(_pairs(op.ints("padding"))),
        i64_array_attr(op.ints("dilation")), boolean(op.bool("ceil_mode")), string("NCHW"), op.result_type(),
    ).result


@converts("torch.aten.avg_pool2d", makes=(compute_ops.AvgPool2dOp, compute_ops.AvgPoolNdOp), keep_whole=True)
def avg_pool2d(op):
    """Integers and divisor_override: mlc.avg_pool_nd (see pooling.py)."""
    if not op.is_none("divisor_override") or not is_float(op.operand_type("self_").element_type):
        return avg_pool_nd(op, 2)
    if op.operand_type("self_").rank != 4:
        raise NotConvertible("unbatched avg_pool2d input")
    kernel = op.ints("kernel_size")
    stride = op.ints("stride") or kernel
    return compute_ops.AvgPool2dOp(
        op.tensor("self_"), i64_array_attr(kernel), i64_array_attr(stride), i64_array_attr(_pairs(op.ints("padding"))),
        boolean(op.bool("ceil_mode")), boolean(op.bool("count_include_pad")), string("NCHW"), op.result_type(),
    ).result


@converts("torch.aten.adaptive_avg_pool2d",
          makes=(compute_ops.AvgPool2dOp, reduction_ops.ReduceMeanOp), keep_whole=True)
def adaptive_avg_pool2d(op):
    """Global pooling is a mean; an exact divisor of the input is a plain average pool;
    other sizes are weighted gathers (see resampling.adaptive_avg_pool). An unbatched
    [C, H, W] input is pooled as [C, 1, H, W] (see pooling.batched)."""
    x, added = batched(op, 2)
    pooled = _adaptive_avg_pool2d(x, op.ints("output_size"), batched_result_type(op, 0, added))
    return unbatched(pooled, op, 0, added)


def _adaptive_avg_pool2d(x, output_size, result_type):
    out_h, out_w = output_size
    in_h, in_w = x.type.shape[-2:]
    if (out_h, out_w) == (1, 1):
        return reduction_ops.ReduceMeanOp(x, i64_array_attr([2, 3]), boolean(True), result_type).result
    if DYNAMIC in (in_h, in_w):
        raise NotConvertible("adaptive_avg_pool2d of a dynamic height or width to more than 1x1: "
                             "its windows depend on the size")
    if in_h % out_h or in_w % out_w:  # windows of varying size: one axis at a time
        return adaptive_avg_pool(adaptive_avg_pool(x, 3, out_w), 2, out_h)
    kernel = [in_h // out_h, in_w // out_w]
    return compute_ops.AvgPool2dOp(
        x, i64_array_attr(kernel), i64_array_attr(kernel), i64_array_attr([0, 0, 0, 0]),
        boolean(False), boolean(True), string("NCHW"), result_type,
    ).result
