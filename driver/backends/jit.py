"""The way out without IREE: target "mlir-cpu", mlc's own path to this CPU.

compile: linalg on tensors -> mlc's lowering passes -> the LLVM dialect, as MLIR
bytecode (the artifact). The stages, each a pass mlc-opt runs on its own:

    mlc-decompose-linalg        linalg.softmax -> linalg.generic ops
    mlc-bufferize               tensors -> memrefs; results become out-parameters
    mlc-lower-linalg-to-affine  affine loop nests, tiled for the L1 cache
    mlc-vectorize               innermost contiguous loops on vectors
    mlc-lower-to-llvm           the LLVM dialect, main with a C interface

load: MLIR's ExecutionEngine JIT-compiles the artifact (LLVM -O3, host CPU) and
`main` is called through its C interface with one memref descriptor per input
and per result. The results are numpy arrays allocated here, so no buffer
crosses back and none needs freeing; the artifact carries main's tensor types
(`mlc.inputs`, `mlc.results`) to allocate them.

A run-time check that fails (`cf.assert`: mlc's checks, such as an integer divisor
with a zero) calls back into Python, which raises once `main` returns: MLIR's own
lowering of `cf.assert` would abort the whole process.
"""

import ctypes
import io

import numpy as np
from torch_mlir import ir
from torch_mlir.dialects import arith, func, scf
from torch_mlir.execution_engine import ExecutionEngine
from torch_mlir.runtime import as_ctype, make_nd_memref_descriptor, make_zero_d_memref_descriptor

from ...dialects import iree_flow
from ...errors import UserError
from ...pipelines import PipelineRunner
from ...pipelines.to_llvm import DEFAULT_TILE_SIZE, DEFAULT_VECTOR_SIZE, to_llvm
from .. import diagnostics
from .target import Target

DTYPES = {
    "f64": np.float64, "f32": np.float32, "f16": np.float16,
    "i64": np.int64, "i32": np.int32, "i16": np.int16, "i8": np.int8, "i1": np.bool_,
}


def _sizes(options: dict) -> tuple[int, int]:
    tile, vector = int(options.get("tile-size", DEFAULT_TILE_SIZE)), int(options.get("vector-size", DEFAULT_VECTOR_SIZE))
    if tile < 1 or vector < 1 or tile % vector:
        raise UserError(f"target 'mlir-cpu': tile-size ({tile}) must be a positive multiple of vector-size ({vector}), "
                        "since the vectorizer widens whole tiles")
    return tile, vector


def _main_type(module: ir.Operation) -> ir.FunctionType:
    for op in module.regions[0].blocks[0].operations:
        if op.operation.name == "func.func" and ir.StringAttr(op.attributes["sym_name"]).value == "main":
            return ir.FunctionType(ir.TypeAttr(op.attributes["function_type"]).value)
    raise UserError("target 'mlir-cpu': the module has no func.func @main")


def _check_tensor(kind: str, index: int, type_: ir.Type) -> None:
    if not isinstance(type_, ir.RankedTensorType) or not type_.has_static_shape or str(type_.element_type) not in DTYPES:
        raise UserError(f"target 'mlir-cpu' takes static tensors of {', '.join(DTYPES)}: "
                        f"main's {kind} {index} is {type_}")


CHECK_FAILED = "mlc_check_failed"  # called with the index of the failed check's message in `mlc.checks`


def _checks_call_back(module: ir.Operation) -> None:
    """Each `cf.assert` becomes a call of CHECK_FAILED where its condition is false; the
    messages go in the module's `mlc.checks`, for `load`."""
    asserts = []
    module.walk(lambda op: (asserts.append(op) if op.name == "cf.assert" else None) or ir.WalkResult.ADVANCE)
    messages = []
    i32 = ir.IntegerType.get_signless(32)
    for check in asserts:
        message = ir.StringAttr(check.attributes["msg"]).value
        if message not in messages:
            messages.append(message)
        with ir.InsertionPoint(check), check.location:
            failed = arith.xori(check.operands[0], arith.constant(ir.IntegerType.get_signless(1), 1))
            branch = scf.IfOp(failed)
            with ir.InsertionPoint(branch.then_block):
                func.CallOp([], ir.FlatSymbolRefAttr.get(CHECK_FAILED), [arith.constant(i32, messages.index(message))])
                scf.YieldOp([])
        check.erase()
    if messages:
        with ir.InsertionPoint.at_block_begin(module.regions[0].blocks[0]), ir.Location.unknown():
            declaration = func.FuncOp(CHECK_FAILED, ([i32], []), visibility="private")
            declaration.attributes["llvm.emit_c_interface"] = ir.UnitAttr.get()
        module.attributes["mlc.checks"] = ir.ArrayAttr.get([ir.StringAttr.get(m) for m in messages])


def compile_module(module: ir.Operation, options: dict, cache=None) -> bytes:
    """Lowers a linalg-on-tensors module to the LLVM dialect; returns it as bytecode.
    (No executable cache: MLIR's own lowering is quick, and the JIT compiles at load.)"""
    tile, vector = _sizes(options)
    names = set()
    module.walk(lambda op: names.add(op.name) or ir.WalkResult.ADVANCE)
    if iree_flow.DISPATCH_REGION in names:
        raise UserError("target 'mlir-cpu' takes linalg without IREE dispatch regions: "
                        "lower with fusion groups inlined (opt_level 0 or 1)")
    main = _main_type(module)
    for kind, types in (("input", main.inputs), ("result", main.results)):
        for index, type_ in enumerate(types):
            _check_tensor(kind, index, type_)
    module = module.clone()  # the caller's module stays linalg on tensors
    with module.context:
        module.attributes["mlc.inputs"] = ir.ArrayAttr.get([ir.TypeAttr.get(t) for t in main.inputs])
        module.attributes["mlc.results"] = ir.ArrayAttr.get([ir.TypeAttr.get(t) for t in main.results])
        _checks_call_back(module)
    try:
        PipelineRunner(to_llvm(tile, vector), context=module.context).run(module)
    except ir.MLIRError as error:
        collector = diagnostics.DiagnosticCollector()
        collector.add_error(error)
        raise UserError("\n".join(d.format() for d in collector.diagnostics)) from None
    buffer = io.BytesIO()
    module.write_bytecode(buffer)
    return buffer.getvalue()


def _specs(module: ir.Module, name: str) -> list[tuple[tuple[int, ...], np.dtype]]:
    """(shape, numpy dtype) of each tensor type listed in a module attribute."""
    specs = []
    for attr in ir.ArrayAttr(module.operation.attributes[name]):
        tensor = ir.RankedTensorType(ir.TypeAttr(attr).value)
        specs.append((tuple(tensor.shape), np.dtype(DTYPES[str(tensor.element_type)])))
    return specs


def _descriptor_class(shape: tuple[int, ...], dtype: np.dtype):
    """The ctypes struct of a memref descriptor. Made once per tensor at load time, not
    per call: ctypes caches a pointer type for every struct class, forever."""
    element = as_ctype(dtype)
    return make_nd_memref_descriptor(len(shape), element) if shape else make_zero_d_memref_descriptor(element)


def _describe(descriptor_class, array: np.ndarray):
    """A descriptor of a C-contiguous array (offset 0, strides in elements)."""
    descriptor = descriptor_class()
    descriptor.allocated = array.ctypes.data
    descriptor.aligned = array.ctypes.data_as(type(descriptor.aligned))
    descriptor.offset = 0
    if array.ndim:
        descriptor.shape[:] = array.shape
        descriptor.strides[:] = [stride // array.itemsize for stride in array.strides]
    return descriptor


def load(artifact: bytes, parameters=None, driver=None):
    """`main` of an artifact, JIT-compiled: a function from numpy arrays to a list of numpy arrays."""
    context = ir.Context()
    with context:
        module = ir.Module.parse(artifact)
        inputs, results = _specs(module, "mlc.inputs"), _specs(module, "mlc.results")
        checks = ([ir.StringAttr(m).value for m in ir.ArrayAttr(module.operation.attributes["mlc.checks"])]
                  if "mlc.checks" in module.operation.attributes else [])
        engine = ExecutionEngine(module, opt_level=3)
    classes = [_descriptor_class(shape, dtype) for shape, dtype in inputs + results]
    failed = []  # the messages of this call's failed checks

    @ctypes.CFUNCTYPE(None, ctypes.c_int32)
    def check_failed(index):
        failed.append(checks[index])

    if checks:
        engine.register_runtime(CHECK_FAILED, check_failed)
    try:
        engine.lookup("main")  # the JIT links here: a symbol it cannot resolve fails now, not at the first call
    except RuntimeError as error:
        raise UserError(f"target 'mlir-cpu': LLVM's JIT could not link main ({error}); the 'JIT session error' "
                        "before this names the symbols it could not resolve") from None

    def main(*arrays):
        if len(arrays) != len(inputs):
            raise UserError(f"expected {len(inputs)} input(s), got {len(arrays)}")
        arrays = [np.require(array, requirements="C") for array in arrays]
        for index, (array, (shape, dtype)) in enumerate(zip(arrays, inputs)):
            if array.shape != shape or array.dtype != dtype:
                raise UserError(f"input {index}: expected {list(shape)} {dtype}, got {list(array.shape)} {array.dtype}")
        outputs = [np.empty(shape, dtype) for shape, dtype in results]
        descriptors = [_describe(cls, array) for cls, array in zip(classes, arrays + outputs)]
        failed.clear()
        engine.invoke("main", *[ctypes.pointer(ctypes.pointer(d)) for d in descriptors])
        if failed:
            raise UserError(failed[0])
        return outputs

    main.engine, main.context, main.check_failed = engine, context, check_failed  # they must outlive the calls
    return main


MLIR_CPU = Target(
    name="mlir-cpu",
    description="mlc's own CPU path: tiled, vectorized affine loops, JIT-compiled by MLIR's ExecutionEngine",
    needs="a CPU; no IREE",
    compile=compile_module,
    load=load,
    can_run=lambda: (True, ""),
    is_iree=False,
    options=("tile-size", "vector-size"),
    check_values=_sizes,
    dispatch_regions=False,
    precisions=("f32", "bf16", "int8"),
)
