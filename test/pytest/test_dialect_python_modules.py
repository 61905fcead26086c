"""Wrapping an op in Python searches for no module (dialects/python_modules.py): neither
for mlc's ops nor for ops of a dialect without a Python module in torch-mlir."""

import sys

from torch_mlir import ir

import mlc
from mlc.dialects import make_context, python_modules

MODULE = """
func.func @f(%a: tensor<4xf32>) -> tensor<4xf32> {
  %0 = "mlc.relu"(%a) : (tensor<4xf32>) -> tensor<4xf32>
  %1 = "flow.dispatch.region"() ({
    "flow.return"(%0) : (tensor<4xf32>) -> ()
  }, {}) {operandSegmentSizes = array<i32: 0, 0>} : () -> tensor<4xf32>
  %2 = "util.optimization_barrier"(%1) : (tensor<4xf32>) -> tensor<4xf32>
  return %2 : tensor<4xf32>
}
"""


class Searches:
    """A finder ahead of every other that records the modules asked for."""

    def __init__(self):
        self.names = []

    def find_spec(self, name, path=None, target=None):
        self.names.append(name)


def wrapped_op_names(module: ir.Module) -> list[str]:
    return [op.name for op in module.body.operations[0].regions[0].blocks[0].operations]


def test_wrapping_ops_imports_nothing():
    context = make_context()
    context.allow_unregistered_dialects = True
    with context:
        module = ir.Module.parse(MODULE)
        wrapped_op_names(module)  # each namespace's first wrap may find its module
        searches = Searches()
        sys.meta_path.insert(0, searches)
        try:
            names = wrapped_op_names(module) + wrapped_op_names(module)
        finally:
            sys.meta_path.remove(searches)
    assert names.count("mlc.relu") == 2 and names.count("util.optimization_barrier") == 2
    assert searches.names == []
    assert type(module.body.operations[0].regions[0].blocks[0].operations[0]) is mlc.dialects.elementwise_ops.ReluOp


def test_a_namespace_with_a_module_in_torch_mlir_keeps_it():
    """The prefix comes after torch-mlir's: `linalg` ops still wrap as torch-mlir's classes."""
    python_modules.install()  # a second call adds nothing
    prefixes = list(python_modules._mlir.globals.dialect_search_modules)
    assert prefixes.count(python_modules.PREFIX) == 1
    assert prefixes.index("torch_mlir.dialects") < prefixes.index(python_modules.PREFIX)
