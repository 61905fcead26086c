"""A float32 model computes in float32: no float64 leaks into its graph from torch-mlir's
decompositions. torch-mlir computes the variance (var, std, var_mean, and group_norm
through it) in float64, and aborts on instance_norm; mlc converts them itself, so they
run on vulkan-spirv, which refuses float64, and match eager on every target."""

import pytest
import torch
from conftest import Family, SideBySide, compile_and_compare

from mlc.driver.backends import targets

x3 = lambda: torch.randn(2, 8, 5)  # noqa: E731


class ConvThenGroupNorm(torch.nn.Module):
    """The issue tracker's case: GroupNorm after a Conv1d failed on vulkan-spirv."""

    def __init__(self):
        super().__init__()
        self.conv, self.norm = torch.nn.Conv1d(8, 16, 3), torch.nn.GroupNorm(4, 16)
        with torch.no_grad():
            self.norm.weight.uniform_(0.5, 1.5)
            self.norm.bias.uniform_(-0.5, 0.5)

    def forward(self, x):
        return self.norm(self.conv(x))


def instance_norm_with_running_stats():
    norm = torch.nn.InstanceNorm1d(4, track_running_stats=True).eval()
    norm.running_mean.uniform_(-1, 1)
    norm.running_var.uniform_(0.5, 2)
    return norm


def cases(target: str) -> Family:
    ops = Family(f"float32 on {target}", target=target)
    ops.case("var_dim", lambda x: torch.var(x, dim=1), x3)
    ops.case("var_biased_keepdim", lambda x: torch.var(x, dim=(0, 2), unbiased=False, keepdim=True), x3)
    ops.case("var_correction_2", lambda x: torch.var(x, dim=1, correction=2), x3)
    ops.case("var_all", lambda x: torch.var(x), x3)
    ops.case("std_correction_0", lambda x: torch.std(x, dim=-1, correction=0), x3)
    ops.case("std_keepdim", lambda x: torch.std(x, dim=-1, keepdim=True), x3)
    ops.case("std_all", lambda x: x.std(), x3)
    ops.case("var_mean", lambda x: torch.var_mean(x, dim=1)[0] * torch.var_mean(x, dim=1)[1], x3)
    ops.case("var_mean_keepdim", lambda x: torch.var_mean(x, dim=1, keepdim=True)[1], x3)
    ops.case("std_mean", lambda x: torch.std_mean(x, dim=0)[0], x3)
    ops.case("var_of_one_value_is_nan", lambda x: torch.var(x, dim=1), lambda: torch.randn(3, 1))
    ops.case("conv1d_then_group_norm", lambda m, x: m(x), lambda: torch.randn(2, 8, 32), module=ConvThenGroupNorm)
    ops.case("group_norm_2d", lambda m, x: m(x), lambda: torch.randn(3, 4, 5, 5), module=lambda: torch.nn.GroupNorm(2, 4))
    ops.case("instance_norm_2d", lambda m, x: m(x), lambda: torch.randn(2, 4, 5, 5),
             module=lambda: torch.nn.InstanceNorm2d(4, affine=True))
    ops.case("instance_norm_running_stats", lambda m, x: m(x), lambda: torch.randn(2, 4, 7),
             module=instance_norm_with_running_stats)
    return ops


CPU, VULKAN = cases("llvm-cpu"), cases("vulkan-spirv")


@pytest.mark.iree
@pytest.mark.parametrize("case", CPU.params())
def test_on_llvm_cpu(case):
    CPU.check(case)


@pytest.mark.iree
@pytest.mark.parametrize("case", VULKAN.params())
def test_on_vulkan(case):
    runs, why_not = targets.get("vulkan-spirv").can_run()  # probed here, not in every worker's collection
    if not runs:
        pytest.skip(f"vulkan-spirv does not run here: {why_not}")
    VULKAN.check(case)


@pytest.mark.iree
def test_the_graph_has_no_float64():
    made = [case.make() for case in CPU.cases]
    model = SideBySide([m for m, _ in made], [len(inputs) for _, inputs in made])
    compiled = compile_and_compare(model, *[x for _, inputs in made for x in inputs], opt_level=0)
    graph = compiled.ir("mlc")
    assert "xf64>" not in graph and "tensor<f64>" not in graph, graph


@pytest.mark.iree
def test_group_norm_at_a_dynamic_batch():
    """The batch stays dynamic through the regrouping reshapes ([?, 4, 5, 5] -> [?, 2, 50])."""
    torch.manual_seed(0)
    norm = torch.nn.GroupNorm(2, 4).eval()
    batch = torch.export.Dim("batch", min=2, max=16)
    compile_and_compare(norm, torch.randn(3, 4, 5, 5), dynamic_shapes=({0: batch},),
                        call_with=[(torch.randn(5, 4, 5, 5),), (torch.randn(2, 4, 5, 5),)])
