"""What every pass asks of the mlc graph and builds in it, in one place: the op that
defines a value, whether a value is a compile-time constant, attribute and type
builders, small subgraphs (a splat, a cast, a reshape), permutations.

Readers of an op's own attributes (`i64_array(op, "axes")`, ...) are the dialect's
(`dialects/op_base.py`); the builders here make new attributes from Python values.
"""

from torch_mlir import ir

from ..dialects import data_ops, shape_ops
from ..dialects import elementwise_ops as ew
from ..dialects.op_base import MlcOp
from .op_registry import has_folder

# --- reading the graph ----------------------------------------------------------------


def defining(value: ir.Value, *classes: type) -> MlcOp | None:
    """The op defining `value`, when it is an mlc op of one of `classes` (any mlc op
    without classes); None for a block argument or any other op."""
    owner = value.owner
    if isinstance(owner, ir.Block):
        return None
    view = owner.opview
    if not isinstance(view, MlcOp) or (classes and not isinstance(view, classes)):
        return None
    return view


def any_op(root: ir.Operation, predicate) -> bool:
    """Whether some op in `root` (itself included) satisfies `predicate`."""
    found = []

    def visit(op):
        if predicate(op):
            found.append(op)
            return ir.WalkResult.INTERRUPT
        return ir.WalkResult.ADVANCE

    root.walk(visit)
    return bool(found)


def ops_of(root: ir.Operation, cls: type) -> list:
    """The ops of class `cls` in `root`, nested ones included, in order (as views)."""
    found = []

    def visit(op):
        if isinstance(op.opview, cls):
            found.append(op.opview)
        return ir.WalkResult.ADVANCE

    root.walk(visit)
    return found


def is_constant(value: ir.Value) -> bool:
    """Whether `value` is an `mlc.constant`."""
    return defining(value, data_ops.ConstantOp) is not None


def folds_to_constant(value: ir.Value) -> bool:
    """Whether `value` is computed from `mlc.constant`s alone by ops that
    `mlc-fold-constants` evaluates, so that it becomes one constant. Walks the
    producers with a worklist: an activation's chain reaches back through the whole
    network, deeper than Python's recursion limit."""
    seen, worklist = {value}, [value]
    while worklist:
        op = defining(worklist.pop())
        if op is None:
            return False
        if isinstance(op, data_ops.ConstantOp):
            continue
        if not has_folder(type(op)):
            return False
        for operand in op.operation.operands:
            if operand not in seen:
                seen.add(operand)
                worklist.append(operand)
    return True


# --- building attributes and types -------------------------------------------------------


def i64(value: int) -> ir.IntegerAttr:
    return ir.IntegerAttr.get(ir.IntegerType.get_signless(64), value)


def f64(value: float) -> ir.FloatAttr:
    return ir.FloatAttr.get_f64(value)


def i64_array_attr(values) -> ir.DenseI64ArrayAttr:
    return ir.DenseI64ArrayAttr.get([int(v) for v in values])


def boolean(value: bool) -> ir.BoolAttr:
    return ir.BoolAttr.get(value)


def string(value: str) -> ir.StringAttr:
    return ir.StringAttr.get(value)


def tensor_type(shape, element_type) -> ir.RankedTensorType:
    return ir.RankedTensorType.get(list(shape), element_type)


# --- building small subgraphs ------------------------------------------------------------


def splat(value: float, element_type: ir.Type, shape=()) -> ir.Value:
    """An mlc.constant holding `value` everywhere (a 0-d tensor by default)."""
    type_ = tensor_type(shape, element_type)
    if isinstance(element_type, ir.IntegerType):
        element = ir.IntegerAttr.get(element_type, int(value))
    else:
        element = ir.FloatAttr.get(element_type, float(value))
    return data_ops.ConstantOp(ir.DenseElementsAttr.get_splat(type_, element), type_).result


def cast_to(value: ir.Value, element_type: ir.Type) -> ir.Value:
    if value.type.element_type == element_type:
        return value
    return data_ops.CastOp(value, tensor_type(value.type.shape, element_type)).result


def reshape(value: ir.Value, shape, sizes=()) -> ir.Value:
    """`value` viewed as `shape`; `sizes` are index values for its dynamic sizes (see mlc.reshape)."""
    if list(value.type.shape) == list(shape) and not sizes:
        return value
    return shape_ops.ReshapeOp(value, list(sizes), tensor_type(shape, value.type.element_type)).result


def slice_along(value: ir.Value, dim: int, start: int, stop: int) -> ir.Value:
    """value[..., start:stop, ...] along `dim`, whose size is static; the other
    dimensions are taken whole, dynamic ones too."""
    shape = list(value.type.shape)
    starts, limits = [0] * len(shape), list(shape)
    starts[dim], limits[dim] = start, stop
    shape[dim] = stop - start
    strides = [1] * len(shape)
    return shape_ops.SliceOp(value, [], i64_array_attr(starts), i64_array_attr(limits), i64_array_attr(strides),
                             tensor_type(shape, value.type.element_type)).result


def rebuild(op, operands, result_type, **changed) -> ir.Value:
    """`op` again, with other operands, result type and some attributes."""
    attributes = {name: op.attributes[name] for name in op.attributes.keys()}
    return ir.Operation.create(op.name, results=[result_type], operands=operands, attributes={**attributes, **changed}).result


def transpose(value: ir.Value, permutation) -> ir.Value:
    shape = [value.type.shape[p] for p in permutation]
    return shape_ops.TransposeOp(value, i64_array_attr(permutation), tensor_type(shape, value.type.element_type)).result


# --- permutations --------------------------------------------------------------------------


def inverse(permutation) -> list[int]:
    """The permutation q with q after `permutation` the identity."""
    result = [0] * len(permutation)
    for i, p in enumerate(permutation):
        result[p] = i
    return result


def composed(first, second) -> list[int]:
    """transpose(transpose(x, first), second) == transpose(x, composed(first, second))."""
    return [first[p] for p in second]


# --- elementwise ops with broadcasting: the result type follows from the operands ----------


def broadcast_binary(cls, lhs: ir.Value, rhs: ir.Value) -> ir.Value:
    """`cls(lhs, rhs)` (an mlc binary op) in lhs's element type, at the broadcast shape."""
    shape = ew.broadcast_shapes(lhs.type.shape, rhs.type.shape)
    return cls(lhs, rhs, tensor_type(shape, lhs.type.element_type)).result


def broadcast_compare(lhs: ir.Value, rhs: ir.Value, predicate: str) -> ir.Value:
    """mlc.compare of lhs and rhs: booleans at the broadcast shape."""
    shape = ew.broadcast_shapes(lhs.type.shape, rhs.type.shape)
    return ew.CompareOp(lhs, rhs, string(predicate), tensor_type(shape, ir.IntegerType.get_signless(1))).result


def broadcast_select(condition: ir.Value, on_true: ir.Value, on_false: ir.Value) -> ir.Value:
    """mlc.select at the shape all three broadcast to."""
    shape = ew.broadcast_shapes(condition.type.shape, ew.broadcast_shapes(on_true.type.shape, on_false.type.shape))
    return ew.SelectOp(condition, on_true, on_false, tensor_type(shape, on_true.type.element_type)).result
