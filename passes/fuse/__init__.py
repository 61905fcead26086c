"""`mlc-fuse`: the fusion planner. Each group becomes one `mlc.fusion_group`,
which becomes exactly one IREE dispatch (see `mlc-form-dispatch-regions`).

Each op states how it fuses, in TVM's terms (`fusion_kind`, dialects/facts.py), and
ops are grouped with the post-dominator algorithm (planner.py). Every op that
computes at run time goes into a group, singletons included, so the executable has
one dispatch per group. Left outside: ops that decline a fusion kind (constants,
reshapes, the fusion structure) and ops computing only from constants, which IREE
evaluates at compile time (at O2 mlc-fold-constants has folded them already); an op
with no operands (a random op) is not one of them: it fuses with its users.

`isolate` names ops the target compiles only alone (IREE's CPU code generation: a
concat's slices written into one buffer, and a window copy fused with a transpose,
fail there); the driver sets it from the target (`Target.runs_alone`).
"""

import collections
import dataclasses
import math

from torch_mlir import ir

from ...dialects.compute_ops import Conv2dOp, Conv3dOp, MatmulOp, spatial_dims
from ...dialects.data_ops import ConstantOp
from ...dialects.facts import Declined, FusionKind
from ...dialects.fusion_ops import FusionGroupOp, YieldOp
from ...dialects.op_base import MlcOp, i64_array, normalize_axes, op_classes
from ...dialects.reduction_ops import ReductionOp
from ...dialects.shape_ops import SliceOp
from ...errors import UserError
from ..registry import Pass, register
from .planner import SINK, Graph, plan


def _mlc_op(op: ir.Operation) -> MlcOp | None:
    view = op.opview
    return view if isinstance(view, MlcOp) else None


def _graph_ops(block: ir.Block, outside: frozenset = frozenset()) -> list[ir.Operation]:
    """The ops to plan: mlc ops that compute at run time, less those kept `outside`."""
    constant = set()  # ops whose value is known at compile time
    planned = []
    for op in block.operations:
        view = _mlc_op(op)
        if view is None:
            continue
        operands = [value.owner for value in op.operands]
        # an op of no operands but a constant computes at run time (a random op): it fuses with its users
        if isinstance(view, ConstantOp) or operands and all(not isinstance(o, ir.Block) and o.operation in constant
                                                            for o in operands):
            constant.add(op.operation)
        elif not isinstance(view.fusion(), Declined) and type(view) not in outside:
            planned.append(op)
    return planned


def split_reductions(op: ir.Operation) -> bool:
    """A reduction over axes that are not one run of neighbours: [0, 3] or [0, 2] of four.
    Fused with an elementwise producer, IREE 3.13 computes such a dispatch wrong on
    vulkan-spirv, in the first calls after loading (garbage up to 1e22, then the right
    numbers; `(x * x).sum((0, 3))`, found by the random programs); alone, it is right."""
    view = op.opview
    if not isinstance(view, ReductionOp):
        return False
    axes = sorted(normalize_axes(i64_array(view, "axes"), op.operands[0].type.rank))
    return axes != list(range(axes[0], axes[0] + len(axes)))


def build_graph(ops: list[ir.Operation], isolated: frozenset = frozenset(), alone=None,
                matmul_producers: bool = True) -> Graph:
    """The planner's graph of `ops`; an op of an `isolated` class, or one the `alone`
    predicate picks, fuses with nothing; without `matmul_producers`, a matmul's group
    takes none of its producers."""
    index = {op.operation: i for i, op in enumerate(ops)}
    successors = []
    for op in ops:
        users = {index.get(use.owner.operation, SINK) for result in op.results for use in result.uses}
        successors.append(sorted(users))
    shapes = [tuple(op.results[0].type.shape) for op in ops]
    kinds = [FusionKind.OPAQUE if type(op.opview) in isolated or (alone is not None and alone(op)) else op.opview.fusion()
             for op in ops]
    return Graph(kinds, successors, shapes, [_takes_part(op, kind) for op, kind in zip(ops, kinds)],
                 [_grouped_convolution(op) for op in ops],
                 None if matmul_producers else [isinstance(op.opview, MatmulOp) for op in ops])


def _grouped_convolution(op: ir.Operation) -> bool:
    """A 2-D or 3-D convolution of several groups that is not depthwise (one input and one
    output channel per group): its lowering is a grouped linalg convolution whose result
    is reshaped back to channels, which IREE 3.13 could not tile beside a broadcast
    consumer (`F.conv2d(x, w, groups=3) + y` with y of [1, 1, 1]: seed 130036), nor, on
    vulkan-spirv, beside a ReLU (`relu(F.conv2d(x, w, groups=3))` with two filters per
    group: seed 150005): "write affecting operations on global resources are restricted
    to workgroup distributed contexts"."""
    view = op.opview
    if not isinstance(view, (Conv2dOp, Conv3dOp)):
        return False
    groups = ir.IntegerAttr(view.attributes["groups"]).value
    if isinstance(view, Conv2dOp):  # NCHW or NHWC
        layout = ir.StringAttr(view.attributes["layout"]).value
        channels, filters = (spatial_dims(v.type.shape, layout)[1] for v in (view.input, view.result))
    else:  # NCDHW
        channels, filters = view.input.type.shape[1], view.result.type.shape[1]
    return groups > 1 and not groups == channels == filters


def _takes_part(op: ir.Operation, kind: FusionKind) -> bool:
    """An injective op whose result is a part of its first operand (a slice, a gather
    of fewer rows): fewer elements, or a size known only at run time."""
    if kind != FusionKind.INJECTIVE or not op.operands:
        return False
    operand, result = op.operands[0].type, op.results[0].type
    if not (isinstance(operand, ir.RankedTensorType) and operand.has_static_shape and result.has_static_shape):
        return isinstance(op.opview, SliceOp)
    return math.prod(result.shape) < math.prod(operand.shape)


def emit_group(members: list[ir.Operation]) -> ir.Operation:
    """Moves `members` (in program order; the last is the output) into a fusion_group."""
    root = members[-1]
    with ir.InsertionPoint(root), root.location:
        group = FusionGroupOp(root.results[0].type)
        block = group.body.blocks.append()
        with ir.InsertionPoint(block):
            terminator = YieldOp(root.results[0])
    root.results[0].replace_all_uses_except(group.result, terminator.operation)
    for member in members:
        member.move_before(terminator.operation)
    return group


@register
class Fuse(Pass):
    """Plans kernels: groups mlc ops into fusion_groups by TVM's dominator-tree rules."""

    name = "mlc-fuse"
    isolate: str = dataclasses.field(
        default="", metadata={"help": "comma-separated ops the target compiles only alone, e.g. concat,im2col"})
    outside: str = dataclasses.field(
        default="", metadata={"help": "comma-separated ops left out of every group, for IREE to place, e.g. concat"})
    split_reductions_alone: bool = dataclasses.field(
        default=False, metadata={"help": "a reduction over axes that are not one run (0 and 3 of four) is a group "
                                         "of its own: no producer fuses into it (IREE 3.13's Vulkan code)"})
    grouped_convolutions_alone: bool = dataclasses.field(
        default=False, metadata={"help": "a grouped convolution that is not depthwise is a group of its own: not "
                                         "even an elementwise consumer joins it (IREE 3.13's Vulkan code)"})
    matmuls_take_no_producers: bool = dataclasses.field(
        default=False, metadata={"help": "a matmul's group takes none of its producers, only consumers (IREE's data "
                                         "tiling packs the operands inside the matmul's dispatch)"})

    def __post_init__(self):
        _ = self.isolated, self.left_outside  # an unknown op name is an error when the pipeline is built

    @property
    def isolated(self) -> frozenset[type]:
        """The op classes `isolate` names."""
        return self._classes("isolate", self.isolate)

    @property
    def left_outside(self) -> frozenset[type]:
        """The op classes `outside` names."""
        return self._classes("outside", self.outside)

    def _classes(self, option: str, text: str) -> frozenset[type]:
        classes = {cls.short_name(): cls for cls in op_classes()}
        names = [name.strip() for name in text.split(",") if name.strip()]
        unknown = [name for name in names if name not in classes]
        if unknown:
            raise UserError(f"option '{option}' of pass '{self.name}' names no mlc op: '{unknown[0]}'")
        return frozenset(classes[name] for name in names)

    def run(self, module):
        for function in _functions(module):
            self._fuse_block(function.regions[0].blocks[0])

    def _fuse_block(self, block: ir.Block) -> None:
        ops = _graph_ops(block, self.left_outside)
        if not ops:
            return
        members = collections.defaultdict(list)
        graph = build_graph(ops, self.isolated, self._alone(), matmul_producers=not self.matmuls_take_no_producers)
        for op, group in zip(ops, plan(graph)):
            members[group].append(op)
        for group_ops in members.values():
            emit_group(group_ops)
            self.count("fusion groups")
            self.count(f"ops in groups of {min(len(group_ops), 4)}{'+' if len(group_ops) >= 4 else ''}", len(group_ops))


    def _alone(self):
        """The predicate of the ops that fuse with nothing on this target, or None."""
        predicates = [split_reductions] * self.split_reductions_alone + [_grouped_convolution] * self.grouped_convolutions_alone
        return (lambda op: any(predicate(op) for predicate in predicates)) if predicates else None


def _functions(module: ir.Operation) -> list[ir.Operation]:
    return [op for op in module.regions[0].blocks[0].operations if op.operation.name == "func.func"]
