"""Short builders for the attributes mlc ops take."""

from torch_mlir import ir


def i64(value: int) -> ir.IntegerAttr:
    return ir.IntegerAttr.get(ir.IntegerType.get_signless(64), value)


def f64(value: float) -> ir.FloatAttr:
    return ir.FloatAttr.get_f64(value)


def i64_array(values) -> ir.DenseI64ArrayAttr:
    return ir.DenseI64ArrayAttr.get([int(v) for v in values])


def boolean(value: bool) -> ir.BoolAttr:
    return ir.BoolAttr.get(value)


def string(value: str) -> ir.StringAttr:
    return ir.StringAttr.get(value)


def tensor_type(shape, element_type) -> ir.RankedTensorType:
    return ir.RankedTensorType.get(list(shape), element_type)
