"""Complex ops -> one parallel `linalg.generic` each, on upstream `complex` ops:
`complex.create` of the two parts (broadcast by the indexing maps), `complex.re`
and `complex.im` of each element."""

from torch_mlir.dialects import complex as complex_dialect

from ...dialects import complex_ops as cx
from ..op_registry import lowers
from .builders import elementwise


@lowers(cx.ComplexOp)
def _lower_complex(op):
    element_type = op.result.type.element_type
    return elementwise([op.real, op.imag], op.result.type,
                       lambda real, imag: complex_dialect.create_(element_type, real, imag))


@lowers(cx.RealOp)
def _lower_real(op):
    return elementwise([op.input], op.result.type, complex_dialect.re)


@lowers(cx.ImagOp)
def _lower_imag(op):
    return elementwise([op.input], op.result.type, complex_dialect.im)
