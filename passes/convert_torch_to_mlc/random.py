"""torch's random ops -> mlc random_uniform, random_normal and random_int.

torch-mlir brings `rand`, `rand_like`, `uniform_`, `bernoulli`, training-mode dropout
(`native_dropout`) and `exponential_` to `aten.uniform` of a tensor plus arithmetic
(a comparison, a log), which mlc converts as it converts any such op. `randn`,
`randn_like` and `normal_` are kept whole: torch-mlir's Box-Muller takes the log of a
uniform that may be 0; mlc's normal never does. `randint` is kept whole: torch-mlir
casts a float uniform to integers, which can round up to `high`.

Each op gets a seed drawn from torch's default generator as it is converted: a
compiled model draws the same numbers on every call (see dialects/random_ops.py).
"""

from ...dialects import random_ops as rnd
from ...dialects.op_base import DYNAMIC
from ..graph import f64, i64
from .patterns import NotConvertible, converts, defining_op
from .sizes import check_size, dim, size_value


def draw_seed() -> int:
    """A seed for one op, from torch's default generator (`torch.manual_seed` fixes it)."""
    import torch  # the passes need torch only here, when a model has a random op

    return int(torch.randint(0, (1 << 63) - 1, (), dtype=torch.int64))


def _no_generator(op) -> None:
    if not op.is_none("generator"):
        raise NotConvertible("an explicit torch.Generator: mlc draws its seed from the default generator")


def _sizes_like(op):
    """The dynamic sizes of the result, from the input tensor's: from the size list it
    was made of when it is only a shape (`rand_like` brings an `empty` or a broadcast
    zero to `uniform`), which then needs not be computed."""
    shape = op.result_type().shape
    if DYNAMIC not in shape:
        return []
    producer = defining_op(op.operand("self_"))
    if producer is not None and producer.name in SHAPE_ONLY:
        try:
            return _listed(producer.operands[SHAPE_ONLY[producer.name]], shape)
        except NotConvertible:
            pass
    x = op.tensor("self_")
    return [dim(x, d) for d, size in enumerate(shape) if size == DYNAMIC]


SHAPE_ONLY = {"torch.aten.empty.memory_format": 0, "torch.aten.broadcast_to": 1}  # op -> its size list's position


def _listed(size_list, shape):
    """The index values of torch's size list where `shape` is dynamic; checked whole first."""
    producer = defining_op(size_list)
    if producer is None or producer.name != "torch.prim.ListConstruct":
        raise NotConvertible("sizes that are not a list")
    dynamic = [element for element, size in zip(producer.operands, shape) if size == DYNAMIC]
    for element in dynamic:
        check_size(element)
    return [size_value(element) for element in dynamic]


def _sizes_listed(op):
    """The dynamic sizes of the result, from torch's `size` list."""
    shape = op.result_type().shape
    return _listed(op.operand("size"), shape) if DYNAMIC in shape else []


@converts("torch.aten.uniform", makes=rnd.RandomUniformOp)
def uniform(op):
    _no_generator(op)
    low, high = op.float("from_"), op.float("to")
    if not low <= high:
        raise NotConvertible(f"uniform_ of an empty range [{low}, {high})")
    return rnd.RandomUniformOp(i64(draw_seed()), f64(low), f64(high), _sizes_like(op), op.result_type()).result


@converts("torch.aten.normal_functional", makes=rnd.RandomNormalOp, keep_whole=True)
def normal(op):
    _no_generator(op)
    std = op.float("std")
    if std < 0:
        raise NotConvertible(f"normal_ with a negative std ({std})")
    return rnd.RandomNormalOp(i64(draw_seed()), f64(op.float("mean")), f64(std), _sizes_like(op), op.result_type()).result


@converts("torch.aten.randn", "torch.aten.randn_like", makes=rnd.RandomNormalOp, keep_whole=True)
def randn(op):
    sizes = _sizes_like(op) if op.name == "torch.aten.randn_like" else _sizes_listed(op)
    return rnd.RandomNormalOp(i64(draw_seed()), f64(0.0), f64(1.0), sizes, op.result_type()).result


@converts("torch.aten.randint.low", "torch.aten.randint", makes=rnd.RandomIntOp, keep_whole=True)
def randint(op):
    low = op.int("low") if op.name == "torch.aten.randint.low" else 0
    high = op.int("high")
    if not low < high:
        raise NotConvertible(f"randint of an empty range [{low}, {high})")
    return rnd.RandomIntOp(i64(draw_seed()), i64(low), i64(high), _sizes_listed(op), op.result_type()).result
