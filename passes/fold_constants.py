"""`mlc-fold-constants`: evaluates at compile time each mlc op whose operands are
all `mlc.constant`s, and replaces it by one `mlc.constant` of its result.

Each folder computes with numpy what the op's docstring says, in the op's
element type (float32 arithmetic stays float32). A chain of such ops (a weight's
transpose, then its reshape) folds in one run, since the greedy driver revisits
the users of each new constant; the inputs left dead are Pure and it erases them.

Folding never grows the model: an op whose result is larger than `size-limit`
bytes and larger than its constant inputs together (a scalar broadcast to a big
tensor) stays, and is counted. Left out: conv2d and pooling, ops with dynamic
result shapes, bf16 (numpy has no bf16), arithmetic on i1, integer powers with
negative exponents, integer divisions by zero (or of the minimum by -1), the
sign of NaN (mlc.sign keeps it, torch.sign gives 0), gathers with out-of-range
indices (undefined), and argsort.
"""

import dataclasses
import math

import numpy as np
from torch_mlir import ir, rewrite

from ..dialects.elementwise_ops import COMPARE_PREDICATES
from ..dialects.op_base import bool_attr, float_attr, i64_array, int_attr, normalize_axes, normalize_axis, string_choice
from .constant_values import dtype_of, make_constant, resource_name, value_of
from .registry import Pass, register

SKIPPED = "skipped (size limit)"
# Arithmetic on i1 is modulo 2 in the lowering (true + true is false), logic in numpy.
NOT_ON_BOOLEANS = {"mlc.add", "mlc.sub", "mlc.mul", "mlc.div", "mlc.pow", "mlc.neg", "mlc.matmul", "mlc.reduce_sum",
                   "mlc.fmod", "mlc.remainder", "mlc.floor_div", "mlc.sign", "mlc.shift_left", "mlc.shift_right",
                   "mlc.reduce_prod", "mlc.cumsum", "mlc.cumprod", "mlc.argmax", "mlc.argmin"}


class NotFoldable(Exception):
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


def _clamp(op, x):
    low, high = (_element(float_attr(op, name), x.dtype) for name in ("min", "max"))
    return np.minimum(np.maximum(x, low), high)


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
    "neg": np.negative,
    "abs": np.abs,
    "relu": lambda x: np.maximum(x, 0),
    "exp": np.exp,
    "log": np.log,
    "sqrt": np.sqrt,
    "rsqrt": lambda x: 1 / np.sqrt(x),
    "reciprocal": lambda x: 1 / x,
    "tanh": np.tanh,
    "sigmoid": _sigmoid,
    "erf": _erf,
    "sin": np.sin,
    "cos": np.cos,
    "floor": np.floor,
    "ceil": np.ceil,
    "silu": lambda x: x * _sigmoid(x),
    **{name: _rounded_once(fn) for name, fn in {
        "log1p": np.log1p, "expm1": np.expm1, "log2": np.log2, "log10": np.log10, "tan": np.tan,
        "asin": np.arcsin, "acos": np.arccos, "atan": np.arctan, "sinh": np.sinh, "cosh": np.cosh,
    }.items()},
    "round": np.round,  # half to even, as torch.round
    "trunc": np.trunc,
    "sign": _sign,
}
BINARY = {
    "add": np.add,
    "sub": np.subtract,
    "mul": np.multiply,
    "div": _divide,
    "pow": _power,
    "maximum": np.maximum,
    "minimum": np.minimum,
    "fmod": _integer_division(np.fmod),  # C's fmod, the dividend's sign
    "remainder": _remainder,
    "floor_div": _integer_division(np.floor_divide),  # for floats, torch's algorithm (from numpy's)
    "atan2": _rounded_once(np.arctan2),
    # On i1, and/or/xor are the logical ops in numpy and in the lowering. Shifts by the
    # bit width or more (or by a negative amount) give 0 or the sign, as in torch.
    "bitwise_and": np.bitwise_and,
    "bitwise_or": np.bitwise_or,
    "bitwise_xor": np.bitwise_xor,
    "shift_left": np.left_shift,
    "shift_right": np.right_shift,
}


def _elementwise(fn):
    """A folder that applies `fn` to the operands' arrays; the op has no attributes to read."""
    return lambda op, *arrays: fn(*arrays)


# --- reductions and normalization ----------------------------------------------------


def _reduction(reduce):
    def fold(op, x):
        axes = tuple(normalize_axes(i64_array(op, "axes"), x.ndim))
        return reduce(x, axis=axes, keepdims=bool_attr(op, "keepdim"))

    return fold


def _sum(x, **axes):
    """In x's type: numpy would widen small integers to int64."""
    return np.sum(x, dtype=x.dtype, **axes)


def _mean(x, **axes):
    return np.mean(x, dtype=x.dtype, **axes)


def _prod(x, **axes):
    return np.prod(x, dtype=x.dtype, **axes)


def _arg_reduction(find):
    """argmax/argmin: the first extreme, and the first NaN if any, as in torch."""

    def fold(op, x):
        axis = normalize_axis(int_attr(op, "axis"), x.ndim)
        if x.shape[axis] == 0:
            raise NotFoldable("no element to find")
        return find(x, axis=axis, keepdims=bool_attr(op, "keepdim"))

    return fold


def _scan(accumulate):
    """cumsum/cumprod in x's type, combining in index order as the lowering does."""
    return lambda op, x: accumulate(x, axis=normalize_axis(int_attr(op, "axis"), x.ndim), dtype=x.dtype)


def _softmax(op, x):
    axis = normalize_axis(int_attr(op, "axis"), x.ndim)
    shifted = np.exp(x - x.max(axis=axis, keepdims=True))
    return shifted / shifted.sum(axis=axis, keepdims=True)


def _layer_norm(op, x, weight, bias):
    axes = tuple(range(normalize_axis(int_attr(op, "axis"), x.ndim), x.ndim))
    centered = x - x.mean(axis=axes, keepdims=True)
    variance = (centered * centered).mean(axis=axes, keepdims=True)
    return centered / np.sqrt(variance + float_attr(op, "epsilon")) * weight + bias


def _batch_norm(op, x, scale, offset, mean, variance):
    axis = normalize_axis(int_attr(op, "axis"), x.ndim)
    per_channel = [-1] + [1] * (x.ndim - axis - 1)  # broadcasts along `axis`
    scale, offset, mean, variance = (p.reshape(per_channel) for p in (scale, offset, mean, variance))
    return (x - mean) / np.sqrt(variance + float_attr(op, "epsilon")) * scale + offset


# --- shape -----------------------------------------------------------------------------


def _slice(op, x):
    bounds = zip(i64_array(op, "start"), i64_array(op, "limit"), i64_array(op, "stride"))
    return x[tuple(slice(start, limit, stride) for start, limit, stride in bounds)]


def _gather(op, x, indices):
    axis = normalize_axis(int_attr(op, "axis"), x.ndim)
    if indices.size and (indices.min() < 0 or indices.max() >= x.shape[axis]):
        raise NotFoldable("gather index out of range")
    return np.take(x, indices, axis=axis)


def _take_along_axis(op, x, indices):
    axis = normalize_axis(int_attr(op, "axis"), x.ndim)
    if indices.size and (indices.min() < 0 or indices.max() >= x.shape[axis]):
        raise NotFoldable("take_along_axis index out of range")
    reach = tuple(slice(None) if d == axis else slice(0, n) for d, n in enumerate(indices.shape))
    return np.take_along_axis(x[reach], indices.astype(np.intp), axis=axis)


def _pad(op, x):
    widths = list(zip(i64_array(op, "low"), i64_array(op, "high")))
    return np.pad(x, widths, constant_values=_element(float_attr(op, "value"), x.dtype))


def _im2col(op, x):
    """Each output position's window, (kh, kw, c) along the last axis."""
    (kh, kw), (sh, sw), (dh, dw) = (i64_array(op, name) for name in ("kernel", "stride", "dilation"))
    top, bottom, left, right = i64_array(op, "padding")
    x = np.pad(x, [(0, 0), (top, bottom), (left, right), (0, 0)])
    n, oh, ow, _ = _result_shape(op)
    windows = [x[:, i * dh: i * dh + sh * (oh - 1) + 1: sh, j * dw: j * dw + sw * (ow - 1) + 1: sw, :]
               for i in range(kh) for j in range(kw)]
    return np.concatenate(windows, axis=3)


def _result_shape(op):
    return op.result.type.shape


# op name -> fn(op, *operand arrays) -> the result's array (any dtype; converted after)
FOLDERS = {
    **{f"mlc.{name}": _elementwise(fn) for name, fn in {**UNARY, **BINARY}.items()},
    "mlc.gelu": _gelu,
    "mlc.clamp": _clamp,
    "mlc.compare": lambda op, a, b: COMPARISONS[string_choice(op, "predicate", COMPARE_PREDICATES)](a, b),
    "mlc.select": _elementwise(np.where),
    "mlc.matmul": _elementwise(np.matmul),
    "mlc.reduce_sum": _reduction(_sum),
    "mlc.reduce_mean": _reduction(_mean),
    "mlc.reduce_max": _reduction(np.max),
    "mlc.reduce_min": _reduction(np.min),
    "mlc.reduce_prod": _reduction(_prod),
    "mlc.argmax": _arg_reduction(np.argmax),
    "mlc.argmin": _arg_reduction(np.argmin),
    "mlc.cumsum": _scan(np.cumsum),
    "mlc.cumprod": _scan(np.cumprod),
    "mlc.softmax": _softmax,
    "mlc.layer_norm": _layer_norm,
    "mlc.batch_norm": _batch_norm,
    "mlc.cast": lambda op, x: x.astype(dtype_of(op.result.type)),
    "mlc.reshape": lambda op, x: x.reshape(_result_shape(op)),
    "mlc.transpose": lambda op, x: np.transpose(x, i64_array(op, "permutation")),
    "mlc.broadcast": lambda op, x: np.broadcast_to(x, _result_shape(op)),
    "mlc.concat": lambda op, a, b: np.concatenate([a, b], axis=normalize_axis(int_attr(op, "axis"), a.ndim)),
    "mlc.slice": _slice,
    "mlc.gather": _gather,
    "mlc.take_along_axis": _take_along_axis,
    "mlc.pad": _pad,
    "mlc.im2col": _im2col,
}

# --- the pass ----------------------------------------------------------------------------


def _nbytes(type_: ir.RankedTensorType) -> int:
    return math.prod(type_.shape) * dtype_of(type_).itemsize


def _is_constant(value: ir.Value) -> bool:
    owner = value.owner
    return not isinstance(owner, ir.Block) and owner.operation.name == "mlc.constant"


def _evaluable(op: ir.Operation) -> bool:
    """A folder exists, every operand is a constant and every type is one numpy has."""
    if op.name not in FOLDERS:
        return False
    if op.name in NOT_ON_BOOLEANS and dtype_of(op.operands[0].type) == np.bool_:
        return False
    result_type = op.results[0].type
    return (
        all(_is_constant(v) and dtype_of(v.type) is not None for v in op.operands)
        and result_type.has_static_shape
        and dtype_of(result_type) is not None
    )


def _grows_model(op: ir.Operation, size_limit: int) -> bool:
    result = _nbytes(op.results[0].type)
    return result > size_limit and result > sum(_nbytes(v.type) for v in op.operands)


def _blob_name(op: ir.Operation) -> str:
    """`fc1.weight.transpose` for a transpose of the weight `fc1.weight`."""
    kind = op.name.removeprefix("mlc.")
    for value in op.operands:
        name = resource_name(value.owner.operation.attributes["value"])
        if name:
            return f"{name}.{kind}"
    return kind


@register
class FoldConstants(Pass):
    """Evaluates mlc ops whose operands are all constants into one constant."""

    name = "mlc-fold-constants"
    size_limit: int = dataclasses.field(
        default=1 << 26,
        metadata={"help": "bytes; a larger result folds only if its constant inputs are at least as large"},
    )

    def run(self, module: ir.Operation) -> None:
        patterns = rewrite.RewritePatternSet()
        for op_name in FOLDERS:
            patterns.add(op_name, self._fold)
        rewrite.apply_patterns_and_fold_greedily(module, patterns.freeze())
        self._count_skipped(module)

    def _fold(self, op, rewriter) -> bool:
        """Replaces `op` by the constant it computes; True (no match) when it stays."""
        operation = op.operation
        if not _evaluable(operation) or _grows_model(operation, self.size_limit):
            return True
        arrays = [value_of(v) for v in operation.operands]
        if any(a is None for a in arrays):
            return True
        try:
            with np.errstate(all="ignore"):  # inf, NaN and wrap-around are results like any other
                array = FOLDERS[operation.name](op, *arrays)
        except NotFoldable:
            return True
        with rewriter.ip, op.location:
            constant = make_constant(array, operation.results[0].type, _blob_name(operation))
        rewriter.replace_op(op, [constant])
        self.count(operation.name)
        return False

    def _count_skipped(self, module: ir.Operation) -> None:
        def visit(op):
            if _evaluable(op) and _grows_model(op, self.size_limit):
                self.count(SKIPPED)
            return ir.WalkResult.ADVANCE

        module.walk(visit)
