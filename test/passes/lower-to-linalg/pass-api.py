# RUN: %PYTHON %s | FileCheck %s

"""The pass from Python: its statistics, and the error for an op with no lowering."""

from torch_mlir import ir

import mlc.dialects
from mlc.dialects.elementwise_ops import ReluOp
from mlc.passes import PASSES, lower_to_linalg
from mlc.pipelines import PipelineRunner

SOURCE = """
func.func @f(%a: tensor<4x4xf32>, %b: tensor<4x4xi32>) -> tensor<4x4xf32> {
  %0 = "mlc.fusion_group"() ({
    %1 = "mlc.cast"(%b) : (tensor<4x4xi32>) -> tensor<4x4xf32>
    %2 = "mlc.matmul"(%a, %1) : (tensor<4x4xf32>, tensor<4x4xf32>) -> tensor<4x4xf32>
    %3 = "mlc.relu"(%2) : (tensor<4x4xf32>) -> tensor<4x4xf32>
    "mlc.yield"(%3) : (tensor<4x4xf32>) -> ()
  }) : () -> tensor<4x4xf32>
  %4 = "mlc.relu"(%0) : (tensor<4x4xf32>) -> tensor<4x4xf32>
  return %4 : tensor<4x4xf32>
}
"""

# A chain of three concats along one axis lowers as one, but each link counts.
CONCAT_CHAIN = """
func.func @f(%a: tensor<1x3xf32>, %b: tensor<2x3xf32>, %c: tensor<3x3xf32>, %d: tensor<4x3xf32>) -> tensor<10x3xf32> {
  %0 = "mlc.concat"(%a, %b) {axis = 0 : i64} : (tensor<1x3xf32>, tensor<2x3xf32>) -> tensor<3x3xf32>
  %1 = "mlc.concat"(%0, %c) {axis = 0 : i64} : (tensor<3x3xf32>, tensor<3x3xf32>) -> tensor<6x3xf32>
  %2 = "mlc.concat"(%1, %d) {axis = 0 : i64} : (tensor<6x3xf32>, tensor<4x3xf32>) -> tensor<10x3xf32>
  return %2 : tensor<10x3xf32>
}
"""


def run(source):
    context = mlc.dialects.make_context()
    runner = PipelineRunner("builtin.module(mlc-lower-to-linalg)", context=context)
    with context:
        module = ir.Module.parse(source)
        runner.run(module.operation)
    return runner


# CHECK-LABEL: TEST: registered
# CHECK: mlc-lower-to-linalg: Lowers mlc ops to linalg, tensor, arith and math ops on tensors.
print("TEST: registered")
print(f"mlc-lower-to-linalg: {PASSES['mlc-lower-to-linalg'].description()}")

# CHECK-LABEL: TEST: statistics
# CHECK: {'mlc.cast': 1, 'mlc.fusion_group': 1, 'mlc.matmul': 1, 'mlc.relu': 2}
print("TEST: statistics")
print(dict(sorted(run(SOURCE).records[0].statistics.items())))

# CHECK-LABEL: TEST: concat_chain_statistics
# CHECK: {'mlc.concat': 3}
print("TEST: concat_chain_statistics")
print(dict(sorted(run(CONCAT_CHAIN).records[0].statistics.items())))

# CHECK-LABEL: TEST: no_lowering
# CHECK: loc("-":6:10): error: 'mlc.relu' op has no lowering to linalg
# CHECK-NEXT: loc("-":9:8): error: 'mlc.relu' op has no lowering to linalg
print("TEST: no_lowering")
relu = lower_to_linalg.LOWERINGS.pop(ReluOp)
try:
    run(SOURCE)
except ir.MLIRError as error:
    for diagnostic in error.error_diagnostics:
        print(diagnostic.location, diagnostic.message, sep=": error: ")
finally:
    lower_to_linalg.LOWERINGS[ReluOp] = relu
