"""torch's integer arithmetic on sizes -> `index` values, for the dynamic sizes of
a view (`x.view(s, b * 4, 32)` once `b` is dynamic).

torch.export records such sizes as `aten.size.int` of some tensor combined with
`mul.int`, `add.int`, ...; here they become `tensor.dim` and `arith` ops.
"""

import math

from torch_mlir import ir
from torch_mlir.dialects import arith, tensor

from ...dialects.indexing_ops import BincountOp
from ...dialects.op_base import DYNAMIC
from .patterns import NotConvertible, as_builtin, builtin_tensor_type, defining_op

_ARITHMETIC = {
    "torch.aten.mul.int": arith.muli,
    "torch.aten.add.int": arith.addi,
    "torch.aten.sub.int": arith.subi,
    "torch.aten.floordiv.int": arith.floordivsi,
}


def index(value: int) -> ir.Value:
    return arith.constant(ir.IndexType.get(), value)


def size_value(value: ir.Value) -> ir.Value:
    """A torch int (`!torch.int`) computed from sizes, as an `index` value. Checked
    whole before anything is built: a conversion that fails must leave the IR as it was."""
    check_size(value)
    return _build_size(value)


def check_size(value: ir.Value) -> None:
    """Raises NotConvertible unless `value` is size arithmetic mlc can express."""
    owner = value.owner
    op = None if isinstance(owner, ir.Block) else owner.operation
    if op is None:
        raise NotConvertible("a size that is a function argument")
    if op.name in ("torch.aten.size.int", "torch.aten.sym_size.int"):
        check_size(op.operands[1])
    elif op.name in _ARITHMETIC:
        check_size(op.operands[0])
        check_size(op.operands[1])
    elif op.name != "torch.constant.int":
        raise NotConvertible(f"a size computed by {op.name}")


def _build_size(value: ir.Value) -> ir.Value:
    owner = value.owner
    op = None if isinstance(owner, ir.Block) else owner.operation
    if op is None:
        raise NotConvertible("a size that is a function argument")
    if op.name == "torch.constant.int":
        return index(ir.IntegerAttr(op.attributes["value"]).value)
    if op.name in ("torch.aten.size.int", "torch.aten.sym_size.int"):
        dim = _build_size(op.operands[1])
        return tensor.dim(as_builtin(op.operands[0]), dim)
    return _ARITHMETIC[op.name](_build_size(op.operands[0]), _build_size(op.operands[1]))


def least_size(value: ir.Value) -> float:
    """A lower bound of the `!torch.int` `value` when it is a size (`aten.size.int`):
    a static size itself, bincount's length its minlength, any other size 0; -inf
    for other ints, of which nothing is known."""
    op = defining_op(value)
    if op is None or op.name not in ("torch.aten.size.int", "torch.aten.sym_size.int"):
        return -math.inf
    dim = constant_int(op.operands[1])
    try:
        shape = builtin_tensor_type(op.operands[0].type).shape
    except NotConvertible:
        return 0
    if dim is not None and -len(shape) <= dim < len(shape) and shape[dim] != DYNAMIC:
        return shape[dim]
    return max(_bincount_minlength(defining_op(op.operands[0])), 0)


def constant_int(value: ir.Value) -> int | None:
    """The value of a `torch.constant.int`; None for any other int."""
    op = defining_op(value)
    return ir.IntegerAttr(op.attributes["value"]).value if op is not None and op.name == "torch.constant.int" else None


def _bincount_minlength(op) -> int:
    """The minlength of the bincount (torch's, or mlc's once converted) that made a
    tensor; 0 for any other op."""
    if op is not None and op.name == "torch_c.from_builtin_tensor":
        op = defining_op(op.operands[0])
    if op is not None and op.name == "torch.aten.bincount":
        return constant_int(op.operands[2]) or 0
    if op is not None and isinstance(op.opview, BincountOp):
        return ir.IntegerAttr(op.attributes["minlength"]).value
    return 0


def element_count_of_dims(value: ir.Value, dims) -> ir.Value:
    """The product of some sizes of a builtin tensor, as an `index` value."""
    shape = value.type.shape
    count = index(math.prod(shape[d] for d in dims if shape[d] != DYNAMIC))
    for d in dims:
        if shape[d] == DYNAMIC:
            count = arith.muli(count, tensor.dim(value, index(d)))
    return count


def element_count(value: ir.Value) -> ir.Value:
    """The number of elements of a builtin tensor, as an `index` value."""
    return element_count_of_dims(value, range(value.type.rank))


def _is_minus_one(value: ir.Value) -> bool:
    owner = value.owner
    return (not isinstance(owner, ir.Block) and owner.operation.name == "torch.constant.int"
            and ir.IntegerAttr(owner.operation.attributes["value"]).value == -1)


def view_sizes(list_value: ir.Value, source: ir.Value, shape: list[int]) -> list[ir.Value]:
    """The dynamic sizes of `source` viewed as `shape`, from torch's size list; a -1
    is what the element count leaves."""
    owner = list_value.owner
    if isinstance(owner, ir.Block) or owner.operation.name != "torch.prim.ListConstruct":
        raise NotConvertible("view sizes that are not a list")
    elements = list(owner.operation.operands)
    for element, size in zip(elements, shape):
        if size == DYNAMIC and not _is_minus_one(element):
            check_size(element)
    values = []
    for element, size in zip(elements, shape):
        values.append(None if _is_minus_one(element) else _build_size(element) if size == DYNAMIC else index(size))
    inferred = [i for i, value in enumerate(values) if value is None]
    if inferred:
        known = index(1)
        for value in values:
            if value is not None:
                known = arith.muli(known, value)
        values[inferred[0]] = arith.divsi(element_count(source), known)
    return [value for value, size in zip(values, shape) if size == DYNAMIC]


def dim(value: ir.Value, d: int) -> ir.Value:
    """Size `d` of a builtin tensor, as an `index` value."""
    return tensor.dim(value, index(d))


def merged_shape(value: ir.Value, groups) -> tuple[list[int], list[ir.Value]]:
    """The shape of `value` with each group of consecutive dimensions merged into one,
    and the index values of its dynamic sizes (for `reshape`)."""
    shape, sizes = [], []
    for group in groups:
        static = [value.type.shape[d] for d in group]
        if DYNAMIC in static:
            shape.append(DYNAMIC)
            sizes.append(element_count_of_dims(value, group))
        else:
            shape.append(math.prod(static))
    return shape, sizes
