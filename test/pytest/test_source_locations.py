"""Locations from the Python model survive import into mlc ops, so errors and
IR dumps point at the user's own source lines."""

import inspect

import torch
from torch_mlir import ir

from mlc import pipelines
from mlc.driver import compilation as driver
from mlc.driver.backends import targets


class Net(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.linear = torch.nn.Linear(4, 4)

    def forward(self, x):
        return torch.relu(self.linear(x))


def test_mlc_ops_carry_the_model_source_lines():
    _, module = driver.import_model(Net(), (torch.randn(2, 4),))
    pipeline = pipelines.get("O0")
    driver.Compilation(module, target=targets.bind("llvm-cpu"), pipeline=pipeline).run("mlc")
    locations = {}

    def visit(op):
        if op.name.startswith("mlc.") and op.name != "mlc.constant":
            locations[op.name] = str(op.location)
        return ir.WalkResult.ADVANCE

    module.walk(visit)
    forward_line = inspect.getsourcelines(Net.forward)[1] + 1
    assert f'test_source_locations.py":{forward_line}' in locations["mlc.relu"]
    assert f'test_source_locations.py":{forward_line}' in locations["mlc.matmul"]  # called from that line
    assert "linear.py" in locations["mlc.matmul"]  # and inside torch's Linear
