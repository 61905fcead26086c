"""The two ops of IREE's `flow` dialect that mlc builds: a dispatch region and its
terminator. Every other file builds them through these functions.

IREE's dialects are not registered in torch-mlir's context (IREE's compiler carries
its own MLIR), so these are unregistered ops there, spelled as IREE's parser reads
them: the generic form, with the `operandSegmentSizes` that IREE's op definition
declares (result dynamic sizes, then workload operands).
"""

from torch_mlir import ir

DISPATCH_REGION = "flow.dispatch.region"
RETURN = "flow.return"


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


def flow_return(value: ir.Value) -> ir.Operation:
    """The terminator of a dispatch region's body, returning `value`."""
    return ir.Operation.create(RETURN, operands=[value])
