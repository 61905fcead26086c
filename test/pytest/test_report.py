"""The compile report: typed fields, and the JSON document whose keys users read."""

import json

import pytest
import torch

import mlc
from mlc.driver.report import PassRecord, Report, Retried, StageRecord

# The keys a compile of a CNN on llvm-cpu writes, as users' scripts read them.
CNN_KEYS = {"target", "pipeline", "passes", "precision", "ops", "stages", "dynamic shapes", "matmul flops",
            "fusion groups", "matmul library", "executable cache", "runtime driver", "dispatches",
            "dispatches by kind", "data tiling", "distinct kernels", "seconds"}


def _report() -> Report:
    report = Report(target="llvm-cpu", pipeline="O2", passes=["mlc-fuse"])
    report.stages.append(StageRecord("O2 graph passes", 0.5, (PassRecord("mlc-fuse", {"groups": 2}, 0.25),)))
    report.stages.append(StageRecord("compile for llvm-cpu", 1.0))
    report.stages.append(StageRecord("lowering", 0.1, (PassRecord("mlc-fuse", {"groups": 3, "kept": 1}, 0.0),)))
    return report


def test_the_json_document_has_the_fields_set_and_no_others():
    report = _report()
    report.matmul_flops = 12
    document = report.to_json()
    assert list(document) == ["target", "pipeline", "passes", "precision", "ops", "stages", "matmul flops"]
    assert document["stages"][1] == {"stage": "compile for llvm-cpu", "seconds": 1.0}  # no "passes": none ran
    assert document["stages"][0]["passes"] == [{"name": "mlc-fuse", "statistics": {"groups": 2}, "seconds": 0.25}]
    assert json.loads(json.dumps(document)) == document


def test_reading_by_json_key_reads_the_field():
    report = _report()
    report.retried = Retried("O1", "stack allocation", "compiled at -O1")
    assert report["retried"] == {"pipeline": "O1", "because": "stack allocation", "note": "compiled at -O1"}
    assert "retried" in report and "fallback" not in report and "no such key" not in report
    assert report.get("fallback", {}) == {}
    with pytest.raises(KeyError):
        report["dispatches"]


def test_pass_statistics_sum_over_stages():
    report = _report()
    assert report.pass_statistics("mlc-fuse") == {"groups": 5, "kept": 1}
    assert report.pass_statistic("mlc-fuse", "groups") == 5
    assert report.pass_statistic("mlc-simplify", "groups") == 0


def test_record_refuses_a_field_the_report_does_not_have():
    report = _report()
    report.record(matmul_library={"library": []})
    assert report.matmul_library == {"library": []}
    with pytest.raises(AttributeError, match="no field matmul library"):
        report.record(**{"matmul library": {}})


@pytest.mark.iree
def test_a_compile_writes_the_keys_users_read(tmp_path):
    model = torch.nn.Sequential(torch.nn.Conv2d(3, 8, 3), torch.nn.ReLU(), torch.nn.Flatten(), torch.nn.LazyLinear(4))
    x = torch.randn(1, 3, 8, 8)
    model(x)
    path = tmp_path / "report.json"
    compiled = mlc.compile(model.eval(), (x,), report=str(path))
    written = json.loads(path.read_text())
    assert set(written) == CNN_KEYS
    assert written == compiled.report.to_json()
    assert written["runtime driver"] == compiled.runtime_driver == compiled.report.runtime_driver
    assert written["ops"]["after optimization"]["fusion groups"] == len(compiled.report.fusion_groups) > 0
