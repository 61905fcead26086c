"""The ops of IREE's dialects that mlc builds: `flow`'s dispatch region, its
terminator and a workgroup's id, `util`'s optimization barrier, and `iree_codegen`'s
call of a plugin's function (a ukernel). Every other file builds them through these functions.

IREE's dialects are not registered in torch-mlir's context (IREE's compiler carries
its own MLIR), so these are unregistered ops there, spelled as IREE's parser reads
them: the generic form, with the `operandSegmentSizes` that IREE's op definition
declares (result dynamic sizes, then workload operands).
"""

from torch_mlir import ir
from torch_mlir.dialects import arith

DISPATCH_REGION = "flow.dispatch.region"
RETURN = "flow.return"


def in_dispatch_region(op: ir.Operation) -> bool:
    """Whether `op` sits in a `flow.dispatch.region`: one of mlc's own regions."""
    parent = op.parent
    while parent is not None and parent.name != "builtin.module":
        if parent.name == DISPATCH_REGION:
            return True
        parent = parent.parent
    return False


OPTIMIZATION_BARRIER = "util.optimization_barrier"


def optimization_barrier(value: ir.Value) -> ir.Value:
    """`util.optimization_barrier` of `value`, right after its producer: IREE neither
    fuses nor folds across it, and it costs nothing at run time."""
    producer = value.owner.operation
    producer.context.allow_unregistered_dialects = True
    with ir.InsertionPoint(producer), producer.location:
        barrier = ir.Operation.create(OPTIMIZATION_BARRIER, results=[value.type], operands=[value])
    barrier.move_after(producer)
    return barrier.results[0]


def dispatch_region(result_type: ir.Type, dynamic_sizes: list[ir.Value]) -> tuple[ir.Operation, ir.Block]:
    """A `flow.dispatch.region` at the current insertion point, computing one value of
    `result_type` whose dynamic sizes are `dynamic_sizes`; and its (empty) body block."""
    region = ir.Operation.create(
        DISPATCH_REGION,
        results=[result_type],
        operands=dynamic_sizes,
        attributes={"operandSegmentSizes": ir.DenseI32ArrayAttr.get([len(dynamic_sizes), 0])},
        regions=2,  # the body, and the (empty) workgroup-count region
    )
    return region, region.regions[0].blocks.append()


def flow_return(*values: ir.Value) -> ir.Operation:
    """The terminator of a dispatch region's body (returning its value) or of its count
    region (returning the workgroup counts along x, y and z)."""
    return ir.Operation.create(RETURN, operands=list(values))


WORKGROUP_ID = "flow.dispatch.workgroup.id"
UKERNEL = "iree_codegen.ukernel.generic"


def distributed_region(result_type: ir.Type, workgroups: ir.Value) -> tuple[ir.Operation, ir.Block]:
    """A `flow.dispatch.region` that runs `workgroups` workgroups along x, each of which
    computes its own part of the result (`workgroup_id`); and its (empty) body block.
    IREE neither tiles nor distributes such a region's body: its count region says how
    many workgroups there are."""
    region = ir.Operation.create(
        DISPATCH_REGION,
        results=[result_type],
        operands=[workgroups],
        attributes={"operandSegmentSizes": ir.DenseI32ArrayAttr.get([0, 1])},
        regions=2,
    )
    count = region.regions[1].blocks.append(ir.IndexType.get())
    with ir.InsertionPoint(count):
        one = arith.constant(ir.IndexType.get(), 1)
        flow_return(count.arguments[0], one, one)
    return region, region.regions[0].blocks.append()


def workgroup_id(dimension: int = 0) -> ir.Value:
    return _workgroup_value(WORKGROUP_ID, dimension)


def _workgroup_value(name: str, dimension: int) -> ir.Value:
    index = ir.IndexType.get()
    return ir.Operation.create(name, results=[index],
                               attributes={"dimension": ir.IntegerAttr.get(index, dimension)}).results[0]


def ukernel_call(name: str, inputs: list[ir.Value], output: ir.Value, scalars: list[ir.Value]) -> ir.Value:
    """IREE's `iree_codegen.ukernel.generic`: a call of the function `name` that an
    executable plugin provides, writing `output`. Each buffer is passed as (base pointer,
    offset, stride of its outer dimension), then `scalars` in order."""
    strided = ir.Attribute.parse("[" + ", ".join(["[0]"] * (len(inputs) + 1)) + "]")
    return ir.Operation.create(
        UKERNEL,
        results=[output.type],
        operands=[*inputs, output, *scalars],
        attributes={
            "u_kernel_fn_name": ir.StringAttr.get(name),
            "strided_dims": strided,
            "operandSegmentSizes": ir.DenseI32ArrayAttr.get([len(inputs), 1, len(scalars)]),
        },
    ).results[0]
