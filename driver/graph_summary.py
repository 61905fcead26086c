"""What the compile report says about an mlc graph: how many ops compute, the matmul
work of one call, the ops of each fusion group."""

import collections

from torch_mlir import ir

from ..dialects.compute_ops import Conv2dOp, MatmulOp, QuantizedMatmulOp
from ..dialects.data_ops import ConstantOp
from ..dialects.fusion_ops import FusionGroupOp, YieldOp
from ..dialects.op_base import MlcOp
from ..passes.graph import ops_of

STRUCTURE = (ConstantOp, FusionGroupOp, YieldOp)  # mlc ops that compute nothing
CONTRACTIONS = (MatmulOp, Conv2dOp, QuantizedMatmulOp)


def mlc_ops(module: ir.Operation) -> list[MlcOp]:
    """Every mlc op in `module`, nested ones included, in order."""
    return ops_of(module, MlcOp)


def count_ops(module: ir.Operation) -> dict:
    """mlc ops that compute (not constants or fusion structure), and fusion groups."""
    kinds = collections.Counter(type(op) for op in mlc_ops(module))
    computing = sum(n for kind, n in kinds.items() if not issubclass(kind, STRUCTURE))
    return {"mlc ops": computing, "fusion groups": kinds[FusionGroupOp]}


def matmul_flops(module: ir.Operation) -> int | None:
    """The multiply-adds (x2) of the matmuls and convolutions of one call; None when a
    size is dynamic. The work that decides how IREE should run the model."""
    flops = [op.flops() for op in mlc_ops(module) if isinstance(op, CONTRACTIONS)]
    return None if None in flops else sum(flops)


def fusion_groups(module: ir.Operation) -> list[list[str]]:
    """The op names of each fusion group, for the report."""
    return [[inner.name for inner in op.body.blocks[0].operations][:-1]
            for op in mlc_ops(module) if isinstance(op, FusionGroupOp)]
