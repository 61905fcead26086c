"""constant -> `arith.constant` holding the very same attribute (a
`dense_resource` blob is shared, never copied); cast -> a `linalg.generic`
applying the arith conversion for the pair of element types; iota -> a
`linalg.generic` writing `linalg.index`."""

from torch_mlir import ir
from torch_mlir.dialects import arith, linalg

from ...dialects import data_ops as data
from ...dialects.op_base import is_float
from ..op_registry import lowers
from .builders import PARALLEL, constant, elementwise, empty, generic, identity


@lowers(data.ConstantOp)
def _lower_constant(op):
    return arith.constant(op.result.type, op.value)


def _float_width(type_: ir.Type) -> int:
    return ir.FloatType(type_).width


def _float_to_float(x, target):
    """extf/truncf; between two 16-bit formats (f16 <-> bf16) through f32."""
    source_width, target_width = _float_width(x.type), _float_width(target)
    if source_width == target_width:
        x = arith.extf(ir.F32Type.get(), x)
        source_width = 32
    if target_width > source_width:
        return arith.extf(target, x)
    if target.typeid == ir.BF16Type.static_typeid:  # from f64 through f32, as torch rounds it
        return _f32_to_bf16_bits(x if source_width == 32 else arith.truncf(ir.F32Type.get(), x))
    return arith.truncf(target, x)


def _int_to_int(x, target):
    """To bool is `x != 0`; from bool zero-extends (true is 1); otherwise sign-extend or truncate."""
    source_width, target_width = ir.IntegerType(x.type).width, ir.IntegerType(target).width
    if target_width == 1:
        return arith.cmpi(arith.CmpIPredicate.ne, x, constant(x.type, 0))
    if source_width == 1:
        return arith.extui(target, x)
    return arith.extsi(target, x) if target_width > source_width else arith.trunci(target, x)


def _float_to_int(x, target):
    """To bool is `x != 0` (NaN is true, as in torch); otherwise truncation toward zero."""
    if ir.IntegerType(target).width == 1:
        return arith.cmpf(arith.CmpFPredicate.UNE, x, constant(x.type, 0))
    return arith.fptosi(target, x)


def _f32_to_bf16_bits(x):
    """An f32 to bf16 rounding to nearest even, on the bits, as torch rounds (a NaN
    becomes 0x7FC0). Not `truncf`: IREE's CPU backend computes bf16 in f32, and a
    `truncf` whose value stays in its dispatch was not rounded at all (`x.to(bf16).float()`
    gave x back); nor `truncf` of a `sitofp`, which canonicalization folds into one
    `sitofp` to bf16, for which IREE's CPU backend links no `__truncsfbf2`."""
    i32, i16 = ir.IntegerType.get_signless(32), ir.IntegerType.get_signless(16)
    bits = arith.bitcast(i32, x)
    sixteen = constant(i32, 16)
    odd = arith.andi(arith.shrui(bits, sixteen), constant(i32, 1))
    rounded = arith.addi(bits, arith.addi(constant(i32, 0x7FFF), odd))
    high = arith.trunci(i16, arith.shrui(rounded, sixteen))
    is_nan = arith.cmpf(arith.CmpFPredicate.UNO, x, x)
    return arith.bitcast(ir.BF16Type.get(), arith.select(is_nan, constant(i16, 0x7FC0), high))


def _int_to_float(x, target):
    """bf16 through f32, as torch converts (an int64 fits f32's range, so no NaN or
    infinity meets the rounding on bits)."""
    convert = arith.uitofp if ir.IntegerType(x.type).width == 1 else arith.sitofp
    if target.typeid == ir.BF16Type.static_typeid:
        return _f32_to_bf16_bits(convert(ir.F32Type.get(), x))
    return convert(target, x)


def convert(x: ir.Value, target: ir.Type) -> ir.Value:
    """The scalar `x` converted to `target` as torch's `.to(dtype)` does."""
    source_float, target_float = is_float(x.type), is_float(target)
    if source_float and target_float:
        return _float_to_float(x, target)
    if source_float:
        return _float_to_int(x, target)
    if target_float:
        return _int_to_float(x, target)
    return _int_to_int(x, target)


# The attribute that marks a lowered cast of f32 to bf16, so that the matmul library can
# round its product to bf16 itself (passes/library_epilogue.py).
TO_BF16 = "mlc.to_bf16"


@lowers(data.CastOp)
def _lower_cast(op):
    target = op.result.type.element_type
    if op.input.type.element_type == target:
        return op.input
    result = elementwise([op.input], op.result.type, lambda x: convert(x, target))
    if str(op.input.type.element_type) == "f32" and str(target) == "bf16":
        result.owner.attributes[TO_BF16] = ir.UnitAttr.get()
    return result


@lowers(data.IotaOp)
def _lower_iota(op):
    """One generic writing each position's index, converted to the element type."""
    result_type = op.result.type
    length = list(op.size)[0] if len(op.size) else result_type.shape[0]
    init = empty([length], result_type.element_type)
    i64 = ir.IntegerType.get_signless(64)

    def body(_):
        position = arith.index_cast(i64, linalg.IndexOp(0).result)
        return position if result_type.element_type == i64 else convert(position, result_type.element_type)

    return generic([], init, [identity(1)], [PARALLEL], body)
