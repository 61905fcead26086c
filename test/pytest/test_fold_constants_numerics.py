"""Numerics of `mlc-fold-constants`: each folded op equals PyTorch's result.

Every case is one function whose operands are `dense_resource` blobs of random
data, in the module's text, so folding reads them through the text fallback of
`constant_values`; results over 64 elements come back as blobs of the table,
smaller ones as `dense<>`. All cases share one module and one run of the pass.

Tolerances: exact for integers, booleans and ops that only move elements.
Elementwise float32 math: rtol 1e-6 (numpy's and torch's exp, tanh, ... differ by
a few ULP). Ops that accumulate (matmul, reductions, softmax, normalization):
rtol 1e-5 and atol 1e-6, since numpy and torch sum in different orders. GELU also
has atol 1e-6: 1 + erf(x) cancels for x < -3, where one ULP of erf is 1e-7.

Last, a weight transpose feeding a matmul runs in IREE the same folded or not.
"""

import dataclasses
import functools
from typing import Callable

import numpy as np
import pytest
import torch
import torch.nn.functional as F
from torch_mlir import ir

import mlc.dialects
from mlc.driver.backends.iree import LLVM_CPU, compile_to_vmfb, load
from mlc.passes import constant_values
from mlc.pipelines import PipelineRunner

RNG = np.random.default_rng(0)
ELEMENT_TYPES = {
    np.dtype(np.float32): "f32",
    np.dtype(np.float16): "f16",
    np.dtype(np.int64): "i64",
    np.dtype(np.int32): "i32",
    np.dtype(np.bool_): "i1",
}
EXACT = dict(rtol=0, atol=0)
ELEMENTWISE = dict(rtol=1e-6, atol=0)
ACCUMULATING = dict(rtol=1e-5, atol=1e-6)


def tensor_type(array: np.ndarray) -> str:
    return f"tensor<{''.join(f'{d}x' for d in array.shape)}{ELEMENT_TYPES[array.dtype]}>"


def floats(*shape, low=-2.0, high=2.0):
    return RNG.uniform(low, high, shape).astype(np.float32)


def ints(*shape, low=-9, high=10, dtype=np.int32):
    return RNG.integers(low, high, shape).astype(dtype)


def i64_array(values) -> str:
    return f"array<i64: {', '.join(map(str, values))}>"


@dataclasses.dataclass
class Case:
    """`mlc.<op>` applied to constants holding `inputs`; `reference` is torch's."""

    name: str
    op: str
    inputs: list
    reference: Callable
    attributes: str = ""
    tolerance: dict = dataclasses.field(default_factory=lambda: ELEMENTWISE)

    def expected(self) -> np.ndarray:
        return self.reference(*(torch.from_numpy(a) for a in self.inputs)).numpy()

    def blob_name(self, i: int) -> str:
        return f"{self.name}_a{i}"

    def function(self) -> str:
        result = tensor_type(self.expected())
        lines = [f"func.func @{self.name}() -> {result} {{"]
        for i, array in enumerate(self.inputs):
            type_ = tensor_type(array)
            value = f"dense_resource<{self.blob_name(i)}> : {type_}"
            lines.append(f'  %a{i} = "mlc.constant"() {{value = {value}}} : () -> {type_}')
        operands = ", ".join(f"%a{i}" for i in range(len(self.inputs)))
        types = ", ".join(tensor_type(a) for a in self.inputs)
        attributes = f" {{{self.attributes}}}" if self.attributes else ""
        lines.append(f'  %r = "mlc.{self.op}"({operands}){attributes} : ({types}) -> {result}')
        lines.append(f"  return %r : {result}\n}}")
        return "\n".join(lines)

    def blobs(self) -> list[str]:
        """`name: "0x<alignment><bytes>"`: MLIR's text form of a resource blob."""
        return [f'{self.blob_name(i)}: "0x{np.uint32(a.itemsize).tobytes().hex()}{a.tobytes().hex()}"'
                for i, a in enumerate(self.inputs)]


CASES: list[Case] = []


def case(name, op, inputs, reference, attributes="", tolerance=ELEMENTWISE):
    CASES.append(Case(name, op, inputs, reference, attributes, tolerance))


# --- elementwise --------------------------------------------------------------------

UNARY = {
    "neg": (torch.neg, floats(8, 16)),
    "abs": (torch.abs, floats(8, 16)),
    "relu": (torch.relu, np.array([-1.0, 0.0, 2.5, np.nan, -np.inf], np.float32)),
    "exp": (torch.exp, floats(8, 16, low=-10, high=10)),
    "log": (torch.log, floats(8, 16, low=0.01, high=50)),
    "sqrt": (torch.sqrt, floats(8, 16, low=0.0, high=50)),
    "rsqrt": (torch.rsqrt, floats(8, 16, low=0.05, high=50)),
    "reciprocal": (torch.reciprocal, floats(8, 16, low=0.1, high=3)),
    "tanh": (torch.tanh, floats(8, 16, low=-4, high=4)),
    "sigmoid": (torch.sigmoid, floats(8, 16, low=-6, high=6)),
    "erf": (torch.erf, floats(8, 16)),
    "sin": (torch.sin, floats(8, 16, low=-4, high=4)),
    "cos": (torch.cos, floats(8, 16, low=-4, high=4)),
    "floor": (torch.floor, floats(8, 16, low=-5, high=5)),
    "ceil": (torch.ceil, floats(8, 16, low=-5, high=5)),
    "silu": (F.silu, floats(8, 16, low=-6, high=6)),
    "acosh": (torch.acosh, np.array([1.0, 1.0000001, 1.5, 10.0, 1e20, np.inf, 0.5, np.nan], np.float32)),
    "asinh": (torch.asinh, np.array([-1e20, -3.0, -1e-5, -0.0, 1e-8, 0.5, 1e10, np.inf], np.float32)),
    "atanh": (torch.atanh, np.array([-1.0, -0.99, -1e-6, 0.0, 1e-7, 0.5, 1.0, 1.5], np.float32)),
}
for name, (reference, x) in UNARY.items():
    case(name, name, [x], reference)
case("neg_i64", "neg", [ints(3, 4, dtype=np.int64)], torch.neg, tolerance=EXACT)
case("exp_f16", "exp", [floats(3, 4).astype(np.float16)], torch.exp, tolerance=dict(rtol=1e-3, atol=0))
case("gelu_erf", "gelu", [floats(8, 16, low=-5, high=5)], F.gelu, 'approximate = "none"',
     dict(rtol=1e-6, atol=1e-6))
case("gelu_tanh", "gelu", [floats(8, 16, low=-5, high=5)], lambda x: F.gelu(x, approximate="tanh"),
     'approximate = "tanh"', dict(rtol=1e-6, atol=1e-6))
case("softplus", "softplus", [floats(8, 16, low=-8, high=8)], lambda x: F.softplus(x, beta=2.0, threshold=5.0),
     "beta = 2.0 : f64, threshold = 5.0 : f64", dict(rtol=1e-6, atol=1e-6))
case("clamp", "clamp", [np.array([-1.0, np.nan, 0.3, 7.0], np.float32)], lambda x: torch.clamp(x, -0.5, 1.0),
     "min = -0.5 : f64, max = 1.0 : f64")
case("clamp_i32", "clamp", [ints(3, 4)], lambda x: torch.clamp(x, -3, 6), "min = -3.0 : f64, max = 6.0 : f64",
     EXACT)

BINARY = {
    "add": torch.add,
    "sub": torch.sub,
    "mul": torch.mul,
    "div": torch.div,
    "maximum": torch.maximum,
    "minimum": torch.minimum,
}
for name, reference in BINARY.items():
    case(name, name, [floats(4, 8, 16), floats(8, 1)], reference)
case("pow", "pow", [floats(8, 16, low=0.1, high=3), floats(16, low=-2, high=2)], torch.pow)
case("maximum_nan", "maximum", [np.array([np.nan, 1.0, 2.0], np.float32), np.array([0.0, np.nan, 1.0], np.float32)],
     torch.maximum)
divisor = RNG.choice([-3, -2, -1, 1, 2, 5], (4,)).astype(np.int32)
case("div_i32", "div", [ints(3, 4), divisor], lambda a, b: torch.div(a, b, rounding_mode="trunc"), tolerance=EXACT)
case("mul_i64_wraps", "mul", [np.array([2**62, -3], np.int64), np.array([4, 5], np.int64)], torch.mul,
     tolerance=EXACT)
case("pow_i64", "pow", [ints(3, 4, dtype=np.int64), ints(4, low=0, high=5, dtype=np.int64)], torch.pow,
     tolerance=EXACT)
with_nan = np.array([[0.0, 1.0, np.nan], [2.0, -1.0, 1.0]], np.float32)
for predicate, reference in {"eq": torch.eq, "ne": torch.ne, "lt": torch.lt, "le": torch.le,
                             "gt": torch.gt, "ge": torch.ge}.items():
    case(f"compare_{predicate}", "compare", [with_nan, np.array([1.0, 1.0, np.nan], np.float32)], reference,
         f'predicate = "{predicate}"', EXACT)
case("select", "select", [RNG.random((4, 1, 8)) > 0.5, floats(3, 8), floats(8)], torch.where, tolerance=EXACT)

# --- compute, reductions, normalization ------------------------------------------------

case("matmul", "matmul", [floats(16, 32), floats(32, 8)], torch.matmul, tolerance=ACCUMULATING)
case("matmul_batch_broadcast", "matmul", [floats(2, 1, 4, 16), floats(3, 16, 5)], torch.matmul,
     tolerance=ACCUMULATING)
case("matmul_i32", "matmul", [ints(4, 5), ints(5, 3)], torch.matmul, tolerance=EXACT)
REDUCTIONS = {
    "reduce_sum": torch.sum,
    "reduce_mean": torch.mean,
    "reduce_max": torch.amax,
    "reduce_min": torch.amin,
}
for name, reference in REDUCTIONS.items():
    for axes, keepdim in (([1], False), ([0, -1], True)):
        case(f"{name}_{len(axes)}{'_keepdim' if keepdim else ''}", name, [floats(8, 16, 32)],
             functools.partial(lambda x, r, a, k: r(x, a, k), r=reference, a=axes, k=keepdim),
             f"axes = {i64_array(axes)}, keepdim = {str(keepdim).lower()}", ACCUMULATING)
case("cumsum", "cumsum", [floats(3, 5)], lambda x: torch.cumsum(x, 1), "axis = 1 : i64", tolerance=ACCUMULATING)
case("logcumsumexp", "logcumsumexp", [floats(3, 5) * 5000], lambda x: torch.logcumsumexp(x, 1), "axis = 1 : i64",
     tolerance=ACCUMULATING)
case("reduce_sum_i32", "reduce_sum", [ints(3, 4)], lambda x: torch.sum(x, [1], dtype=torch.int32),
     "axes = array<i64: 1>, keepdim = false", EXACT)
case("softmax", "softmax", [floats(4, 32, low=-10, high=10)], lambda x: F.softmax(x, -1), "axis = -1 : i64",
     ACCUMULATING)
case("layer_norm", "layer_norm", [floats(4, 3, 16) * 3 + 1, floats(3, 16), floats(3, 16)],
     lambda x, w, b: F.layer_norm(x, (3, 16), w, b, 1e-5), "axis = 1 : i64, epsilon = 1.0e-05 : f64, library = false", ACCUMULATING)
case("batch_norm", "batch_norm", [floats(2, 3, 4, 5), floats(3), floats(3), floats(3), floats(3, low=0.1, high=2)],
     lambda x, scale, offset, mean, var: F.batch_norm(x, mean, var, scale, offset, False, 0.0, 1e-5),
     "axis = 1 : i64, epsilon = 1.0e-05 : f64", ACCUMULATING)

# --- shape and data --------------------------------------------------------------------

case("reshape", "reshape", [floats(8, 3, 4)], lambda x: x.reshape(4, 24), tolerance=EXACT)
case("transpose", "transpose", [floats(4, 8, 16)], lambda x: x.permute(2, 0, 1),
     "permutation = array<i64: 2, 0, 1>", EXACT)
case("broadcast", "broadcast", [floats(8, 1)], lambda x: x.expand(3, 8, 5), tolerance=EXACT)
case("concat", "concat", [floats(2, 40), floats(3, 40)], lambda a, b: torch.cat([a, b], 0), "axis = 0 : i64",
     EXACT)
case("slice", "slice", [floats(10, 12)], lambda x: x[1:9:2, 0:12:3],
     "start = array<i64: 1, 0>, limit = array<i64: 9, 12>, stride = array<i64: 2, 3>", EXACT)
case("gather", "gather", [floats(10, 8), ints(2, 3, low=0, high=10, dtype=np.int64)],
     lambda table, i: F.embedding(i, table), "axis = 0 : i64", EXACT)
case("pad", "pad", [floats(8, 9)], lambda x: F.pad(x, (2, 0, 1, 1), value=0.5),
     "low = array<i64: 1, 2>, high = array<i64: 1, 0>, value = 0.5 : f64", EXACT)


def im2col_reference(x, kernel, stride, padding, dilation):
    """torch's unfold ([N, C * KH * KW, L], NCHW) in mlc.im2col's NHWC (kh, kw, c) rows."""
    n, h, w, c = x.shape
    cols = F.unfold(x.permute(0, 3, 1, 2), kernel, dilation=dilation, padding=padding, stride=stride)
    oh = (h + 2 * padding - dilation * (kernel - 1) - 1) // stride + 1
    ow = (w + 2 * padding - dilation * (kernel - 1) - 1) // stride + 1
    return cols.reshape(n, c, kernel, kernel, oh, ow).permute(0, 4, 5, 2, 3, 1).reshape(n, oh, ow, -1)


for name, (kernel, stride, padding, dilation) in {"im2col_3x3": (3, 1, 1, 1), "im2col_3x3_stride2": (3, 2, 1, 1),
                                                   "im2col_2x2_dilated": (2, 1, 0, 2)}.items():
    case(name, "im2col", [floats(2, 7, 6, 3)],
         functools.partial(im2col_reference, kernel=kernel, stride=stride, padding=padding, dilation=dilation),
         f"kernel = {i64_array([kernel] * 2)}, stride = {i64_array([stride] * 2)}, "
         f"padding = {i64_array([padding] * 4)}, dilation = {i64_array([dilation] * 2)}", EXACT)
CASTS = {
    "cast_f32_i32": (floats(8, 16, low=-50, high=50), torch.int32),
    "cast_f32_f16": (floats(8, 16), torch.float16),
    "cast_i32_f32": (ints(3, 4, low=-(2**30), high=2**30), torch.float32),
    "cast_f32_i1": (np.array([0.0, -0.0, 1.5, np.nan], np.float32), torch.bool),
    "cast_i1_f32": (np.array([True, False]), torch.float32),
    "cast_i64_i32": (ints(3, 4, low=-(2**40), high=2**40, dtype=np.int64), torch.int32),
}
for name, (x, dtype) in CASTS.items():
    case(name, "cast", [x], functools.partial(lambda x, d: x.to(d), d=dtype), tolerance=EXACT)


# --- the harness ---------------------------------------------------------------------------


def module_text(cases) -> str:
    blobs = ",\n      ".join(blob for c in cases for blob in c.blobs())
    functions = "\n".join(c.function() for c in cases)
    return f"{functions}\n{{-#\n  dialect_resources: {{\n    builtin: {{\n      {blobs}\n    }}\n  }}\n#-}}\n"


def returned_value(function: ir.Operation) -> ir.Value:
    return list(function.regions[0].blocks[0].operations)[-1].operands[0]


@functools.cache
def folded() -> tuple[dict, dict]:
    """Folds the module of all cases once: (function name -> result array, statistics)."""
    context = mlc.dialects.make_context()
    runner = PipelineRunner("builtin.module(mlc-fold-constants)", context=context)
    with context:
        module = ir.Module.parse(module_text(CASES))
        runner.run(module.operation)
        results = {ir.StringAttr(f.attributes["sym_name"]).value: constant_values.value_of(returned_value(f))
                   for f in module.body.operations}
    return results, runner.records[0].statistics


@pytest.mark.parametrize("case", CASES, ids=[c.name for c in CASES])
def test_matches_torch(case: Case):
    actual = folded()[0][case.name]
    assert actual is not None, f"{case.name} did not fold"
    expected = case.expected()
    assert actual.shape == expected.shape and actual.dtype == expected.dtype
    np.testing.assert_allclose(actual, expected, equal_nan=True, **case.tolerance)


def test_statistics_count_folds_per_op():
    statistics = folded()[1]
    assert statistics["mlc.cast"] == len(CASTS)
    assert statistics["mlc.compare"] == 6
    assert sum(statistics.values()) == len(CASES)


def test_size_limit_skips_and_counts():
    """A broadcast of a scalar to 64 KiB stays under a 1 KiB limit, and is counted."""
    scalar = Case("broadcast_big", "broadcast", [floats()], lambda x: x.expand(128, 128))
    context = mlc.dialects.make_context()
    runner = PipelineRunner("builtin.module(mlc-fold-constants{size-limit=1024})", context=context)
    with context:
        module = ir.Module.parse(module_text([scalar]))
        runner.run(module.operation)
        assert '"mlc.broadcast"' in str(module)
    assert runner.records[0].statistics == {"skipped (size limit)": 1}


# --- end to end: folded, lowered and run by IREE -------------------------------------------

WEIGHT = floats(16, 32)
LINEAR = f"""
func.func @main(%x: tensor<4x32xf32>) -> tensor<4x16xf32> {{
  %w = "mlc.constant"() {{value = dense_resource<fc.weight> : tensor<16x32xf32>}} : () -> tensor<16x32xf32>
  %t = "mlc.transpose"(%w) {{permutation = array<i64: 1, 0>}} : (tensor<16x32xf32>) -> tensor<32x16xf32>
  %y = "mlc.matmul"(%x, %t) : (tensor<4x32xf32>, tensor<32x16xf32>) -> tensor<4x16xf32>
  return %y : tensor<4x16xf32>
}}
{{-#
  dialect_resources: {{ builtin: {{ fc.weight: "0x04000000{WEIGHT.tobytes().hex()}" }} }}
#-}}
"""


def run_in_iree(pipeline: str, x: np.ndarray) -> tuple[np.ndarray, str]:
    """The module after `pipeline` (as text) and its result on x, compiled for the host CPU."""
    context = mlc.dialects.make_context()
    runner = PipelineRunner(pipeline, context=context)
    with context:
        module = ir.Module.parse(LINEAR)
        runner.run(module.operation)
        text = str(module)
        main = load(compile_to_vmfb(module.operation, LLVM_CPU))
    return np.asarray(main(x).to_host()), text


@pytest.mark.iree
def test_folded_weight_transpose_runs_the_same_in_iree():
    x = floats(4, 32)
    plain, _ = run_in_iree("builtin.module(mlc-lower-to-linalg)", x)
    folded_result, folded_text = run_in_iree("builtin.module(mlc-fold-constants, mlc-lower-to-linalg)", x)
    assert "fc.weight.transpose" in folded_text and "linalg.transpose" not in folded_text
    np.testing.assert_allclose(folded_result, plain, rtol=1e-6, atol=1e-6)
    np.testing.assert_allclose(folded_result, x @ WEIGHT.T, rtol=1e-5, atol=1e-5)
