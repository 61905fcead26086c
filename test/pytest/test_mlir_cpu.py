"""Target "mlir-cpu": mlc's own CPU path (no IREE), compared with PyTorch eager
and, model by model, with the other targets.

Tolerance as in test_end_to_end.py: rtol=1e-4, atol=1e-5.
"""

import pytest
import torch
from conftest import ATOL, RTOL
from torch_mlir import ir

import mlc
from mlc.driver.backends import targets

# At O2 mlir-cpu gets the optimized graph with its fusion groups inlined.
OPT_LEVEL = 2
# Every target here runs every example model; each is compared with the first.
# A target this machine cannot run is skipped with its reason (only CUDA, here).
DIFFERENTIAL_TARGETS = ["llvm-cpu", "mlir-cpu", "vulkan-spirv"]


def run(model, inputs, target, **options):
    compiled = mlc.compile(model, inputs, target=target, opt_level=OPT_LEVEL, target_options=options or None)
    return compiled(*inputs)


@pytest.mark.slow
def test_matches_eager(example_model):
    name, model, inputs = example_model
    compiled = mlc.compile(model, inputs, target="mlir-cpu", opt_level=OPT_LEVEL)
    with torch.no_grad():
        torch.testing.assert_close(compiled(*inputs), model(*inputs), rtol=RTOL, atol=ATOL)
        fresh = tuple(torch.randn_like(x) for x in inputs)  # not specialized to the example
        torch.testing.assert_close(compiled(*fresh), model(*fresh), rtol=RTOL, atol=ATOL)


_reference = {}  # model name -> outputs of DIFFERENTIAL_TARGETS[0]


@pytest.mark.slow
@pytest.mark.iree
@pytest.mark.parametrize("target", DIFFERENTIAL_TARGETS[1:])
def test_targets_agree(example_model, target):
    runs, why = targets.get(target).can_run()
    if not runs:
        pytest.skip(f"{target} cannot run here: {why}")
    name, model, inputs = example_model
    if name not in _reference:
        _reference[name] = run(model, inputs, DIFFERENTIAL_TARGETS[0])
    torch.testing.assert_close(run(model, inputs, target), _reference[name], rtol=RTOL, atol=ATOL)


@pytest.mark.parametrize("tile_size, vector_size", [(16, 8), (64, 16), (8, 4)])
def test_tile_and_vector_sizes(tile_size, vector_size):
    """Sizes that do not divide the tensors (10, 3, 30) end in partial tiles and masked vectors."""
    model = torch.nn.Sequential(torch.nn.Conv2d(3, 10, 3, stride=2), torch.nn.Flatten(), torch.nn.Linear(10 * 15 * 15, 30))
    inputs = (torch.randn(2, 3, 32, 32),)
    with torch.no_grad():
        expected = model(*inputs)
    actual = run(model, inputs, "mlir-cpu", **{"tile-size": tile_size, "vector-size": vector_size})
    torch.testing.assert_close(actual, expected, rtol=RTOL, atol=ATOL)


class Outputs(torch.nn.Module):
    def forward(self, x, y):
        return torch.softmax(x, dim=-1), [x * 2.0, x.sum(dim=1)], x, y * 3


def test_structured_outputs_float64_and_inputs_returned():
    x, y = torch.randn(4, 8), torch.randn(3, dtype=torch.float64)
    compiled = mlc.compile(Outputs(), (x, y), target="mlir-cpu", opt_level=OPT_LEVEL)
    softmax, (doubled, summed), same, tripled = compiled(x.numpy(), y)
    torch.testing.assert_close(softmax, torch.softmax(x, dim=-1), rtol=RTOL, atol=ATOL)
    torch.testing.assert_close(doubled, x * 2.0)
    torch.testing.assert_close(summed, x.sum(dim=1), rtol=RTOL, atol=ATOL)
    torch.testing.assert_close(same, x)
    assert tripled.dtype == torch.float64  # no demotion to f32, unlike IREE
    torch.testing.assert_close(tripled, y * 3)


def test_artifact_is_llvm_bytecode_and_no_vmfb():
    compiled = mlc.compile(torch.nn.ReLU(), (torch.randn(4, 4),), target="mlir-cpu", opt_level=OPT_LEVEL)
    target = targets.get("mlir-cpu")
    assert not target.is_iree and target.can_run() == (True, "")
    assert "dispatches" not in compiled.report
    with pytest.raises(mlc.UserError, match="target 'mlir-cpu' builds no .vmfb"):
        _ = compiled.vmfb
    with ir.Context():
        module = ir.Module.parse(compiled.artifact)
        names = set()
        module.operation.walk(lambda op: names.add(op.name) or ir.WalkResult.ADVANCE)
    assert names - {"builtin.module"} and all(name.startswith("llvm.") for name in names - {"builtin.module"})
    assert "mlc.inputs" in module.operation.attributes and "mlc.results" in module.operation.attributes


def test_wrong_input_is_an_error():
    main = targets.get("mlir-cpu").load(
        mlc.compile(torch.nn.ReLU(), (torch.randn(4, 4),), target="mlir-cpu", opt_level=OPT_LEVEL).artifact
    )
    with pytest.raises(mlc.UserError, match=r"input 0: expected \[4, 4\] float32, got \[4, 5\] float32"):
        main(torch.randn(4, 5).numpy())
    with pytest.raises(mlc.UserError, match="expected 1 input"):
        main()


@pytest.mark.parametrize("options, opt_level, message", [
    ({"tile-size": 24}, 0, r"tile-size \(24\) must be a positive multiple of vector-size \(16\)"),
    ({"tile-sizes": 8}, 0, "target 'mlir-cpu' has no option 'tile-sizes'"),
])
def test_errors(options, opt_level, message):
    with pytest.raises(mlc.UserError, match=message):
        mlc.compile(torch.nn.ReLU(), (torch.randn(4, 4),), target="mlir-cpu", opt_level=opt_level,
                    target_options=options)


class ReturnsOneValueTwice(torch.nn.Module):
    """`return y, y` (and two results CSE merges into one) once crashed the JIT call:
    two out-params shared one buffer. Found by test/fuzz."""

    def forward(self, x):
        y = torch.relu(x)
        return y, y, torch.relu(x) * 1.0


@pytest.mark.parametrize("opt_level", [0, 2])
def test_value_returned_twice(opt_level):
    x = torch.randn(3, 4)
    compiled = mlc.compile(ReturnsOneValueTwice(), (x,), target="mlir-cpu", opt_level=opt_level)
    for result in compiled(x):
        torch.testing.assert_close(result, torch.relu(x))


class Divisions(torch.nn.Module):
    def forward(self, a, b):
        return a // b, a % b, torch.fmod(a, b), torch.div(a, b, rounding_mode="trunc")


@pytest.mark.parametrize("dtype", [torch.int64, torch.int8])
def test_integer_division_does_not_trap(dtype):
    """A vector lane past the end of a range divided by the padding, 0, and x86 trapped:
    SIGFPE killed the process on any integer division (random programs, seed 125038).
    Divisors of 0 and -1 are now replaced before dividing; INT_MIN // -1 wraps to INT_MIN.
    A zero divisor fails the call, as eager raises (mlc.check_nonzero)."""
    a = torch.tensor([7, -7, 5, 9, -100, 8, 7, -9, 3], dtype=dtype)
    b = torch.tensor([2, 3, 1, -4, 3, -1, -1, -1, 5], dtype=dtype)
    compiled = mlc.compile(Divisions(), (a, b), target="mlir-cpu", allow_fallback=False)
    for got, want in zip(compiled(a, b), Divisions()(a, b)):
        assert torch.equal(got, want)
    lowest = torch.full((9,), torch.iinfo(dtype).min, dtype=dtype)
    quotient, remainder, _, truncated = compiled(lowest, -torch.ones(9, dtype=dtype))  # eager traps here
    assert torch.equal(quotient, lowest) and torch.equal(truncated, lowest) and not remainder.any()
    with pytest.raises(mlc.UserError, match="integer division by zero"):  # eager raises ZeroDivisionError
        compiled(a, torch.zeros(9, dtype=dtype))


class RoundsToBfloat16(torch.nn.Module):
    def forward(self, x):
        return x.to(torch.bfloat16).float()


@pytest.mark.parametrize("size", [6, 35])
def test_bfloat16_at_a_buffer_edge(size):
    """A bf16 buffer's last, partial vector is a masked load and store. On a CPU without
    AVX-512-BF16, LLVM called compiler-rt's __truncsfbf2 for it, and the JIT could not
    load `main` (random programs, seed 205014); it now moves the bits as i16."""
    x = torch.randn(size) * 100
    compiled = mlc.compile(RoundsToBfloat16(), (x,), target="mlir-cpu", allow_fallback=False)
    assert torch.equal(compiled(x), RoundsToBfloat16()(x))


def test_a_symbol_the_jit_cannot_resolve_is_an_error_at_load():
    """An artifact calling a function nothing defines fails when it is loaded, with a
    UserError, not a RuntimeError ("Unknown function main") at the first call."""
    artifact = """
    module attributes {mlc.inputs = [], mlc.results = []} {
      llvm.func @mlc_defined_nowhere()
      llvm.func @main() attributes {llvm.emit_c_interface} {
        llvm.call @mlc_defined_nowhere() : () -> ()
        llvm.return
      }
    }"""
    with pytest.raises(mlc.UserError, match="JIT could not link main"):
        targets.get("mlir-cpu").load(artifact.encode())
