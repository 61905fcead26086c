"""Conformance cases from PyTorch's own op database (OpInfo, in the torch wheel).

A case is one sample of one op at one dtype, made into a module whose tensor
arguments are its inputs (everything else is a constant of the module). Case names
are stable across processes: "<op>[.<variant>]:<dtype>:<sample index>", and samples
are drawn with a fixed seed, so a worker process rebuilds the same case from its name.
"""

import functools

import torch
import torch.utils._pytree as pytree

DTYPES = {"float32": torch.float32, "int64": torch.int64}
SAMPLES_PER_DTYPE = {"float32": 1, "int64": 1}

# Ops whose results are not values to compare: random draws and uninitialized memory.
# Their cases check shape and dtype only; test_random_ops.py checks the draws' statistics.
RANDOM = {
    "bernoulli", "normal", "normal.number_mean", "normal.in_place", "uniform", "multinomial", "rand_like", "randn_like",
    "randint_like", "randint", "randn", "rand", "nn.functional.dropout", "nn.functional.dropout2d",
    "nn.functional.dropout3d", "nn.functional.alpha_dropout", "nn.functional.feature_alpha_dropout.with_train",
    "nn.functional.feature_alpha_dropout.without_train", "nn.functional.rrelu", "cauchy", "exponential",
    "geometric", "log_normal", "randperm", "nn.functional.fractional_max_pool2d",
    "nn.functional.fractional_max_pool3d",
}
UNINITIALIZED = {"empty", "empty_like", "new_empty", "new_empty_strided", "empty_strided", "empty_permuted"}
# Ops returning indices of values: on an input with repeated values, torch does not
# define which of the equal elements' indices comes back. Their cases compare the
# values; the indices' shape and dtype only, when the input repeats a value.
TIES = {
    "topk", "sort", "argsort", "msort", "kthvalue", "mode", "max.reduction_with_dim", "min.reduction_with_dim",
    "argmax", "argmin", "median", "nanmedian", "cummax", "cummin", "sort.stable",
}


def op_name(op) -> str:
    return f"{op.name}.{op.variant_test_name}" if op.variant_test_name else op.name


@functools.cache
def op_database() -> dict:
    """name -> OpInfo. Imported lazily: the database takes seconds to build."""
    from torch.testing._internal.common_methods_invocations import op_db

    return {op_name(op): op for op in op_db}


def case_names(ops=None) -> list[str]:
    """Every case of the ops named (all of OpInfo's by default), in database order."""
    names = []
    for name, op in op_database().items():
        if ops is not None and name not in ops:
            continue
        for dtype_name, dtype in DTYPES.items():
            if dtype not in op.supported_dtypes("cpu"):
                continue
            count = len(_samples(name, dtype_name))
            names += [f"{name}:{dtype_name}:{i}" for i in range(min(count, SAMPLES_PER_DTYPE[dtype_name]))]
    return names


@functools.cache
def _samples(name: str, dtype_name: str) -> list:
    torch.manual_seed(0)
    op = op_database()[name]
    try:
        return list(op.sample_inputs("cpu", DTYPES[dtype_name]))[:SAMPLES_PER_DTYPE[dtype_name]]
    except Exception:  # an op whose sample generator needs what this machine lacks
        return []


INPUT = object()  # marks the leaves that are inputs (None is a constant like any other)


class OpModule(torch.nn.Module):
    """One call of `function`: tensor leaves of its arguments come in as inputs, in order."""

    def __init__(self, function, leaves, spec):
        super().__init__()
        self.function = function
        self.spec = spec
        self.constants = [INPUT if isinstance(leaf, torch.Tensor) else leaf for leaf in leaves]

    def forward(self, *tensors):
        given = iter(tensors)
        leaves = [next(given) if constant is INPUT else constant for constant in self.constants]
        args, kwargs = pytree.tree_unflatten(leaves, self.spec)
        return self.function(*args, **kwargs)


def build(case: str):
    """(module, inputs, kind) for a case name; kind is "values", "ties", "random" or "uninitialized"."""
    name, dtype_name, index = case.rsplit(":", 2)
    sample = _samples(name, dtype_name)[int(index)]
    op = op_database()[name]
    leaves, spec = pytree.tree_flatten(((sample.input, *sample.args), sample.kwargs))
    inputs = tuple(leaf.detach().clone() for leaf in leaves if isinstance(leaf, torch.Tensor))

    def call(*args, **kwargs):
        return op.op(*args, **kwargs)

    kind = "random" if name in RANDOM else "uninitialized" if name in UNINITIALIZED else "values"
    if name in TIES and inputs and inputs[0].numel() and inputs[0].unique().numel() < inputs[0].numel():
        kind = "ties"
    return OpModule(call, leaves, spec), inputs, kind
