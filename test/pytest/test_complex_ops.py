"""Complex tensors through mlc's own conversions (strict mode): view_as_complex,
view_as_real, complex and polar become mlc.complex, mlc.real and mlc.imag, compiled
for llvm-cpu with `allow_fallback=False` and compared with eager, complex inputs and
results included (IREE passes complex64 and complex128 as numpy's complex arrays).

Arithmetic on complex values is not mlc's: a complex product is named in strict
mode and taken by torch-mlir's fallback by default.
"""

import pytest
import torch
from conftest import Apply, compile_and_compare

import mlc


def floats(*shape, dtype=torch.float32):
    return torch.randn(*shape, generator=torch.Generator().manual_seed(sum(shape)), dtype=dtype)


# mlc's own conversions only, for llvm-cpu; floats compared to rtol=1e-5, atol=1e-5
STRICT = {"rtol": 1e-5, "atol": 1e-5, "target": "llvm-cpu", "allow_fallback": False}


CASES = {
    "view_as_complex": (lambda x: torch.view_as_complex(x), (floats(3, 4, 2),)),
    "view_as_complex_f64": (lambda x: torch.view_as_complex(x), (floats(5, 2, dtype=torch.float64),)),
    "view_as_real_of_input": (lambda z: torch.view_as_real(z), (torch.complex(floats(3, 4), floats(4, 3).T),)),
    "real_and_imag": (lambda z: torch.real(z) - 2 * torch.imag(z), (torch.complex(floats(2, 3), floats(3, 2).T),)),
    "complex": (lambda a, b: torch.complex(a, b), (floats(3, 4), floats(4, 3).T)),
    "complex_broadcast": (lambda a, b: torch.complex(a, b), (floats(3, 4), floats(4))),
    "complex_f64": (lambda a, b: torch.complex(a, b),
                    (floats(2, 3, dtype=torch.float64), floats(1, 3, dtype=torch.float64))),
    "polar": (lambda r, t: torch.polar(r, t), (floats(3, 4).abs(), floats(3, 4))),
    "polar_broadcast_as_real": (lambda r, t: torch.view_as_real(torch.polar(r, t)), (floats(2, 3).abs(), floats(3))),
    "round_trip": (lambda x: torch.view_as_real(torch.view_as_complex(x)) + 1, (floats(2, 3, 2),)),
    "scalar_complex": (lambda x: torch.view_as_complex(x), (floats(2),)),
}


@pytest.mark.iree
@pytest.mark.parametrize("name", CASES)
def test_strict_matches_eager(name):
    fn, inputs = CASES[name]
    compiled = compile_and_compare(fn, *inputs, **STRICT)
    assert "fallback" not in compiled.report


@pytest.mark.iree
@pytest.mark.parametrize("opt_level", [0, 2])
def test_polar_between_real_ops_at_each_level(opt_level):
    a, b = floats(3, 4), floats(3, 4)
    compiled = compile_and_compare(lambda a, b: torch.view_as_real(torch.polar(a, b)) * 2, a, b, **STRICT,
                                   opt_level=opt_level)
    mlc_ir = compiled.ir("mlc")
    assert '"mlc.complex"' in mlc_ir and '"mlc.real"' in mlc_ir and '"mlc.imag"' in mlc_ir
    assert "torch.aten" not in mlc_ir


@pytest.mark.iree
def test_empty_complex_result():
    compile_and_compare(lambda x: torch.view_as_complex(x), torch.zeros(0, 2), **STRICT)


def _complex_product(a, b):
    z = torch.complex(a, b)
    return torch.view_as_real(z * z)


def test_complex_product_is_named_in_strict_mode():
    with pytest.raises(mlc.UserError) as error:
        mlc.compile(Apply(_complex_product), (floats(3), floats(3)), allow_fallback=False)
    message = str(error.value)
    assert "1 torch op(s) of 1 kind(s) have no conversion to mlc:" in message
    assert "torch.aten.mul.Tensor" in message
    assert "[complex tensors: mlc only builds them and takes them apart" in message


@pytest.mark.iree
def test_complex_product_takes_the_fallback_by_default():
    compiled = compile_and_compare(_complex_product, floats(3), floats(3), **{**STRICT, "allow_fallback": True})
    assert compiled.report["fallback"] == {"torch.aten.mul.Tensor": 1}
    assert '"mlc.complex"' in compiled.ir("mlc")  # the parts still become the complex in mlc
