"""Every mlc op has each of its facts, or declines it with a reason (dialects/facts.py,
gathered by driver/op_facts.py).

An op added without one of them fails here, instead of silently never fusing,
stopping every transpose, never folding or failing only when a model reaches it.
"""

import pytest

from mlc.dialects import MlcOp, op_classes
from mlc.dialects.facts import Declined
from mlc.driver.tools import op_facts
from mlc.passes import convert_torch_to_mlc, fold_constants, lower_to_linalg
from mlc.passes.convert_torch_to_mlc.patterns import CONVERSIONS, kept_whole


@pytest.mark.parametrize("cls", op_classes(), ids=lambda cls: cls.OPERATION_NAME)
def test_op_has_every_fact(cls):
    assert op_facts.facts(cls).missing() == []


@pytest.mark.parametrize("declined", [fold_constants.DECLINED, lower_to_linalg.DECLINED,
                                      convert_torch_to_mlc.NOT_CONVERTED])
def test_declined_facts_give_reasons(declined):
    for cls, reason in declined.items():
        assert isinstance(reason, Declined) and len(reason.reason) > 10, cls


def test_tables_name_only_registered_ops():
    registered = set(op_classes())
    for table in (fold_constants.FOLDERS, fold_constants.DECLINED, lower_to_linalg.LOWERINGS,
                  lower_to_linalg.DECLINED, convert_torch_to_mlc.NOT_CONVERTED):
        assert set(table) <= registered
    assert {cls for conversion in CONVERSIONS.values() for cls in conversion.makes} <= registered


def test_a_half_added_op_is_caught():
    """An op class with only a lowering: every other fact is reported missing (none is
    inherited from MlcOp)."""

    class HalfAdded(MlcOp):
        pass

    lower_to_linalg.LOWERINGS[HalfAdded] = lambda op: None
    try:
        assert op_facts.facts(HalfAdded).missing() == ["fusion_kind", "layout_rule", "constant_folder", "torch_ops"]
    finally:
        del lower_to_linalg.LOWERINGS[HalfAdded]


def test_a_fact_and_its_refusal_together_are_caught():
    cls = next(iter(fold_constants.DECLINED))
    fold_constants.FOLDERS[cls] = lambda op, *arrays: arrays[0]
    try:
        assert op_facts.facts(cls).missing() == ["constant_folder"]
    finally:
        del fold_constants.FOLDERS[cls]


def test_kept_whole_ops_are_the_ones_mlc_needs_whole():
    """torch-mlir's backend-legal ops come from the conversions: those mlc's graph
    passes need whole (BatchNorm folding, attention, layout) are among them."""
    legal = kept_whole()
    for name in ("aten.linear", "aten.conv2d", "aten.batch_norm", "aten.scaled_dot_product_attention",
                 "aten.layer_norm", "aten.softmax.int", "aten.gelu", "aten.silu", "aten.softplus"):
        assert name in legal
    assert all(f"torch.{name}" in CONVERSIONS for name in legal)

