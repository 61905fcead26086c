"""precision="bf16": matmuls multiply in bfloat16 and sum in float32, within the stated
budget of f32 eager (README, Precision), with the weights stored in bf16.
precision="int8": matmuls by constant weights multiply int8 by int8 and sum in int32
(weights per column, activations per row at run time), within their own budget."""

import platform
import re
import subprocess
import sys
import types
from pathlib import Path

import architectures  # examples/architectures.py, on the path through conftest.py
import pytest
import torch

import mlc
import models  # examples/models.py, on the path through conftest.py
from mlc import pipelines
from mlc.driver.backends import cpu_instructions, targets
from mlc.passes.merge_sibling_matmuls import MergeSiblingMatmuls

# The budget: the relative error (L2 norm of the difference over the L2 norm of eager's
# f32 result) of each output. bf16 keeps 8 bits of mantissa (relative rounding 2^-9) per
# operand; sums in f32 average the roundings out, and measured errors are 0.3-0.6 %.
BF16_BUDGET = 2e-2
# int8 keeps 1/254 of each row's and column's largest magnitude per operand; measured
# errors are 1-2 % (PyTorch's quantize_dynamic: 2-3 % on the same models).
INT8_BUDGET = 5e-2


def relative_error(actual: torch.Tensor, expected: torch.Tensor) -> float:
    return float((actual.float() - expected).norm() / expected.norm())


# precision -> (budget, the pass and its statistic that counts the matmuls it changed)
BUDGETS = {
    "bf16": (BF16_BUDGET, "mlc-reduce-precision", "matmuls in bf16, accumulated in f32"),
    "int8": (INT8_BUDGET, "mlc-quantize-int8", "matmuls in int8"),
}


@pytest.mark.iree
def test_int8_merges_a_prompts_query_key_value_with_their_biases(monkeypatch):
    """mlc-merge-sibling-matmuls at int8 on a prompt's rows: each DistilBERT layer's q, k
    and v become one product, their biases one add that the plugin's epilogue takes, and
    the attention reads its slices in place. Each column is the same sum, so the result
    is the unmerged one's to the bit, in fewer dispatches."""
    model, inputs = architectures.FACTORIES["distilbert"]()
    merged = mlc.compile(model, inputs, precision="int8")
    layers = model.config.n_layers
    assert merged.report.pass_statistics("mlc-merge-sibling-matmuls") == {
        "matmuls merged": 3 * layers, "merged matmuls": layers, "bias adds merged": 3 * layers}
    monkeypatch.setattr(MergeSiblingMatmuls, "run", lambda self, module: None)
    separate = mlc.compile(model, inputs, precision="int8")
    assert merged.report["dispatches"] < separate.report["dispatches"]
    expected = architectures.first_tensor(separate(*inputs))
    torch.testing.assert_close(architectures.first_tensor(merged(*inputs)), expected, rtol=0, atol=0)


@pytest.mark.iree
@pytest.mark.parametrize("precision", list(BUDGETS))
@pytest.mark.parametrize("name", ["mlp", "transformer_block"])
def test_each_precision_stays_within_its_budget(name, precision):
    budget, pass_name, statistic = BUDGETS[precision]
    torch.manual_seed(0)
    model = models.FACTORIES[name]()
    inputs = tuple(torch.randn(shape) for shape in models.EXAMPLE_INPUTS[name])
    compiled = mlc.compile(model, inputs, precision=precision)
    with torch.no_grad():
        expected = model(*inputs)
    actual = compiled(*inputs)
    assert actual.dtype == torch.float32  # the model's type at its edges
    assert 0 < relative_error(actual, expected) < budget  # rounded, and within the budget
    assert compiled.report["precision"] == precision
    assert compiled.report.pass_statistic(pass_name, statistic) >= 2


@pytest.mark.iree
def test_int8_attention_multiplies_bf16():
    """At int8 every attention's products multiply bf16 (mlc-form-attention{bf16-products}),
    whose rounding is small beside the int8 rows before it: the result stays within
    int8's budget, and nothing is cast to bf16 outside the attention."""
    torch.manual_seed(0)
    model = models.FACTORIES["transformer_block"]()
    inputs = tuple(torch.randn(shape) for shape in models.EXAMPLE_INPUTS["transformer_block"])
    compiled = mlc.compile(model, inputs, precision="int8")
    graph = compiled.ir("mlc")
    assert graph.count("bf16_products = true") == compiled.report.pass_statistic("mlc-form-attention",
                                                                                 "attentions formed") >= 1
    assert "bf16_products = false" not in graph and "bf16>" not in graph
    with torch.no_grad():
        assert relative_error(compiled(*inputs), model(*inputs)) < INT8_BUDGET


@pytest.mark.iree
@pytest.mark.parametrize("precision, saved, element", [("bf16", 0.4, "bf16"), ("int8", 0.6, "xi8>")])
def test_narrow_weights_take_fewer_bytes(precision, saved, element):
    """bf16 weights take half of f32's bytes, int8 ones a quarter (plus a scale per column)."""
    torch.manual_seed(0)
    model, x = models.MLP(256, 512, 256).eval(), torch.randn(8, 256)
    f32 = mlc.compile(model, (x,))
    narrow = mlc.compile(model, (x,), precision=precision)
    weight_bytes = 4 * sum(p.numel() for p in model.parameters())
    assert len(f32.vmfb) - len(narrow.vmfb) > saved * weight_bytes
    assert element in narrow.ir("mlc") and element not in f32.ir("mlc")


@pytest.mark.iree
def test_int8_keeps_a_zero_row_and_a_zero_column():
    """A row of zeros has no scale of its own (max |x| = 0), nor has a column of zeros."""
    linear = torch.nn.Linear(16, 8, bias=False).eval()
    with torch.no_grad():
        linear.weight[3] = 0
    x = torch.randn(4, 16)
    x[1] = 0
    compiled = mlc.compile(linear, (x,), precision="int8")
    actual = compiled(x)
    assert torch.isfinite(actual).all()
    assert (actual[1] == 0).all() and (actual[:, 3] == 0).all()
    assert relative_error(actual, linear(x).detach()) < INT8_BUDGET


# precision -> the kernel its matmuls get where the CPU has it, and the /proc/cpuinfo flag for it
NARROW_KERNELS = {"bf16": (("AVX-512-BF16",), "avx512_bf16"), "int8": (("VNNI 8-bit", "VNNI 16-bit"), "avx512_vnni")}


def cpu_flags() -> set[str]:
    info = Path("/proc/cpuinfo")
    flags = re.search(r"^flags\s*:(.*)$", info.read_text(), re.M) if info.exists() else None
    return set(flags.group(1).split()) if flags else set()


@pytest.mark.iree
@pytest.mark.skipif(platform.machine() != "x86_64", reason="x86-64 instruction sets")
@pytest.mark.parametrize("precision", list(NARROW_KERNELS))
def test_a_cpu_without_the_instructions_computes_the_same(precision):
    """Compiled for x86-64-v3 (AVX2: no AVX-512, no BF16 or VNNI), the narrow matmuls take
    IREE's generic code, and the result stays within the budget; on a host that has the
    instructions, the host's executable uses them (read back from its code)."""
    kinds, flag = NARROW_KERNELS[precision]
    torch.manual_seed(0)
    model, x = models.MLP(256, 512, 256).eval(), torch.randn(8, 256)
    with torch.no_grad():
        expected = model(x)
    for cpu in ("x86-64-v3", "host"):
        compiled = mlc.compile(model, (x,), precision=precision,
                               target_options={"cpu": cpu, "matmul-library": False})
        assert 0 < relative_error(compiled(x), expected) < BUDGETS[precision][0]
        used = cpu_instructions.census(compiled.vmfb)
        if cpu == "x86-64-v3":
            assert sum(used[kind] for kind in kinds) == 0 and used["AVX-512 f32 FMA"] == 0
        elif flag in cpu_flags():
            assert sum(used[kind] for kind in kinds) > 0


def test_int8_needs_folded_weights():
    with pytest.raises(mlc.UserError, match=r"precision 'int8' quantizes constant weights, which pipeline O0 does not "
                                            r"fold: use -O1 or -O2"):
        mlc.compile(torch.nn.Linear(4, 4), (torch.randn(2, 4),), precision="int8", opt_level=0)


@pytest.mark.parametrize("precision", list(BUDGETS))
def test_mlir_cpu_takes_each_precision(precision):
    """mlc's own CPU path computes the narrow matmuls too (listed in its precisions)."""
    torch.manual_seed(0)
    model, x = models.MLP(64, 128, 16).eval(), torch.randn(8, 64)
    compiled = mlc.compile(model, (x,), precision=precision, target="mlir-cpu")
    with torch.no_grad():
        assert 0 < relative_error(compiled(x), model(x)) < BUDGETS[precision][0]


@pytest.mark.parametrize("precision", ["bf16", "int8"])
def test_vulkan_refuses_a_narrow_precision(precision):
    """vulkan-spirv gave int8 results off by 900x its output's norm, and IREE refused bf16
    ("failed to legalize operation 'vector.bitcast'"): the error names the targets where
    each narrow precision is checked against eager (cuda's: test_gpu_targets.py)."""
    with pytest.raises(mlc.UserError, match=rf"target 'vulkan-spirv' computes in f32 only, not precision "
                                            rf"'{precision}' \(which llvm-cpu, cuda, mlir-cpu take\)"):
        mlc.compile(torch.nn.Linear(4, 4), (torch.randn(2, 4),), precision=precision, target="vulkan-spirv")


def test_an_unknown_precision_is_an_error():
    with pytest.raises(mlc.UserError, match=r"precision must be one of f32, bf16, int8, got 'fp8'"):
        mlc.compile(torch.nn.Linear(4, 4), (torch.randn(2, 4),), precision="fp8")


def test_mlc_compile_takes_precision(tmp_path):
    model = tmp_path / "m.py"
    model.write_text("import torch\nclass Net(torch.nn.Linear):\n    def __init__(self):\n        super().__init__(8, 4)\n")
    done = subprocess.run([sys.executable, "-m", "mlc.driver.cli.mlc_compile", f"{model}:Net", "--input-shape", "2x8xf32",
                           "--precision", "bf16", "--emit", "mlc", "--quiet"], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    assert "tensor<8x4xbf16>" in done.stdout or "tensor<4x8xbf16>" in done.stdout
    refused = subprocess.run([sys.executable, "-m", "mlc.driver.cli.mlc_compile", f"{model}:Net", "--input-shape",
                              "2x8xf32", "--precision", "fp8"], capture_output=True, text=True)
    assert refused.returncode != 0 and "invalid choice: 'fp8'" in refused.stderr and "Traceback" not in refused.stderr


@pytest.mark.iree
def test_a_single_int8_row_is_one_op_only_where_the_library_runs_it():
    """On llvm-cpu with the matmul library, a single row at int8 is one
    mlc.quantized_matmul, which the library runs whole; with the library off, and on
    mlir-cpu, its steps stay graph ops. All within the budget."""
    from mlc.driver.backends import matmul_library

    if not (matmul_library.available()[0] and matmul_library.exact_int8_rows()):
        pytest.skip("the matmul library does not run int8 here")
    torch.manual_seed(0)
    model, x = models.MLP(64, 128, 16).eval(), torch.randn(1, 64)
    with torch.no_grad():
        expected = model(x)
    for options, whole in (({"target": "llvm-cpu"}, True),
                           ({"target": "llvm-cpu", "target_options": {"matmul-library": False}}, False),
                           ({"target": "mlir-cpu"}, False)):
        compiled = mlc.compile(model, (x,), precision="int8", **options)
        assert ("mlc.quantized_matmul" in compiled.ir("mlc")) == whole, options
        # counted as matmul work, which chooses IREE's runtime driver (one thread below 64 MFLOP)
        assert compiled.report["matmul flops"] == 2 * (64 * 128 + 128 * 16), options
        assert ("mlc.abs" in compiled.ir("mlc")) != whole, options
        assert 0 < relative_error(torch.as_tensor(compiled(x)), expected) < INT8_BUDGET


def test_each_target_gets_its_int8_options():
    """mlc-quantize-int8's options come from the target, in one element: weight-only on
    cuda (bf16 products on the tensor cores), whole rows where the CPU's library runs them,
    and all of them together on a target that asks for all."""
    def quantize(target):
        return [e for e in pipelines.get("O2").with_precision("int8").graph_passes(target) if "quantize-int8" in e]

    assert quantize(targets.bind("cuda")) == ["mlc-quantize-int8{weight-only=true}"]
    assert quantize(targets.bind("llvm-cpu", {"matmul-library": False})) == ["mlc-quantize-int8"]
    every = types.SimpleNamespace(whole_quantized_rows=True, whole_quantized_matrices=True, int8_weights_only=True,
                                  library_ops=False, runs_alone=(), left_outside=(), split_reductions_alone=False)
    assert quantize(every) == ["mlc-quantize-int8{whole-rows=true whole-matrices=true weight-only=true}"]

