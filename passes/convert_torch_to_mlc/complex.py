"""torch's complex tensors -> mlc.complex, mlc.real and mlc.imag.

These are the only conversions that see complex tensors (`takes_complex`): they
build a complex value from real ones (view_as_complex, complex, polar) or take one
apart (view_as_real, abs: a spectrogram's magnitude); any other op on complex values
is left for the fallback (patterns.py). torch.real and torch.imag reach mlc as
view_as_real and a slice.
"""

from torch_mlir import ir

from ...dialects import complex_ops as cx
from ...dialects import elementwise_ops as ew
from ...dialects import shape_ops
from ..graph import broadcast_binary, cast_to, i64, reshape, slice_along, tensor_type
from .patterns import converts


def _parts_type(op):
    """The float type of the result's complex elements."""
    return op.result_type().element_type.element_type


@converts("torch.aten.view_as_complex", makes=(shape_ops.SliceOp, cx.ComplexOp, shape_ops.ReshapeOp),
          takes_complex=True)
def view_as_complex(op):
    """[..., 2] -> [...]: the last axis holds the real and the imaginary part. The
    slices and mlc.complex fuse; the one reshape, which fuses with nothing, comes last."""
    x, result_type = op.tensor("self_"), op.result_type()
    last = x.type.rank - 1
    real, imag = (slice_along(x, last, i, i + 1) for i in (0, 1))
    pairs = cx.ComplexOp(real, imag, tensor_type(real.type.shape, result_type.element_type)).result
    return reshape(pairs, result_type.shape)


@converts("torch.aten.view_as_real", makes=(shape_ops.ReshapeOp, cx.RealOp, cx.ImagOp, shape_ops.ConcatOp),
          takes_complex=True)
def view_as_real(op):
    """[...] -> [..., 2]: the real and the imaginary part side by side on a new last
    axis, made first (one reshape, so that the parts and their concat fuse)."""
    z, result_type = op.tensor("self_"), op.result_type()
    column = reshape(z, list(z.type.shape) + [1])
    part_type = tensor_type(column.type.shape, result_type.element_type)
    real, imag = cx.RealOp(column, part_type).result, cx.ImagOp(column, part_type).result
    return shape_ops.ConcatOp(real, imag, i64(z.type.rank), result_type).result


@converts("torch.aten.abs", makes=(ew.AbsOp, cx.RealOp, cx.ImagOp, ew.HypotOp), keep_whole=True, takes_complex=True)
def abs_(op):
    """|x|; of a complex x, the hypot of its parts, as torch computes it."""
    x, result_type = op.tensor(0), op.result_type()
    if not isinstance(x.type.element_type, ir.ComplexType):
        return ew.AbsOp(cast_to(x, result_type.element_type), result_type).result
    real, imag = cx.RealOp(x, result_type).result, cx.ImagOp(x, result_type).result
    return ew.HypotOp(real, imag, result_type).result


@converts("torch.aten.complex", makes=cx.ComplexOp, takes_complex=True)
def complex_(op):
    """Two float tensors, broadcast together. torch does not promote: both already have
    the result's part type (f32 for complex<f32>), and cast_to leaves them as they are."""
    parts = _parts_type(op)
    real, imag = cast_to(op.tensor("real"), parts), cast_to(op.tensor("imag"), parts)
    return cx.ComplexOp(real, imag, op.result_type()).result


@converts("torch.aten.polar", makes=(ew.CosOp, ew.SinOp, ew.MulOp, cx.ComplexOp), takes_complex=True)
def polar(op):
    """abs * cos(angle) + i * abs * sin(angle), abs and angle broadcast together."""
    parts = _parts_type(op)
    magnitude, angle = cast_to(op.tensor("abs"), parts), cast_to(op.tensor("angle"), parts)
    real = broadcast_binary(ew.MulOp, magnitude, ew.CosOp(angle, angle.type).result)
    imag = broadcast_binary(ew.MulOp, magnitude, ew.SinOp(angle, angle.type).result)
    return cx.ComplexOp(real, imag, op.result_type()).result
