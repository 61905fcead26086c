"""`mlc.coverage`: per torch op type, whether it converts to mlc, lowers, falls
back to torch-mlir, and compiles for each target, decided by really doing it;
each failure names its source line."""

import json
import subprocess
import sys
from pathlib import Path

import pytest
import torch

import mlc
from mlc.passes.convert_torch_to_mlc.patterns import COMPLEX_DECLINED

INPUTS = Path(__file__).resolve().parents[1] / "inputs"
sys.path.insert(0, str(INPUTS))

import fallback_models  # noqa: E402

MIXED_LINE = "fallback_models.py:25"  # the line of Mixed.forward calling kthvalue and erfinv
POLAR_LINE = "fallback_models.py:24"  # Mixed.forward calling Polar.forward (polar, a complex product, view_as_real)


@pytest.fixture(scope="module")
def report():
    return mlc.coverage(fallback_models.Mixed(), (torch.randn(9, 9),))


@pytest.mark.slow
@pytest.mark.iree
def test_converted_op_lowers_and_compiles_everywhere(report):
    linear = report.row("torch.aten.linear")
    assert linear.count == 1 and linear.converts.ok and linear.lowers.ok
    assert "mlc.matmul" in linear.mlc_ops
    assert report.targets == ["llvm-cpu", "vulkan-spirv", "cuda", "mlir-cpu"]
    assert all(verdict.ok for verdict in linear.targets.values())
    assert linear.fallback is None and not linear.failures()


@pytest.mark.slow
@pytest.mark.iree
def test_unconverted_op_compiles_through_the_fallback(report):
    """A product of complex numbers: mlc declines it (with the reason), torch-mlir lowers it."""
    row = report.row("torch.aten.mul.Tensor")
    assert not row.converts.ok and row.converts.detail == f"{COMPLEX_DECLINED} (at {row.sources[0]})"
    assert row.sources[0].endswith(POLAR_LINE)
    assert row.fallback.ok and row.via_fallback and row.lowers is None
    assert row.targets["llvm-cpu"].ok and row.targets["vulkan-spirv"].ok and row.targets["cuda"].ok
    mlir_cpu = row.targets["mlir-cpu"]  # its JIT takes no complex tensors, which these pass between them
    assert not mlir_cpu.ok and "complex<f32>" in mlir_cpu.detail


@pytest.mark.slow
@pytest.mark.iree
@pytest.mark.parametrize("op, made", [("torch.aten.polar", "mlc.complex"), ("torch.aten.view_as_real", "mlc.real")])
def test_complex_ops_convert_and_compile_on_iree(report, op, made):
    row = report.row(op)
    assert row.converts.ok and row.lowers.ok and row.fallback is None and not row.via_fallback
    assert made in row.mlc_ops
    assert row.targets["llvm-cpu"].ok and row.targets["vulkan-spirv"].ok and row.targets["cuda"].ok
    assert not row.targets["mlir-cpu"].ok and "complex<f32>" in row.targets["mlir-cpu"].detail


@pytest.mark.iree
def test_a_refused_fallback_gives_the_reason():
    """A 33x33 determinant: mlc's LU stops at 32x32, and the fallback refuses it
    (torch-mlir's lowering is known wrong); both reasons are in the row."""
    det = mlc.coverage(fallback_models.BigDet(), (torch.randn(33, 33),), targets=["llvm-cpu"]).row("torch.aten.linalg_det")
    assert not det.converts.ok and det.converts.detail.startswith("determinant of a 33x33 matrix: mlc unrolls LU up to 32x32 (at ")
    assert not det.fallback.ok and det.targets["llvm-cpu"].detail.startswith("not compiled: neither mlc nor torch-mlir lowers it")
    assert det.fallback.detail.startswith("refused, known wrong: torch-mlir's lowering (elimination without pivoting")
    assert det.failures()[1].startswith("torch.aten.linalg_det fallback to torch-mlir: refused, known wrong: ")


@pytest.mark.slow
@pytest.mark.iree
def test_a_target_compiler_failure_is_reported_with_its_source_line(report):
    kthvalue = report.row("torch.aten.kthvalue")
    assert kthvalue.fallback.ok
    verdict = kthvalue.targets["llvm-cpu"]
    assert not verdict.ok
    assert "tm_tensor.topk" in verdict.detail and MIXED_LINE in verdict.detail


@pytest.mark.slow
@pytest.mark.iree
def test_op_nothing_lowers_is_reported_with_its_source_line(report):
    erfinv = report.row("torch.aten.erfinv")
    assert not erfinv.converts.ok and not erfinv.fallback.ok
    assert not any(verdict.ok for verdict in erfinv.targets.values())
    failures = erfinv.failures()
    assert failures == [f"torch.aten.erfinv: no conversion to mlc (at {failures[0].split('(at ')[1]}",
                        f"torch.aten.erfinv fallback to torch-mlir: torch-mlir has no lowering for it either "
                        f"(at {failures[1].split('(at ')[1]}"]
    assert all(MIXED_LINE in line for line in failures)


@pytest.mark.slow
@pytest.mark.iree
def test_table_and_json(report):
    table = str(report)
    assert table.splitlines()[0].split() == ["torch", "op", "count", "converts", "to", "mlc", "lowers",
                                             "llvm-cpu", "vulkan-spirv", "cuda", "mlir-cpu", "fallback"]
    row = next(line for line in table.splitlines() if line.startswith("torch.aten.mul.Tensor "))
    assert row.split()[1:] == ["1", "no", "-", "yes*", "yes*", "yes*", "no", "yes"]
    assert "failures:" in table and "torch.aten.kthvalue on llvm-cpu (via fallback): " in table
    as_json = json.loads(json.dumps(report.to_dict()))
    assert {row["op"] for row in as_json["ops"]} >= {"torch.aten.linear", "torch.aten.erfinv"}


def test_one_target_and_cache():
    first = mlc.coverage(torch.nn.ReLU(), (torch.randn(3, 5),), targets=["mlir-cpu"])
    again = mlc.coverage(torch.nn.ReLU(), (torch.randn(7, 2),), targets=["mlir-cpu"])
    assert first.targets == ["mlir-cpu"] and first.row("torch.aten.relu").targets["mlir-cpu"].ok
    assert again.row("torch.aten.relu").mlc_ops == ["mlc.relu"]


def test_unknown_target_is_an_error():
    with pytest.raises(mlc.UserError, match="unknown target 'tpu'"):
        mlc.coverage(torch.nn.ReLU(), (torch.randn(3),), targets=["tpu"])


def test_not_a_module_is_an_error():
    with pytest.raises(mlc.UserError, match="expected a torch.nn.Module"):
        mlc.coverage(lambda x: x, (torch.randn(3),))


@pytest.mark.slow
@pytest.mark.iree
def test_resnet18_coverage_is_fast():
    """Instances sharing a signature are checked once: ResNet-18 well under a minute."""
    examples = Path(__file__).resolve().parents[2] / "examples"
    code = ("import sys, time; sys.path.insert(0, %r); import large_models, mlc; "
            "m = large_models.make_resnet18().eval(); x = large_models.example_inputs('resnet18'); "
            "t = time.perf_counter(); r = mlc.coverage(m, x); print(time.perf_counter() - t); "
            "print(r.row('torch.aten.conv2d').count, all(v.ok for v in r.row('torch.aten.conv2d').targets.values()))"
            % str(examples))
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout.split("\n")
    seconds = float(out[0])
    assert out[1] == "20 True"
    assert seconds < 60, f"ResNet-18 coverage took {seconds:.1f} s"


class BesselAndRelu(torch.nn.Module):
    def forward(self, x):
        return torch.special.bessel_j0(x) + torch.relu(x)  # line BESSEL


@pytest.mark.iree
def test_an_op_torch_mlir_does_not_know_is_a_row_not_an_error():
    """torch-mlir has no op for special_bessel_j0: it is reported in the table, and the
    rest of the model is checked (zeros stand in for it, and are not reported)."""
    report = mlc.coverage(BesselAndRelu(), (torch.randn(4),), targets=["llvm-cpu"])
    assert [row.op for row in report.rows] == ["torch.aten.add.Tensor", "torch.aten.relu",
                                               "torch.aten.special_bessel_j0"]
    bessel = report.row("torch.aten.special_bessel_j0")
    assert not bessel.converts.ok and not bessel.fallback.ok and not bessel.targets["llvm-cpu"].ok
    line = next(i for i, text in enumerate(open(__file__).read().splitlines(), 1) if text.endswith("# line BESSEL"))
    assert bessel.sources == [f"test/pytest/test_coverage.py:{line}"] or bessel.sources[0].endswith(f"test_coverage.py:{line}")
    assert bessel.failures()[0].startswith("torch.aten.special_bessel_j0: torch-mlir has no op for it")
    assert report.row("torch.aten.relu").targets["llvm-cpu"].ok
