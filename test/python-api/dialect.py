# RUN: %PYTHON %s | FileCheck %s
"""The dialect from Python: loading, building ops, verification, pipelines."""

from torch_mlir import ir

import mlc
from mlc import dialects, pipelines
from mlc.dialects import elementwise_ops, reduction_ops

F32 = lambda: ir.F32Type.get()  # noqa: E731


def tensor(*shape):
    return ir.RankedTensorType.get(list(shape), F32())


def run(test):
    print(f"TEST: {test.__name__}")
    test()
    return test


# CHECK-LABEL: TEST: load_is_idempotent
@run
def load_is_idempotent():
    context = dialects.make_context()
    dialects.load_dialect(context)
    dialects.load_dialect(context)
    # CHECK: mlc loaded: True
    print("mlc loaded:", context.is_dialect_loaded("mlc"))


# CHECK-LABEL: TEST: build_ops
@run
def build_ops():
    with dialects.make_context(), ir.Location.name("model.py:3"):
        module = ir.Module.create()
        with ir.InsertionPoint(module.body):
            from torch_mlir.dialects import func

            @func.FuncOp.from_py_func(tensor(2, 3), tensor(3))
            def f(x, bias):
                added = elementwise_ops.AddOp(x, bias, tensor(2, 3)).result
                keep = ir.BoolAttr.get(False)
                axes = ir.DenseI64ArrayAttr.get([1])
                return reduction_ops.ReduceSumOp(added, axes, keep, tensor(2)).result

        # CHECK: "mlc.add"(%arg0, %arg1) : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xf32>
        # CHECK: "mlc.reduce_sum"(%0) {axes = array<i64: 1>, keepdim = false} : (tensor<2x3xf32>) -> tensor<2xf32>
        print(module)
        # CHECK: verifies: True
        print("verifies:", module.operation.verify())


# CHECK-LABEL: TEST: verifier_error_is_located
@run
def verifier_error_is_located():
    with dialects.make_context():
        try:
            ir.Operation.parse(
                'func.func @f(%x: tensor<2x3xf32>) -> tensor<3x2xf32> {\n'
                '  %0 = "mlc.transpose"(%x) {permutation = array<i64: 0, 0>} : (tensor<2x3xf32>) -> tensor<3x2xf32>\n'
                "  return %0 : tensor<3x2xf32>\n}",
                source_name="model.mlir",
            )
        except ir.MLIRError as error:
            # CHECK: loc("model.mlir":2:8) 'mlc.transpose' op permutation [0, 0] is not a permutation of 2 dimensions
            print(error.error_diagnostics[0].location, error.error_diagnostics[0].message)


# CHECK-LABEL: TEST: pipeline_from_python
@run
def pipeline_from_python():
    context = dialects.make_context()
    with context:
        module = ir.Module.parse(
            'func.func @f(%x: tensor<4xf32>) -> tensor<4xf32> {\n'
            '  %0 = "mlc.relu"(%x) : (tensor<4xf32>) -> tensor<4xf32>\n'
            '  %1 = "mlc.relu"(%x) : (tensor<4xf32>) -> tensor<4xf32>\n'
            '  %2 = "mlc.add"(%0, %1) : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>\n'
            "  return %2 : tensor<4xf32>\n}"
        )
    runner = pipelines.PipelineRunner("builtin.module(cse, mlc-lower-to-linalg)", context=context)
    runner.run(module.operation)
    # CHECK: mlc-lower-to-linalg {'mlc.relu': 1, 'mlc.add': 1}
    for record in runner.records:
        print(record.name, record.statistics)
    # CHECK-NOT: "mlc.
    # CHECK: linalg.generic
    print(module)


# CHECK-LABEL: TEST: bad_pipeline
@run
def bad_pipeline():
    try:
        pipelines.PipelineRunner("builtin.module(mlc-lower-to-linalg{tile=4})", context=dialects.make_context())
    except mlc.UserError as error:
        # CHECK: pass 'mlc-lower-to-linalg' has no option 'tile' (options: keep-fusion-groups)
        print(error)
