"""What passes ask an mlc op, declared on its class: how it fuses, and how a change of
layout passes through it.

As MLIR declares traits in ODS and TVM registers `TOpPattern` on each op, an mlc op
class states these facts itself, and the planner (`mlc-fuse`) and the layout pass
(`mlc-convert-layout`) read them from the op; no pass keeps a list of op names.
The other facts of an op are registered by its class, beside the code that uses them
(passes/op_registry.py): its constant folder (`@folds` in `passes/fold_constants.py`),
its lowering (`@lowers` in `passes/lower_to_linalg/`), the torch ops that convert to it
(`@converts` in `passes/convert_torch_to_mlc/`). `test/pytest/test_op_facts.py` checks
that every op has each fact, or declines it with a reason.
"""

import dataclasses
import enum


class FusionKind(enum.IntEnum):
    """How an op fuses, in TVM's terms (relay `OpPatternKind`). The order matters: a
    group's kind is the largest of its members', and the planner compares with `<=`."""

    ELEMENTWISE = 0  # result[i] depends on operand[i] only
    BROADCAST = 1  # elementwise with an operand stretched along some axes
    INJECTIVE = 2  # each result element reads one input element (reshape, transpose, slice)
    REDUCTION = 3  # result elements combine many input elements along axes
    OUT_ELEMENTWISE_FUSABLE = 4  # heavy ops whose output can absorb elementwise consumers (conv, matmul)
    OPAQUE = 8  # never fused


class Layout(enum.Enum):
    """How a transpose of an op's operands passes through it (`mlc-convert-layout`)."""

    ELEMENTWISE = "every operand is laid out as the result: a transpose sinks through all of them"
    CHANNEL_AXIS = "operand 0 is laid out as the result, and the `axis` attribute follows it (batch_norm)"
    KEEPDIM_REDUCTION = "operand 0 is laid out as the result when `keepdim` holds, and `axes` follow it"
    FIXED = "a transpose stops at the op"


@dataclasses.dataclass(frozen=True)
class Declined:
    """A fact an op does not have, and why (a fold of a convolution, the lowering of a
    fusion group's terminator). A value, not an exception: code that has the fact but
    cannot handle one instance of the op raises `passes.op_registry.InstanceDeclined`."""

    reason: str
