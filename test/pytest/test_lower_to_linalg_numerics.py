"""Numerics of `mlc-lower-to-linalg`: every mlc op, lowered, compiled by IREE for
the host CPU and run, equals PyTorch's definition of it.

Tolerance: floats match to rtol=1e-5 and atol=1e-5 (NaN matches NaN); integers
and booleans match exactly.

Each case is one function. The cases of a family share one module, so IREE
compiles once per family; a family's module is built on first use.
"""

import dataclasses
import functools
import io

import iree.compiler
import iree.runtime
import numpy as np
import pytest
import torch
import torch.nn.functional as F
from torch_mlir import ir

import mlc.dialects
from mlc.pipelines import PipelineRunner

RTOL = ATOL = 1e-5
RNG = np.random.default_rng(0)

ELEMENT_TYPES = {
    np.dtype(np.float32): "f32",
    np.dtype(np.float16): "f16",
    np.dtype(np.int64): "i64",
    np.dtype(np.int32): "i32",
    np.dtype(np.int8): "i8",
    np.dtype(np.bool_): "i1",
}


def tensor_type(array: np.ndarray) -> str:
    return f"tensor<{''.join(f'{d}x' for d in array.shape)}{ELEMENT_TYPES[array.dtype]}>"


@dataclasses.dataclass
class Case:
    """One function: `body` reads %a0, %a1, ... and defines %r; `reference` is torch's."""

    family: str
    name: str
    body: str
    inputs: list
    reference: callable
    text: str | None = None  # the whole function, when it needs more than a body
    known_bug: str | None = None  # the lowering differs from torch here: expected to fail until fixed

    def expected(self) -> np.ndarray:
        return self.reference(*(torch.from_numpy(a) for a in self.inputs)).numpy()

    def function(self) -> str:
        if self.text:
            return self.text
        arguments = ", ".join(f"%a{i}: {tensor_type(a)}" for i, a in enumerate(self.inputs))
        result = tensor_type(self.expected())
        body = self.body.replace("$R", result)
        return f"func.func @{self.name}({arguments}) -> {result} {{\n{body}\n  return %r : {result}\n}}"


CASES: list[Case] = []


def op(family, name, op_name, inputs, reference, attributes="", known_bug=None):
    """A case that applies one mlc op to all inputs."""
    operands = ", ".join(f"%a{i}" for i in range(len(inputs)))
    types = ", ".join(tensor_type(a) for a in inputs)
    attributes = f" {{{attributes}}}" if attributes else ""
    body = f'  %r = "mlc.{op_name}"({operands}){attributes} : ({types}) -> $R'
    CASES.append(Case(family, name, body, inputs, reference, known_bug=known_bug))


def chain(family, name, body, inputs, reference):
    """A case whose body is written out; `$R` stands for the result type."""
    CASES.append(Case(family, name, body, inputs, reference))


def floats(*shape, low=-2.0, high=2.0):
    return RNG.uniform(low, high, shape).astype(np.float32)


def ints(*shape, low=-9, high=10, dtype=np.int32):
    return RNG.integers(low, high, shape).astype(dtype)


def i64_array(values) -> str:
    return f"array<i64: {', '.join(map(str, values))}>"


# --- elementwise -----------------------------------------------------------------

UNARY_REFERENCES = {
    "neg": (torch.neg, floats(3, 4)),
    "abs": (torch.abs, floats(3, 4)),
    "relu": (torch.relu, np.array([-1.0, 0.0, 2.5, np.nan, -np.inf], np.float32)),
    "exp": (torch.exp, floats(3, 4)),
    "log": (torch.log, floats(3, 4, low=0.01, high=5)),
    "sqrt": (torch.sqrt, floats(3, 4, low=0.0, high=5)),
    "rsqrt": (torch.rsqrt, floats(3, 4, low=0.05, high=5)),
    "reciprocal": (torch.reciprocal, floats(3, 4, low=0.1, high=3)),
    "tanh": (torch.tanh, floats(3, 4, low=-4, high=4)),
    "sigmoid": (torch.sigmoid, floats(3, 4, low=-6, high=6)),
    "erf": (torch.erf, floats(3, 4)),
    "sin": (torch.sin, floats(3, 4, low=-4, high=4)),
    "cos": (torch.cos, floats(3, 4, low=-4, high=4)),
    "floor": (torch.floor, floats(3, 4, low=-5, high=5)),
    "ceil": (torch.ceil, floats(3, 4, low=-5, high=5)),
    "silu": (F.silu, floats(3, 4, low=-6, high=6)),
}
for name, (reference, x) in UNARY_REFERENCES.items():
    op("elementwise", name, name, [x], reference)
for name, reference in (("neg", torch.neg), ("abs", torch.abs), ("relu", torch.relu)):
    op("elementwise", f"{name}_i32", name, [ints(3, 4)], reference)

op("elementwise", "gelu_erf", "gelu", [floats(3, 4, low=-4, high=4)], F.gelu, 'approximate = "none"')
op("elementwise", "gelu_tanh", "gelu", [floats(3, 4, low=-4, high=4)],
   lambda x: F.gelu(x, approximate="tanh"), 'approximate = "tanh"')
op("elementwise", "softplus", "softplus", [floats(3, 4, low=-8, high=8)],
   lambda x: F.softplus(x, beta=2.0, threshold=5.0), "beta = 2.0 : f64, threshold = 5.0 : f64")
op("elementwise", "clamp", "clamp", [floats(3, 4)], lambda x: torch.clamp(x, -0.5, 1.0),
   "min = -0.5 : f64, max = 1.0 : f64")
op("elementwise", "clamp_min_only", "clamp", [np.array([-1.0, np.nan, 7.0], np.float32)],
   lambda x: torch.clamp(x, min=0.0), "min = 0.0 : f64, max = 0x7FF0000000000000 : f64")
op("elementwise", "clamp_i64", "clamp", [ints(3, 4, dtype=np.int64)], lambda x: torch.clamp(x, -3, 6),
   "min = -3.0 : f64, max = 6.0 : f64")

BINARY_REFERENCES = {
    "add": torch.add,
    "sub": torch.sub,
    "mul": torch.mul,
    "div": torch.div,
    "maximum": torch.maximum,
    "minimum": torch.minimum,
}
for name, reference in BINARY_REFERENCES.items():
    op("elementwise", name, name, [floats(2, 3, 4), floats(3, 1)], reference)
op("elementwise", "add_scalar", "add", [floats(2, 3), floats()], torch.add)
op("elementwise", "mul_rank0", "mul", [floats(), floats()], torch.mul)
op("elementwise", "maximum_nan", "maximum",
   [np.array([np.nan, 1.0, 2.0], np.float32), np.array([0.0, np.nan, 1.0], np.float32)], torch.maximum)
op("elementwise", "minimum_nan", "minimum",
   [np.array([np.nan, 1.0, 2.0], np.float32), np.array([0.0, np.nan, 1.0], np.float32)], torch.minimum)
op("elementwise", "pow", "pow", [floats(3, 4, low=0.1, high=3), floats(4, low=-2, high=2)], torch.pow)
op("elementwise", "pow_negative_base", "pow",
   [np.array([-2, -2, -8, 0, -1, 2.5], np.float32), np.array([2, 3, 0.5, 0, np.inf, -1], np.float32)], torch.pow)
INT_BINARY_REFERENCES = {
    "add": torch.add,
    "sub": torch.sub,
    "mul": torch.mul,
    "div": lambda a, b: torch.div(a, b, rounding_mode="trunc"),
    "maximum": torch.maximum,
    "minimum": torch.minimum,
}
for name, reference in INT_BINARY_REFERENCES.items():
    divisor = RNG.choice([-3, -2, -1, 1, 2, 5], (4,)).astype(np.int32)
    op("elementwise", f"{name}_i32", name, [ints(3, 4), divisor], reference)
op("elementwise", "pow_i64", "pow", [ints(3, 4, dtype=np.int64), ints(4, low=0, high=5, dtype=np.int64)], torch.pow)

COMPARE_REFERENCES = {"eq": torch.eq, "ne": torch.ne, "lt": torch.lt, "le": torch.le, "gt": torch.gt, "ge": torch.ge}
with_nan = np.array([[0.0, 1.0, np.nan], [2.0, -1.0, 1.0]], np.float32)
for predicate, reference in COMPARE_REFERENCES.items():
    op("elementwise", f"compare_{predicate}", "compare", [with_nan, np.array([1.0, 1.0, np.nan], np.float32)],
       reference, f'predicate = "{predicate}"')
    op("elementwise", f"compare_{predicate}_i64", "compare",
       [ints(2, 3, low=-2, high=3, dtype=np.int64), ints(3, low=-2, high=3, dtype=np.int64)],
       reference, f'predicate = "{predicate}"')
BOOLS = (np.array([[True, False], [True, False]]), np.array([[True, True], [False, False]]))
for name, reference in (("maximum", torch.maximum), ("minimum", torch.minimum)):
    op("elementwise", f"{name}_bool", name, list(BOOLS), reference)
for predicate in ("lt", "ge"):
    op("elementwise", f"compare_{predicate}_bool", "compare", list(BOOLS), COMPARE_REFERENCES[predicate],
       f'predicate = "{predicate}"')
chain("elementwise", "compare_select", """\
  %c = "mlc.compare"(%a0, %a1) {predicate = "gt"} : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xi1>
  %r = "mlc.select"(%c, %a0, %a2) : (tensor<2x3xi1>, tensor<2x3xf32>, tensor<f32>) -> $R""",
      [floats(2, 3), floats(3), floats()], lambda x, y, z: torch.where(x > y, x, z))
op("elementwise", "select_broadcast", "select", [np.array([[True], [False]]), floats(2, 3), floats(3)], torch.where)

NAN, INF = np.nan, np.inf
HALVES = np.array([-2.5, -1.5, -0.5, -0.0, 0.5, 1.5, 2.5, 3.7, -3.7, 0.49999997, NAN, INF, -INF], np.float32)
NEW_UNARY_REFERENCES = {
    "log1p": (torch.log1p, np.array([-0.9, -1e-6, 1e-7, 0.0, 0.5, 3.0, 100.0, -1.0, -2.0, INF, NAN], np.float32)),
    "expm1": (torch.expm1, np.array([-3.0, -1e-6, 1e-7, 0.0, 0.5, 1.0, 10.0, -INF, INF, NAN], np.float32)),
    "log2": (torch.log2, np.array([0.125, 1.0, 3.0, 8.0, 1024.0, 0.0, -1.0, INF, NAN], np.float32)),
    "log10": (torch.log10, np.array([0.001, 1.0, 3.0, 100.0, 1e6, 0.0, -1.0, INF, NAN], np.float32)),
    "tan": (torch.tan, np.concatenate([floats(8, low=-1.5, high=1.5), np.array([0.0, -0.0, NAN], np.float32)])),
    "asin": (torch.asin, np.array([-1.0, -0.7, -0.0, 0.0, 0.3, 0.99, 1.0, 1.5, NAN], np.float32)),
    "acos": (torch.acos, np.array([-1.0, -0.7, 0.0, 0.3, 0.99, 1.0, -1.5, NAN], np.float32)),
    "atan": (torch.atan, np.array([-1e4, -3.0, -1.0, -0.0, 0.0, 0.5, 1.0, 1e4, INF, -INF, NAN], np.float32)),
    "sinh": (torch.sinh, np.concatenate([floats(8, low=-5, high=5), np.array([-0.0, 1e-6, NAN], np.float32)])),
    "cosh": (torch.cosh, np.concatenate([floats(8, low=-5, high=5), np.array([0.0, -INF, NAN], np.float32)])),
    "acosh": (torch.acosh, np.array([1.0, 1.0000001, 1.5, 2.0, 10.0, 1e5, 1e20, INF, 0.5, -1.0, NAN], np.float32)),
    "asinh": (torch.asinh, np.array([-1e20, -3.0, -1e-5, -0.0, 0.0, 1e-8, 0.5, 3.0, 1e10, INF, -INF, NAN], np.float32)),
    "atanh": (torch.atanh, np.array([-1.0, -0.99, -1e-6, -0.0, 0.0, 1e-7, 0.5, 0.9999, 1.0, 1.5, -2.0, NAN], np.float32)),
    "round": (torch.round, HALVES),
    "trunc": (torch.trunc, HALVES),
    "sign": (torch.sign, np.array([-2.5, -1e-30, -0.0, 0.0, 1e-30, 3.0, INF, -INF], np.float32)),
}
for name, (reference, x) in NEW_UNARY_REFERENCES.items():
    op("elementwise", name, name, [x], reference)
op("elementwise", "sign_nan", "sign", [np.array([NAN, -NAN, 1.0], np.float32)], torch.sign)
op("elementwise", "sign_i32", "sign", [np.array([-2147483648, -5, -1, 0, 1, 7, 2147483647], np.int32)], torch.sign)
op("elementwise", "sign_i64", "sign", [ints(3, 4, dtype=np.int64)], torch.sign)

# Every sign combination of the operands, exact and inexact quotients, zero dividends.
DIVIDENDS = np.array([[7.0, -7.0, 7.0, -7.0, 6.0, -6.0, 0.0, -0.0, 5.5, -5.5, 1e-3, -1e-3]], np.float32)
DIVISORS = np.array([[2.0, 2.0, -2.0, -2.0, 3.0, -3.0, 2.0, -2.0, 1.5, 1.5, 3.0, 3.0]], np.float32)
INT_DIVIDENDS = np.array([7, -7, 7, -7, 6, -6, 0, 1, -1, 2147483647, -2147483647], np.int32)
INT_DIVISORS = np.array([2, 2, -2, -2, 3, -3, 5, -5, 5, 3, 3], np.int32)
DIVISIONS = {
    "fmod": torch.fmod,
    "remainder": torch.remainder,
    "floor_div": torch.floor_divide,
}
for name, reference in DIVISIONS.items():
    op("elementwise", f"{name}_signs", name, [DIVIDENDS, DIVISORS], reference)
    op("elementwise", f"{name}_broadcast", name, [floats(2, 3, 4, low=-9, high=9), floats(3, 1, low=0.5, high=3)],
       reference)
    op("elementwise", f"{name}_i32", name, [INT_DIVIDENDS, INT_DIVISORS], reference)
    op("elementwise", f"{name}_i64_broadcast", name,
       [ints(3, 4, low=-20, high=21, dtype=np.int64), np.array([-7, -2, 3, 5], np.int64)], reference)
# 1 // 0.1: the f32 quotient rounds up to exactly 10, but 0.1f * 10 > 1, so torch's floor division is 9.
op("elementwise", "floor_div_inexact_quotient", "floor_div",
   [np.array([1.0, 1.0, -1.0, 0.3], np.float32), np.array([0.1, 0.2, 0.1, 0.1], np.float32)], torch.floor_divide)
op("elementwise", "fmod_special", "fmod",
   [np.array([INF, 3.0, 3.0, NAN, 3.0, -3.0], np.float32), np.array([2.0, INF, 0.0, 2.0, -INF, INF], np.float32)],
   torch.fmod)
op("elementwise", "remainder_special", "remainder",
   [np.array([3.0, 3.0, NAN, -0.0], np.float32), np.array([0.0, NAN, 2.0, 2.0], np.float32)], torch.remainder)
# All four quadrants, both axes, an infinite coordinate, NaN.
# A divisor with no zero passes its check unchanged (a zero fails the call: test_integer_division_by_zero.py).
op("elementwise", "check_nonzero_passes_the_divisor", "check_nonzero", [np.array([[3, -1], [7, 2**40]], np.int64)],
   lambda divisor: divisor)
ATAN2_Y = np.array([1.0, 1.0, -1.0, -1.0, 0.0, 2.0, -2.0, 0.0, -INF, 1.0, NAN, 1.0], np.float32)
ATAN2_X = np.array([1.0, -1.0, 1.0, -1.0, -1.0, 0.0, 0.0, 3.0, 1.0, INF, 1.0, NAN], np.float32)
op("elementwise", "atan2_quadrants", "atan2", [ATAN2_Y, ATAN2_X], torch.atan2)
op("elementwise", "atan2_zeros_and_infinities", "atan2",
   [np.array([-0.0, 0.0, -0.0, INF, INF, -INF], np.float32), np.array([-1.0, 0.0, -0.0, INF, -INF, -INF], np.float32)],
   torch.atan2, known_bug="math.atan2 as IREE expands it: atan2(-0, -1) is +pi (torch: -pi), "
                          "atan2(+-0, +-0) and atan2(+-inf, +-inf) are NaN (torch: +-0, +-pi/4, +-3pi/4)")
op("elementwise", "atan2_broadcast", "atan2", [floats(2, 3, 4), floats(4)], torch.atan2)
op("elementwise", "hypot_extremes", "hypot",
   [np.array([3.0, 3e37, 3e-30, 0.0, -0.0, INF, NAN, NAN, -5.0], np.float32),
    np.array([-4.0, 4e37, 4e-30, 0.0, 2.0, NAN, 1.0, -INF, 12.0], np.float32)], torch.hypot)

BITWISE_REFERENCES = {
    "bitwise_and": torch.bitwise_and,
    "bitwise_or": torch.bitwise_or,
    "bitwise_xor": torch.bitwise_xor,
}
for name, reference in BITWISE_REFERENCES.items():
    op("bitwise", f"{name}_i32", name, [ints(3, 4, low=-2**31, high=2**31 - 1), ints(4, low=-2**31, high=2**31 - 1)],
       reference)
    op("bitwise", f"{name}_i64", name, [np.array([-1, 0, -2**63, 2**63 - 1, 12345678901], np.int64),
                                        np.array([2**40 + 5, -1, -1, -2**62, -12345678901], np.int64)], reference)
    op("bitwise", f"{name}_bool", name, list(BOOLS), reference)
# Shifts by 0, up to and past the bit width, and by negative amounts (>= width as unsigned): torch's
# << gives 0 there and >> the sign.
SHIFTED_I32 = np.array([[1], [-7], [-2147483648], [2147483647], [0x55555555]], np.int32)
AMOUNTS_I32 = np.array([0, 1, 4, 30, 31, 32, 33, 100, -1, -32], np.int32)
SHIFTED_I64 = np.array([[1], [-7], [-2**63], [2**63 - 1]], np.int64)
AMOUNTS_I64 = np.array([0, 1, 31, 32, 62, 63, 64, 65, -1], np.int64)
for name, reference in (("shift_left", torch.bitwise_left_shift), ("shift_right", torch.bitwise_right_shift)):
    op("bitwise", f"{name}_i32", name, [SHIFTED_I32, AMOUNTS_I32], reference)
    op("bitwise", f"{name}_i64", name, [SHIFTED_I64, AMOUNTS_I64], reference)

DYNAMIC_ADD = """\
func.func @add_dynamic(%a0: tensor<?x3xf32>, %a1: tensor<1x3xf32>) -> tensor<?x3xf32> {
  %r = "mlc.add"(%a0, %a1) : (tensor<?x3xf32>, tensor<1x3xf32>) -> tensor<?x3xf32>
  return %r : tensor<?x3xf32>
}"""
CASES.append(Case("elementwise", "add_dynamic", "", [floats(5, 3), floats(1, 3)], torch.add, DYNAMIC_ADD))

# --- compute -------------------------------------------------------------------

MATMULS = {
    "matmul_2d": ((4, 5), (5, 3)),
    "matmul_batched": ((2, 4, 5), (2, 5, 3)),
    "matmul_4d": ((2, 3, 4, 5), (2, 3, 5, 6)),
    "matmul_broadcast_batch": ((2, 1, 4, 5), (3, 5, 6)),
    "matmul_rhs_2d": ((2, 3, 4, 5), (5, 6)),
    "matmul_lhs_2d": ((4, 5), (2, 5, 3)),
}
for name, (lhs, rhs) in MATMULS.items():
    op("compute", name, "matmul", [floats(*lhs), floats(*rhs)], torch.matmul)


def quantized_matmul(x, weight, scale):
    """mlc.quantized_matmul in f32 as its lowering computes it (quantize_int8.py): each row
    scaled to +-127 by its largest magnitude, rounded half to even, times the int8 weight
    exactly, then times the row's and the column's scales."""
    x, weight, scale = (np.asarray(t) for t in (x, weight, scale))
    levels = np.float32(127)
    row_scale = np.maximum(np.abs(x).max(axis=1, keepdims=True), np.float32(np.finfo(np.float32).tiny) * levels) / levels
    rows = np.clip(np.rint(x / row_scale), -levels, levels).astype(np.int64)
    return torch.from_numpy((rows @ weight.astype(np.int64)).astype(np.float32) * row_scale * scale)


# One row with a tie to round (x[0, 1] / scale = 2.5 rounds to 2) and one of zeros (its
# scale is the floor, not 0: no NaN).
QUANTIZED_ROW = np.array([[12.7, 0.25] + [0.1] * 7], np.float32)
op("compute", "quantized_matmul_row", "quantized_matmul",
   [QUANTIZED_ROW, ints(9, 5, low=-127, high=128, dtype=np.int8), floats(5, low=0.01, high=0.1)], quantized_matmul)
op("compute", "quantized_matmul_zero_rows", "quantized_matmul",
   [np.zeros((2, 6), np.float32), ints(6, 3, low=-127, high=128, dtype=np.int8), floats(3, low=0.01, high=0.1)],
   quantized_matmul)
def attention(zero_masked_rows):
    """softmax(q k^T * 0.25 + mask) v, with torch's zero weights for a query whose mask row is all -inf."""
    def reference(q, k, v, mask):
        q, k, v, mask = (torch.from_numpy(np.asarray(t)) for t in (q, k, v, mask))
        weights = torch.softmax(q @ k.transpose(-1, -2) * 0.25 + mask, dim=-1)
        if zero_masked_rows:
            weights = torch.where((mask == -INF).all(dim=-1, keepdim=True), 0.0, weights)
        return weights @ v
    return reference


# The steps mlc.attention lowers to without the plugin (library = false): a mask over
# keys, broadcast over heads and queries, and a query whose every key is masked.
ATTENTION_MASK = np.zeros((2, 1, 5, 7), np.float32)
ATTENTION_MASK[0, 0, :, 4:] = -INF
ATTENTION_MASK[1, 0, 3, :] = -INF
for zero_rows in (False, True):
    op("compute", f"attention_steps{'_zero_rows' * zero_rows}", "attention",
       [floats(2, 3, 5, 8), floats(2, 3, 7, 8), floats(2, 3, 7, 4), ATTENTION_MASK], attention(zero_rows),
       f"scale = 0.25 : f64, zero_masked_rows = {str(zero_rows).lower()}, zero_masked_tail = false, library = false, views = array<i64>, "
       "bf16_products = false")

# x @ w.T, as torch's Linear: IREE folds the transpose into the matmul.
chain("compute", "linear", """\
  %t = "mlc.transpose"(%a1) {permutation = array<i64: 1, 0>} : (tensor<3x5xf32>) -> tensor<5x3xf32>
  %r = "mlc.matmul"(%a0, %t) : (tensor<4x5xf32>, tensor<5x3xf32>) -> $R""",
      [floats(4, 5), floats(3, 5)], lambda x, w: x @ w.T)
DYNAMIC_MATMUL = """\
func.func @matmul_dynamic(%a0: tensor<?x4x5xf32>, %a1: tensor<5x3xf32>) -> tensor<?x4x3xf32> {
  %r = "mlc.matmul"(%a0, %a1) : (tensor<?x4x5xf32>, tensor<5x3xf32>) -> tensor<?x4x3xf32>
  return %r : tensor<?x4x3xf32>
}"""
CASES.append(Case("compute", "matmul_dynamic", "", [floats(2, 4, 5), floats(5, 3)], torch.matmul, DYNAMIC_MATMUL))


def conv_attributes(stride=(1, 1), padding=(0, 0, 0, 0), dilation=(1, 1), groups=1, layout="NCHW"):
    return (f"stride = {i64_array(stride)}, padding = {i64_array(padding)}, dilation = {i64_array(dilation)}, "
            f'groups = {groups} : i64, layout = "{layout}"')


def torch_conv(stride=(1, 1), padding=(0, 0, 0, 0), dilation=(1, 1), groups=1, layout="NCHW"):
    """The reference: F.conv2d after an explicit (possibly asymmetric) F.pad."""
    top, bottom, left, right = padding

    def reference(x, w, b=None):
        if layout == "NHWC":
            x, w = x.permute(0, 3, 1, 2), w.permute(3, 2, 0, 1)
        y = F.conv2d(F.pad(x, (left, right, top, bottom)), w, b, stride, 0, dilation, groups)
        return y.permute(0, 2, 3, 1) if layout == "NHWC" else y

    return reference


CONVS = {
    # name: (input shape, weight shape, bias?, attributes)
    "conv_nchw": ((1, 3, 8, 8), (4, 3, 3, 3), False, {}),
    "conv_nchw_stride_pad_bias": ((2, 3, 9, 9), (4, 3, 3, 3), True, {"stride": (2, 2), "padding": (1, 1, 1, 1)}),
    "conv_nchw_asymmetric_dilated": ((1, 2, 9, 8), (3, 2, 3, 2), True, {"padding": (0, 1, 2, 0), "dilation": (2, 1)}),
    "conv_nchw_groups": ((1, 4, 7, 7), (6, 2, 3, 3), True, {"groups": 2, "padding": (1, 1, 1, 1)}),
    "conv_nchw_depthwise": ((2, 4, 7, 7), (4, 1, 3, 3), True, {"groups": 4, "stride": (2, 2), "padding": (1, 1, 1, 1)}),
    "conv_nchw_depthwise_multiplier": ((1, 2, 6, 6), (4, 1, 3, 3), False, {"groups": 2}),
    "conv_nhwc": ((1, 8, 8, 3), (3, 3, 3, 4), True, {"stride": (2, 1), "padding": (1, 1, 1, 1)}),
    "conv_nhwc_groups": ((1, 7, 7, 4), (3, 3, 2, 6), True, {"groups": 2, "padding": (1, 1, 1, 1)}),
    "conv_nhwc_depthwise": ((1, 7, 7, 4), (3, 3, 1, 4), True, {"groups": 4, "stride": (2, 2)}),
}
for name, (x_shape, w_shape, bias, attributes) in CONVS.items():
    layout = "NHWC" if "nhwc" in name else "NCHW"
    f = w_shape[3] if layout == "NHWC" else w_shape[0]
    inputs = [floats(*x_shape), floats(*w_shape)] + ([floats(f)] if bias else [])
    op("compute", name, "conv2d", inputs, torch_conv(layout=layout, **attributes),
       conv_attributes(layout=layout, **attributes))


def torch_pool(kind, kernel, stride, padding, dilation=(1, 1), ceil_mode=False, count_include_pad=True, layout="NCHW"):
    def reference(x):
        if layout == "NHWC":
            x = x.permute(0, 3, 1, 2)
        if kind == "max":
            y = F.max_pool2d(x, kernel, stride, padding, dilation, ceil_mode)
        else:
            y = F.avg_pool2d(x, kernel, stride, padding, ceil_mode, count_include_pad)
        return y.permute(0, 2, 3, 1) if layout == "NHWC" else y

    return reference


POOLS = {
    # name: (input shape, kernel, stride, padding, extra)
    "max_pool": ((1, 2, 8, 8), (2, 2), (2, 2), (0, 0), {}),
    "max_pool_padded": ((2, 3, 7, 7), (3, 3), (2, 2), (1, 1), {}),
    "max_pool_ceil": ((1, 2, 8, 8), (3, 3), (2, 2), (1, 1), {"ceil_mode": True}),
    "max_pool_dilated": ((1, 2, 9, 9), (2, 2), (1, 1), (1, 1), {"dilation": (2, 2)}),
    "max_pool_nhwc": ((1, 7, 7, 3), (3, 3), (2, 2), (1, 1), {"layout": "NHWC"}),
    "avg_pool": ((1, 2, 8, 8), (2, 2), (2, 2), (0, 0), {}),
    "avg_pool_padded": ((1, 3, 7, 7), (3, 3), (2, 2), (1, 1), {}),
    "avg_pool_exclude_pad": ((1, 3, 7, 7), (3, 3), (2, 2), (1, 1), {"count_include_pad": False}),
    "avg_pool_ceil": ((1, 2, 8, 8), (3, 3), (2, 2), (1, 1), {"ceil_mode": True}),
    "avg_pool_ceil_exclude_pad": ((1, 2, 8, 8), (3, 3), (2, 2), (1, 1), {"ceil_mode": True, "count_include_pad": False}),
    "avg_pool_ceil_unpadded": ((1, 2, 8, 8), (3, 3), (2, 2), (0, 0), {"ceil_mode": True}),
    "avg_pool_nhwc": ((1, 7, 7, 3), (3, 3), (2, 2), (1, 1), {"layout": "NHWC", "count_include_pad": False}),
}
for name, (shape, kernel, stride, padding, extra) in POOLS.items():
    kind = "max" if name.startswith("max") else "avg"
    ceil_mode = extra.get("ceil_mode", False)
    layout = extra.get("layout", "NCHW")
    attributes = (f"kernel = {i64_array(kernel)}, stride = {i64_array(stride)}, "
                  f"padding = {i64_array([padding[0], padding[0], padding[1], padding[1]])}, "
                  f"ceil_mode = {str(ceil_mode).lower()}, layout = \"{layout}\"")
    if kind == "max":
        attributes += f", dilation = {i64_array(extra.get('dilation', (1, 1)))}"
    else:
        attributes += f", count_include_pad = {str(extra.get('count_include_pad', True)).lower()}"
    op("compute", name, f"{kind}_pool2d", [floats(*shape)], torch_pool(kind, kernel, stride, padding, **extra),
       attributes)

# --- reductions ------------------------------------------------------------------

REDUCTIONS = {
    "reduce_sum": lambda x, axes, keepdim: torch.sum(x, axes, keepdim),
    "reduce_mean": lambda x, axes, keepdim: torch.mean(x, axes, keepdim),
    "reduce_max": lambda x, axes, keepdim: torch.amax(x, axes, keepdim),
    "reduce_min": lambda x, axes, keepdim: torch.amin(x, axes, keepdim),
}
for name, reference in REDUCTIONS.items():
    for axes in ([1], [0, 2], [-1], [0, 1, 2]):
        for keepdim in (False, True):
            case = f"{name}_{'_'.join(str(a % 3) for a in axes)}{'_keepdim' if keepdim else ''}"
            op("reduction", case, name, [floats(2, 3, 4)],
               functools.partial(lambda x, r, a, k: r(x, a, k), r=reference, a=axes, k=keepdim),
               f"axes = {i64_array(axes)}, keepdim = {str(keepdim).lower()}")
for name in ("reduce_sum", "reduce_max", "reduce_min"):
    op("reduction", f"{name}_i64", name, [ints(3, 4, dtype=np.int64)],
       functools.partial(lambda x, r: r(x, [1], False), r=REDUCTIONS[name]), "axes = array<i64: 1>, keepdim = false")

for name in ("reduce_max", "reduce_min"):
    op("reduction", f"{name}_bool", name, [np.array([[True, False], [False, False]])],
       functools.partial(lambda x, r: r(x, [1], False), r=REDUCTIONS[name]), "axes = array<i64: 1>, keepdim = false")



def torch_prod(x, axes, keepdim):
    """torch.prod over several axes, in x's type (torch widens integers to int64)."""
    dtype = x.dtype
    for axis in sorted((a % x.ndim for a in axes), reverse=True):
        x = torch.prod(x, axis, keepdim=True)
    return (x if keepdim else x.squeeze(tuple(axes))).to(dtype)


for axes in ([1], [0, 2], [-1], [0, 1, 2]):
    for keepdim in (False, True):
        op("reduction", f"reduce_prod_{'_'.join(str(a % 3) for a in axes)}{'_keepdim' if keepdim else ''}",
           "reduce_prod", [floats(2, 3, 4, low=0.5, high=1.5)],
           functools.partial(lambda x, a, k: torch_prod(x, a, k), a=axes, k=keepdim),
           f"axes = {i64_array(axes)}, keepdim = {str(keepdim).lower()}")
op("reduction", "reduce_prod_special", "reduce_prod",
   [np.array([[2.0, -3.0, 0.5], [0.0, INF, 1.0], [NAN, 0.0, 1.0], [-0.0, 4.0, 1.0]], np.float32)],
   lambda x: torch_prod(x, [1], False), "axes = array<i64: 1>, keepdim = false")
# Wraps around as torch's int32 product does once cast back to int32.
op("reduction", "reduce_prod_i32_wraps", "reduce_prod", [ints(3, 12, low=-50000, high=50000)],
   lambda x: torch_prod(x, [1], False), "axes = array<i64: 1>, keepdim = false")
op("reduction", "reduce_prod_i64", "reduce_prod", [ints(3, 4, dtype=np.int64)],
   lambda x: torch_prod(x, [0], True), "axes = array<i64: 0>, keepdim = true")

# --- indexing ----------------------------------------------------------------------

# Ties (the first wins), NaN (the first NaN wins), infinities, a row of equal values.
ARG_INPUT = np.array([[1.0, 3.0, 3.0, 0.0, 3.0],
                      [2.0, 2.0, 2.0, 2.0, 2.0],
                      [1.0, NAN, 5.0, NAN, -1.0],
                      [-INF, -INF, -5.0, INF, INF],
                      [0.0, -0.0, 0.0, -1.0, -1.0]], np.float32)
for name, reference in (("argmax", torch.argmax), ("argmin", torch.argmin)):
    for axis in (0, 1, -1):
        for keepdim in (False, True):
            op("indexing", f"{name}_{axis % 2}{'_keepdim' if keepdim else ''}{'_negative' if axis < 0 else ''}",
               name, [ARG_INPUT], functools.partial(lambda x, r, a, k: r(x, a, k), r=reference, a=axis, k=keepdim),
               f"axis = {axis} : i64, keepdim = {str(keepdim).lower()}")
    op("indexing", f"{name}_i32_ties", name, [ints(4, 6, low=-2, high=3)],
       functools.partial(lambda x, r: r(x, 1).to(torch.int32), r=reference), "axis = 1 : i64, keepdim = false")
    op("indexing", f"{name}_3d", name, [floats(2, 5, 3)], functools.partial(lambda x, r: r(x, 1), r=reference),
       "axis = 1 : i64, keepdim = false")

SORT_INPUT = np.array([[3.0, 1.0, 2.0, 1.0, NAN, -INF, 2.0],
                       [0.0, -0.0, 0.0, 5.0, -1.0, INF, NAN]], np.float32)
for descending in (False, True):
    suffix = "_descending" if descending else ""
    op("indexing", f"argsort_ties{suffix}", "argsort", [SORT_INPUT],
       functools.partial(lambda x, d: torch.argsort(x, dim=1, descending=d, stable=True), d=descending),
       f"axis = -1 : i64, descending = {str(descending).lower()}")
    op("indexing", f"argsort_axis0_i32{suffix}", "argsort", [ints(6, 3, low=-3, high=3)],
       functools.partial(lambda x, d: torch.argsort(x, dim=0, descending=d, stable=True).to(torch.int32), d=descending),
       f"axis = 0 : i64, descending = {str(descending).lower()}")
op("indexing", "take_along_axis_1", "take_along_axis", [floats(3, 5), np.array([[0, 4], [2, 2], [4, 1]], np.int64)],
   lambda x, i: torch.take_along_dim(x, i, 1), "axis = 1 : i64")
op("indexing", "take_along_axis_0_i32", "take_along_axis",
   [ints(4, 3, dtype=np.int64), np.array([[3, 0, 1], [0, 0, 0]], np.int32)],
   lambda x, i: torch.take_along_dim(x, i.long(), 0), "axis = 0 : i64")
op("indexing", "take_along_axis_narrower", "take_along_axis",
   [floats(2, 4, 5), ints(2, 3, 2, low=0, high=4, dtype=np.int64)],
   lambda x, i: torch.gather(x, 1, i), "axis = -2 : i64")
chain("indexing", "argsort_take_along_axis", """\
  %i = "mlc.argsort"(%a0) {axis = 1 : i64, descending = true} : (tensor<3x6xf32>) -> tensor<3x6xi64>
  %r = "mlc.take_along_axis"(%a0, %i) {axis = 1 : i64} : (tensor<3x6xf32>, tensor<3x6xi64>) -> $R""",
      [floats(3, 6)], lambda x: torch.sort(x, 1, descending=True).values)

# --- scans -------------------------------------------------------------------------

for name, reference in (("cumsum", torch.cumsum), ("cumprod", torch.cumprod)):
    for axis in (0, 1, -1):
        op("scan", f"{name}_{axis % 3}", name, [floats(3, 4, 5, low=0.5, high=1.5)],
           functools.partial(lambda x, r, a: r(x, a), r=reference, a=axis), f"axis = {axis} : i64")
    op("scan", f"{name}_special", name, [np.array([[1.0, INF, -2.0, NAN, 3.0], [0.0, 2.0, -INF, 1.0, 1.0]], np.float32)],
       functools.partial(lambda x, r: r(x, 1), r=reference), "axis = 1 : i64")
    op("scan", f"{name}_i32", name, [ints(2, 9, low=-9000, high=9000)],
       functools.partial(lambda x, r: r(x, 1).to(torch.int32), r=reference), "axis = 1 : i64")
    op("scan", f"{name}_i64", name, [ints(5, 2, dtype=np.int64)],
       functools.partial(lambda x, r: r(x, 0), r=reference), "axis = 0 : i64")
op("scan", "logcumsumexp", "logcumsumexp", [floats(3, 4, 5, low=-5, high=5)], lambda x: torch.logcumsumexp(x, 1),
   "axis = 1 : i64")
op("scan", "logcumsumexp_extremes", "logcumsumexp",
   [np.array([[10000.0, 1.0, -3.0, 10001.0], [-10000.0, 10000.0, -INF, 2.0], [-INF, -INF, 0.0, INF]], np.float32)],
   lambda x: torch.logcumsumexp(x, 1), "axis = 1 : i64")
# --- windows in 1-3 spatial dims ------------------------------------------------------------

op("compute", "conv3d_grouped", "conv3d", [floats(2, 4, 5, 6, 7), floats(6, 2, 3, 3, 3), floats(6)],
   lambda x, w, b: F.conv3d(x, w, b, stride=(1, 2, 1), padding=(1, 0, 0), groups=2),
   "stride = array<i64: 1, 2, 1>, padding = array<i64: 1, 1, 0, 0, 0, 0>, dilation = array<i64: 1, 1, 1>, "
   "groups = 2 : i64")
op("compute", "max_pool_nd_3d", "max_pool_nd", [floats(1, 2, 3, 6, 5)],
   lambda x: F.max_pool3d(x, 3, 2, ceil_mode=True),
   "kernel = array<i64: 3, 3, 3>, stride = array<i64: 2, 2, 2>, padding = array<i64: 0, 0, 0, 0, 0, 0>, "
   "dilation = array<i64: 1, 1, 1>, ceil_mode = true")
op("compute", "max_pool_indices_3d", "max_pool_indices", [floats(1, 2, 3, 6, 5)],
   lambda x: F.max_pool3d(x, 3, 2, ceil_mode=True, return_indices=True)[1],
   "kernel = array<i64: 3, 3, 3>, stride = array<i64: 2, 2, 2>, padding = array<i64: 0, 0, 0, 0, 0, 0>, "
   "dilation = array<i64: 1, 1, 1>, ceil_mode = true")
op("compute", "avg_pool_nd_1d", "avg_pool_nd", [floats(2, 3, 9)],
   lambda x: F.avg_pool1d(x, 3, 2, padding=1),
   "kernel = array<i64: 3>, stride = array<i64: 2>, padding = array<i64: 1, 1>, ceil_mode = false, "
   "count_include_pad = true, divisor = 0 : i64")

# --- normalization -------------------------------------------------------------

op("normalization", "softmax_last", "softmax", [floats(3, 7, low=-10, high=10)], lambda x: F.softmax(x, -1),
   "axis = -1 : i64")
op("normalization", "softmax_middle", "softmax", [floats(2, 5, 3, low=-10, high=10)], lambda x: F.softmax(x, 1),
   "axis = 1 : i64")
op("normalization", "layer_norm_last", "layer_norm", [floats(2, 3, 8) * 3 + 1, floats(8), floats(8)],
   lambda x, w, b: F.layer_norm(x, (8,), w, b, 1e-5), "axis = -1 : i64, epsilon = 1.0e-05 : f64, library = false")
op("normalization", "layer_norm_trailing_dims", "layer_norm", [floats(2, 3, 4, 5), floats(3, 4, 5), floats(3, 4, 5)],
   lambda x, w, b: F.layer_norm(x, (3, 4, 5), w, b, 1e-3), "axis = 1 : i64, epsilon = 1.0e-03 : f64, library = false")


def batch_norm(layout):
    def reference(x, scale, offset, mean, variance):
        if layout == "NHWC":
            x = x.permute(0, 3, 1, 2)
        y = F.batch_norm(x, mean, variance, scale, offset, False, 0.0, 1e-5)
        return y.permute(0, 2, 3, 1) if layout == "NHWC" else y

    return reference


for layout, shape, axis in (("NCHW", (2, 3, 4, 5), 1), ("NHWC", (2, 4, 5, 3), 3)):
    statistics = [floats(3), floats(3), floats(3), floats(3, low=0.1, high=2)]
    op("normalization", f"batch_norm_{layout.lower()}", "batch_norm", [floats(*shape)] + statistics,
       batch_norm(layout), f"axis = {axis} : i64, epsilon = 1.0e-05 : f64")

# --- shape -----------------------------------------------------------------------

RESHAPES = {
    "reshape_collapse": ((2, 3, 4), (6, 4)),
    "reshape_expand": ((6, 4), (2, 3, 2, 2)),
    "reshape_general": ((2, 3, 4), (4, 6)),
    "reshape_to_scalar": ((1, 1), ()),
    "reshape_unit_dims": ((2, 1, 3), (1, 6, 1)),
}
for name, (source, target) in RESHAPES.items():
    op("shape", name, "reshape", [floats(*source)], functools.partial(lambda x, t: x.reshape(t), t=target))
op("shape", "transpose", "transpose", [floats(2, 3, 4)], lambda x: x.permute(2, 0, 1),
   "permutation = array<i64: 2, 0, 1>")
for name, (source, target) in {"broadcast_rank": ((3,), (2, 3)), "broadcast_unit": ((2, 1), (2, 3)),
                               "broadcast_both": ((1, 3), (4, 2, 3))}.items():
    op("shape", name, "broadcast", [floats(*source)], functools.partial(lambda x, t: x.expand(t), t=target))
op("shape", "concat_axis0", "concat", [floats(2, 3), floats(4, 3)], lambda *xs: torch.cat(xs, 0), "axis = 0 : i64")
op("shape", "concat_axis_last", "concat", [floats(2, 1, 2), floats(2, 1, 5)], lambda *xs: torch.cat(xs, -1),
   "axis = -1 : i64")
op("shape", "concat_i64", "concat", [ints(1, 3, dtype=np.int64), ints(3, 3, dtype=np.int64)],
   lambda *xs: torch.cat(xs, 0), "axis = 0 : i64")
# torch.cat of three: a chain, written into one tensor.
chain("shape", "concat_chain", """\
  %c = "mlc.concat"(%a0, %a1) {axis = 1 : i64} : (tensor<2x3xf32>, tensor<2x5xf32>) -> tensor<2x8xf32>
  %r = "mlc.concat"(%c, %a2) {axis = 1 : i64} : (tensor<2x8xf32>, tensor<2x1xf32>) -> $R""",
      [floats(2, 3), floats(2, 5), floats(2, 1)], lambda a, b, c: torch.cat([a, b, c], 1))
chain("shape", "concat_tree", """\
  %l = "mlc.concat"(%a0, %a1) {axis = 0 : i64} : (tensor<1x2x3xf32>, tensor<2x2x3xf32>) -> tensor<3x2x3xf32>
  %m = "mlc.concat"(%a2, %a3) {axis = 0 : i64} : (tensor<4x2x3xf32>, tensor<1x2x3xf32>) -> tensor<5x2x3xf32>
  %r = "mlc.concat"(%l, %m) {axis = 0 : i64} : (tensor<3x2x3xf32>, tensor<5x2x3xf32>) -> $R""",
      [floats(1, 2, 3), floats(2, 2, 3), floats(4, 2, 3), floats(1, 2, 3)], lambda *xs: torch.cat(xs, 0))
# Along different axes: two tensors, not one.
chain("shape", "concat_different_axes", """\
  %c = "mlc.concat"(%a0, %a1) {axis = 0 : i64} : (tensor<2x3xf32>, tensor<4x3xf32>) -> tensor<6x3xf32>
  %r = "mlc.concat"(%c, %a2) {axis = 1 : i64} : (tensor<6x3xf32>, tensor<6x2xf32>) -> $R""",
      [floats(2, 3), floats(4, 3), floats(6, 2)], lambda a, b, c: torch.cat([torch.cat([a, b], 0), c], 1))
op("shape", "slice", "slice", [floats(5, 6)], lambda x: x[1:5:2, 0:6:3],
   "start = array<i64: 1, 0>, limit = array<i64: 5, 6>, stride = array<i64: 2, 3>")
op("shape", "gather_embedding", "gather", [floats(10, 4), ints(2, 3, low=0, high=10, dtype=np.int64)],
   lambda table, i: F.embedding(i, table), "axis = 0 : i64")
op("shape", "gather_axis1", "gather", [floats(2, 5, 3), ints(4, low=0, high=5, dtype=np.int32)],
   lambda x, i: torch.index_select(x, 1, i.long()), "axis = 1 : i64")
op("shape", "pad", "pad", [floats(2, 3)], lambda x: F.pad(x, (2, 0, 1, 1), value=0.5),
   "low = array<i64: 1, 2>, high = array<i64: 1, 0>, value = 0.5 : f64")


def im2col(x, kernel, stride, padding, dilation):
    """torch's unfold of the NCHW view, as mlc.im2col's NHWC rows in (kh, kw, c) order."""
    n, h, w, c = x.shape
    cols = F.unfold(x.permute(0, 3, 1, 2), kernel, dilation=dilation, padding=padding, stride=stride)
    oh, ow = ((size + 2 * padding - dilation * (kernel - 1) - 1) // stride + 1 for size in (h, w))
    return cols.reshape(n, c, kernel, kernel, oh, ow).permute(0, 4, 5, 2, 3, 1).reshape(n, oh, ow, -1)


for name, window in {"im2col_3x3": (3, 1, 1, 1), "im2col_3x3_stride2": (3, 2, 1, 1), "im2col_2x2_dilated": (2, 1, 0, 2)}.items():
    kernel, stride, padding, dilation = window
    op("shape", name, "im2col", [floats(2, 7, 6, 3)],
       functools.partial(im2col, kernel=kernel, stride=stride, padding=padding, dilation=dilation),
       f"kernel = array<i64: {kernel}, {kernel}>, stride = array<i64: {stride}, {stride}>, "
       f"padding = array<i64: {padding}, {padding}, {padding}, {padding}>, dilation = array<i64: {dilation}, {dilation}>")

# --- data ------------------------------------------------------------------------

CASTS = {
    "cast_f32_i32": (floats(3, 4, low=-5, high=5), torch.int32),
    "cast_i32_f32": (ints(3, 4), torch.float32),
    "cast_f32_f16": (floats(3, 4), torch.float16),
    "cast_f16_f32": (floats(3, 4).astype(np.float16), torch.float32),
    "cast_i64_i32": (ints(3, 4, dtype=np.int64), torch.int32),
    "cast_i32_i64": (ints(3, 4), torch.int64),
    "cast_f32_i1": (np.array([0.0, -0.0, 1.5, np.nan], np.float32), torch.bool),
    "cast_i32_i1": (np.array([0, 3, -1], np.int32), torch.bool),
    "cast_i1_f32": (np.array([True, False]), torch.float32),
    "cast_i1_i32": (np.array([True, False]), torch.int32),
}
for name, (x, dtype) in CASTS.items():
    op("data", name, "cast", [x], functools.partial(lambda x, d: x.to(d), d=dtype))
chain("data", "iota_i64", '  %r = "mlc.iota"() : () -> $R', [], lambda: torch.arange(5))
chain("data", "iota_f32", '  %r = "mlc.iota"() : () -> $R', [], lambda: torch.arange(4, dtype=torch.float32))
# The length known at run time only: the size of %a0, as position ids of a dynamic sequence.
DYNAMIC_IOTA = """\
func.func @iota_dynamic(%a0: tensor<?xf32>) -> tensor<?xi32> {
  %zero = arith.constant 0 : index
  %n = tensor.dim %a0, %zero : tensor<?xf32>
  %r = "mlc.iota"(%n) : (index) -> tensor<?xi32>
  return %r : tensor<?xi32>
}"""
CASES.append(Case("data", "iota_dynamic", "", [floats(6)], lambda x: torch.arange(x.shape[0], dtype=torch.int32),
                  DYNAMIC_IOTA))
WEIGHTS = floats(2, 3)
chain("data", "constant_dense", f"""\
  %w = "mlc.constant"() {{value = dense<{WEIGHTS.tolist()}> : tensor<2x3xf32>}} : () -> tensor<2x3xf32>
  %r = "mlc.add"(%a0, %w) : (tensor<2x3xf32>, tensor<2x3xf32>) -> $R""",
      [floats(2, 3)], lambda x: x + torch.from_numpy(WEIGHTS))
# The group's body reads outer values of different types (f32 4x5 and i32 5x3).
chain("data", "fusion_group", """\
  %r = "mlc.fusion_group"() ({
    %w = "mlc.cast"(%a1) : (tensor<5x3xi32>) -> tensor<5x3xf32>
    %m = "mlc.matmul"(%a0, %w) : (tensor<4x5xf32>, tensor<5x3xf32>) -> tensor<4x3xf32>
    %t = "mlc.relu"(%m) : (tensor<4x3xf32>) -> tensor<4x3xf32>
    "mlc.yield"(%t) : (tensor<4x3xf32>) -> ()
  }) : () -> $R""",
      [floats(4, 5), ints(5, 3, low=-3, high=4)], lambda x, w: torch.relu(x @ w.float()))
chain("data", "fusion_group_nested", """\
  %r = "mlc.fusion_group"() ({
    %e = "mlc.exp"(%a0) : (tensor<2x3xf32>) -> tensor<2x3xf32>
    %g = "mlc.fusion_group"() ({
      %rows = "mlc.gather"(%e, %a1) {axis = 0 : i64} : (tensor<2x3xf32>, tensor<4xi64>) -> tensor<4x3xf32>
      "mlc.yield"(%rows) : (tensor<4x3xf32>) -> ()
    }) : () -> tensor<4x3xf32>
    %n = "mlc.neg"(%g) : (tensor<4x3xf32>) -> tensor<4x3xf32>
    "mlc.yield"(%n) : (tensor<4x3xf32>) -> ()
  }) : () -> $R""",
      [floats(2, 3), np.array([1, 0, 1, 1], np.int64)], lambda x, i: -torch.index_select(torch.exp(x), 0, i))

RESOURCE = floats(4)
RESOURCE_FUNCTION = """\
func.func @constant_resource(%a0: tensor<4xf32>) -> tensor<4xf32> {
  %w = "mlc.constant"() {value = dense_resource<weights> : tensor<4xf32>} : () -> tensor<4xf32>
  %r = "mlc.mul"(%a0, %w) : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  return %r : tensor<4xf32>
}"""
RESOURCE_BLOB = f"""
{{-#
  dialect_resources: {{ builtin: {{ weights: "0x04000000{RESOURCE.tobytes().hex()}" }} }}
#-}}"""
CASES.append(Case("data", "constant_resource", "", [floats(4)], lambda x: x * torch.from_numpy(RESOURCE),
                  RESOURCE_FUNCTION))

# --- scatter, bincount and complex values ---------------------------------------------

SCATTER_ROWS = np.array([[0], [2], [0]], np.int64)  # row 0 twice: "add" sums, "max" keeps the larger
op("scatter", "scatter_add_rows", "scatter", [floats(4, 3), SCATTER_ROWS, floats(3, 3)],
   lambda x, i, u: x.index_put((i[:, 0],), u, accumulate=True), 'combine = "add"')
op("scatter", "scatter_max_rows", "scatter", [floats(4, 3), SCATTER_ROWS, floats(3, 3)],
   lambda x, i, u: x.scatter_reduce(0, i.expand(-1, 3), u, "amax"), 'combine = "max"')
op("scatter", "scatter_replace_elements", "scatter",
   [ints(3, 4, dtype=np.int64), np.array([[0, 1], [2, 3], [1, 0]], np.int64), ints(3, dtype=np.int64)],
   lambda x, i, u: x.index_put((i[:, 0], i[:, 1]), u), 'combine = "replace"')


def update_slice(x, u, offset, axis=1, start=(1, 0)):
    """mlc.update_slice's reference: the offset from the end where negative, then clamped."""
    at = int(offset) + (x.shape[axis] if int(offset) < 0 else 0)
    at = min(max(at, 0), x.shape[axis] - u.shape[axis])
    index = [slice(b, b + n) for b, n in zip(start, u.shape)]
    index[axis] = slice(at, at + u.shape[axis])
    result = x.clone()
    result[tuple(index)] = u
    return result


for name, offset in (("update_slice", 2), ("update_slice_from_end", -3), ("update_slice_clamped", 9)):
    op("scatter", name, "update_slice", [floats(4, 6), floats(2, 3), np.array(offset, np.int64)], update_slice,
       "axis = 1 : i64, start = array<i64: 1, 0>")
CASES.append(Case("scatter", "bincount_weighted", "", [np.array([1, 4, 1, 0], np.int64), floats(4)],
                  lambda x, w: torch.bincount(x, w.double(), minlength=3).float(), text="""\
func.func @bincount_weighted(%x: tensor<4xi64>, %w: tensor<4xf32>) -> tensor<?xf32> {
  %r = "mlc.bincount"(%x, %w) {minlength = 3 : i64} : (tensor<4xi64>, tensor<4xf32>) -> tensor<?xf32>
  return %r : tensor<?xf32>
}"""))
chain("complex", "complex_real", """\
  %c = "mlc.complex"(%a0, %a1) : (tensor<3x4xf32>, tensor<4xf32>) -> tensor<3x4xcomplex<f32>>
  %r = "mlc.real"(%c) : (tensor<3x4xcomplex<f32>>) -> $R""", [floats(3, 4), floats(4)],
      lambda re, im: torch.complex(re, im.expand(3, 4)).real)
chain("complex", "complex_imag", """\
  %c = "mlc.complex"(%a0, %a1) : (tensor<3x4xf32>, tensor<4xf32>) -> tensor<3x4xcomplex<f32>>
  %r = "mlc.imag"(%c) : (tensor<3x4xcomplex<f32>>) -> $R""", [floats(3, 4), floats(4)],
      lambda re, im: torch.complex(re, im.expand(3, 4)).imag)

# --- the harness -----------------------------------------------------------------


def module_text(family: str) -> str:
    text = "\n".join(c.function() for c in CASES if c.family == family)
    return text + (RESOURCE_BLOB if family == "data" else "")


def assert_complete_without_parser(module: ir.Module) -> None:
    """Bytecode reaches IREE as built: an attribute that only the text parser would
    fill in (a default a Python builder left unset) must already be present."""
    built = module.operation.get_asm(print_generic_op_form=True)
    with mlc.dialects.make_context():  # a fresh one, so resource blobs keep their names
        reparsed = ir.Module.parse(str(module)).operation.get_asm(print_generic_op_form=True)
    assert built == reparsed


@functools.cache
def compiled(family: str):
    """Lowers, compiles and loads one family's module."""
    context = mlc.dialects.make_context()
    with context:
        module = ir.Module.parse(module_text(family))
        PipelineRunner("builtin.module(mlc-lower-to-linalg)", context=context).run(module.operation)
        assert '"mlc.' not in str(module), f"mlc ops remain in the {family} module"
        assert_complete_without_parser(module)
        buffer = io.BytesIO()
        module.operation.write_bytecode(buffer)
    vmfb = iree.compiler.compile_str(
        buffer.getvalue(), target_backends=["llvm-cpu"], extra_args=["--iree-llvmcpu-target-cpu=host"]
    )
    return iree.runtime.load_vm_flatbuffer(vmfb, driver="local-task")


def parametrized(case: Case):
    """The case in its family's xdist group (`pytest -n N --dist loadgroup` runs a family
    on one worker, which compiles its module once). A known bug is a strict xfail: the
    case still runs, and passing fails it, so a fix shows."""
    marks = [pytest.mark.xdist_group(case.family)]
    if case.known_bug is not None:
        marks.append(pytest.mark.xfail(strict=True, raises=AssertionError, reason=case.known_bug))
    return pytest.param(case, marks=marks, id=case.name)


@pytest.mark.iree
@pytest.mark.parametrize("case", [parametrized(c) for c in CASES])
def test_matches_torch(case: Case):
    actual = np.asarray(getattr(compiled(case.family), case.name)(*case.inputs).to_host())
    expected = case.expected()
    assert actual.shape == expected.shape and actual.dtype == expected.dtype
    if np.issubdtype(expected.dtype, np.floating):
        np.testing.assert_allclose(actual, expected, rtol=RTOL, atol=ATOL, equal_nan=True)
    else:
        np.testing.assert_array_equal(actual, expected)


def test_every_mlc_op_is_covered():
    """Each op of the dialect (but the fusion terminator) appears in some case."""
    from mlc.dialects.op_base import MlcOp

    def subclasses(cls):
        for sub in cls.__subclasses__():
            yield sub
            yield from subclasses(sub)

    names = {c.OPERATION_NAME for c in subclasses(MlcOp) if getattr(c, "OPERATION_NAME", None)}
    texts = "\n".join(module_text(f) for f in {c.family for c in CASES})
    statistical = {"mlc.random_uniform", "mlc.random_normal", "mlc.random_int"}  # test_random_ops.py: no values to compare
    missing = sorted(n for n in names - {"mlc.yield"} - statistical if f'"{n}"' not in texts)
    assert not missing, f"no numerics case for {missing}"
