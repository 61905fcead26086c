"""The backward ops of exported training graphs -> mlc: the activations' gradients
are elementwise (threshold_backward, gelu_backward, elu_backward, and dropout's,
native_dropout_backward), nearest
upsampling's is a linear map per spatial axis (the sum of the gradients of the
outputs that read each input), a matmul with a constant 0/1 matrix.
"""

import math

import numpy as np
from torch_mlir import ir

from ...dialects import compute_ops, data_ops, shape_ops
from ...dialects import elementwise_ops as ew
from ...dialects.op_base import DYNAMIC, is_float
from ..constant_values import make_constant
from ..graph import broadcast_binary as _binary
from ..graph import broadcast_select as _select
from ..graph import cast_to, inverse, splat, string, tensor_type, transpose
from .compute import matmul
from .patterns import NotConvertible, converts


def _unary(cls, x):
    return cls(x, x.type).result


def _constant(value, like):
    return splat(value, like.type.element_type)


def _le(lhs, rhs):
    shape = ew.broadcast_shapes(lhs.type.shape, rhs.type.shape)
    return ew.CompareOp(lhs, rhs, string("le"), tensor_type(shape, ir.IntegerType.get_signless(1))).result


def _float_operands(op):
    grad, x = op.tensor("grad_output"), op.tensor("self_" if op.name != "torch.aten.elu_backward" else "self_or_result")
    if not is_float(grad.type.element_type) or grad.type.element_type != x.type.element_type:
        raise NotConvertible(f"{op.name.split('.')[2]} of non-float or mixed types")
    if list(grad.type.shape) != list(x.type.shape):
        raise NotConvertible(f"{op.name.split('.')[2]} with a broadcast gradient")
    return grad, x


@converts("torch.aten.threshold_backward", makes=(ew.CompareOp, ew.SelectOp), keep_whole=True)
def threshold_backward(op):
    """grad where x > threshold, else 0 (relu's backward at threshold 0). x is compared in
    torch's promotion of the two types, as eager does, and in an integer type with the
    threshold truncated toward zero (-0.5 is 0). The result's type is torch.export's,
    the gradient's: eager's int64 gradient with a float32 x is float32, of the same values."""
    grad, x = op.tensor("grad_output"), op.tensor("self_")
    common = _promoted(grad.type.element_type, x.type.element_type)
    if str(common) == "i1":
        raise NotConvertible("threshold_backward of bools (torch has none)")
    if list(grad.type.shape) != list(x.type.shape):
        raise NotConvertible("threshold_backward with a broadcast gradient")
    threshold = op.float("threshold")
    below = _le(cast_to(x, common), splat(threshold if is_float(common) else math.trunc(threshold), common))
    grad = cast_to(grad, op.result_type().element_type)
    return _select(below, _constant(0, grad), grad)


def _promoted(a: ir.Type, b: ir.Type) -> ir.Type:
    """torch's promotion of two tensors' element types: a float over an integer, else the
    wider (f16 with bf16 is f32)."""
    if is_float(a) != is_float(b):
        return a if is_float(a) else b
    width_a, width_b = (ir.FloatType(t).width if is_float(t) else ir.IntegerType(t).width for t in (a, b))
    if a != b and width_a == width_b:
        return ir.F32Type.get()
    return a if width_a >= width_b else b


@converts("torch.aten.gelu_backward", makes=(ew.ErfOp, ew.ExpOp, ew.TanhOp, ew.MulOp, ew.AddOp, ew.SubOp),
          keep_whole=True)
def gelu_backward(op):
    """grad * d/dx gelu(x): Phi(x) + x phi(x) exactly; with approximate 'tanh',
    torch's formula 0.5 (1 + t) + 0.5 x (1 - t^2) sqrt(2/pi) (1 + 3 k x^2), t = tanh(inner)."""
    grad, x = _float_operands(op)
    def mul(a, b):
        return _binary(ew.MulOp, a, b)

    def add(a, b):
        return _binary(ew.AddOp, a, b)

    def sub(a, b):
        return _binary(ew.SubOp, a, b)

    def c(value):
        return _constant(value, x)

    approximate = op.str("approximate")
    if approximate == "none":
        cdf = mul(c(0.5), add(c(1.0), _unary(ew.ErfOp, mul(x, c(math.sqrt(0.5))))))
        pdf = mul(c(1 / math.sqrt(2 * math.pi)), _unary(ew.ExpOp, mul(c(-0.5), mul(x, x))))
        derivative = add(cdf, mul(x, pdf))
    elif approximate == "tanh":
        beta, kappa = math.sqrt(2 / math.pi), 0.044715
        square = mul(x, x)
        inner = mul(c(beta), add(x, mul(c(kappa), mul(square, x))))
        t = _unary(ew.TanhOp, inner)
        left = mul(c(0.5), add(c(1.0), t))
        right = mul(mul(mul(c(0.5), x), sub(c(1.0), mul(t, t))), mul(c(beta), add(c(1.0), mul(c(3 * kappa), square))))
        derivative = add(left, right)
    else:
        raise NotConvertible(f"gelu_backward approximate={approximate!r}")
    return mul(grad, derivative)


@converts("torch.aten.elu_backward", makes=(ew.CompareOp, ew.SelectOp, ew.ExpOp, ew.MulOp, ew.AddOp), keep_whole=True)
def elu_backward(op):
    """grad * scale where the input (or result) is > 0; below, grad * input_scale *
    alpha * scale * exp(x * input_scale), or from the result r, grad * input_scale * (r + alpha * scale)."""
    grad, value = _float_operands(op)
    alpha, scale, input_scale = op.float("alpha"), op.float("scale"), op.float("input_scale")

    def c(v):
        return _constant(v, value)

    positive = _binary(ew.MulOp, grad, c(scale))
    if op.bool("is_result"):
        negative = _binary(ew.MulOp, _binary(ew.MulOp, grad, c(input_scale)), _binary(ew.AddOp, value, c(alpha * scale)))
    else:
        exp = _unary(ew.ExpOp, _binary(ew.MulOp, value, c(input_scale)))
        negative = _binary(ew.MulOp, _binary(ew.MulOp, grad, c(input_scale * alpha * scale)), exp)
    return _select(_le(value, c(0.0)), negative, positive)


def _nearest_sources(size, out, scale):
    """The input position each output position reads (resampling's `_nearest`)."""
    factor = np.float32(1.0 / scale) if scale else np.float32(size / out)
    return [min(int(np.floor(np.float32(i) * factor)), size - 1) for i in range(out)]


@converts("torch.aten.upsample_nearest2d_backward", makes=(compute_ops.MatmulOp, shape_ops.TransposeOp), keep_whole=True)
def upsample_nearest2d_backward(op):
    """Per spatial axis, the gradient moved last and multiplied by the (out, in)
    matrix with a 1 where output o reads input i."""
    grad = op.tensor("grad_output")
    result_type = op.result_type()
    if not is_float(grad.type.element_type) or DYNAMIC in [*grad.type.shape, *result_type.shape] or grad.type.rank != 4:
        raise NotConvertible("upsample_nearest2d_backward of a static 4-D float gradient only")
    scales = [None if op.is_none(key) else op.float(key) for key in ("scales_h", "scales_w")]
    value = grad
    for axis, scale in zip((2, 3), scales):
        out, size = grad.type.shape[axis], result_type.shape[axis]
        reads = np.zeros((out, size), np.float32)
        reads[np.arange(out), _nearest_sources(size, out, scale)] = 1.0
        matrix = make_constant(reads, tensor_type([out, size], grad.type.element_type), "nearest_reads")
        order = [d for d in range(4) if d != axis] + [axis]
        moved = transpose(value, order) if axis != 3 else value
        shape = [*moved.type.shape[:-1], size]
        product = matmul(moved, matrix, tensor_type(shape, grad.type.element_type))
        value = transpose(product, inverse(order)) if axis != 3 else product
    return value


@converts("torch.aten.native_dropout_backward", makes=(data_ops.CastOp, ew.MulOp), keep_whole=True)
def native_dropout_backward(op):
    """grad * (mask * scale), as torch computes it: the gradient flows where dropout kept.
    An integer gradient gives floats (the result's type), as in torch."""
    grad, mask = op.tensor("grad_output"), op.tensor("mask")
    grad = cast_to(grad, op.result_type().element_type)
    if not is_float(grad.type.element_type):
        raise NotConvertible("native_dropout_backward with a non-float result")
    if list(grad.type.shape) != list(mask.type.shape):
        raise NotConvertible("native_dropout_backward with a broadcast mask")
    factor = _binary(ew.MulOp, cast_to(mask, grad.type.element_type), _constant(op.float("scale"), grad))
    return _binary(ew.MulOp, grad, factor)
