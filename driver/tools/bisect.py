"""`mlc.bisect(model, args)`, `mlc-compile ... --bisect`: where a wrong result comes from.

1. The pass: the pipeline runs one stage at a time (the conversion from torch, then
   each graph pass); after each, a copy of the module is lowered, compiled for the
   target and run. The first stage after which the result differs from eager is the
   culprit. (Every copy is lowered to run, so a divergence right after the conversion
   may also be the lowering of the converted ops.)
2. The op: in that stage's output, the last top-level op of each source location (the
   one whose value the Python line computed: mlc may split one torch op in several)
   becomes an extra result of `main`, and is compared with the values eager computed
   at the same location (the same Python call stack), by shape, NCHW read as NHWC
   where the layout pass changed it. The first, in program order, that equals none of
   them is the op the pass broke.
"""

import dataclasses
import re

import numpy as np
import torch
from torch.utils import _pytree as pytree
from torch_mlir import ir
from torch_mlir.dialects import func

from ... import pipelines
from ...dialects import make_context
from ...dialects.data_ops import ConstantOp
from ...dialects.fusion_ops import FusionGroupOp
from ...dialects.locations import source_line
from ...dialects.op_base import MlcOp
from ...dialects.shape_ops import ReshapeOp, TransposeOp
from ...pipelines.torch_to_mlc import torch_to_mlc
from ..backends import iree as iree_backend
from ..backends import targets
from ..compilation import resolve_pipeline, run_stage
from ..frontend import torch_import

_STACK_FRAME = re.compile(r'File "([^"]+)", line ([0-9]+),')
_LOCATION_FRAME = re.compile(r'"([^"]*)":(\d+):\d+')
CONVERSION = "mlc-convert-torch-to-mlc"


@dataclasses.dataclass
class BisectReport:
    """Where mlc's result first departs from eager; every field None when it never does."""

    pass_name: str | None = None
    op: str | None = None
    location: str | None = None
    max_error: float | None = None
    final_error: float = 0.0  # the whole pipeline's, against eager

    def __str__(self) -> str:
        if self.pass_name is None:
            return f"mlc matches eager after every pass (max error {self.final_error:.3g})"
        where = (f"first wrong op: {self.op} at {self.location} (max error {self.max_error:.3g})"
                 if self.op else "no op of its output could be compared with eager")
        return f"the result departs from eager after pass '{self.pass_name}'; {where}"


def bisect(model, example_args, *, target: str = "llvm-cpu", opt_level: int = 2, pipeline=None,
           rtol: float = 1e-4, atol: float = 1e-4) -> BisectReport:
    """See the module docstring. Values agree within rtol, and atol times max(1, max |eager|)."""
    args = tuple(example_args) if isinstance(example_args, (tuple, list)) else (example_args,)
    chosen = targets.bind(target)
    pipeline = resolve_pipeline(opt_level, pipeline)
    program = torch_import.export(model, args)
    with torch.no_grad():
        expected = [t.detach().numpy() for t in pytree.tree_leaves(model(*args))]
    inputs = [iree_backend.host_array(a) for a in pytree.tree_leaves(args)]
    module = torch_import.import_program(program, make_context()).operation
    run = Runner(chosen, inputs, rtol, atol)

    stages = [(CONVERSION, torch_to_mlc())] + [(_name(e), [e]) for e in pipeline.graph_passes(chosen)]
    done = []
    for name, elements in stages:
        run_stage(name, elements, module)
        done += [e for e in elements if name != CONVERSION]
        error = run.max_error(run.outputs(module, done), expected)
        if not run.close(error, expected):
            report = BisectReport(pass_name=name, final_error=error)
            eager = eager_values(torch_import.export(model, args), args)  # importing consumed the first
            return _first_wrong_op(report, module, done, run, eager)
    return BisectReport(final_error=error)


def _name(element) -> str:
    return element.name if not isinstance(element, str) else element.split("{")[0]


class Runner:
    """Lowers a copy of a module, compiles it for the target and runs it on the inputs."""

    def __init__(self, target, inputs, rtol, atol):
        self.target, self.inputs, self.rtol, self.atol = target, inputs, rtol, atol

    def outputs(self, module: ir.Operation, graph_passes: list, extra=None) -> list[np.ndarray]:
        copy = module.clone()
        try:
            if extra is not None:
                extra(copy)
            lowering = pipelines.Pipeline("bisect", "", list(graph_passes)).lowering(self.target)
            run_stage("lowering to linalg", lowering, copy)
            return self.target.load(self.target.compile(copy))(*self.inputs)
        finally:
            copy.erase()

    def tolerance(self, expected: np.ndarray) -> float:
        return self.atol * max(1.0, float(np.abs(expected).max(initial=0)))

    def max_error(self, actual: list, expected: list) -> float:
        return max((_error(a, e) for a, e in zip(actual, expected)), default=0.0)

    def close(self, error: float, expected: list) -> bool:
        return error <= min((self.tolerance(e) + self.rtol * float(np.abs(e).max(initial=0)) for e in expected),
                            default=0.0)


def _error(actual: np.ndarray, expected: np.ndarray) -> float:
    if actual.shape != expected.shape:
        return float("inf")
    return float(np.abs(actual.astype(np.float64) - expected.astype(np.float64)).max(initial=0))


# --- the op ---------------------------------------------------------------------------


def eager_values(program: torch.export.ExportedProgram, args) -> dict[tuple, list[np.ndarray]]:
    """Every tensor eager computes, by the Python call stack that computed it
    (innermost frame first, as torch-mlir's locations nest)."""
    values: dict[tuple, list[np.ndarray]] = {}
    graph_module = program.module()

    class Recorder(torch.fx.Interpreter):
        def run_node(self, node):
            result = super().run_node(node)
            stack = _STACK_FRAME.findall(node.meta.get("stack_trace") or "")
            frames = tuple((file, int(line)) for file, line in reversed(stack))
            if frames and isinstance(result, torch.Tensor):
                values.setdefault(frames, []).append(result.detach().numpy().copy())
            return result

    with torch.no_grad():
        Recorder(graph_module).run(*pytree.tree_leaves(args))
    return values


def _first_wrong_op(report: BisectReport, module: ir.Operation, done: list, run: Runner, eager: dict) -> BisectReport:
    body = list(_main(module).regions[0].blocks[0].operations)
    at: dict[str, list] = {}
    for i, op in enumerate(body):
        if _comparable(op):
            at.setdefault(str(_location(op)), []).append(i)
    indices = sorted(positions[-1] for positions in at.values())  # the last op of a line computes its value
    if not indices:
        return report
    candidates = [body[i] for i in indices]
    outputs = run.outputs(module, done, extra=lambda copy: _return_also(copy, indices))
    values = outputs[len(outputs) - len(candidates):]
    for op, value in zip(candidates, values):
        frames = tuple((f, int(line)) for f, line in _LOCATION_FRAME.findall(str(_location(op))))
        counterparts = [_as_layout(e, value.shape) for e in eager.get(frames, [])]
        counterparts = [e for e in counterparts if e is not None]
        if not counterparts:
            continue
        error = min(_error(value, e) for e in counterparts)
        if not run.close(error, counterparts[:1]):
            line = [body[i] for i in at[str(_location(op))]]
            return dataclasses.replace(report, op=_describe(line), location=source_line(_location(op)), max_error=error)
    return report


def _main(module: ir.Operation):
    return next(op for op in module.regions[0].blocks[0].operations if isinstance(op.opview, func.FuncOp))


def _comparable(op) -> bool:
    view = op.opview
    return (isinstance(view, MlcOp) and not isinstance(view, ConstantOp) and len(op.results) == 1
            and isinstance(op.results[0].type, ir.RankedTensorType) and "\":" in str(_location(op)))


def _location(op) -> ir.Location:
    """An op's location; a fusion group's is its root's (the op it yields)."""
    if isinstance(op.opview, FusionGroupOp):
        terminator = list(op.regions[0].blocks[0].operations)[-1]
        producer = terminator.operands[0].owner
        return producer.location if not isinstance(producer, ir.Block) else op.location
    return op.location


def _describe(line: list) -> str:
    """The ops of one source line that compute (not the transposes and reshapes around them)."""
    computing = [op for op in line if not isinstance(op.opview, (TransposeOp, ReshapeOp))] or line[-1:]
    return ", ".join(dict.fromkeys(_name_of(op) for op in computing))


def _name_of(op) -> str:
    if not isinstance(op.opview, FusionGroupOp):
        return op.name
    inner = [o.name.removeprefix("mlc.") for o in op.regions[0].blocks[0].operations][:-1]
    return f"mlc.fusion_group({', '.join(inner)})"


def _return_also(module: ir.Operation, indices: list[int]) -> None:
    """Makes the results of the ops at `indices` of main's body extra results of main."""
    function = _main(module)
    body = list(function.regions[0].blocks[0].operations)
    extra = [body[i].results[0] for i in indices]
    old_return = body[-1]
    with ir.InsertionPoint(old_return), old_return.location:
        func.ReturnOp(list(old_return.operands) + extra)
    old_return.erase()
    signature = ir.FunctionType(ir.TypeAttr(function.attributes["function_type"]).value)
    with module.context:
        function.attributes["function_type"] = ir.TypeAttr.get(
            ir.FunctionType.get(signature.inputs, list(signature.results) + [v.type for v in extra]))


def _as_layout(eager: np.ndarray, shape) -> np.ndarray | None:
    """Eager's value in the shape mlc computes it in: as is, or NCHW as NHWC."""
    if eager.shape == tuple(shape):
        return eager
    if eager.ndim == 4 and eager.transpose(0, 2, 3, 1).shape == tuple(shape):
        return eager.transpose(0, 2, 3, 1)
    return None
