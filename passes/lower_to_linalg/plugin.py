"""A call of one of mlc's matmul plugin's functions, for an op the plugin runs whole
(mlc.attention, mlc.layer_norm with `library`): a dispatch region of one workgroup
whose body is the call (`iree_codegen.ukernel.generic`). The plugin shares the call's
work among its own threads (driver/backends/native/team.h); IREE neither tiles nor
distributes the region.

Each buffer reaches the function as (base pointer, offset, stride of its outer
dimension), then the scalars, all index-sized (driver/backends/native/mlc_matmul.c).
"""

import struct

from torch_mlir import ir
from torch_mlir.dialects import arith

from ...dialects import iree_flow
from .builders import collapse, empty, expand


def f32_bits(value: float) -> int:
    """An f32's bits, passed as an index (the plugin's scalars are all index-sized)."""
    return struct.unpack("<I", struct.pack("<f", value))[0]


def as_vector(value: ir.Value) -> ir.Value:
    """Any tensor as the vector of its elements (a 0-d one as one element)."""
    if value.type.rank == 0:
        return expand(value, [1], [])
    return collapse(value, [list(range(value.type.rank))]) if value.type.rank > 1 else value


def plugin_call(function: str, inputs: list[ir.Value], result_type: ir.RankedTensorType,
                scalars: list[int]) -> ir.Value:
    """`function`(inputs..., result, scalars...) in a region of one workgroup: its result."""
    result_type.context.allow_unregistered_dialects = True  # IREE's flow ops
    index = ir.IndexType.get()
    region, body = iree_flow.distributed_region(result_type, arith.constant(index, 1))
    with ir.InsertionPoint(body):
        destination = empty(list(result_type.shape), result_type.element_type)  # IREE writes it to the result's binding
        constants = [arith.constant(index, s) for s in scalars]
        iree_flow.flow_return(iree_flow.ukernel_call(function, inputs, destination, constants))
    return region.results[0]
