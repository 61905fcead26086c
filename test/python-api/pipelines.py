# RUN: %PYTHON %s | FileCheck %s
"""Named pipelines from Python: list, drop, reorder and extend with one's own pass."""

import dataclasses

from torch_mlir import ir

import mlc
from mlc import dialects, passes, pipelines


def run(test):
    print(f"TEST: {test.__name__}")
    test()
    return test


# CHECK-LABEL: TEST: levels
@run
def levels():
    # CHECK: O0: lowering only
    # CHECK: O1: constant folding and simplification, then lowering
    # CHECK: O2: O1 plus BatchNorm folding, NHWC layout and fusion into IREE dispatches
    print(pipelines.describe())
    # CHECK: ['mlc-fold-batchnorm', 'mlc-fold-constants', 'mlc-matvec-to-reduction', 'mlc-convert-layout', 'mlc-conv-to-matmul', 'mlc-fold-constants', 'mlc-form-update-slice', 'mlc-move-row-transposes', 'mlc-sink-reshapes', 'mlc-simplify', 'mlc-form-gelu', 'cse', 'mlc-fuse', 'mlc-lower-to-linalg', 'mlc-form-dispatch-regions', 'mlc-attention-output-views', 'canonicalize', 'cse', 'mlc-guard-reduction-rereads', 'mlc-guard-unit-slices', 'mlc-guard-nested-pads']
    print(pipelines.get("O2").names())


# CHECK-LABEL: TEST: edit
@run
def edit():
    pipeline = pipelines.get("O2").drop("mlc-fuse").drop("mlc-convert-layout").move("cse", 0)
    # Without mlc-fuse the lowering inlines nothing and forms no dispatch regions.
    # CHECK: builtin.module(cse, mlc-fold-batchnorm, mlc-fold-constants, mlc-matvec-to-reduction, mlc-conv-to-matmul, mlc-fold-constants, mlc-form-update-slice, mlc-move-row-transposes, mlc-sink-reshapes, mlc-simplify, mlc-form-gelu, mlc-lower-to-linalg, canonicalize, cse, mlc-guard-reduction-rereads, mlc-guard-unit-slices, mlc-guard-nested-pads)
    print(pipeline.text())
    # A fresh copy each time: edits do not leak.
    # CHECK: mlc-fuse in a new O2: True
    print("mlc-fuse in a new O2:", "mlc-fuse" in pipelines.get("O2").names())


@passes.register
class CountRelus(passes.Pass):
    """Counts relus (a user's own pass)."""

    name = "test-count-relus"
    scale: int = dataclasses.field(default=1, metadata={"help": "multiplies the count"})

    def run(self, module):
        def visit(op):
            if op.name == "mlc.relu":
                self.count("relus", self.scale)
            return ir.WalkResult.ADVANCE

        module.walk(visit)


# CHECK-LABEL: TEST: extend_with_own_pass
@run
def extend_with_own_pass():
    context = dialects.make_context()
    with context:
        module = ir.Module.parse(
            'func.func @f(%x: tensor<4xf32>) -> tensor<4xf32> {\n'
            '  %0 = "mlc.relu"(%x) : (tensor<4xf32>) -> tensor<4xf32>\n'
            "  return %0 : tensor<4xf32>\n}"
        )
    instance = CountRelus(scale=10)
    pipeline = pipelines.get("O1").insert(0, instance).append("test-count-relus")
    runner = pipelines.PipelineRunner(pipeline.passes + pipeline.lowering(), context=context)
    runner.run(module.operation)
    # CHECK: test-count-relus {'relus': 10}
    # CHECK: test-count-relus {'relus': 1}
    for record in runner.records:
        if record.name == "test-count-relus":
            print(record.name, record.statistics)


# CHECK-LABEL: TEST: errors
@run
def errors():
    for call in (lambda: pipelines.get("O3"), lambda: pipelines.get("O2").drop("mlc-nothing")):
        try:
            call()
        except mlc.UserError as error:
            print(error)
    # CHECK: unknown pipeline 'O3' (known: O0, O1, O2)
    # CHECK: pipeline O2 has no pass 'mlc-nothing'
