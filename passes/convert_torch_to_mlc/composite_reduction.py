"""torch reductions that are not one mlc reduce_* as they stand -> mlc:
whole-tensor sum/max/min/prod, prod over a dim, any/all, logsumexp and vector
norms, each composed of reduce_* ops and elementwise ones.
"""

import math

from torch_mlir import ir

from ...dialects import elementwise_ops as ew
from ...dialects import reduction_ops as rd
from ..graph import boolean, cast_to, i64_array_attr, reshape, splat, string, tensor_type
from .patterns import NotConvertible, converts


def _reduce(cls, x, axes, keepdim, element_type=None):
    """A reduce_* of `x` over `axes`; the input is cast to `element_type` first.
    No axes (a 0-d input) is the value itself."""
    element_type = element_type or x.type.element_type
    x = cast_to(x, element_type)
    rank = x.type.rank
    axes = sorted({a % rank for a in axes}) if rank else []
    if not axes:
        return x
    shape = rd.reduced_shape(list(x.type.shape), axes, keepdim)
    return cls(x, i64_array_attr(axes), boolean(keepdim), tensor_type(shape, element_type)).result


def _axes(op, index, rank):
    """A dim list operand: None or [] means every dim."""
    if op.is_none(index):
        return list(range(rank))
    return op.ints(index) or list(range(rank))


WHOLE = {"sum": rd.ReduceSumOp, "max": rd.ReduceMaxOp, "min": rd.ReduceMinOp, "prod": rd.ReduceProdOp}


@converts("torch.aten.sum", "torch.aten.max", "torch.aten.min", "torch.aten.prod", makes=WHOLE)
def whole(op):
    """Over every dim, to a 0-d tensor."""
    x, result_type = op.tensor("self_"), op.result_type()
    value = _reduce(WHOLE[op.name.split(".")[2]], x, range(x.type.rank), False, result_type.element_type)
    return reshape(value, result_type.shape)


@converts("torch.aten.prod.dim_int", makes=rd.ReduceProdOp)
def prod_dim(op):
    result_type = op.result_type()
    return _reduce(rd.ReduceProdOp, op.tensor("self_"), [op.int("dim")], op.bool("keepdim"), result_type.element_type)


LOGICAL = {"any": rd.ReduceMaxOp, "all": rd.ReduceMinOp}


@converts("torch.aten.any", "torch.aten.all", "torch.aten.any.dim", "torch.aten.all.dim",
          "torch.aten.any.dims", "torch.aten.all.dims",
    makes=LOGICAL,
)
def any_all(op):
    """On bools (nonzero is true), any is max and all is min."""
    x = op.tensor(0)
    form = op.name.split(".")[3] if op.name.count(".") == 3 else None
    axes = range(x.type.rank) if form is None else [op.int(1)] if form == "dim" else _axes(op, 1, x.type.rank)
    keepdim = form is not None and op.bool(2)
    cls = LOGICAL[op.name.split(".")[2]]
    value = _reduce(cls, x, axes, keepdim, ir.IntegerType.get_signless(1))
    result_type = op.result_type()
    return cast_to(reshape(value, result_type.shape), result_type.element_type)


def _same_shape(cls, lhs, rhs):
    shape = ew.broadcast_shapes(lhs.type.shape, rhs.type.shape)
    return cls(lhs, rhs, tensor_type(shape, lhs.type.element_type)).result


def _unary(cls, x):
    return cls(x, x.type).result


@converts("torch.aten.logsumexp", makes=(rd.ReduceMaxOp, rd.ReduceSumOp, ew.ExpOp, ew.LogOp))
def logsumexp(op):
    """m + log(sum(exp(x - m))), m the max (0 where it is infinite, so that an
    all -inf slice gives -inf, not NaN)."""
    x, result_type = op.tensor("self_"), op.result_type()
    x = cast_to(x, result_type.element_type)
    axes, keepdim = _axes(op, 1, x.type.rank), op.bool("keepdim")
    element_type = x.type.element_type
    peak = _reduce(rd.ReduceMaxOp, x, axes, True)
    infinite = ew.CompareOp(_unary(ew.AbsOp, peak), splat(math.inf, element_type), string("eq"),
                            tensor_type(peak.type.shape, ir.IntegerType.get_signless(1))).result
    peak = ew.SelectOp(infinite, splat(0.0, element_type), peak, peak.type).result
    total = _reduce(rd.ReduceSumOp, _unary(ew.ExpOp, _same_shape(ew.SubOp, x, peak)), axes, keepdim)
    shift = peak if keepdim else reshape(peak, total.type.shape)
    return _same_shape(ew.AddOp, _unary(ew.LogOp, total), shift)


@converts("torch.aten.linalg_vector_norm", makes=(rd.ReduceSumOp, ew.AbsOp, ew.SqrtOp))
def vector_norm(op):
    x, result_type = op.tensor("self_"), op.result_type()
    if not op.is_none("dtype"):
        x = cast_to(x, result_type.element_type)
    value = _p_norm(x, op.float("ord"), _axes(op, 2, x.type.rank), op.bool("keepdim"))
    return reshape(cast_to(value, result_type.element_type), result_type.shape)


@converts("torch.aten.norm.Scalar", "torch.aten.norm.ScalarOpt_dim", makes=(rd.ReduceSumOp, ew.AbsOp, ew.SqrtOp))
def norm(op):
    """torch.norm's p-norm (torch.dist is norm(x - y, p)): over every dim, or over `dim`; p None is 2."""
    x, result_type = op.tensor("self_"), op.result_type()
    p = 2.0 if op.is_none("p") else op.float("p")
    if op.name.endswith("ScalarOpt_dim"):
        axes, keepdim = _axes(op, 2, x.type.rank), op.bool("keepdim")
    else:
        axes, keepdim = range(x.type.rank), False
    value = _p_norm(x, p, axes, keepdim)
    return reshape(cast_to(value, result_type.element_type), result_type.shape)


def _p_norm(x, p, axes, keepdim):
    """sum(|x|^p)^(1/p), with p = 1, 2, inf and -inf (max/min of |x|) and 0 (count of nonzeros) spelled out."""
    if not ew.is_float(x.type.element_type):
        raise NotConvertible("norm of an integer tensor")
    element_type = x.type.element_type
    magnitude = _unary(ew.AbsOp, x)
    if p == math.inf or p == -math.inf:
        return _reduce(rd.ReduceMaxOp if p > 0 else rd.ReduceMinOp, magnitude, axes, keepdim)
    if p == 0:
        nonzero = ew.CompareOp(magnitude, splat(0.0, element_type), string("ne"),
                               tensor_type(x.type.shape, ir.IntegerType.get_signless(1))).result
        return _reduce(rd.ReduceSumOp, cast_to(nonzero, element_type), axes, keepdim)
    if p == 1:
        return _reduce(rd.ReduceSumOp, magnitude, axes, keepdim)
    if p == 2:
        return _unary(ew.SqrtOp, _reduce(rd.ReduceSumOp, _same_shape(ew.MulOp, x, x), axes, keepdim))
    powered = _same_shape(ew.PowOp, magnitude, splat(p, element_type))
    total = _reduce(rd.ReduceSumOp, powered, axes, keepdim)
    return _same_shape(ew.PowOp, total, splat(1 / p, element_type))
