"""Complex ops: a complex tensor built from its real and imaginary parts, and the
parts taken back out.

mlc computes on real numbers. These ops are where a complex value starts and ends,
which is all torch's `view_as_complex`, `view_as_real`, `complex` and `polar` need;
arithmetic on complex values (a complex product, `abs`) is not mlc's, and is left
to torch-mlir's fallback. The elements are MLIR's `complex<f32>` or `complex<f64>`,
and each op computes element by element (`complex.create`, `complex.re`, `complex.im`).
"""

from torch_mlir import ir
from torch_mlir.dialects import ext
from torch_mlir.dialects.ext import Operand, Result

from .elementwise_ops import BinaryOp, broadcast_result_shape
from .facts import FusionKind, Layout
from .op_base import MlcOp, VerifyError, expect_element_type, expect_same_element_type, expect_shape, is_float, ranked


def is_complex(type_: ir.Type) -> bool:
    return isinstance(type_, ir.ComplexType)


class ComplexOp(MlcOp, name="complex", traits=[ext.Pure]):
    """Elementwise `real + i * imag`, with broadcasting: float parts of one element
    type make a tensor of complex numbers of that type (f32 -> complex<f32>)."""

    fusion_kind = FusionKind.BROADCAST
    layout_rule = Layout.ELEMENTWISE
    fusion = BinaryOp.fusion  # elementwise when neither part is stretched

    real: Operand[ir.RankedTensorType]
    imag: Operand[ir.RankedTensorType]
    result: Result[ir.RankedTensorType]

    def verify(self):
        part = expect_same_element_type([self.real, self.imag], "real and imaginary parts")
        if not is_float(part):
            raise VerifyError(f"requires floating-point parts, got {part}")
        expect_shape(self.result, broadcast_result_shape(self.real, self.imag), "result")
        expect_element_type(self.result, ir.ComplexType.get(part), "result")


class ComplexPartOp(MlcOp):
    """Base of the ops taking one part of each complex element: same shape, the
    complex type's float type."""

    fusion_kind = FusionKind.ELEMENTWISE
    layout_rule = Layout.ELEMENTWISE

    input: Operand[ir.RankedTensorType]
    result: Result[ir.RankedTensorType]

    def verify(self):
        input_type = ranked(self.input, "input")
        if not is_complex(input_type.element_type):
            raise VerifyError(f"requires a complex tensor, got {input_type}")
        expect_shape(self.result, input_type.shape, "result")
        expect_element_type(self.result, ir.ComplexType(input_type.element_type).element_type, "result")


class RealOp(ComplexPartOp, name="real", traits=[ext.Pure]):
    """Elementwise the real part of a complex number."""


class ImagOp(ComplexPartOp, name="imag", traits=[ext.Pure]):
    """Elementwise the imaginary part of a complex number."""
