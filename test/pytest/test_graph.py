"""passes/graph.py: what every pass asks of the graph, on graphs deeper than Python's
recursion limit (a real network's activation chain reaches back through every layer)."""

import pytest
from torch_mlir import ir

import mlc.dialects
from mlc.passes.graph import folds_to_constant

DEPTH = 5000


def _chain(source: str) -> ir.Module:
    """`DEPTH` negations of `source`, returned; `%arg` is a function argument, `%c` a constant."""
    lines = ['%c = "mlc.constant"() {value = dense<1.0> : tensor<4xf32>} : () -> tensor<4xf32>', f"%v0 = {source}"]
    lines += [f'%v{i} = "mlc.neg"(%v{i - 1}) : (tensor<4xf32>) -> tensor<4xf32>' for i in range(1, DEPTH)]
    body = "\n  ".join(lines)
    text = f"func.func @f(%arg: tensor<4xf32>) -> tensor<4xf32> {{\n  {body}\n  return %v{DEPTH - 1} : tensor<4xf32>\n}}"
    return ir.Module.parse(text, mlc.dialects.make_context())


def _result(module: ir.Module) -> ir.Value:
    function = module.body.operations[0]
    return function.regions[0].blocks[0].operations[DEPTH].operands[0]


@pytest.mark.parametrize("source, folds", [
    ('"mlc.neg"(%c) : (tensor<4xf32>) -> tensor<4xf32>', True),
    ('"mlc.add"(%c, %arg) : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>', False),
])
def test_folds_to_constant_walks_deep_chains(source, folds):
    assert folds_to_constant(_result(_chain(source))) is folds
