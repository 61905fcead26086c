"""PyTorch's decomposed quantization ops (`quantized_decomposed`, what PT2E quantization
leaves around each quantized op in an exported graph) -> mlc elementwise ops, with
the arithmetic of their reference implementation (torch/ao/quantization/fx/_decomposed.py):

    quantize_per_tensor(x, scale, zero_point, qmin, qmax, dtype)
        = clamp(round(x * (1 / scale)) + zero_point, qmin, qmax), cast to dtype
    dequantize_per_tensor(q, scale, zero_point, qmin, qmax, dtype, out_dtype=f32)
        = (q cast to out_dtype - zero_point) * scale

The scale and zero point must be constants (the `.tensor` overloads are not converted).
At -O1 and -O2 a dequantized constant weight folds to a float constant, which
`precision="int8"` quantizes again for the int8 kernels.
"""

from torch_mlir import ir

from ...dialects import data_ops
from ...dialects import elementwise_ops as ew
from ..graph import cast_to, f64, splat, tensor_type
from .patterns import converts


@converts("torch.quantized_decomposed.quantize_per_tensor",
          makes=(ew.MulOp, ew.RoundOp, ew.AddOp, ew.ClampOp, data_ops.CastOp))
def quantize_per_tensor(op):
    result_type = op.result_type()
    f32 = ir.F32Type.get()
    x = cast_to(op.tensor(0), f32)  # bf16 and f16 inputs are computed in f32, as torch does
    float_type = tensor_type(x.type.shape, f32)
    scaled = ew.MulOp(x, splat(1.0 / op.float(1), f32), float_type).result
    shifted = ew.AddOp(ew.RoundOp(scaled, float_type).result, splat(op.int(2), f32), float_type).result
    clamped = ew.ClampOp(shifted, f64(op.int(3)), f64(op.int(4)), float_type).result
    return cast_to(clamped, result_type.element_type)


@converts("torch.quantized_decomposed.dequantize_per_tensor", makes=(data_ops.CastOp, ew.SubOp, ew.MulOp))
def dequantize_per_tensor(op):
    result_type = op.result_type()
    element_type = result_type.element_type
    values = cast_to(op.tensor(0), element_type)
    centered = ew.SubOp(values, splat(op.int(2), element_type), result_type).result
    return ew.MulOp(centered, splat(op.float(1), element_type), result_type).result
