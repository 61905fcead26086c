"""The fast subset of the OpInfo conformance suite (test/conformance): a spread of
PyTorch's own op samples through mlc strict, each compared with eager, and checked
against test/conformance/expected.txt: a regression fails here, and a newly passing
case is a warning (take it off the list). `make conformance` runs every case."""

import sys
import warnings
from pathlib import Path

import pytest

pytestmark = pytest.mark.iree  # the workers compile each case with IREE
CONFORMANCE = Path(__file__).resolve().parents[1] / "conformance"
sys.path.insert(0, str(CONFORMANCE))

import cases  # noqa: E402
import run  # noqa: E402

# One or two of each family: elementwise, binary with 0-d operands, reductions, shape
# ops, indexing, matmuls, convolution and pooling, normalization, scans, sorting.
FAST_OPS = [
    "abs", "add", "mul", "clamp", "where", "sigmoid", "nn.functional.gelu", "pow", "remainder", "logcumsumexp",
    "sum", "mean", "amax", "argmax", "var", "logsumexp", "cumsum", "sort", "topk",
    "reshape", "permute", "cat", "stack", "flip", "roll", "squeeze", "unsqueeze", "expand", "narrow", "tril",
    "index_select", "gather", "take_along_dim", "nn.functional.embedding",
    "mm", "bmm", "addmm", "nn.functional.conv2d", "nn.functional.max_pool2d", "nn.functional.avg_pool2d",
    "nn.functional.layer_norm", "softmax", "nn.functional.scaled_dot_product_attention", "nn.functional.interpolate.nearest",
]


@pytest.fixture(scope="module")
def results():
    return run.run_all(cases.case_names(set(FAST_OPS)), ["mlc"], jobs=2, timeout=300, log=lambda _: None)


def test_the_fast_subset_covers_its_ops(results):
    ran = {r["case"].rsplit(":", 2)[0] for r in results}
    assert ran == set(FAST_OPS), f"not in OpInfo (renamed?): {sorted(set(FAST_OPS) - ran)}"


def test_no_regression(results):
    regressions, newly_passing = run.check(results, run.read_expected())
    for line in newly_passing:  # noticed, in pytest's warnings summary
        warnings.warn(line, stacklevel=1)
    assert not regressions, "\n".join(regressions)
