"""`mlc-outline-library-dispatches`: each dispatch region that calls mlc's plugin (a
library matmul, attention's heads) becomes a `flow.executable` of its own and a
`flow.dispatch` of it, as IREE's own dispatch outlining would make it later.

Why before IREE: IREE wraps the exported function in an ABI stub that calls it, and
inlines the call early only when it may clone every op of the body, which the plugin
call (`iree_codegen.ukernel.generic`) may not be. The call then stays until after
IREE's stream conversion, where an argument the function updates in place (a static
cache's row, `mlc.update_slice`) crossed it as a copy: GPT-2's decode step copied its
24 caches, 7 MB, at every call. Outlined, the body holds only dispatches, and the call
is inlined before.

The executable's function takes each tensor the region reads from outside as a
read-only binding, loaded whole, and each result as a write-only binding; scalar
constants it reads are cloned inside. The export's workgroup count is the region's
count region. Regions with dynamic sizes, that read a scalar computed at run time, or
whose workgroups each compute a part of the result (plans on IREE's workers) stay
regions; the decode steps, whose caches this is for, run on the calling thread, one
workgroup per call.
"""

from torch_mlir import ir

from ..dialects import iree_flow
from .graph import any_op
from .registry import Pass, register

EXECUTABLE_PREFIX = "mlc_library"


def _binding_type(tensor_type: ir.RankedTensorType, access: str) -> ir.Type:
    return ir.Type.parse(f"!iree_tensor_ext.dispatch.tensor<{access}:{tensor_type}>")


def _calls_plugin(region: ir.Operation) -> bool:
    return any(op.operation.name == iree_flow.UKERNEL for op in region.regions[0].blocks[0].operations)


def _splits_among_workgroups(region: ir.Operation) -> bool:
    """Whether each workgroup computes a part of the result (`flow.dispatch.workgroup.id`):
    outlined as a whole-result store, every workgroup's result was a stack buffer (ResNet's
    library matmuls on IREE's workers: 200704 bytes, over IREE's 32 KiB limit)."""
    return any_op(region, lambda op: op.name == iree_flow.WORKGROUP_ID)


def _inside(value: ir.Value, region: ir.Operation) -> bool:
    owner = value.owner
    op = (owner.owner if isinstance(owner, ir.Block) else owner).operation
    while op is not None and op.name != "func.func":
        if op == region:
            return True
        op = op.parent
    return False


def _captured(region: ir.Operation) -> list[ir.Value] | None:
    """The values the region's body reads from outside, first use first; None where one
    of them is neither a static tensor nor a scalar constant."""
    captured = []

    def visit(op):
        for operand in op.operands:
            if not _inside(operand, region) and not any(operand == seen for seen in captured):
                captured.append(operand)
        return ir.WalkResult.ADVANCE

    for op in region.regions[0].blocks[0].operations:
        op.operation.walk(visit)
    for value in captured:
        if isinstance(value.type, ir.RankedTensorType):
            if not value.type.has_static_shape:
                return None
        elif isinstance(value.owner, ir.Block) or value.owner.name != "arith.constant":
            return None
    return captured


def _static_slice(shape: list[int]) -> dict:
    rank = len(shape)
    return {"static_offsets": ir.DenseI64ArrayAttr.get([0] * rank), "static_sizes": ir.DenseI64ArrayAttr.get(shape),
            "static_strides": ir.DenseI64ArrayAttr.get([1] * rank)}


def _load(binding: ir.Value, tensor_type: ir.RankedTensorType) -> ir.Value:
    return ir.Operation.create(
        "iree_tensor_ext.dispatch.tensor.load", results=[tensor_type], operands=[binding],
        attributes={"operandSegmentSizes": ir.DenseI32ArrayAttr.get([1, 0, 0, 0, 0]),
                    **_static_slice(list(tensor_type.shape))}).results[0]


def _store(value: ir.Value, binding: ir.Value) -> None:
    ir.Operation.create(
        "iree_tensor_ext.dispatch.tensor.store", operands=[value, binding],
        attributes={"operandSegmentSizes": ir.DenseI32ArrayAttr.get([1, 1, 0, 0, 0, 0]),
                    **_static_slice(list(value.type.shape))})


def _function(name: str, region: ir.Operation, tensors: list[ir.Value], constants: list[ir.Value]) -> ir.Operation:
    """The executable's function: loads, the region's body cloned, stores."""
    inputs = [_binding_type(v.type, "readonly") for v in tensors]
    outputs = [_binding_type(r.type, "writeonly") for r in region.results]
    function = ir.Operation.create(
        "func.func", regions=1,
        attributes={"sym_name": ir.StringAttr.get(name),
                    "function_type": ir.TypeAttr.get(ir.FunctionType.get(inputs + outputs, []))})
    block = function.regions[0].blocks.append(*inputs, *outputs)
    mapping = []
    with ir.InsertionPoint(block):
        for value in constants:
            mapping.append((value, value.owner.clone().results[0]))
        for value, binding in zip(tensors, block.arguments):
            mapping.append((value, _load(binding, value.type)))
        returned = _clone_body(region.regions[0].blocks[0], mapping)
        for value, binding in zip(returned, list(block.arguments)[len(tensors):]):
            _store(value, binding)
        ir.Operation.create("func.return")
    return function


def _clone_body(body: ir.Block, mapping: list) -> list[ir.Value]:
    """Clones the body's ops at the insertion point, reading the values `mapping` pairs
    (old, new) in place of the old, nested ops' operands too; the values its
    `flow.return` returns, mapped."""
    for op in body.operations:
        if op.operation.name == iree_flow.RETURN:
            return [_mapped(v, mapping) for v in op.operands]
        clone = op.operation.clone()

        def remap(nested):
            for index, operand in enumerate(nested.operands):
                nested.operands[index] = _mapped(operand, mapping)
            return ir.WalkResult.ADVANCE

        clone.walk(remap)
        mapping.extend(zip(op.results, clone.results))
    raise ValueError("a dispatch region's body ends with flow.return")


def _mapped(value: ir.Value, mapping: list) -> ir.Value:
    for old, new in mapping:
        if old == value:
            return new
    return value


@register
class OutlineLibraryDispatches(Pass):
    """Regions that call mlc's plugin become executables of their own."""

    name = "mlc-outline-library-dispatches"

    def run(self, module):
        module.context.allow_unregistered_dialects = True
        body = module.regions[0].blocks[0]
        main = next((op for op in body.operations if op.operation.name == "func.func"), None)
        if main is None:
            return
        regions = [op.operation for op in main.regions[0].blocks[0].operations
                   if op.operation.name == iree_flow.DISPATCH_REGION and _calls_plugin(op.operation)]
        for number, region in enumerate(regions):
            if self._outline(region, f"{EXECUTABLE_PREFIX}_{number}", main):
                self.count("library dispatches outlined")
            else:
                self.count("library regions kept")

    def _outline(self, region: ir.Operation, name: str, main) -> bool:
        segments = list(ir.DenseI32ArrayAttr(region.attributes["operandSegmentSizes"]))
        captured = _captured(region)
        if (segments[0] or captured is None or _splits_among_workgroups(region)
                or not all(isinstance(r.type, ir.RankedTensorType) for r in region.results)):
            return False
        tensors = [v for v in captured if isinstance(v.type, ir.RankedTensorType)]
        constants = [v for v in captured if not isinstance(v.type, ir.RankedTensorType)]
        workload = list(region.operands)
        with ir.InsertionPoint(main.operation), region.location:
            self._executable(name, region, tensors, constants)
        with ir.InsertionPoint(region), region.location:
            dispatch = ir.Operation.create(
                "flow.dispatch", results=[r.type for r in region.results], operands=[*workload, *tensors],
                attributes={
                    "entry_points": ir.ArrayAttr.get([ir.SymbolRefAttr.get([name, name])]),
                    "operandSegmentSizes": ir.DenseI32ArrayAttr.get([len(workload), len(tensors), 0, 0]),
                    "tied_operands": ir.ArrayAttr.get([ir.IntegerAttr.get(ir.IndexType.get(), -1)] * len(region.results)),
                })
        for old, new in zip(region.results, dispatch.results):
            old.replace_all_uses_with(new)
        region.erase()
        return True

    def _executable(self, name: str, region: ir.Operation, tensors: list, constants: list) -> None:
        executable = ir.Operation.create(
            "flow.executable", regions=1,
            attributes={"sym_name": ir.StringAttr.get(name), "sym_visibility": ir.StringAttr.get("private")})
        block = executable.regions[0].blocks.append()
        with ir.InsertionPoint(block):
            export = ir.Operation.create(
                "flow.executable.export", regions=1,
                attributes={"sym_name": ir.StringAttr.get(name), "function_ref": ir.FlatSymbolRefAttr.get(name)})
            count = region.regions[1].blocks[0]
            count_block = export.regions[0].blocks.append(*[a.type for a in count.arguments])
            with ir.InsertionPoint(count_block):
                counts = _clone_body(count, list(zip(count.arguments, count_block.arguments)))
                ir.Operation.create(iree_flow.RETURN, operands=counts)
            inner = ir.Operation.create("builtin.module", regions=1)
            inner_block = inner.regions[0].blocks.append()
            with ir.InsertionPoint(inner_block):
                _function(name, region, tensors, constants)
            ir.Operation.create("flow.executable_end")
