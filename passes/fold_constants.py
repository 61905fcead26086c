"""`mlc-fold-constants`: evaluates at compile time each mlc op whose operands are
all `mlc.constant`s, and replaces it by one `mlc.constant` of its result.

Each folder computes with numpy what the op's docstring says, in the op's
element type (float32 arithmetic stays float32). It registers with
`@folds(OpClass)` (passes/op_registry.py) into `FOLDERS`: `fn(op, *operand arrays)`
returns the result's array, in any dtype (converted after), or raises `NotFoldable`.
A chain of such ops (a weight's transpose, then its reshape) folds in one run, since
the greedy driver revisits the users of each new constant; the inputs left dead are
Pure and it erases them.

Folding never grows the model: an op whose result is larger than `size-limit`
bytes and larger than its constant inputs together (a scalar broadcast to a big
tensor) stays, and is counted. Left out: conv2d and pooling, ops with dynamic
result shapes, bf16 (numpy has no bf16), arithmetic on i1, integer powers with
negative exponents, integer divisions by zero (or of the minimum by -1), the
sign of NaN (mlc.sign keeps it, torch.sign gives 0), gathers with out-of-range
indices (undefined), argsort, and complex numbers (no complex constants).
"""

import dataclasses
import math

import numpy as np
from torch_mlir import ir

from ..dialects import bitwise_ops as bw
from ..dialects import check_ops as check
from ..dialects import complex_ops as cx
from ..dialects import compute_ops as compute
from ..dialects import data_ops as data
from ..dialects import elementwise_ops as ew
from ..dialects import fusion_ops as fusion
from ..dialects import indexing_ops as indexing
from ..dialects import normalization_ops as normalization
from ..dialects import random_ops as rnd
from ..dialects import reduction_ops as reduction
from ..dialects import scan_ops as scan
from ..dialects import shape_ops as shape
from ..dialects.elementwise_ops import COMPARE_PREDICATES
from ..dialects.facts import Declined
from ..dialects.op_base import bool_attr, float_attr, i64_array, int_attr, normalize_axes, normalize_axis, string_choice
from .constant_values import BF16, dtype_of, make_constant, resource_name, value_of
from .graph import is_constant
from .op_registry import FOLDERS, InstanceDeclined, folds
from .registry import register
from .rewriting import Pattern, PatternPass

SKIPPED = "skipped (size limit)"
# Arithmetic on i1 is modulo 2 in the lowering (true + true is false), logic in numpy.
NOT_ON_BOOLEANS = {ew.AddOp, ew.SubOp, ew.MulOp, ew.DivOp, ew.PowOp, ew.NegOp, compute.MatmulOp, reduction.ReduceSumOp,
                   ew.FmodOp, ew.RemainderOp, ew.FloorDivOp, ew.SignOp, bw.ShiftLeftOp, bw.ShiftRightOp,
                   reduction.ReduceProdOp, scan.CumsumOp, scan.CumprodOp, indexing.ArgmaxOp, indexing.ArgminOp}


# The ops folded where a bf16 value takes part: a cast rounds as IREE's does, the rest
# move elements. Arithmetic in bf16 is left to the target, whose rounding decides.
EXACT_IN_BF16 = {data.CastOp, shape.ReshapeOp, shape.TransposeOp, shape.BroadcastOp}


class NotFoldable(InstanceDeclined):
    """This instance of the op has no defined constant result; it stays."""


# --- elementwise ------------------------------------------------------------------


def _erf(x: np.ndarray) -> np.ndarray:
    """numpy has no erf: math.erf per element, rounded to x's type."""
    return np.vectorize(math.erf, otypes=[np.float64])(x).astype(x.dtype)


def _rounded_once(fn):
    """`fn` in f64, rounded once to x's type: numpy's own f32 loops can be an ulp off
    (log10(100) is 2.0000002 there, 2 in torch)."""
    return lambda *xs: fn(*(x.astype(np.float64) for x in xs)).astype(xs[0].dtype)


def _sigmoid(x):
    return 1 / (1 + np.exp(-x))


@folds(check.CheckNonzeroOp)
def check_nonzero(op, divisor):
    """A constant divisor with no zero needs no check; one with a zero keeps it, to fail
    each call as eager does."""
    if np.any(divisor == 0):
        raise InstanceDeclined("a constant divisor with a zero: the check fails each call")
    return divisor


@folds(ew.GeluOp)
def _gelu(op, x):
    """torch's formulas, in x's type (Python floats do not widen numpy arrays)."""
    if string_choice(op, "approximate", ("none", "tanh")) == "none":
        return x * 0.5 * (1 + _erf(x * math.sqrt(0.5)))
    return 0.5 * x * (1 + np.tanh(math.sqrt(2 / math.pi) * (x + 0.044715 * x * x * x)))


def _element(value: float, dtype: np.dtype):
    """A float attribute as an element of `dtype`, converted as the lowering does:
    integers truncate and saturate, +-inf become the type's extremes."""
    if dtype.kind == "f":
        return dtype.type(value)
    low, high = (0, 1) if dtype == np.bool_ else (np.iinfo(dtype).min, np.iinfo(dtype).max)
    integer = high if value == math.inf else low if value == -math.inf else int(value)
    return dtype.type(min(max(integer, low), high))


@folds(ew.ClampOp)
def _clamp(op, x):
    low, high = (_element(float_attr(op, name), x.dtype) for name in ("min", "max"))
    return np.minimum(np.maximum(x, low), high)


@folds(ew.SoftplusOp)
def _softplus(op, x):
    """torch's formula in x's type: x where beta * x > threshold."""
    beta, threshold = (_element(float_attr(op, name), x.dtype) for name in ("beta", "threshold"))
    scaled = x * beta
    return np.where(scaled > threshold, x, np.log1p(np.exp(scaled)) / beta).astype(x.dtype)


def _integer_division(divide):
    """`divide` where the quotient of integers is defined: torch raises on a zero
    divisor and the lowering's arith ops are undefined there and for MIN / -1."""

    def fold(a, b):
        if a.dtype.kind != "f":
            overflow = (a == np.iinfo(a.dtype).min) & (b == -1)
            if (b == 0).any() or overflow.any():
                raise NotFoldable("integer division by zero or overflowing")
        return divide(a, b)

    return fold


@_integer_division
def _divide(a, b):
    """True division for floats; integers truncate toward zero (numpy floors)."""
    if a.dtype.kind == "f":
        return a / b
    quotient = a // b
    return quotient + ((a % b != 0) & ((a < 0) != (b < 0)))


@_integer_division
def _remainder(a, b):
    """torch's (and the lowering's) formula: np.mod gives a zero the divisor's sign."""
    truncated = np.fmod(a, b)
    return np.where((truncated != 0) & ((truncated < 0) != (b < 0)), truncated + b, truncated)


def _sign(x):
    """NumPy's sign, but 0 for NaN, as torch.sign and mlc.sign."""
    return np.where(np.isnan(x), 0, np.sign(x)).astype(x.dtype) if x.dtype.kind == "f" else np.sign(x)


def _power(a, b):
    if a.dtype.kind != "f" and (b < 0).any():
        raise NotFoldable("integer power with a negative exponent")
    return np.power(a, b)


COMPARISONS = {
    "eq": np.equal,
    "ne": np.not_equal,
    "lt": np.less,
    "le": np.less_equal,
    "gt": np.greater,
    "ge": np.greater_equal,
}

UNARY = {
    ew.NegOp: np.negative,
    ew.AbsOp: np.abs,
    ew.ReluOp: lambda x: np.maximum(x, 0),
    ew.ExpOp: np.exp,
    ew.LogOp: np.log,
    ew.SqrtOp: np.sqrt,
    ew.RsqrtOp: lambda x: 1 / np.sqrt(x),
    ew.ReciprocalOp: lambda x: 1 / x,
    ew.TanhOp: np.tanh,
    ew.SigmoidOp: _sigmoid,
    ew.ErfOp: _erf,
    ew.SinOp: np.sin,
    ew.CosOp: np.cos,
    ew.FloorOp: np.floor,
    ew.CeilOp: np.ceil,
    ew.SiluOp: lambda x: x * _sigmoid(x),
    **{op: _rounded_once(fn) for op, fn in {
        ew.Log1pOp: np.log1p, ew.Expm1Op: np.expm1, ew.Log2Op: np.log2, ew.Log10Op: np.log10, ew.TanOp: np.tan,
        ew.AsinOp: np.arcsin, ew.AcosOp: np.arccos, ew.AtanOp: np.arctan, ew.SinhOp: np.sinh, ew.CoshOp: np.cosh,
        ew.AcoshOp: np.arccosh, ew.AsinhOp: np.arcsinh, ew.AtanhOp: np.arctanh,
    }.items()},
    ew.RoundOp: np.round,  # half to even, as torch.round
    ew.TruncOp: np.trunc,
    ew.SignOp: _sign,
}
BINARY = {
    ew.AddOp: np.add,
    ew.SubOp: np.subtract,
    ew.MulOp: np.multiply,
    ew.DivOp: _divide,
    ew.PowOp: _power,
    ew.MaximumOp: np.maximum,
    ew.MinimumOp: np.minimum,
    ew.FmodOp: _integer_division(np.fmod),  # C's fmod, the dividend's sign
    ew.RemainderOp: _remainder,
    ew.FloorDivOp: _integer_division(np.floor_divide),  # for floats, torch's algorithm (from numpy's)
    ew.Atan2Op: _rounded_once(np.arctan2),
    ew.HypotOp: _rounded_once(np.hypot),
    # On i1, and/or/xor are the logical ops in numpy and in the lowering. Shifts by the
    # bit width or more (or by a negative amount) give 0 or the sign, as in torch.
    bw.BitwiseAndOp: np.bitwise_and,
    bw.BitwiseOrOp: np.bitwise_or,
    bw.BitwiseXorOp: np.bitwise_xor,
    bw.ShiftLeftOp: np.left_shift,
    bw.ShiftRightOp: np.right_shift,
}

# ops without attributes to read: numpy's function of the operands' arrays
NUMPY_FUNCTIONS = {**UNARY, **BINARY, ew.SelectOp: np.where, compute.MatmulOp: np.matmul}


@folds(*NUMPY_FUNCTIONS)
def _numpy_function(op, *arrays):
    return NUMPY_FUNCTIONS[type(op)](*arrays)


@folds(ew.CompareOp)
def _compare(op, a, b):
    return COMPARISONS[string_choice(op, "predicate", COMPARE_PREDICATES)](a, b)


# --- reductions and normalization ----------------------------------------------------


def _sum(x, **axes):
    """In x's type: numpy would widen small integers to int64."""
    return np.sum(x, dtype=x.dtype, **axes)


def _mean(x, **axes):
    return np.mean(x, dtype=x.dtype, **axes)


def _prod(x, **axes):
    return np.prod(x, dtype=x.dtype, **axes)


REDUCTIONS = {
    reduction.ReduceSumOp: _sum,
    reduction.ReduceMeanOp: _mean,
    reduction.ReduceMaxOp: np.max,
    reduction.ReduceMinOp: np.min,
    reduction.ReduceProdOp: _prod,
}


@folds(*REDUCTIONS)
def _reduction(op, x):
    axes = tuple(normalize_axes(i64_array(op, "axes"), x.ndim))
    return REDUCTIONS[type(op)](x, axis=axes, keepdims=bool_attr(op, "keepdim"))


ARG_REDUCTIONS = {indexing.ArgmaxOp: np.argmax, indexing.ArgminOp: np.argmin}


@folds(*ARG_REDUCTIONS)
def _arg_reduction(op, x):
    """argmax/argmin: the first extreme, and the first NaN if any, as in torch."""
    axis = normalize_axis(int_attr(op, "axis"), x.ndim)
    if x.shape[axis] == 0:
        raise NotFoldable("no element to find")
    return ARG_REDUCTIONS[type(op)](x, axis=axis, keepdims=bool_attr(op, "keepdim"))


SCANS = {scan.CumsumOp: np.cumsum, scan.CumprodOp: np.cumprod, scan.LogcumsumexpOp: np.logaddexp.accumulate}


@folds(*SCANS)
def _scan(op, x):
    """cumsum/cumprod in x's type, combining in index order as the lowering does."""
    return SCANS[type(op)](x, axis=normalize_axis(int_attr(op, "axis"), x.ndim), dtype=x.dtype)


@folds(normalization.SoftmaxOp)
def _softmax(op, x):
    axis = normalize_axis(int_attr(op, "axis"), x.ndim)
    shifted = np.exp(x - x.max(axis=axis, keepdims=True))
    return shifted / shifted.sum(axis=axis, keepdims=True)


@folds(normalization.LayerNormOp)
def _layer_norm(op, x, weight, bias):
    axes = tuple(range(normalize_axis(int_attr(op, "axis"), x.ndim), x.ndim))
    centered = x - x.mean(axis=axes, keepdims=True)
    variance = (centered * centered).mean(axis=axes, keepdims=True)
    return centered / np.sqrt(variance + float_attr(op, "epsilon")) * weight + bias


@folds(normalization.BatchNormOp)
def _batch_norm(op, x, scale, offset, mean, variance):
    axis = normalize_axis(int_attr(op, "axis"), x.ndim)
    per_channel = [-1] + [1] * (x.ndim - axis - 1)  # broadcasts along `axis`
    scale, offset, mean, variance = (p.reshape(per_channel) for p in (scale, offset, mean, variance))
    return (x - mean) / np.sqrt(variance + float_attr(op, "epsilon")) * scale + offset


# --- data and shape ----------------------------------------------------------------------


def _result_shape(op):
    return op.result.type.shape


@folds(data.CastOp)
def _cast(op, x):
    return x.astype(dtype_of(op.result.type))


@folds(shape.ReshapeOp)
def _reshape(op, x):
    return x.reshape(_result_shape(op))


@folds(shape.TransposeOp)
def _transpose(op, x):
    return np.transpose(x, i64_array(op, "permutation"))


@folds(shape.BroadcastOp)
def _broadcast(op, x):
    return np.broadcast_to(x, _result_shape(op))


@folds(shape.ConcatOp)
def _concat(op, a, b):
    return np.concatenate([a, b], axis=normalize_axis(int_attr(op, "axis"), a.ndim))


@folds(shape.SliceOp)
def _slice(op, x):
    bounds = zip(i64_array(op, "start"), i64_array(op, "limit"), i64_array(op, "stride"))
    return x[tuple(slice(start, limit, stride) for start, limit, stride in bounds)]


@folds(shape.GatherOp)
def _gather(op, x, indices):
    axis = normalize_axis(int_attr(op, "axis"), x.ndim)
    if indices.size and (indices.min() < 0 or indices.max() >= x.shape[axis]):
        raise NotFoldable("gather index out of range")
    return np.take(x, indices, axis=axis)


@folds(shape.TakeAlongAxisOp)
def _take_along_axis(op, x, indices):
    axis = normalize_axis(int_attr(op, "axis"), x.ndim)
    if indices.size and (indices.min() < 0 or indices.max() >= x.shape[axis]):
        raise NotFoldable("take_along_axis index out of range")
    reach = tuple(slice(None) if d == axis else slice(0, n) for d, n in enumerate(indices.shape))
    return np.take_along_axis(x[reach], indices.astype(np.intp), axis=axis)


@folds(shape.PadOp)
def _pad(op, x):
    widths = list(zip(i64_array(op, "low"), i64_array(op, "high")))
    return np.pad(x, widths, constant_values=_element(float_attr(op, "value"), x.dtype))


@folds(shape.Im2colOp)
def _im2col(op, x):
    """Each output position's window, (kh, kw, c) along the last axis."""
    (kh, kw), (sh, sw), (dh, dw) = (i64_array(op, name) for name in ("kernel", "stride", "dilation"))
    top, bottom, left, right = i64_array(op, "padding")
    x = np.pad(x, [(0, 0), (top, bottom), (left, right), (0, 0)])
    n, oh, ow, _ = _result_shape(op)
    windows = [x[:, i * dh: i * dh + sh * (oh - 1) + 1: sh, j * dw: j * dw + sw * (ow - 1) + 1: sw, :]
               for i in range(kh) for j in range(kw)]
    return np.concatenate(windows, axis=3)


_DRAWN_WHERE_USED = Declined("random numbers are computed where they are used, fused with their consumers: a "
                             "folded copy would be a constant as large as the tensor")

_NO_COMPLEX_CONSTANTS = Declined("numpy has complex numbers, but the Python bindings neither read nor build "
                                 "complex dense attributes, so no constant holds them")

# Ops with no folder, and why (test_op_facts.py checks every op is in FOLDERS or here).
DECLINED = {
    data.ConstantOp: Declined("it is the result of folding"),
    data.IotaOp: Declined("its sizes are operands, known at run time (dynamic shapes)"),
    compute.Conv2dOp: Declined("a convolution of constants does not occur in models; numpy has no convolution"),
    compute.QuantizedMatmulOp: Declined("made by mlc-quantize-int8 after the last folding, of a run-time row"),
    compute.AttentionOp: Declined("made by mlc-form-attention after the last folding, of run-time activations"),
    compute.MaxPool2dOp: Declined("pooling of constants does not occur in models"),
    compute.AvgPool2dOp: Declined("pooling of constants does not occur in models"),
    compute.Conv3dOp: Declined("a convolution of constants does not occur in models; numpy has no convolution"),
    compute.MaxPoolNdOp: Declined("pooling of constants does not occur in models"),
    compute.MaxPoolIndicesOp: Declined("pooling of constants does not occur in models"),
    compute.AvgPoolNdOp: Declined("pooling of constants does not occur in models"),
    indexing.ArgsortOp: Declined("the order of equal keys is the lowering's, which numpy's sort need not reproduce"),
    indexing.ScatterOp: Declined("which of duplicate indices wins a replace is the lowering's, which numpy need not "
                                 "reproduce; a scatter into constants is rare (its updates are computed)"),
    indexing.UpdateSliceOp: Declined("made by mlc-form-update-slice for an offset known only at run time"),
    indexing.BincountOp: Declined("its result's type has a dynamic length, which a folded constant's static type "
                                  "could not replace; a bincount of constants is rare"),
    rnd.RandomUniformOp: _DRAWN_WHERE_USED,
    rnd.RandomNormalOp: _DRAWN_WHERE_USED,
    rnd.RandomIntOp: _DRAWN_WHERE_USED,
    cx.ComplexOp: _NO_COMPLEX_CONSTANTS,
    cx.RealOp: _NO_COMPLEX_CONSTANTS,
    cx.ImagOp: _NO_COMPLEX_CONSTANTS,
    fusion.FusionGroupOp: Declined("fusion structure: groups form after folding"),
    fusion.YieldOp: Declined("fusion structure: groups form after folding"),
}

# --- the pass ----------------------------------------------------------------------------


def _nbytes(type_: ir.RankedTensorType) -> int:
    return math.prod(type_.shape) * dtype_of(type_).itemsize


def _evaluable(op: ir.Operation) -> bool:
    """A folder exists, every operand is a constant and every type is one numpy has."""
    kind = type(op.opview)
    if kind not in FOLDERS:
        return False
    if kind in NOT_ON_BOOLEANS and dtype_of(op.operands[0].type) == np.bool_:
        return False
    if BF16 in [dtype_of(v.type) for v in (*op.operands, *op.results)] and kind not in EXACT_IN_BF16:
        return False
    result_type = op.results[0].type
    return (
        all(is_constant(v) and dtype_of(v.type) is not None for v in op.operands)
        and result_type.has_static_shape
        and dtype_of(result_type) is not None
    )


def _grows_model(op: ir.Operation, size_limit: int) -> bool:
    result = _nbytes(op.results[0].type)
    return result > size_limit and result > sum(_nbytes(v.type) for v in op.operands)


def _blob_name(op: ir.Operation) -> str:
    """`fc1.weight.transpose` for a transpose of the weight `fc1.weight`."""
    kind = op.opview.short_name()
    for value in op.operands:
        name = resource_name(value.owner.operation.attributes["value"])
        if name:
            return f"{name}.{kind}"
    return kind


class Fold(Pattern):
    """An op of class `op` with constant operands -> the constant it computes."""

    def __init__(self, op: type, size_limit: int):
        self.op, self.size_limit = op, size_limit

    def match(self, op) -> np.ndarray | None:
        operation = op.operation
        if not _evaluable(operation) or _grows_model(operation, self.size_limit):
            return None
        arrays = [value_of(v) for v in operation.operands]
        if any(a is None for a in arrays):
            return None
        try:
            with np.errstate(all="ignore"):  # inf, NaN and wrap-around are results like any other
                return FOLDERS[self.op](op, *arrays)
        except InstanceDeclined:
            return None

    def rewrite(self, op, array: np.ndarray) -> ir.Value:
        return make_constant(array, op.operation.results[0].type, _blob_name(op.operation))

    def counted_as(self, op, array) -> str:
        return op.operation.name


@register
class FoldConstants(PatternPass):
    """Evaluates mlc ops whose operands are all constants into one constant."""

    name = "mlc-fold-constants"
    size_limit: int = dataclasses.field(
        default=1 << 26,
        metadata={"help": "bytes; a larger result folds only if its constant inputs are at least as large"},
    )

    def patterns(self) -> list[Pattern]:
        return [Fold(op_class, self.size_limit) for op_class in FOLDERS]

    def finish(self, module: ir.Operation) -> None:
        def count_skipped(op):
            if _evaluable(op) and _grows_model(op, self.size_limit):
                self.count(SKIPPED)
            return ir.WalkResult.ADVANCE

        module.walk(count_skipped)
