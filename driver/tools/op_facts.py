"""Every mlc op with its facts (dialects/facts.py), gathered from where each lives: the
op's class (fusion kind, layout rule), the folder and lowering tables, the conversions
that make it. `mlc-opt --list-ops` prints them; test/pytest/test_op_facts.py checks
that each op has every fact or declines it with a reason.
"""

import dataclasses

from ...dialects import op_classes
from ...dialects.facts import Declined, FusionKind, Layout
from ...passes import convert_torch_to_mlc, fold_constants, lower_to_linalg
from ...passes.convert_torch_to_mlc.patterns import CONVERSIONS

MISSING = None  # a fact an op neither has nor declines


@dataclasses.dataclass
class OpFacts:
    """One op's facts: each a value, a `Declined`, or MISSING."""

    name: str
    summary: str
    fusion_kind: FusionKind | Declined | None
    layout_rule: Layout | None
    constant_folder: bool | Declined | None
    lowering: bool | Declined | None
    torch_ops: tuple[str, ...] | Declined | None

    def missing(self) -> list[str]:
        """The facts this op neither has nor declines."""
        return [field.name for field in dataclasses.fields(self)[2:] if getattr(self, field.name) is MISSING]


def _table_fact(cls: type, present, declined: dict):
    """True when `cls` has the fact, its Declined when it declines it; MISSING for
    neither, and for both (a fact and a refusal contradict each other)."""
    if (cls in present) == (cls in declined):
        return MISSING
    return True if cls in present else declined[cls]


def _torch_ops(cls: type) -> tuple[str, ...] | Declined | None:
    """The torch ops whose conversions make `cls`, or why none does."""
    made_by = tuple(sorted(name for name, conversion in CONVERSIONS.items() if cls in conversion.makes))
    declined = convert_torch_to_mlc.NOT_CONVERTED.get(cls)
    if bool(made_by) == (declined is not None):
        return MISSING
    return made_by or declined


def facts(cls: type) -> OpFacts:
    fusion_kind = getattr(cls, "fusion_kind", MISSING)
    layout_rule = getattr(cls, "layout_rule", MISSING)
    return OpFacts(
        name=getattr(cls, "OPERATION_NAME", cls.__name__),
        summary=" ".join((cls.__doc__ or "").split("\n\n")[0].split()),
        fusion_kind=fusion_kind if isinstance(fusion_kind, (FusionKind, Declined)) else MISSING,
        layout_rule=layout_rule if isinstance(layout_rule, Layout) else MISSING,
        constant_folder=_table_fact(cls, fold_constants.FOLDERS, fold_constants.DECLINED),
        lowering=_table_fact(cls, lower_to_linalg.LOWERINGS, lower_to_linalg.DECLINED),
        torch_ops=_torch_ops(cls),
    )


def _show(fact) -> str:
    if fact is MISSING:
        return "MISSING"
    if isinstance(fact, Declined):
        return f"no ({fact.reason})"
    if isinstance(fact, (FusionKind, Layout)):
        return fact.name.lower()
    if isinstance(fact, tuple):
        return ", ".join(name.removeprefix("torch.aten.") for name in fact)
    return "yes"


def describe() -> str:
    """What `mlc-opt --list-ops` prints: each op, what it computes, and its facts."""
    lines = []
    for cls in op_classes():
        op = facts(cls)
        lines.append(f"{op.name}: {op.summary}")
        lines.append(f"    fuses: {_show(op.fusion_kind)}; layout: {_show(op.layout_rule)}; "
                     f"folds: {_show(op.constant_folder)}; lowers: {_show(op.lowering)}")
        lines.append(f"    from torch: {_show(op.torch_ops)}")
    return "\n".join(lines)
