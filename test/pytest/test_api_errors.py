"""mlc.compile and the compiled model reject bad input with a message naming the problem."""

import inspect

import pytest
import torch

import mlc


def line_of(method, offset: int = 1) -> str:
    """"test_api_errors.py:N" of the line `offset` lines into `method` (its `def` is 0)."""
    return f"test_api_errors.py:{inspect.getsourcelines(method)[1] + offset}"


class Scale(torch.nn.Module):
    def forward(self, x):
        return x * 3.0


class Zeta(torch.nn.Module):
    def forward(self, x):
        y = torch.special.zeta(x, x)
        return torch.special.zeta(y, x) + torch.special.i0(x)


@pytest.fixture(scope="module")
def compiled():
    return mlc.compile(Scale(), (torch.randn(2, 3),))


@pytest.mark.iree
def test_wrong_input_count(compiled):
    with pytest.raises(mlc.UserError, match=r"expected 1 input\(s\), got 2"):
        compiled(torch.randn(2, 3), torch.randn(2, 3))


@pytest.mark.iree
def test_wrong_shape(compiled):
    with pytest.raises(mlc.UserError, match=r"input 0: expected shape \[2, 3\], got \[3, 2\]"):
        compiled(torch.randn(3, 2))


@pytest.mark.iree
def test_wrong_dtype(compiled):
    with pytest.raises(mlc.UserError, match="input 0: expected dtype torch.float32, got torch.int64"):
        compiled(torch.ones(2, 3, dtype=torch.int64))


@pytest.mark.iree
def test_not_a_tensor(compiled):
    with pytest.raises(mlc.UserError, match="input 0: expected a tensor, got str"):
        compiled("x")


@pytest.mark.iree
def test_unknown_ir_level(compiled):
    with pytest.raises(mlc.UserError, match="unknown IR level 'llvm'"):
        compiled.ir("llvm")


def test_unknown_target():
    with pytest.raises(mlc.UserError, match="unknown target 'tpu'"):
        mlc.compile(Scale(), (torch.randn(2),), target="tpu")


def test_not_a_module():
    with pytest.raises(mlc.UserError, match="expected a torch.nn.Module or a torch.export.ExportedProgram, got function"):
        mlc.compile(lambda x: x, (torch.randn(2),))


def test_a_module_without_example_args():
    with pytest.raises(mlc.UserError, match="a torch.nn.Module needs example_args"):
        mlc.compile(Scale())


@pytest.fixture(scope="module")
def exported():
    return torch.export.export(Scale(), (torch.randn(2, 3),))


@pytest.mark.parametrize("args, message", [
    ((torch.randn(3, 2),), r"example_args\[0\]: the exported program takes a \[2, 3\] torch.float32 tensor, "
                           r"got a \[3, 2\] torch.float32 tensor"),
    ((torch.ones(2, 3, dtype=torch.int64),), r"takes a \[2, 3\] torch.float32 tensor, got a \[2, 3\] torch.int64"),
    ((torch.randn(2, 3), torch.randn(2, 3)), r"the exported program takes 1 input\(s\); example_args has 2"),
    (("x",), r"example_args\[0\]: the exported program takes a \[2, 3\] torch.float32 tensor, got str"),
], ids=["shape", "dtype", "count", "not a tensor"])
def test_example_args_that_an_exported_program_does_not_take(exported, args, message):
    with pytest.raises(mlc.UserError, match=message):
        mlc.compile(exported, args)


def test_dynamic_shapes_with_an_exported_program(exported):
    with pytest.raises(mlc.UserError, match="dynamic_shapes applies to a torch.nn.Module: an exported program has"):
        mlc.compile(exported, None, dynamic_shapes=({0: torch.export.Dim("batch")},))


def test_an_unsupported_op_leaves_the_callers_program_as_it_was():
    """The error's report puts zeros in for unknown ops to check the rest: in a copy."""
    x = torch.rand(4) + 1.5
    program = torch.export.export(Zeta(), (x,)).run_decompositions({})
    with pytest.raises(mlc.UserError, match="are unknown to torch-mlir"):
        mlc.compile(program, None, allow_fallback=False)
    assert [node.target for node in program.graph.nodes].count(torch.ops.aten.special_zeta.default) == 2
    torch.testing.assert_close(program.module()(x), Zeta()(x), equal_nan=True)


def test_unsupported_ops_are_all_reported_with_source_lines():
    with pytest.raises(mlc.UserError) as error:
        mlc.compile(Zeta(), (torch.rand(4) + 1.5,), allow_fallback=False)
    message = str(error.value)
    assert "3 torch op(s) of 2 kind(s) are unknown to torch-mlir" in message
    assert "torch.aten.special_zeta  x2" in message
    assert "i0" in message
    assert line_of(Zeta.forward, 2) in message  # the model's own source line


class ZetaAndPolar(torch.nn.Module):
    def forward(self, x):
        return torch.special.zeta(x, x) + torch.view_as_real(torch.polar(x, x).flip(0).square()).sum(-1)  # complex


@pytest.mark.iree
def test_unknown_and_unconvertible_ops_are_reported_in_one_round():
    """zeta is unknown to torch-mlir (the import stops there); flip and the product of
    complex numbers have no conversion to mlc (polar and view_as_real have). All are in
    the first error, not one after the other."""
    with pytest.raises(mlc.UserError) as error:
        mlc.compile(ZetaAndPolar(), (torch.rand(9) + 1.5,), allow_fallback=False)
    message = str(error.value)
    assert "1 torch op(s) of 1 kind(s) are unknown to torch-mlir" in message
    assert "torch.aten.special_zeta  x1  at" in message
    assert "2 torch op(s) of 2 kind(s) have no conversion to mlc:\n  torch.aten.flip        x1  at " in message
    flip, product = message.split("torch.aten.flip        x1  at ")[1].split("\n")[:2]
    assert f"{line_of(ZetaAndPolar.forward)}  [complex tensors: " in flip  # flip at its line, then the product
    assert product.startswith("  torch.aten.mul.Tensor  x1  at ")
    assert f"{line_of(ZetaAndPolar.forward)}  [complex tensors: " in product
    compiled = mlc.compile(torch.nn.ReLU(), (torch.randn(2),))  # with the fallback, flip would have been taken
    assert compiled is not None


def test_bad_opt_level():
    with pytest.raises(mlc.UserError, match="opt_level must be 0, 1 or 2, got 3"):
        mlc.compile(Scale(), (torch.randn(2),), opt_level=3)


def test_cuda_sm_must_be_an_integer():
    with pytest.raises(mlc.UserError, match="cuda-sm must be an integer like 80 or 90, got '90'"):
        mlc.compile(Scale(), (torch.randn(2),), target="cuda", target_options={"cuda-sm": "90"})


def test_mlir_cpu_refuses_dispatch_regions():
    """A user pipeline that forms IREE dispatch regions cannot go to mlir-cpu."""
    pipeline = mlc.pipelines.get("O0")
    pipeline.passes += ["mlc-fuse", "mlc-lower-to-linalg{keep-fusion-groups=true}", "mlc-form-dispatch-regions"]
    with pytest.raises(mlc.UserError, match="target 'mlir-cpu' takes linalg without IREE dispatch regions"):
        mlc.compile(Scale(), (torch.randn(2),), target="mlir-cpu", pipeline=pipeline)
