"""torch.bincount through mlc's own conversions (strict mode): `mlc.bincount`, whose
result length max(max(x) + 1, minlength) is known at run time only, compiled for
llvm-cpu at O0 and O2 and compared with eager; torch.export's assertion on that
length ("u0 >= minlength") is proved true and dropped.

Negative values, on which torch raises, are not counted: mlc cannot raise at run time.
"""

import pytest
import torch
from conftest import assert_matches, compile_and_compare
from torch.export import Dim

pytestmark = pytest.mark.iree


def values(*items, dtype=torch.int64):
    return torch.tensor(items, dtype=dtype)


def floats(n, dtype=torch.float32):
    return torch.rand(n, generator=torch.Generator().manual_seed(n)).to(dtype)


def _compile_and_compare(fn, *inputs, opt_level=2, dynamic_shapes=None, call_with=None):
    """Compiled strictly for llvm-cpu at `inputs` and compared with eager on `call_with`
    (default: `inputs`); floats to rtol=1e-5, atol=1e-6."""
    compiled = compile_and_compare(fn, *inputs, rtol=1e-5, atol=1e-6, call_with=call_with, target="llvm-cpu",
                                   opt_level=opt_level, allow_fallback=False, dynamic_shapes=dynamic_shapes)
    assert "fallback" not in compiled.report
    return compiled


CASES = {
    "plain": (lambda x: torch.bincount(x), (values(1, 3, 3, 0, 5, 1),)),
    "minlength_larger": (lambda x: torch.bincount(x, minlength=9), (values(1, 3, 3, 0),)),
    "minlength_smaller": (lambda x: torch.bincount(x, minlength=2), (values(1, 6, 3, 0),)),
    "float_weights": (lambda x, w: torch.bincount(x, w), (values(2, 0, 2, 4, 2), floats(5))),
    "float_weights_minlength": (lambda x, w: torch.bincount(x, w, minlength=8), (values(2, 0, 2, 4, 2), floats(5))),
    "f16_weights_count_in_f64": (lambda x, w: torch.bincount(x, w), (values(1, 1, 0), floats(3, torch.float16))),
    "int_weights_count_in_f64": (lambda x, w: torch.bincount(x, w), (values(3, 1, 3), values(4, 5, 6, dtype=torch.int32))),
    "int32_input": (lambda x: torch.bincount(x), (values(2, 2, 7, 0, dtype=torch.int32),)),
    "empty_input": (lambda x: torch.bincount(x), (values(),)),
    "empty_input_minlength": (lambda x: torch.bincount(x, minlength=3), (values(),)),
    "counts_used_after": (lambda x: torch.bincount(x).float() / x.shape[0], (values(0, 4, 4, 1),)),
}


@pytest.mark.parametrize("opt_level", [0, 2])
@pytest.mark.parametrize("name", CASES)
def test_strict_matches_eager(name, opt_level):
    fn, inputs = CASES[name]
    _compile_and_compare(fn, *inputs, opt_level=opt_level)


def test_o1_matches_eager():
    fn, inputs = CASES["float_weights_minlength"]
    _compile_and_compare(fn, *inputs, opt_level=1)


def test_the_length_follows_each_run_values():
    """Compiled once, the result's length is each run's max + 1."""
    fn = lambda x: torch.bincount(x, minlength=3)  # noqa: E731
    runs = [(x,) for x in (values(0, 0, 1, 1), values(9, 2, 2, 2), values(1, 2, 0, 40))]
    _compile_and_compare(fn, values(1, 3, 3, 0), call_with=runs)


def test_dynamic_input_length():
    fn = lambda x, w: torch.bincount(x, w)  # noqa: E731
    n = Dim("n")
    runs = [(torch.randint(0, 10, (size,), generator=torch.Generator().manual_seed(size)), floats(size))
            for size in (2, 7, 30)]
    _compile_and_compare(fn, values(1, 3, 3, 0), floats(4), dynamic_shapes=(({0: n}, {0: n}),), call_with=runs)


@pytest.mark.parametrize("opt_level", [0, 2])
def test_dynamic_input_length_without_weights(opt_level):
    """Empty at run time too. The ones are computed from the input: a fill of them
    fused into the scatter made IREE size a stack buffer by the input's largest size."""
    fn = lambda x: torch.bincount(x, minlength=2)  # noqa: E731
    runs = [(x,) for x in (values(), values(5), values(0, 7, 7), values(*range(40)))]
    _compile_and_compare(fn, values(1, 3, 3, 0), opt_level=opt_level, dynamic_shapes=(({0: Dim("n", min=0)},),),
                         call_with=runs)


def test_negative_values_are_not_counted():
    """torch raises; mlc counts the other values, and the length is theirs."""
    compiled = _compile_and_compare(lambda x: torch.bincount(x), values(1, 3, 3, 0))
    assert_matches(compiled(values(-2, 3, 1, -7)), torch.bincount(values(3, 1)))
    assert_matches(compiled(values(-2, -1, -5, -7)), torch.bincount(values()))


def test_the_graph_has_bincount_and_no_assertion():
    compiled = _compile_and_compare(lambda x: torch.bincount(x, minlength=2), values(1, 6, 3, 0))
    mlc_ir = compiled.ir("mlc")
    assert '"mlc.bincount"' in mlc_ir and "{minlength = 2 : i64}" in mlc_ir
    assert "torch." not in mlc_ir
