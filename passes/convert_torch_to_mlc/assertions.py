"""torch.runtime.assert: an assertion mlc proves true is dropped, and any other is
reported, since mlc's compiled code cannot check a condition at run time.

Proved true: a constant true (shapes are static), and a size compared with a
constant it cannot be below (`sizes.least_size`): torch.export's "u0 >= 7" on the
data-dependent length of bincount(x, minlength=7). A constant false is how
torch-mlir marks a decomposition it could not do (e.g. adaptive_max_pool2d with
uneven windows): it is reported with its message.
"""

from torch_mlir import ir

from .patterns import NotConvertible, converts, defining_op
from .sizes import constant_int, least_size


@converts("torch.runtime.assert", makes=())
def runtime_assert(op):
    message = str(op.op.attributes["message"]).strip(chr(34))
    if proved(op.operand("condition")):
        return []
    if _constant_bool(op.operand("condition")) is False:
        raise NotConvertible(f"torch-mlir: {message}")
    raise NotConvertible(f"a run-time assertion mlc cannot prove at compile time: {message}")


def proved(condition: ir.Value) -> bool:
    """Whether a `!torch.bool` is true whatever the inputs; False when unsure."""
    op = defining_op(condition)
    if op is None:
        return False
    if op.name == "torch.constant.bool":
        return _constant_bool(condition)
    if op.name == "torch.aten.Bool.int":  # Bool(Int(b)) is b, as torch.export writes a guard
        inner = defining_op(op.operands[0])
        return inner is not None and inner.name == "torch.aten.Int.bool" and proved(inner.operands[0])
    if op.name == "torch.aten.ge.int":
        bound = constant_int(op.operands[1])
        return bound is not None and least_size(op.operands[0]) >= bound
    return False


def _constant_bool(value: ir.Value) -> bool | None:
    op = defining_op(value)
    if op is None or op.name != "torch.constant.bool":
        return None
    return ir.BoolAttr(op.attributes["value"]).value
